import Foundation
import RosterDomain
import RosterProtocol

/// The JSON shapes of /v1 (docs/HTTP.md).
enum OnCallJSON {
    struct Person: Encodable {
        var id, name, email, phone: String
        var role: String?
        var shiftStart, shiftEnd: String

        init(_ wire: Roster_V1_OnDutyPerson) {
            id = wire.employee.id
            name = wire.employee.firstName + " " + wire.employee.lastName
            email = wire.employee.email
            phone = wire.employee.phone
            role = wire.shift.role.isEmpty ? nil : wire.shift.role
            shiftStart = TimeText.iso8601(wire.shift.startMs)
            shiftEnd = TimeText.iso8601(wire.shift.endMs)
        }
    }

    struct Schedule: Encodable {
        var id, name, timeZone: String
        var onDuty: [Person]
        /// When `onDuty` next changes; nil: not as planned now.
        var until: String?
        var next: [Person]

        init(_ wire: Roster_V1_OnDutyResponse, schedule: ScheduleDefinition) {
            id = schedule.id
            name = schedule.name
            timeZone = schedule.zone
            onDuty = wire.current.map(Person.init)
            until = wire.hasUntilMs ? TimeText.iso8601(wire.untilMs) : nil
            next = wire.next.map(Person.init)
        }
    }

    struct Now: Encodable {
        var tenant, at: String
        var revision: UInt64
        var epoch: String
        var schedules: [Schedule]
    }

    struct Shift: Encodable {
        var id, scheduleId, schedule, employeeId, employee, start, end, source, sourceId: String
        /// A self-service override's source ("request:ID", "take:EMPLOYEE_ID"); absent otherwise.
        var overrideSource: String?

        init(_ wire: Roster_V1_ResolvedShift, scheduleName: String) {
            id = wire.id
            scheduleId = wire.scheduleID
            schedule = scheduleName
            employeeId = wire.employeeID
            employee = wire.employee.firstName + " " + wire.employee.lastName
            start = TimeText.iso8601(wire.startMs)
            end = TimeText.iso8601(wire.endMs)
            switch wire.sourceKind {
            case .rotation: source = "rotation"
            case .shift: source = "shift"
            case .override: source = "override"
            case .temporary: source = "temporary"
            default: source = "unknown"
            }
            sourceId = wire.sourceID
            overrideSource = wire.overrideSource.isEmpty ? nil : wire.overrideSource
        }
    }

    struct Shifts: Encodable {
        var revision: UInt64
        var epoch: String
        var truncated: Bool
        var shifts: [Shift]
        /// nil (absent) when there is none.
        var conflicts: [Conflict]?
    }

    /// A `DutyConflict`, with the names `oncall --json` gives.
    struct Conflict: Encodable {
        struct Proposal: Encodable {
            var employeeId, employee: String
            var hoursAround: Double
        }
        var id, scheduleId, employeeId, employee, start, end, timeOffId: String
        var proposals: [Proposal]

        init(_ wire: Roster_V1_DutyConflict) {
            (id, scheduleId, employeeId, employee) = (wire.id, wire.scheduleID, wire.employeeID, wire.employeeName)
            (start, end, timeOffId) = (TimeText.iso8601(wire.startMs), TimeText.iso8601(wire.endMs), wire.timeOffID)
            proposals = wire.proposals.map {
                Proposal(
                    employeeId: $0.employeeID, employee: $0.employeeName,
                    hoursAround: Double($0.dutyAroundMs) / 3_600_000)
            }
        }
    }
}
