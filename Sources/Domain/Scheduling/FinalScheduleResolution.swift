/// `FinalSchedule.resolve`'s work as a value that can stop between slices and go on later, so a
/// server can hand a long query back to its work pool's round robin every few milliseconds
/// (one tenant's year query never holds a thread from another tenant's work for long).
///
/// Each schedule is resolved in slices of its window: the first a day, each next one twice as
/// long, up to `maxSlice` (a week, or a 64th of a longer window); pieces a slice's edge cut are
/// joined again, so the shifts equal one resolution of the whole window. Past `limit` shifts of
/// a schedule its resolution stops (`truncated`). One `ResolutionBudget` covers every slice and
/// schedule, so slicing changes neither the answer nor what it may cost.
public struct FinalScheduleResolution: Sendable {
    public let from: UnixMillis
    public let to: UnixMillis
    public let employeeID: String?
    let limit: Int
    let maxSlice: UnixMillis
    private let schedules: [ScheduleDefinition]
    private var index = 0
    private var next: UnixMillis
    private var slice: UnixMillis = 86_400_000
    private var current: [ResolvedShift] = []
    private var all: [(scheduleID: String, shift: ResolvedShift)] = []
    private var truncated = false
    public private(set) var budget: ResolutionBudget

    public init(_ schedules: [ScheduleDefinition], from: UnixMillis, to: UnixMillis, employeeID: String? = nil,
                limit: Int = FinalSchedule.maxShifts, budget: ResolutionBudget = .standard) {
        let from = max(from, TimeRange.supported.lowerBound), to = min(to, TimeRange.supported.upperBound)
        (self.from, self.to, self.employeeID, self.limit, self.budget) = (from, to, employeeID, limit, budget)
        // A schedule that never names the person cannot put them on duty: not resolved at all.
        self.schedules = schedules.filter { schedule in employeeID.map(schedule.names) ?? true }
        let week: UnixMillis = 7 * 86_400_000
        maxSlice = max(week, to > from ? (to - from) / 64 : week)
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
            (a.shift.start, a.scheduleID, a.shift.employeeID, a.shift.id) < (b.shift.start, b.scheduleID, b.shift.employeeID, b.shift.id)
        }
        return (Array(shifts.prefix(FinalSchedule.maxShifts)), truncated || shifts.count > FinalSchedule.maxShifts)
    }

    /// One slice of the current schedule, or moving on to the next schedule.
    private mutating func step() throws(RosterError) {
        let schedule = schedules[index]
        guard next < to else { return finishSchedule(cut: false) }
        let end = next > to - slice ? to : next + slice
        let resolved: [ResolvedShift]
        do throws(ScheduleResolver.Problem) {
            resolved = try ScheduleResolver.resolve(schedule, from: next, to: end, budget: &budget)
        } catch {
            guard case .overBudget = error else {
                // An unknown zone resolves to nobody, as before slicing.
                (current, index, next, slice) = ([], index + 1, from, 86_400_000)
                return
            }
            throw .overBudget(error.description)
        }
        for shift in resolved where employeeID == nil || shift.employeeID == employeeID {
            // Join the piece the previous slice cut at `next` (same person and source).
            if shift.start == next, let joined = current.lastIndex(where: {
                $0.end == next && $0.employeeID == shift.employeeID && $0.source == shift.source
            }) {
                current[joined].end = shift.end
            } else {
                current.append(shift)
            }
        }
        next = end
        slice = min(maxSlice, slice * 2)
        if current.count > limit { return finishSchedule(cut: true) }
        if next >= to { finishSchedule(cut: false) }
    }

    private mutating func finishSchedule(cut: Bool) {
        current.sort { ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id) }
        if cut { current = Array(current.prefix(limit)) }
        truncated = truncated || cut
        let id = schedules[index].id
        all += current.map { (id, $0) }
        (current, index, next, slice) = ([], index + 1, from, 86_400_000)
    }
}
