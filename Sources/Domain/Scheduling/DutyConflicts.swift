/// A stretch of the final schedule whose person has time off then, and who could cover it.
public struct DutyConflict: Sendable, Hashable {
    /// Stable: the time off's id, then a hash of the schedule, the person and the source, so the
    /// same conflict has the same id in every answer and window (`DutyConflicts.id`).
    public var id: String
    public var scheduleID: String
    public var employeeID: String
    /// From the first to the last instant of the source's duty inside the time off (within the
    /// window asked). A `replace` override over it takes exactly that duty.
    public var start: UnixMillis
    public var end: UnixMillis
    public var timeOffID: String
    public var source: ShiftSource
    /// Who could take it, best first (`RosterState.proposals`).
    public var proposals: [CoverProposal]

    public init(id: String, scheduleID: String, employeeID: String, start: UnixMillis, end: UnixMillis, timeOffID: String,
                source: ShiftSource, proposals: [CoverProposal] = []) {
        (self.id, self.scheduleID, self.employeeID, self.start, self.end) = (id, scheduleID, employeeID, start, end)
        (self.timeOffID, self.source, self.proposals) = (timeOffID, source, proposals)
    }
}

/// A person free to cover a conflict, with their duty around it.
public struct CoverProposal: Sendable, Hashable {
    public var employeeID: String
    /// Their covered time on every schedule over `DutyConflicts.fairnessWindow` either side of
    /// the conflict, from the plan (the hours report's `total`: overlaps count once).
    public var dutyAround: UnixMillis

    public init(employeeID: String, dutyAround: UnixMillis) { (self.employeeID, self.dutyAround) = (employeeID, dutyAround) }
}

public enum DutyConflicts {
    /// How far either side of a conflict a proposal's hours are counted: "the surrounding weeks".
    public static let fairnessWindow: UnixMillis = 14 * 86_400_000
    /// The most conflicts one answer lists, and proposals one conflict carries.
    public static let maxListed = 200
    public static let maxProposals = 10

    /// The conflict id of `source`'s duty of `employeeID` on `scheduleID` inside time off `timeOffID`.
    public static func id(timeOffID: String, scheduleID: String, employeeID: String, source: ShiftSource) -> String {
        timeOffID + "." + StableHash.hex("\(scheduleID)\u{1F}\(employeeID)\u{1F}\(source.key)").suffix(8)
    }

    /// The conflicts among `shifts` of one schedule: each source's duty of a person inside each
    /// of their time off, as one conflict from its first to its last instant. By start, then id.
    public static func find(scheduleID: String, shifts: [ResolvedShift], timeOff: [TimeOff]) -> [DutyConflict] {
        let byPerson = Dictionary(grouping: timeOff, by: \.employeeID)
        var found: [String: DutyConflict] = [:]
        for shift in shifts {
            for entry in byPerson[shift.employeeID] ?? [] where entry.start < shift.end && shift.start < entry.end {
                let (start, end) = (max(entry.start, shift.start), min(entry.end, shift.end))
                let id = id(timeOffID: entry.id, scheduleID: scheduleID, employeeID: shift.employeeID, source: shift.source)
                if var known = found[id] {
                    (known.start, known.end) = (min(known.start, start), max(known.end, end))
                    found[id] = known
                } else {
                    found[id] = DutyConflict(id: id, scheduleID: scheduleID, employeeID: shift.employeeID, start: start, end: end,
                                             timeOffID: entry.id, source: shift.source)
                }
            }
        }
        return found.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }
}

extension RosterState {
    /// The conflicts of a final schedule answer (`finalSchedule`), each with its proposals.
    /// Server and offline client call this with the same shifts, so they give the same list.
    public func conflicts(in shifts: [(scheduleID: String, shift: ResolvedShift)]) -> [DutyConflict] {
        guard !timeOff.isEmpty else { return [] }
        let bySchedule = Dictionary(grouping: shifts, by: \.scheduleID)
        var found: [DutyConflict] = []
        for (scheduleID, own) in bySchedule {
            let people = Set(own.map(\.shift.employeeID))
            guard let first = own.map(\.shift.start).min(), let last = own.map(\.shift.end).max() else { continue }
            found += DutyConflicts.find(scheduleID: scheduleID, shifts: own.map(\.shift), timeOff: timeOff(from: first, to: last, of: people))
        }
        found.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        found = Array(found.prefix(DutyConflicts.maxListed))
        var budget = ResolutionBudget.standard
        for index in found.indices { found[index].proposals = proposals(for: found[index], budget: &budget) }
        return found
    }

    /// Who could cover `conflict`: everyone its schedule names (rotation slots, overrides, one-off
    /// and temporary shifts) except its person, who has no time off and is not on duty on that
    /// schedule at any instant of it; fewest duty hours around it first, then by name. Empty when
    /// the budget runs out (the answer never guesses).
    public func proposals(for conflict: DutyConflict, budget: inout ResolutionBudget) -> [CoverProposal] {
        let window = (conflict.start - DutyConflicts.fairnessWindow)..<(conflict.end + DutyConflicts.fairnessWindow)
        guard let schedule = definition(of: conflict.scheduleID, from: window.lowerBound, to: window.upperBound) else { return [] }
        var candidates = schedule.mentionedEmployees.union(schedule.shifts.map(\.employeeID))
        candidates.remove(conflict.employeeID)
        candidates = candidates.filter { employees[$0] != nil && timeOff(from: conflict.start, to: conflict.end, of: [$0]).isEmpty }
        do throws(ScheduleResolver.Problem) {
            let busy = try ScheduleResolver.resolve(schedule, from: conflict.start, to: conflict.end, budget: &budget)
            candidates.subtract(busy.map(\.employeeID))
            guard !candidates.isEmpty else { return [] }
            var duty: [String: [(UnixMillis, UnixMillis)]] = [:]
            for other in schedules.values where !other.mentionedEmployees.isDisjoint(with: candidates) || shifts.holdsShifts(schedule: other.id) {
                guard let definition = definition(of: other.id, from: window.lowerBound, to: window.upperBound) else { continue }
                for shift in try ScheduleResolver.resolve(definition, from: window.lowerBound, to: window.upperBound, budget: &budget)
                    where candidates.contains(shift.employeeID)
                {
                    duty[shift.employeeID, default: []].append((shift.start, shift.end))
                }
            }
            return candidates.map { CoverProposal(employeeID: $0, dutyAround: IntervalUnion.length(IntervalUnion.of(duty[$0] ?? []))) }
                .sorted { a, b in
                    if a.dutyAround != b.dutyAround { return a.dutyAround < b.dutyAround }
                    guard let ea = employees[a.employeeID], let eb = employees[b.employeeID] else { return a.employeeID < b.employeeID }
                    return Employee.displayOrder(ea, eb)
                }
                .prefix(DutyConflicts.maxProposals).map { $0 }
        } catch {
            return []
        }
    }

    /// The conflict with this id as it stands at `now` (from now on: the past is not covered
    /// again), found from the time off its id names; nil when there is no such conflict now.
    public func conflict(id: String, now: UnixMillis) -> DutyConflict? {
        guard let dot = id.lastIndex(of: "."), let entry = timeOff[String(id[..<dot])], entry.end > now else { return nil }
        let from = max(entry.start, now)
        for schedule in schedules.values where schedule.names(entry.employeeID) || shifts.holdsShifts(schedule: schedule.id) {
            guard let definition = definition(of: schedule.id, from: from, to: entry.end),
                  let shifts = try? ScheduleResolver.resolve(definition, from: from, to: entry.end) else { continue }
            if var found = DutyConflicts.find(scheduleID: schedule.id, shifts: shifts, timeOff: [entry]).first(where: { $0.id == id }) {
                var budget = ResolutionBudget.standard
                found.proposals = proposals(for: found, budget: &budget)
                return found
            }
        }
        return nil
    }
}
