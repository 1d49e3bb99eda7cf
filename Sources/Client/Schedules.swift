import Foundation
import RosterDomain
import RosterProtocol

/// One stretch of the final schedule, from the server or resolved offline from the cache by the
/// same resolver: the two agree at every instant.
/// A window of the final schedule: its stretches and whether more exist past the cap
/// (`FinalSchedule.maxShifts`). A cut answer is never shown as if it were whole.
public struct FinalScheduleAnswer: Sendable, Hashable {
    public var shifts: [FinalShift]
    /// More stretches start before the window's end than the answer holds.
    public var truncated: Bool
    /// Stretches whose person has time off, with who could cover them (`DutyConflict`).
    public var conflicts: [DutyConflict]
    /// The full names of the people `conflicts` names, by id.
    public var names: [String: String]

    public init(shifts: [FinalShift], truncated: Bool, conflicts: [DutyConflict] = [], names: [String: String] = [:]) {
        (self.shifts, self.truncated, self.conflicts, self.names) = (shifts, truncated, conflicts, names)
    }
}

public struct FinalShift: Sendable, Hashable {
    public var id: String
    public var scheduleID: String
    public var scheduleName: String
    public var employeeID: String
    /// nil when the employee is not in the directory (never for a consistent tenant).
    public var employee: Employee?
    public var start: UnixMillis
    public var end: UnixMillis
    public var source: ShiftSource
    /// An override's self-service source: "request:ID" (a cover request taken) or
    /// "take:EMPLOYEE_ID"; empty otherwise.
    public var overrideSource: String

    /// "layer 0, rotation rot_x, turn 3", "override ovr_x", "override ovr_x (request:req_y)".
    public var sourceText: String {
        overrideSource.isEmpty ? source.description : "\(source.description) (\(overrideSource))"
    }

    public init(
        id: String, scheduleID: String, scheduleName: String, employeeID: String, employee: Employee?,
        start: UnixMillis, end: UnixMillis, source: ShiftSource, overrideSource: String = ""
    ) {
        (self.id, self.scheduleID, self.scheduleName, self.employeeID) = (id, scheduleID, scheduleName, employeeID)
        (self.employee, self.start, self.end, self.source) = (employee, start, end, source)
        self.overrideSource = overrideSource
    }

    init(_ wire: Roster_V1_ResolvedShift, scheduleName: String) {
        let resolved = ResolvedShift(wire)
        self.init(
            id: wire.id, scheduleID: wire.scheduleID, scheduleName: scheduleName, employeeID: wire.employeeID,
            employee: wire.hasEmployee ? Employee(wire.employee) : nil, start: wire.startMs, end: wire.endMs,
            source: resolved.source, overrideSource: wire.overrideSource)
    }
}

extension FinalScheduleAnswer {
    /// The stretches of an answer over `WholeStretches.resolving(from:to:)` that meet [from, to),
    /// whole and joined per schedule and person, as views show a person's duty.
    public func whole(from: UnixMillis, to: UnixMillis) -> [WholeStretches.Stretch<FinalShift>] {
        WholeStretches.shown(
            shifts, from: from, to: to, group: { $0.scheduleID + "\u{1F}" + $0.employeeID },
            range: { $0.start..<$0.end })
    }
}

/// What a schedule edit did, or with a preview would do.
public struct ScheduleEditResult: Sendable {
    public var revision: UInt64
    /// The schedule's id.
    public var scheduleID: String
    /// true: a preview; nothing was committed.
    public var preview: Bool
    /// Who gains or loses duty in the next five weeks.
    public var deltas: [Delta]
    /// What the edit made, after the schedule's id: a rotation's or override's id, a cover
    /// request's id (and the override a taken one made).
    public var createdIDs: [String] = []

    public struct Delta: Sendable, Hashable {
        public var employeeName: String
        public var start: UnixMillis
        public var end: UnixMillis
        public var gained: Bool
    }
}

/// A query about a range of the final schedule.
public struct FinalScheduleQuery: Sendable, Hashable {
    /// Id or name; nil: every schedule.
    public var schedule: String?
    public var from: UnixMillis
    public var to: UnixMillis
    /// Id or full name; nil: everyone.
    public var employee: String?

    public init(schedule: String? = nil, from: UnixMillis, to: UnixMillis, employee: String? = nil) {
        (self.schedule, self.from, self.to, self.employee) = (schedule, from, to, employee)
    }
}

extension RosterClient {
    /// Every schedule's definition, the default one first.
    public func schedules() async throws -> [ScheduleDefinition] {
        guard case .schedules(let answer) = try await request(.listSchedules(.init())) else {
            throw RosterClientError.protocolViolation("expected Schedules")
        }
        return answer.schedules.map(ScheduleDefinition.init)
    }

    /// The final schedule over a window, with each shift's source.
    public func finalSchedule(_ query: FinalScheduleQuery) async throws -> FinalScheduleAnswer {
        let message = RosterMessage.getFinalSchedule(
            .with {
                $0.schedule = query.schedule ?? ""
                $0.fromMs = query.from
                $0.toMs = query.to
                $0.employee = query.employee ?? ""
            })
        guard case .finalSchedule(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected FinalSchedule")
        }
        var names: [String: String] = [:]
        for conflict in answer.conflicts {
            names[conflict.employeeID] = conflict.employeeName
            for proposal in conflict.proposals { names[proposal.employeeID] = proposal.employeeName }
        }
        return FinalScheduleAnswer(
            shifts: try await named(answer.shifts), truncated: answer.truncated,
            conflicts: answer.conflicts.map(DutyConflict.init), names: names)
    }

    /// When a person is next on duty, per schedule (within a year).
    public func nextOnDuty(employee: String, schedule: String? = nil, at instant: UnixMillis? = nil) async throws
        -> [FinalShift]
    {
        let message = RosterMessage.getNextOnDuty(
            .with {
                $0.employee = employee
                $0.schedule = schedule ?? ""
                if let instant { $0.atMs = instant }
            })
        guard case .finalSchedule(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected FinalSchedule")
        }
        return try await named(answer.shifts)
    }

    /// Sends one schedule edit (docs/PROTOCOL.md §14).
    public func editSchedule(_ edit: Roster_V1_EditScheduleRequest) async throws -> ScheduleEditResult {
        let result: Roster_V1_MutationResult
        if edit.preview {
            guard case .mutationResult(let answer) = try await request(.editSchedule(edit)) else {
                throw RosterClientError.protocolViolation("expected MutationResult")
            }
            result = answer
        } else {
            result = try await change(.editSchedule(edit))
        }
        return ScheduleEditResult(
            revision: result.revision, scheduleID: result.ids.first ?? "", preview: result.dryRun,
            deltas: result.preview.map {
                .init(employeeName: $0.employeeName, start: $0.startMs, end: $0.endMs, gained: $0.gained)
            }, createdIDs: Array(result.ids.dropFirst()))
    }

    private func named(_ shifts: [Roster_V1_ResolvedShift]) async throws -> [FinalShift] {
        let names = try await Dictionary(schedules().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        return shifts.map { FinalShift($0, scheduleName: names[$0.scheduleID] ?? $0.scheduleID) }
    }
}

extension CachedRoster {
    /// The final schedule from the cached definitions: the server's answer, offline.
    /// At most `FinalSchedule.maxShifts`, like the server's answer.
    public func finalSchedule(_ query: FinalScheduleQuery) throws(RosterError) -> FinalScheduleAnswer {
        let answer = try state.finalSchedule(
            schedule: query.schedule, employee: query.employee, from: query.from, to: query.to)
        let conflicts = state.conflicts(in: answer.shifts)
        var names: [String: String] = [:]
        for id in conflicts.flatMap({ [$0.employeeID] + $0.proposals.map(\.employeeID) }) {
            names[id] = state.employees[id]?.fullName ?? id
        }
        return FinalScheduleAnswer(
            shifts: named(answer.shifts), truncated: answer.truncated, conflicts: conflicts, names: names)
    }

    /// When a person is next on duty on each schedule (or one), as the server answers it.
    public func nextOnDuty(employee: String, schedule: String?, at instant: UnixMillis) throws(RosterError)
        -> [FinalShift]
    {
        named(try state.nextOnDuty(employee: employee, schedule: schedule, at: instant))
    }

    private func named(_ shifts: [(scheduleID: String, shift: ResolvedShift)]) -> [FinalShift] {
        let sources = state.overrideSources(on: shifts.map(\.scheduleID))
        return shifts.map { scheduleID, shift in
            // The override's self-service source, as the server fills it in.
            var overrideSource = ""
            if case .override(let id) = shift.source { overrideSource = sources[scheduleID]?[id] ?? "" }
            return FinalShift(
                id: shift.id, scheduleID: scheduleID, scheduleName: state.schedules[scheduleID]?.name ?? scheduleID,
                employeeID: shift.employeeID, employee: state.employees[shift.employeeID],
                start: shift.start, end: shift.end, source: shift.source, overrideSource: overrideSource)
        }
    }

    /// Who is on duty on one schedule (id or name; the default one when nil) at an instant.
    public func onDuty(schedule: String?, at instant: UnixMillis = .now) -> OnDutyStatus? {
        guard
            let definition = schedule.map({ state.schedule(idOrName: $0) })
                ?? state.schedules[ScheduleDefinition.defaultID],
            let lookup = state.onDuty(of: definition.id, at: instant)
        else { return nil }
        var status = OnDutyStatus(lookup, in: state, revision: revision)
        status.scheduleID = definition.id
        status.scheduleName = definition.name
        return status
    }
}
