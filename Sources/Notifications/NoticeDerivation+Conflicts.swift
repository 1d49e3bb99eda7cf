import RosterDomain
import RosterServerCore
import RosterStore

/// `coverage.conflict`: someone on duty during their time off, with who could cover
/// (docs/TIME-OFF.md). Sent the moment a change makes the conflict, when it is within
/// `conflictHorizon`; one further ahead is planned for when it comes within it.
extension NoticeDerivation {
    /// How far ahead a change looks for conflicts it made.
    static let conflictHorizon: UnixMillis = 90 * 86_400_000

    /// The conflicts a change made within the horizon on `schedules`: those it touched and those
    /// naming someone whose time off it changed (`RosterState.schedulesNamingTimeOff`).
    func conflictsAfterChange(
        previous: RosterState, current: RosterState, schedules: Set<String>, revision: UInt64,
        now: UnixMillis
    ) -> [NotificationEvent] {
        let window = now..<(now + Self.conflictHorizon)
        let known = Set(conflicts(in: previous, schedules: schedules, window: window).map(\.id))
        return conflicts(in: current, schedules: schedules, window: window).filter { !known.contains($0.id) }
            .map { coverageConflict($0, state: current, revision: revision, due: now, planned: false) }
    }

    /// The conflicts starting in [from, to) + horizon, each due when it comes within the horizon.
    func plannedConflicts(
        state: RosterState, revision: UInt64, from: UnixMillis, to: UnixMillis, schedules: Set<String>?
    ) -> [NotificationEvent] {
        let ids = Set(state.schedules.keys.filter { schedules?.contains($0) ?? true })
        let window = (from + Self.conflictHorizon)..<(to + Self.conflictHorizon)
        return conflicts(in: state, schedules: ids, window: window).filter { window.contains($0.start) }
            .map {
                coverageConflict(
                    $0, state: state, revision: revision, due: $0.start - Self.conflictHorizon, planned: true)
            }
    }

    /// The conflicts of `schedules` in `window`, resolved only where someone has time off.
    private func conflicts(in state: RosterState, schedules: Set<String>, window: Range<UnixMillis>) -> [DutyConflict] {
        let away = state.timeOff(from: window.lowerBound, to: window.upperBound)
        guard !away.isEmpty else { return [] }
        var found: [(scheduleID: String, shift: ResolvedShift)] = []
        for id in schedules.sorted() {
            for entry in away {
                guard
                    let definition = state.definition(
                        of: id, from: max(entry.start, window.lowerBound), to: min(entry.end, window.upperBound)),
                    definition.names(entry.employeeID) || !definition.shifts.isEmpty,
                    let shifts = try? ScheduleResolver.resolve(
                        definition, from: max(entry.start, window.lowerBound),
                        to: min(entry.end, window.upperBound))
                else { continue }
                found += shifts.filter { $0.employeeID == entry.employeeID }.map { (id, $0) }
            }
        }
        return state.conflicts(in: found)
    }

    private func coverageConflict(
        _ conflict: DutyConflict, state: RosterState, revision: UInt64, due: UnixMillis,
        planned: Bool
    ) -> NotificationEvent {
        let schedule = state.schedules[conflict.scheduleID]
        let data = NotificationPayload.CoverageConflict(
            conflict: conflict.id,
            schedule: schedule.map(NotificationPayload.ScheduleRef.init)
                ?? .init(id: conflict.scheduleID, name: conflict.scheduleID),
            person: .init(conflict.employeeID, in: state),
            start: Timestamp.iso8601(conflict.start), startMs: conflict.start, end: Timestamp.iso8601(conflict.end),
            endMs: conflict.end,
            timeOff: .init(id: conflict.timeOffID, reason: state.timeOff[conflict.timeOffID]?.reason ?? ""),
            proposals: conflict.proposals.map {
                .init(person: .init($0.employeeID, in: state), dutyAroundHours: Double($0.dutyAround) / 3_600_000)
            },
            take: "roster-client admin override add --suggested \(conflict.id)")
        return NotificationEvent(
            type: .coverageConflict, tenantID: tenantID, key: "conflict:\(conflict.id)", revision: revision,
            about: conflict.start, due: due, planned: planned, scheduleIDs: [conflict.scheduleID],
            people: [conflict.employeeID] + conflict.proposals.map(\.employeeID), data: data)
    }
}

extension NotificationPayload {
    struct CoverageConflict: Codable {
        struct TimeOffRef: Codable { var id: String; var reason: String }
        struct Proposal: Codable {
            var person: Person
            var dutyAroundHours: Double
            enum CodingKeys: String, CodingKey {
                case person
                case dutyAroundHours = "duty_around_hours"
            }
        }
        var conflict: String
        var schedule: ScheduleRef
        var person: Person
        var start: String
        var startMs: Int64
        var end: String
        var endMs: Int64
        var timeOff: TimeOffRef
        /// Best first: free then, fewest hours 14 days either side.
        var proposals: [Proposal]
        /// The command that gives the conflict to the first proposal.
        var take: String

        enum CodingKeys: String, CodingKey {
            case conflict, schedule, person, start, end, proposals, take
            case startMs = "start_ms"
            case endMs = "end_ms"
            case timeOff = "time_off"
        }
    }
}
