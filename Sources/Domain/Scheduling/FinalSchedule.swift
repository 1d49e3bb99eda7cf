/// The final schedule of several schedules at once, as the server answers it and a client
/// resolves it offline: the same code, so the same shifts in the same order.
public enum FinalSchedule {
    /// The most shifts one answer carries (a minutely rotation would otherwise fill a year with
    /// half a million).
    public static let maxShifts = 2_000

    /// Shifts of `schedules` over [from, to), of one employee if given, by start, then schedule
    /// id, employee id and id; at most `maxShifts` (`truncated` then says more exist).
    /// One `ResolutionBudget` covers every schedule of the answer; past it the answer is
    /// refused (`RosterError.overBudget`), never cut silently. For one employee, a schedule that
    /// never names them is not resolved at all: it cannot put them on duty (a person's duty over
    /// four weeks beside a minutely rotation costs nothing for it).
    public static func resolve(
        _ schedules: [ScheduleDefinition], from: UnixMillis, to: UnixMillis, employeeID: String? = nil
    )
        throws(RosterError) -> (shifts: [(scheduleID: String, shift: ResolvedShift)], truncated: Bool)
    {
        // All at once; a server that hands long work back to its pool between slices calls
        // `FinalScheduleResolution.advance(units:)` itself, with the same result.
        var resolution = FinalScheduleResolution(schedules, from: from, to: to, employeeID: employeeID)
        try resolution.advance()
        return resolution.answer
    }
}

/// When one person is next on duty on a schedule.
public enum NextDuty {
    /// Their first stretch on duty that has not ended at `from` (within 366 days), looking a day
    /// ahead first, then further, so a fast rotation is not resolved for a year. (A person in a
    /// fast rotation is found within the first day; one who is not in it is never looked for.)
    public static func first(of employeeID: String, on schedule: ScheduleDefinition, from: UnixMillis)
        throws(RosterError)
        -> ResolvedShift?
    {
        // Someone the schedule never names is never on it: no need to resolve a year of it.
        guard TimeRange.supported.contains(from), schedule.names(employeeID) else { return nil }
        let day: UnixMillis = 86_400_000
        var lower = from
        var budget = ResolutionBudget.standard
        do throws(ScheduleResolver.Problem) {
            for span in [1, 7, 35, 366].map({ UnixMillis($0) * day }) {
                let upper = from + span
                let shifts = try ScheduleResolver.resolve(schedule, from: lower, to: upper, budget: &budget)
                if let hit = shifts.first(where: { $0.employeeID == employeeID }) {
                    // Its whole length, not cut at the window searched.
                    let whole = try ScheduleResolver.resolve(
                        schedule, from: hit.start, to: hit.start + 366 * day, limit: 64,
                        budget: &budget)
                    return whole.shifts.first { $0.employeeID == employeeID && $0.source == hit.source } ?? hit
                }
                lower = upper
            }
        } catch {
            guard case .overBudget = error else { return nil }
            throw .overBudget(error.description)
        }
        return nil
    }
}

extension RosterState {
    /// The schedules a query names: one by id or name, or every schedule for nil or "".
    public func schedules(named name: String?) throws(RosterError) -> [ScheduleDefinition] {
        guard let name, !name.isEmpty else { return sortedSchedules }
        guard let found = schedule(idOrName: name) else {
            throw .notFound("schedule \"\(name)\"", suggestions: sortedSchedules.map(\.name))
        }
        return [found]
    }

    /// The final schedule over [from, to) of the schedules named (all for nil), of one employee
    /// (id or full name) or everyone: GetFinalSchedule on the server, `oncall` from the cache.
    public func finalSchedule(schedule: String?, employee: String?, from: UnixMillis, to: UnixMillis)
        throws(RosterError)
        -> (shifts: [(scheduleID: String, shift: ResolvedShift)], truncated: Bool)
    {
        var resolution = try finalScheduleResolution(schedule: schedule, employee: employee, from: from, to: to)
        try resolution.advance()
        return resolution.answer
    }

    /// `finalSchedule`'s work, not yet done: the names are checked, the definitions taken from
    /// this state; `advance` resolves it, all at once or in slices.
    public func finalScheduleResolution(
        schedule: String?, employee: String?, from: UnixMillis, to: UnixMillis,
        kept: ResolvedWeeks.Scope? = nil
    ) throws(RosterError) -> FinalScheduleResolution {
        var employeeID: String?
        if let employee, !employee.isEmpty {
            guard let found = self.employee(idOrName: employee) else {
                throw .notFound("employee \"\(employee)\"", suggestions: suggestions(for: employee))
            }
            employeeID = found.id
        }
        return FinalScheduleResolution(
            try schedules(named: schedule).compactMap { definition(of: $0.id, from: from, to: to) },
            from: from, to: to, employeeID: employeeID, kept: kept)
    }

    /// When a person is next on duty on each schedule named (all for nil), by start:
    /// GetNextOnDuty on the server, `next PERSON` from the cache. The person is named as
    /// GetEmployee (`show`) names them: an id, a full name, or a search that matches one person.
    public func nextOnDuty(employee: String, schedule: String?, at instant: UnixMillis) throws(RosterError)
        -> [(scheduleID: String, shift: ResolvedShift)]
    {
        guard let person = self.employee(matching: employee) else {
            throw .notFound("employee \"\(employee)\"", suggestions: suggestions(for: employee))
        }
        var found: [(scheduleID: String, shift: ResolvedShift)] = []
        for schedule in try schedules(named: schedule) {
            guard let definition = definition(of: schedule.id),
                let shift = try NextDuty.first(of: person.id, on: definition, from: instant)
            else { continue }
            found.append((schedule.id, shift))
        }
        return found.sorted { ($0.shift.start, $0.scheduleID) < ($1.shift.start, $1.scheduleID) }
    }
}
