import Foundation
import Observation
import RosterClient
import RosterDomain

/// A moment when the set of people on duty changes.
public struct Handoff: Sendable, Hashable {
    public var at: UnixMillis
    /// On duty just before `at`, and from `at` on (either may be empty: a gap).
    public var from: [Employee]
    public var to: [Employee]
}

/// One line of the final schedule: who is on duty over an interval, and why.
public struct ScheduleEntry: Sendable, Hashable {
    public var employee: Employee?
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    /// What put them there; "shift" until schedules have rotations and overrides.
    public var source: String
}

/// The default schedule's timeline: its next handoffs and its final schedule over a window, from
/// the screen model's roster (the server's answer while live, the cache offline).
@MainActor @Observable
public final class ScheduleModel {
    private let screen: RosterScreenModel

    public init(screen: RosterScreenModel) { self.screen = screen }

    /// The default schedule's name, as every view calls it ("Default" unless renamed).
    public var name: String {
        screen.roster?.state.schedules[ScheduleDefinition.defaultID]?.name ?? ScheduleDefinition.makeDefault().name
    }

    /// The next `limit` handoffs after `now`, in time order.
    public func handoffs(after now: UnixMillis, limit: Int = 10) -> [Handoff] {
        guard let roster = screen.roster else { return [] }
        guard let engine = roster.state.onDutyIndex(around: now) else { return [] }
        let employees = roster.state.employees
        func people(_ shifts: [Shift]) -> [Employee] { shifts.compactMap { employees[$0.employeeID] } }
        var result: [Handoff] = []
        var lookup = engine.lookup(at: now)
        while result.count < limit, let until = lookup.until {
            let next = engine.lookup(at: until)
            result.append(Handoff(at: until, from: people(lookup.current), to: people(next.current)))
            lookup = next
        }
        return result
    }

    /// Every shift overlapping [from, to), clipped to the window, by start then name.
    public func finalSchedule(from: UnixMillis, to: UnixMillis) -> [ScheduleEntry] {
        guard let roster = screen.roster, from < to else { return [] }
        return roster.state.shifts(from: from, to: to, employeeID: nil).map { shift in
            ScheduleEntry(
                employee: roster.state.employees[shift.employeeID], employeeID: shift.employeeID,
                start: max(shift.start, from), end: min(shift.end, to), source: "shift")
        }
    }
}
