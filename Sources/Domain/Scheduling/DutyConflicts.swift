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

    public init(
        id: String, scheduleID: String, employeeID: String, start: UnixMillis, end: UnixMillis, timeOffID: String,
        source: ShiftSource, proposals: [CoverProposal] = []
    ) {
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

    public init(employeeID: String, dutyAround: UnixMillis) {
        (self.employeeID, self.dutyAround) = (employeeID, dutyAround)
    }
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
                let id = id(
                    timeOffID: entry.id, scheduleID: scheduleID, employeeID: shift.employeeID, source: shift.source)
                if var known = found[id] {
                    (known.start, known.end) = (min(known.start, start), max(known.end, end))
                    found[id] = known
                } else {
                    found[id] = DutyConflict(
                        id: id, scheduleID: scheduleID, employeeID: shift.employeeID, start: start, end: end,
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
            found += DutyConflicts.find(
                scheduleID: scheduleID, shifts: own.map(\.shift), timeOff: timeOff(from: first, to: last, of: people))
        }
        found.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        return withProposals(Array(found.prefix(DutyConflicts.maxListed)))
    }

    /// `conflicts` with their proposals: who could cover each (everyone its schedule names except
    /// its person — rotation slots, overrides, one-off and temporary shifts — who has no time off
    /// and is not on duty on that schedule at any instant of it), fewest duty hours around it
    /// first, then by name.
    ///
    /// The hours come from resolving each schedule that names a candidate once per stretch of
    /// time the conflicts' surroundings cover (surroundings that overlap are joined), earliest
    /// first, from one resolution budget: conflicts whose surroundings the budget does not reach
    /// get no proposals (the answer never guesses), the earlier ones keep theirs.
    ///
    /// Each conflict is measured over the whole of its time off, not the part a window showed:
    /// its proposals, like its id and `--suggested`, are the same in every window.
    public func withProposals(_ shown: [DutyConflict]) -> [DutyConflict] {
        guard !shown.isEmpty else { return shown }
        let around = DutyConflicts.fairnessWindow
        var result = shown
        let conflicts = shown.map(whole)
        var candidates: [Int: Set<String>] = [:]
        for (index, conflict) in conflicts.enumerated() {
            guard let schedule = schedules[conflict.scheduleID] else { continue }
            var people = schedule.mentionedEmployees.union(
                shifts.overlapping(
                    schedule: conflict.scheduleID, from: conflict.start - around,
                    to: conflict.end + around
                ).map(\.employeeID))
            people.remove(conflict.employeeID)
            candidates[index] = people.filter {
                employees[$0] != nil && timeOff(from: conflict.start, to: conflict.end, of: [$0]).isEmpty
            }
        }
        let everyone = candidates.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let relevant = schedules.values.filter { schedule in
            !schedule.mentionedEmployees.isDisjoint(with: everyone) || shifts.holdsShifts(schedule: schedule.id)
                || conflicts.contains { $0.scheduleID == schedule.id }
        }.map(\.id).sorted()
        // The conflicts' surroundings, joined where they overlap: each is resolved once.
        let windows = IntervalUnion.of(conflicts.map { ($0.start - around, $0.end + around) })
        var budget = ResolutionBudget.standard
        for window in windows {
            var duty: [String: [(UnixMillis, UnixMillis)]] = [:]
            var bySchedule: [String: [ResolvedShift]] = [:]
            do throws(ScheduleResolver.Problem) {
                for id in relevant {
                    guard let definition = definition(of: id, from: window.start, to: window.end) else { continue }
                    let resolved = try ScheduleResolver.resolve(
                        definition, from: window.start, to: window.end, budget: &budget)
                    bySchedule[id] = resolved
                    for shift in resolved where everyone.contains(shift.employeeID) {
                        duty[shift.employeeID, default: []].append((shift.start, shift.end))
                    }
                }
            } catch {
                break  // this window and the later ones: no proposals
            }
            for (index, conflict) in conflicts.enumerated()
            where window.start <= conflict.start - around && conflict.end + around <= window.end {
                let busy = Set(
                    (bySchedule[conflict.scheduleID] ?? []).filter {
                        $0.start < conflict.end && conflict.start < $0.end
                    }.map(\.employeeID))
                let (low, high) = (conflict.start - around, conflict.end + around)
                result[index].proposals = (candidates[index] ?? []).subtracting(busy).map { person in
                    let clipped = (duty[person] ?? []).map { (max($0.0, low), min($0.1, high)) }
                    return CoverProposal(
                        employeeID: person, dutyAround: IntervalUnion.length(IntervalUnion.of(clipped)))
                }
                .sorted { a, b in
                    if a.dutyAround != b.dutyAround { return a.dutyAround < b.dutyAround }
                    guard let ea = employees[a.employeeID], let eb = employees[b.employeeID] else {
                        return a.employeeID < b.employeeID
                    }
                    return Employee.displayOrder(ea, eb)
                }
                .prefix(DutyConflicts.maxProposals).map { $0 }
            }
        }
        return result
    }

    /// `conflict` over the whole of its time off (a window may have shown part of it); as it is
    /// when that cannot be resolved within the budget.
    func whole(_ conflict: DutyConflict) -> DutyConflict {
        guard let entry = timeOff[conflict.timeOffID],
            let definition = definition(of: conflict.scheduleID, from: entry.start, to: entry.end),
            let shifts = try? ScheduleResolver.resolve(definition, from: entry.start, to: entry.end),
            let whole = DutyConflicts.find(scheduleID: conflict.scheduleID, shifts: shifts, timeOff: [entry]).first(
                where: { $0.id == conflict.id })
        else { return conflict }
        return whole
    }

    /// The conflict with this id as it stands at `now` (from now on: the past is not covered
    /// again), found from the time off its id names; nil when there is no such conflict now.
    public func conflict(id: String, now: UnixMillis) -> DutyConflict? {
        guard let dot = id.lastIndex(of: "."), let entry = timeOff[String(id[..<dot])], entry.end > now else {
            return nil
        }
        let from = max(entry.start, now)
        for schedule in schedules.values
        where schedule.names(entry.employeeID) || shifts.holdsShifts(schedule: schedule.id) {
            guard let definition = definition(of: schedule.id, from: from, to: entry.end),
                let shifts = try? ScheduleResolver.resolve(definition, from: from, to: entry.end)
            else { continue }
            if let found = DutyConflicts.find(scheduleID: schedule.id, shifts: shifts, timeOff: [entry]).first(where: {
                $0.id == id
            }) {
                return withProposals([found])[0]
            }
        }
        return nil
    }
}
