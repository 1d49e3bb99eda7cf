/// `FinalSchedule.resolve`'s work as a value that can stop between slices and go on later, so a
/// server can hand a long query back to its work pool's round robin every few milliseconds
/// (one tenant's year query never holds a thread from another tenant's work for long).
///
/// Each schedule is resolved a week at a time, on a fixed grid of weeks (`week`): the window's
/// first and last slices are the parts of their weeks inside it, every other slice a whole week.
/// Pieces a slice's edge cut are joined again, so the shifts equal one resolution of the whole
/// window. Past `limit` shifts of a schedule its resolution stops (`truncated`). One
/// `ResolutionBudget` covers every slice and schedule, so slicing changes neither the answer nor
/// what it may cost. Given `ResolvedWeeks`, a whole week resolved before for the same version is
/// looked up instead (its units charged again), and one resolved now is kept.
public struct FinalScheduleResolution: Sendable {
    public let from: UnixMillis
    public let to: UnixMillis
    public let employeeID: String?
    let limit: Int
    /// The grid's weeks start at multiples of this from the epoch (Thursdays, 00:00 UTC).
    public static let week: UnixMillis = 7 * 86_400_000
    private let schedules: [ScheduleDefinition]
    private let kept: ResolvedWeeks.Scope?
    private var index = 0
    private var next: UnixMillis
    private var current: [ResolvedShift] = []
    private var all: [(scheduleID: String, shift: ResolvedShift)] = []
    private var truncated = false
    public private(set) var budget: ResolutionBudget

    public init(
        _ schedules: [ScheduleDefinition], from: UnixMillis, to: UnixMillis, employeeID: String? = nil,
        limit: Int = FinalSchedule.maxShifts, budget: ResolutionBudget = .standard, kept: ResolvedWeeks.Scope? = nil
    ) {
        let from = max(from, TimeRange.supported.lowerBound), to = min(to, TimeRange.supported.upperBound)
        (self.from, self.to, self.employeeID, self.limit, self.budget, self.kept) = (
            from, to, employeeID, limit, budget, kept
        )
        // A schedule that never names the person cannot put them on duty: not resolved at all.
        self.schedules = schedules.filter { schedule in employeeID.map(schedule.names) ?? true }
        next = from
    }

    public var isDone: Bool { index >= schedules.count }

    /// Resolves slices until `units` more of the budget are spent or all is done; true when done.
    /// Throws `RosterError.overBudget` when the budget runs out (never a cut answer).
    @discardableResult
    public mutating func advance(units: Int = .max) throws(RosterError) -> Bool {
        let stop = budget.spent > Int.max - units ? Int.max : budget.spent + units
        while !isDone && budget.spent < stop { try step() }
        return isDone
    }

    /// The answer, once done: by start, then schedule id, employee id and id; at most
    /// `FinalSchedule.maxShifts`.
    public var answer: (shifts: [(scheduleID: String, shift: ResolvedShift)], truncated: Bool) {
        var shifts = all
        shifts.sort { a, b in
            (a.shift.start, a.scheduleID, a.shift.employeeID, a.shift.id) < (
                b.shift.start, b.scheduleID, b.shift.employeeID, b.shift.id
            )
        }
        return (Array(shifts.prefix(FinalSchedule.maxShifts)), truncated || shifts.count > FinalSchedule.maxShifts)
    }

    /// One slice of the current schedule, or moving on to the next schedule.
    private mutating func step() throws(RosterError) {
        let schedule = schedules[index]
        guard next < to else { return finishSchedule(cut: false) }
        let weekEnd = Self.weekStart(containing: next) + Self.week
        let end = min(to, weekEnd)
        let whole = end == weekEnd && end - next == Self.week
        let resolved: [ResolvedShift]
        do throws(ScheduleResolver.Problem) {
            if whole, let week = kept?.week(schedule: schedule.id, start: next) {
                try budget.spend(week.units)
                resolved = week.shifts
            } else {
                let before = budget.spent
                resolved = try ScheduleResolver.resolve(schedule, from: next, to: end, budget: &budget)
                if whole {
                    kept?.keep(
                        ResolvedWeeks.Week(shifts: resolved, units: budget.spent - before), schedule: schedule.id,
                        start: next)
                }
            }
        } catch {
            guard case .overBudget = error else {
                // An unknown zone resolves to nobody, as before slicing.
                (current, index, next) = ([], index + 1, from)
                return
            }
            throw .overBudget(error.description)
        }
        for shift in resolved where employeeID == nil || shift.employeeID == employeeID {
            // Join the piece the previous slice cut at `next` (same person and source).
            if shift.start == next,
                let joined = current.lastIndex(where: {
                    $0.end == next && $0.employeeID == shift.employeeID && $0.source == shift.source
                })
            {
                current[joined].end = shift.end
            } else {
                current.append(shift)
            }
        }
        next = end
        if current.count > limit { return finishSchedule(cut: true) }
        if next >= to { finishSchedule(cut: false) }
    }

    private mutating func finishSchedule(cut: Bool) {
        current.sort { ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id) }
        if cut { current = Array(current.prefix(limit)) }
        truncated = truncated || cut
        let id = schedules[index].id
        all += current.map { (id, $0) }
        (current, index, next) = ([], index + 1, from)
    }

    /// The start of the grid's week that holds `instant`.
    static func weekStart(containing instant: UnixMillis) -> UnixMillis {
        let remainder = instant % week
        return instant - (remainder < 0 ? remainder + week : remainder)
    }
}
