import NIOCore
import SwiftProtobuf

// One case per message type, each carrying its protobuf body. Mirrors the type table in
// docs/PROTOCOL.md and `MessageType`; keep the three in step.

/// A decoded frame body, typed by the frame's message type.
public enum RosterMessage: Sendable, Hashable {
    case hello(Roster_V1_Hello)
    case welcome(Roster_V1_Welcome)
    case error(Roster_V1_Error)
    case ping(Roster_V1_Ping)
    case pong(Roster_V1_Pong)
    case goingAway(Roster_V1_GoingAway)
    case getOnDuty(Roster_V1_GetOnDutyRequest)
    case onDuty(Roster_V1_OnDutyResponse)
    case listEmployees(Roster_V1_ListEmployeesRequest)
    case employees(Roster_V1_EmployeesResponse)
    case search(Roster_V1_SearchRequest)
    case getEmployee(Roster_V1_GetEmployeeRequest)
    case employee(Roster_V1_EmployeeResponse)
    case listShifts(Roster_V1_ListShiftsRequest)
    case shifts(Roster_V1_ShiftsResponse)
    case getSnapshot(Roster_V1_GetSnapshotRequest)
    case snapshot(Roster_V1_Snapshot)
    case subscribe(Roster_V1_SubscribeRequest)
    case subscribed(Roster_V1_Subscribed)
    case unsubscribe(Roster_V1_UnsubscribeRequest)
    case unsubscribed(Roster_V1_Unsubscribed)
    case synced(Roster_V1_Synced)
    case progress(Roster_V1_Progress)
    case onDutyChanged(Roster_V1_OnDutyChanged)
    case rosterChanged(Roster_V1_RosterChanged)
    case upsertEmployee(Roster_V1_UpsertEmployeeRequest)
    case deleteEmployee(Roster_V1_DeleteEmployeeRequest)
    case addShift(Roster_V1_AddShiftRequest)
    case deleteShift(Roster_V1_DeleteShiftRequest)
    case setMotd(Roster_V1_SetMotdRequest)
    case importData(Roster_V1_ImportRequest)
    case mutationResult(Roster_V1_MutationResult)
    case listSchedules(Roster_V1_ListSchedulesRequest)
    case schedules(Roster_V1_SchedulesResponse)
    case getFinalSchedule(Roster_V1_GetFinalScheduleRequest)
    case finalSchedule(Roster_V1_FinalScheduleResponse)
    case getNextOnDuty(Roster_V1_GetNextOnDutyRequest)
    case editSchedule(Roster_V1_EditScheduleRequest)
    case getAudit(Roster_V1_GetAuditRequest)
    case audit(Roster_V1_AuditResponse)
    case getCalendar(Roster_V1_GetCalendarRequest)
    case calendar(Roster_V1_CalendarResponse)
    case notificationAdmin(Roster_V1_NotificationAdminRequest)
    case notice(Roster_V1_Notice)
    case notificationAdminResult(Roster_V1_NotificationAdminResponse)
    case getReport(Roster_V1_GetReportRequest)
    case report(Roster_V1_ReportResponse)
    case applyDefinition(Roster_V1_ApplyDefinitionRequest)
    case definitionPlan(Roster_V1_DefinitionPlan)
    case getEscalation(Roster_V1_GetEscalationRequest)
    case escalation(Roster_V1_EscalationResponse)
    case escalationChanged(Roster_V1_EscalationChanged)
    case identityAdmin(Roster_V1_IdentityAdminRequest)
    case identityAdminResult(Roster_V1_IdentityAdminResponse)
    case personalTokens(Roster_V1_PersonalTokensRequest)
    case personalTokensResult(Roster_V1_PersonalTokensResponse)
    case push(Roster_V1_PushRequest)
    case pushResult(Roster_V1_PushResponse)

    /// The message type code this message travels under.
    public var type: MessageType {
        switch self {
        case .hello: return .hello
        case .welcome: return .welcome
        case .error: return .error
        case .ping: return .ping
        case .pong: return .pong
        case .goingAway: return .goingAway
        case .getOnDuty: return .getOnDuty
        case .onDuty: return .onDuty
        case .listEmployees: return .listEmployees
        case .employees: return .employees
        case .search: return .search
        case .getEmployee: return .getEmployee
        case .employee: return .employee
        case .listShifts: return .listShifts
        case .shifts: return .shifts
        case .getSnapshot: return .getSnapshot
        case .snapshot: return .snapshot
        case .subscribe: return .subscribe
        case .subscribed: return .subscribed
        case .unsubscribe: return .unsubscribe
        case .unsubscribed: return .unsubscribed
        case .synced: return .synced
        case .progress: return .progress
        case .onDutyChanged: return .onDutyChanged
        case .rosterChanged: return .rosterChanged
        case .upsertEmployee: return .upsertEmployee
        case .deleteEmployee: return .deleteEmployee
        case .addShift: return .addShift
        case .deleteShift: return .deleteShift
        case .setMotd: return .setMotd
        case .importData: return .importData
        case .mutationResult: return .mutationResult
        case .listSchedules: return .listSchedules
        case .schedules: return .schedules
        case .getFinalSchedule: return .getFinalSchedule
        case .finalSchedule: return .finalSchedule
        case .getNextOnDuty: return .getNextOnDuty
        case .editSchedule: return .editSchedule
        case .getAudit: return .getAudit
        case .audit: return .audit
        case .getCalendar: return .getCalendar
        case .calendar: return .calendar
        case .notificationAdmin: return .notificationAdmin
        case .notice: return .notice
        case .notificationAdminResult: return .notificationAdminResult
        case .getReport: return .getReport
        case .report: return .report
        case .applyDefinition: return .applyDefinition
        case .definitionPlan: return .definitionPlan
        case .getEscalation: return .getEscalation
        case .escalation: return .escalation
        case .identityAdmin: return .identityAdmin
        case .identityAdminResult: return .identityAdminResult
        case .personalTokens: return .personalTokens
        case .personalTokensResult: return .personalTokensResult
        case .push: return .push
        case .pushResult: return .pushResult
        case .escalationChanged: return .escalationChanged
        }
    }

    /// Decodes a frame's body.
    ///
    /// - Returns: nil for an unknown type flagged IGNORABLE, which the receiver drops.
    /// - Throws: `ProtocolError.unknownMessageType` for an unknown type without the flag, and
    ///   `.undecodableBody` when the body is not the message the type names.
    public static func decode(_ frame: Frame) throws(ProtocolError) -> RosterMessage? {
        guard let type = frame.type else {
            if frame.flags.contains(.ignorable) { return nil }
            throw .unknownMessageType(frame.rawType)
        }
        do {
            switch type {
            case .hello: return .hello(try Roster_V1_Hello(body: frame.body))
            case .welcome: return .welcome(try Roster_V1_Welcome(body: frame.body))
            case .error: return .error(try Roster_V1_Error(body: frame.body))
            case .ping: return .ping(try Roster_V1_Ping(body: frame.body))
            case .pong: return .pong(try Roster_V1_Pong(body: frame.body))
            case .goingAway: return .goingAway(try Roster_V1_GoingAway(body: frame.body))
            case .getOnDuty: return .getOnDuty(try Roster_V1_GetOnDutyRequest(body: frame.body))
            case .onDuty: return .onDuty(try Roster_V1_OnDutyResponse(body: frame.body))
            case .listEmployees: return .listEmployees(try Roster_V1_ListEmployeesRequest(body: frame.body))
            case .employees: return .employees(try Roster_V1_EmployeesResponse(body: frame.body))
            case .search: return .search(try Roster_V1_SearchRequest(body: frame.body))
            case .getEmployee: return .getEmployee(try Roster_V1_GetEmployeeRequest(body: frame.body))
            case .employee: return .employee(try Roster_V1_EmployeeResponse(body: frame.body))
            case .listShifts: return .listShifts(try Roster_V1_ListShiftsRequest(body: frame.body))
            case .shifts: return .shifts(try Roster_V1_ShiftsResponse(body: frame.body))
            case .getSnapshot: return .getSnapshot(try Roster_V1_GetSnapshotRequest(body: frame.body))
            case .snapshot: return .snapshot(try Roster_V1_Snapshot(body: frame.body))
            case .subscribe: return .subscribe(try Roster_V1_SubscribeRequest(body: frame.body))
            case .subscribed: return .subscribed(try Roster_V1_Subscribed(body: frame.body))
            case .unsubscribe: return .unsubscribe(try Roster_V1_UnsubscribeRequest(body: frame.body))
            case .unsubscribed: return .unsubscribed(try Roster_V1_Unsubscribed(body: frame.body))
            case .synced: return .synced(try Roster_V1_Synced(body: frame.body))
            case .progress: return .progress(try Roster_V1_Progress(body: frame.body))
            case .onDutyChanged: return .onDutyChanged(try Roster_V1_OnDutyChanged(body: frame.body))
            case .rosterChanged: return .rosterChanged(try Roster_V1_RosterChanged(body: frame.body))
            case .upsertEmployee: return .upsertEmployee(try Roster_V1_UpsertEmployeeRequest(body: frame.body))
            case .deleteEmployee: return .deleteEmployee(try Roster_V1_DeleteEmployeeRequest(body: frame.body))
            case .addShift: return .addShift(try Roster_V1_AddShiftRequest(body: frame.body))
            case .deleteShift: return .deleteShift(try Roster_V1_DeleteShiftRequest(body: frame.body))
            case .setMotd: return .setMotd(try Roster_V1_SetMotdRequest(body: frame.body))
            case .importData: return .importData(try Roster_V1_ImportRequest(body: frame.body))
            case .mutationResult: return .mutationResult(try Roster_V1_MutationResult(body: frame.body))
            case .listSchedules: return .listSchedules(try Roster_V1_ListSchedulesRequest(body: frame.body))
            case .schedules: return .schedules(try Roster_V1_SchedulesResponse(body: frame.body))
            case .getFinalSchedule: return .getFinalSchedule(try Roster_V1_GetFinalScheduleRequest(body: frame.body))
            case .finalSchedule: return .finalSchedule(try Roster_V1_FinalScheduleResponse(body: frame.body))
            case .getNextOnDuty: return .getNextOnDuty(try Roster_V1_GetNextOnDutyRequest(body: frame.body))
            case .editSchedule: return .editSchedule(try Roster_V1_EditScheduleRequest(body: frame.body))
            case .getAudit: return .getAudit(try Roster_V1_GetAuditRequest(body: frame.body))
            case .audit: return .audit(try Roster_V1_AuditResponse(body: frame.body))
            case .getCalendar: return .getCalendar(try Roster_V1_GetCalendarRequest(body: frame.body))
            case .calendar: return .calendar(try Roster_V1_CalendarResponse(body: frame.body))
            case .notificationAdmin: return .notificationAdmin(try Roster_V1_NotificationAdminRequest(body: frame.body))
            case .notice: return .notice(try Roster_V1_Notice(body: frame.body))
            case .notificationAdminResult:
                return .notificationAdminResult(try Roster_V1_NotificationAdminResponse(body: frame.body))
            case .getReport: return .getReport(try Roster_V1_GetReportRequest(body: frame.body))
            case .report: return .report(try Roster_V1_ReportResponse(body: frame.body))
            case .applyDefinition: return .applyDefinition(try Roster_V1_ApplyDefinitionRequest(body: frame.body))
            case .definitionPlan: return .definitionPlan(try Roster_V1_DefinitionPlan(body: frame.body))
            case .getEscalation: return .getEscalation(try Roster_V1_GetEscalationRequest(body: frame.body))
            case .escalation: return .escalation(try Roster_V1_EscalationResponse(body: frame.body))
            case .escalationChanged: return .escalationChanged(try Roster_V1_EscalationChanged(body: frame.body))
            case .identityAdmin: return .identityAdmin(try Roster_V1_IdentityAdminRequest(body: frame.body))
            case .identityAdminResult:
                return .identityAdminResult(try Roster_V1_IdentityAdminResponse(body: frame.body))
            case .personalTokens: return .personalTokens(try Roster_V1_PersonalTokensRequest(body: frame.body))
            case .personalTokensResult:
                return .personalTokensResult(try Roster_V1_PersonalTokensResponse(body: frame.body))
            case .push: return .push(try Roster_V1_PushRequest(body: frame.body))
            case .pushResult: return .pushResult(try Roster_V1_PushResponse(body: frame.body))
            }
        } catch {
            throw .undecodableBody(type, String(describing: error))
        }
    }

    /// The body as protobuf bytes.
    public func bodyBuffer() -> ByteBuffer {
        switch self {
        case .hello(let body): return body.bodyBuffer()
        case .welcome(let body): return body.bodyBuffer()
        case .error(let body): return body.bodyBuffer()
        case .ping(let body): return body.bodyBuffer()
        case .pong(let body): return body.bodyBuffer()
        case .goingAway(let body): return body.bodyBuffer()
        case .getOnDuty(let body): return body.bodyBuffer()
        case .onDuty(let body): return body.bodyBuffer()
        case .listEmployees(let body): return body.bodyBuffer()
        case .employees(let body): return body.bodyBuffer()
        case .search(let body): return body.bodyBuffer()
        case .getEmployee(let body): return body.bodyBuffer()
        case .employee(let body): return body.bodyBuffer()
        case .listShifts(let body): return body.bodyBuffer()
        case .shifts(let body): return body.bodyBuffer()
        case .getSnapshot(let body): return body.bodyBuffer()
        case .snapshot(let body): return body.bodyBuffer()
        case .subscribe(let body): return body.bodyBuffer()
        case .subscribed(let body): return body.bodyBuffer()
        case .unsubscribe(let body): return body.bodyBuffer()
        case .unsubscribed(let body): return body.bodyBuffer()
        case .synced(let body): return body.bodyBuffer()
        case .progress(let body): return body.bodyBuffer()
        case .onDutyChanged(let body): return body.bodyBuffer()
        case .rosterChanged(let body): return body.bodyBuffer()
        case .upsertEmployee(let body): return body.bodyBuffer()
        case .deleteEmployee(let body): return body.bodyBuffer()
        case .addShift(let body): return body.bodyBuffer()
        case .deleteShift(let body): return body.bodyBuffer()
        case .setMotd(let body): return body.bodyBuffer()
        case .importData(let body): return body.bodyBuffer()
        case .mutationResult(let body): return body.bodyBuffer()
        case .listSchedules(let body): return body.bodyBuffer()
        case .schedules(let body): return body.bodyBuffer()
        case .getFinalSchedule(let body): return body.bodyBuffer()
        case .finalSchedule(let body): return body.bodyBuffer()
        case .getNextOnDuty(let body): return body.bodyBuffer()
        case .editSchedule(let body): return body.bodyBuffer()
        case .getAudit(let body): return body.bodyBuffer()
        case .audit(let body): return body.bodyBuffer()
        case .getCalendar(let body): return body.bodyBuffer()
        case .calendar(let body): return body.bodyBuffer()
        case .notificationAdmin(let body): return body.bodyBuffer()
        case .notice(let body): return body.bodyBuffer()
        case .notificationAdminResult(let body): return body.bodyBuffer()
        case .getReport(let body): return body.bodyBuffer()
        case .report(let body): return body.bodyBuffer()
        case .applyDefinition(let body): return body.bodyBuffer()
        case .definitionPlan(let body): return body.bodyBuffer()
        case .getEscalation(let body): return body.bodyBuffer()
        case .escalation(let body): return body.bodyBuffer()
        case .escalationChanged(let body): return body.bodyBuffer()
        case .identityAdmin(let body): return body.bodyBuffer()
        case .identityAdminResult(let body): return body.bodyBuffer()
        case .personalTokens(let body): return body.bodyBuffer()
        case .personalTokensResult(let body): return body.bodyBuffer()
        case .push(let body): return body.bodyBuffer()
        case .pushResult(let body): return body.bodyBuffer()
        }
    }

    /// This message as a frame.
    public func frame(requestID: UInt32 = 0, flags: FrameFlags = []) -> Frame {
        Frame(type: type, flags: flags, requestID: requestID, body: bodyBuffer())
    }

    /// The protobuf body, for generic handling (logging, JSON rendering of test vectors).
    public var body: any SwiftProtobuf.Message {
        switch self {
        case .hello(let body): return body
        case .welcome(let body): return body
        case .error(let body): return body
        case .ping(let body): return body
        case .pong(let body): return body
        case .goingAway(let body): return body
        case .getOnDuty(let body): return body
        case .onDuty(let body): return body
        case .listEmployees(let body): return body
        case .employees(let body): return body
        case .search(let body): return body
        case .getEmployee(let body): return body
        case .employee(let body): return body
        case .listShifts(let body): return body
        case .shifts(let body): return body
        case .getSnapshot(let body): return body
        case .snapshot(let body): return body
        case .subscribe(let body): return body
        case .subscribed(let body): return body
        case .unsubscribe(let body): return body
        case .unsubscribed(let body): return body
        case .synced(let body): return body
        case .progress(let body): return body
        case .onDutyChanged(let body): return body
        case .rosterChanged(let body): return body
        case .upsertEmployee(let body): return body
        case .deleteEmployee(let body): return body
        case .addShift(let body): return body
        case .deleteShift(let body): return body
        case .setMotd(let body): return body
        case .importData(let body): return body
        case .mutationResult(let body): return body
        case .listSchedules(let body): return body
        case .schedules(let body): return body
        case .getFinalSchedule(let body): return body
        case .finalSchedule(let body): return body
        case .getNextOnDuty(let body): return body
        case .editSchedule(let body): return body
        case .getAudit(let body): return body
        case .audit(let body): return body
        case .getCalendar(let body): return body
        case .calendar(let body): return body
        case .notificationAdmin(let body): return body
        case .notice(let body): return body
        case .notificationAdminResult(let body): return body
        case .getReport(let body): return body
        case .report(let body): return body
        case .applyDefinition(let body): return body
        case .definitionPlan(let body): return body
        case .getEscalation(let body): return body
        case .escalation(let body): return body
        case .escalationChanged(let body): return body
        case .identityAdmin(let body): return body
        case .identityAdminResult(let body): return body
        case .personalTokens(let body): return body
        case .personalTokensResult(let body): return body
        case .push(let body): return body
        case .pushResult(let body): return body
        }
    }
}

extension RosterMessage {
    /// The same admin request with `reason` set (kept in the audit log); other messages unchanged.
    public func withReason(_ reason: String) -> RosterMessage {
        switch self {
        case .upsertEmployee(var body): body.reason = reason; return .upsertEmployee(body)
        case .deleteEmployee(var body): body.reason = reason; return .deleteEmployee(body)
        case .addShift(var body): body.reason = reason; return .addShift(body)
        case .deleteShift(var body): body.reason = reason; return .deleteShift(body)
        case .setMotd(var body): body.reason = reason; return .setMotd(body)
        case .importData(var body): body.reason = reason; return .importData(body)
        case .editSchedule(var body): body.reason = reason; return .editSchedule(body)
        case .applyDefinition(var body): body.reason = reason; return .applyDefinition(body)
        case .identityAdmin(var body): body.reason = reason; return .identityAdmin(body)
        default: return self
        }
    }
}
