import Foundation

/// Who is on duty on one schedule, from its definitions: the resolved shifts of a rolling horizon,
/// indexed by `OnDutyEngine` for O(log n) lookups.
///
/// The horizon is fixed by the calendar week (UTC) of the instant it is built around: from five
/// weeks before that week to seven weeks after its start. Every index built for an instant of
/// the same week is therefore the same, whoever builds it, so the server and a client resolving
/// offline give the same answer at every instant. Moving into the next week means building the
/// next index; that is not a revision, because the definitions did not change.
///
/// (A schedule with a rotation that hands off more often than hourly uses the week and a day
/// either side instead.)
///
/// A schedule of one-off shifts only needs no resolving: its index is the engine over the shifts
/// that overlap the horizon, taken from the tenant's `ShiftTable` by week, so a change to a
/// tenant with a million shifts indexes the few thousand near now. When nothing changes inside
/// the horizon it looks at every later shift once, so `until` is the next change however far
/// away, as it always was.
///
/// A class, not a struct: a tenant keeps one per schedule in a dictionary that every query's view
/// shares, and copying that dictionary on a change must cost one reference per schedule.
public final class ScheduleOnDutyIndex: Sendable {
    public let scheduleID: String
    /// The instants this index answers for; `lookup(at:)` outside it builds the right index.
    public let validFor: Range<UnixMillis>
    private let horizon: Range<UnixMillis>
    private let engine: OnDutyEngine
    /// The definition without its one-off shifts; those come from `source` for each window.
    private let definition: ScheduleDefinition
    private let source: ScheduleShiftSource
    private let employees: EmployeeDirectory
    /// The engine past the horizon, built the first time a lookup needs it.
    private let far = FarEngine()

    static let week: UnixMillis = 7 * 86_400_000
    /// How far past the horizon a lookup looks for `until` when nothing changes inside it (with
    /// rules; one-off shifts alone are looked at to the last).
    static let farLookahead: UnixMillis = 400 * 86_400_000

    /// An index over `definition` with its one-off shifts in `definition.shifts`.
    public convenience init(_ definition: ScheduleDefinition, employees: EmployeeDirectory, around instant: UnixMillis)
    {
        var rules = definition
        rules.shifts = []
        self.init(rules, source: ScheduleShiftSource(list: definition.shifts), employees: employees, around: instant)
    }

    /// An index over `definition` (whose `shifts` are ignored) with its one-off shifts in a
    /// tenant's table.
    public convenience init(
        _ definition: ScheduleDefinition, shifts: ShiftTable, employees: EmployeeDirectory,
        around instant: UnixMillis
    ) {
        var rules = definition
        rules.shifts = []
        self.init(
            rules, source: ScheduleShiftSource(table: shifts, scheduleID: definition.id), employees: employees,
            around: instant)
    }

    init(
        _ definition: ScheduleDefinition, source: ScheduleShiftSource, employees: EmployeeDirectory,
        around instant: UnixMillis
    ) {
        scheduleID = definition.id
        self.definition = definition
        self.source = source
        self.employees = employees
        let instant = min(max(instant, TimeRange.supported.lowerBound), TimeRange.supported.upperBound)
        let weekStart = Self.floor(instant, to: Self.week)
        validFor = weekStart..<(weekStart + Self.week)
        horizon = Self.horizon(of: definition, weekStart: weekStart)
        engine = OnDutyEngine(
            shifts: Self.shifts(of: definition, source: source, from: horizon.lowerBound, to: horizon.upperBound),
            employees: employees)
    }

    /// The instants an index of the week starting at `weekStart` resolves. A rotation that hands
    /// off within the hour would put hundreds of thousands of turns in twelve weeks: its horizon
    /// is the week and a day either side.
    private static func horizon(of definition: ScheduleDefinition, weekStart: UnixMillis) -> Range<UnixMillis> {
        definition.handsOffWithinTheHour
            ? (weekStart - 86_400_000)..<(weekStart + Self.week + 86_400_000)
            : (weekStart - 5 * Self.week)..<(weekStart + 7 * Self.week)
    }

    /// What the index around `instant` answers at `instant`, for one lookup (a one-shot `now`,
    /// offline or not). A schedule that hands off within the hour is first resolved two hours
    /// either side only: 240 turns of a minutely rotation instead of the horizon's 13,000. That
    /// settles the answer unless the next change is not inside those hours or a stretch in the
    /// answer is cut by them (the index's horizon would cut it elsewhere, or not at all); then the
    /// index is built.
    static func lookupOnce(
        _ rules: ScheduleDefinition, source: ScheduleShiftSource, employees: EmployeeDirectory,
        at instant: UnixMillis
    ) -> OnDutyLookup {
        shortLookup(rules, source: source, employees: employees, at: instant)
            ?? ScheduleOnDutyIndex(rules, source: source, employees: employees, around: instant).lookup(at: instant)
    }

    /// The lookup from two hours either side of `instant`, or nil when those hours do not settle it.
    static func shortLookup(
        _ rules: ScheduleDefinition, source: ScheduleShiftSource, employees: EmployeeDirectory,
        at instant: UnixMillis
    ) -> OnDutyLookup? {
        guard TimeRange.supported.contains(instant), rules.handsOffWithinTheHour else { return nil }
        let horizon = horizon(of: rules, weekStart: floor(instant, to: week))
        let hours: UnixMillis = 2 * 3_600_000
        let window = max(horizon.lowerBound, instant - hours)..<min(horizon.upperBound, instant + hours)
        let lookup = OnDutyEngine(
            shifts: shifts(of: rules, source: source, from: window.lowerBound, to: window.upperBound),
            employees: employees
        ).lookup(at: instant)
        func cutByWindow(_ shift: Shift) -> Bool {
            (shift.start == window.lowerBound && window.lowerBound != horizon.lowerBound)
                || (shift.end == window.upperBound && window.upperBound != horizon.upperBound)
        }
        guard let until = lookup.until, until < window.upperBound,
            !lookup.current.contains(where: cutByWindow), !lookup.next.contains(where: cutByWindow)
        else { return nil }
        return lookup
    }

    /// Who is on duty at `instant`, until when, and who next. O(log n + k) inside `validFor`.
    public func lookup(at instant: UnixMillis) -> OnDutyLookup {
        // Plans hold the years 1 to 9999 only; nobody is on duty outside them.
        guard TimeRange.supported.contains(instant) else {
            return OnDutyLookup(at: instant, current: [], until: nil, next: [])
        }
        guard validFor.contains(instant) else {
            return ScheduleOnDutyIndex(definition, source: source, employees: employees, around: instant).lookup(
                at: instant)
        }
        let lookup = engine.lookup(at: instant)
        // The horizon's end is not a handoff: when the people only change there (or not at all
        // inside the horizon), look further out once.
        guard (lookup.until ?? .max) >= horizon.upperBound else { return lookup }
        // One engine per index (the same for every instant of its week), built on first use.
        // Rules repeat forever, so they are resolved a year further; one-off shifts end, so all
        // the later ones are looked at and `until` is exact.
        let farEnd = definition.hasRules ? validFor.upperBound + Self.farLookahead : .max
        // Resolving a year further can exceed the budget (fast rotations under a slow top
        // layer): then `until` past the horizon is not known, and says so by being nil.
        guard
            let engine = far.engine({ () -> OnDutyEngine? in
                guard
                    let shifts = try? Self.resolvedShifts(
                        of: definition, source: source, from: horizon.lowerBound, to: farEnd)
                else {
                    return nil
                }
                return OnDutyEngine(shifts: shifts, employees: employees)
            })
        else {
            return OnDutyLookup(at: lookup.at, current: lookup.current, until: nil, next: [])
        }
        var result = engine.lookup(at: instant)
        if let until = result.until, until >= farEnd {
            result.until = nil
            result.next = []
        }
        return result
    }

    /// When this index stops answering: the next instant a caller must build a new one for.
    public var rebuildAt: UnixMillis? { validFor.upperBound }

    /// The final schedule as shifts for the engine: the one-off shifts overlapping the window as
    /// they are when there are no rules; otherwise resolved, where a one-off shift that comes out
    /// whole keeps its id and role and everything else carries the resolved shift's stable id.
    static func shifts(of rules: ScheduleDefinition, source: ScheduleShiftSource, from: UnixMillis, to: UnixMillis)
        -> [Shift]
    {
        // Definitions are checked when stored (`costViolations`) so that the horizon fits the
        // budget; an unknown zone resolves to nobody.
        (try? resolvedShifts(of: rules, source: source, from: from, to: to)) ?? []
    }

    static func resolvedShifts(
        of rules: ScheduleDefinition, source: ScheduleShiftSource, from: UnixMillis, to: UnixMillis
    )
        throws(ScheduleResolver.Problem) -> [Shift]
    {
        let oneOff = source.overlapping(from: from, to: to)
        guard rules.hasRules else { return oneOff }
        var definition = rules
        definition.shifts = oneOff
        let resolved = try ScheduleResolver.resolve(definition, from: from, to: to)
        let originals = Dictionary(oneOff.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return resolved.map { piece in
            var role = ""
            switch piece.source {
            case .shift(let id):
                if let original = originals[id] {
                    if original.start == piece.start && original.end == piece.end { return original }
                    role = original.role
                }
            case .override: role = "override"
            case .temporary: role = "temporary"
            case .rotation: break
            }
            return Shift(
                id: piece.id, employeeID: piece.employeeID, start: piece.start, end: piece.end, role: role,
                scheduleID: definition.id)
        }
    }

    static func floor(_ value: UnixMillis, to step: UnixMillis) -> UnixMillis {
        value >= 0 ? value / step * step : -((-value + step - 1) / step) * step
    }
}

extension ScheduleDefinition {
    /// Whether a rotation hands off more often than hourly (the index's horizon is shorter then).
    var handsOffWithinTheHour: Bool { layers.contains { $0.rotations.contains { $0.cadence.isSubHourly } } }
}

extension Cadence {
    var isSubHourly: Bool {
        switch self {
        case .minutes(let n): n < 60
        case .hours(let n): n < 1
        default: false
        }
    }
}

/// A lazily built engine shared by copies of one index. Immutable once built.
private final class FarEngine: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    /// nil: not built yet; .some(nil): it could not be (over budget).
    private var built: OnDutyEngine??

    func engine(_ build: () -> OnDutyEngine?) -> OnDutyEngine? {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let engine = build()
        built = .some(engine)
        return engine
    }
}

extension ScheduleOnDutyIndex {
    /// The first instant in [from, to) when nobody is on duty, or nil when someone always is.
    public func firstGap(from: UnixMillis, to: UnixMillis, maxSteps: Int = 50_000) -> UnixMillis? {
        var gap: UnixMillis?
        walk(from: from, to: to, maxSteps: maxSteps) { lookup in
            if lookup.current.isEmpty { gap = lookup.at }
            return gap == nil
        }
        return gap
    }

    /// The on-duty sets over [from, to): one lookup per stretch in which the set of people is
    /// constant, each covering [at, until ?? to). The first is at `from`.
    public func timeline(from: UnixMillis, to: UnixMillis, maxSteps: Int = 50_000) -> [OnDutyLookup] {
        var stretches: [OnDutyLookup] = []
        walk(from: from, to: to, maxSteps: maxSteps) {
            stretches.append($0); return true
        }
        return stretches
    }

    /// Walks the handoffs with one index per week it crosses (at most `maxSteps` handoffs; a
    /// schedule busier than that is taken as unchanged past the last one looked at), until
    /// `visit` returns false.
    private func walk(from: UnixMillis, to: UnixMillis, maxSteps: Int, _ visit: (OnDutyLookup) -> Bool) {
        var index = self
        var instant = from
        for _ in 0..<maxSteps where instant < to {
            if !index.validFor.contains(instant) {
                index = ScheduleOnDutyIndex(definition, source: source, employees: employees, around: instant)
            }
            let lookup = index.lookup(at: instant)
            guard visit(lookup), let until = lookup.until else { return }
            instant = until
        }
    }
}

/// Where an index finds a schedule's one-off shifts: the tenant's table, or a plain list (a
/// definition handed in whole).
struct ScheduleShiftSource: Sendable {
    private let table: ShiftTable?
    private let scheduleID: String
    private let list: [Shift]

    init(table: ShiftTable, scheduleID: String) {
        self.table = table
        self.scheduleID = scheduleID
        list = []
    }

    init(list: [Shift]) {
        table = nil
        scheduleID = ""
        self.list = list
    }

    func overlapping(from: UnixMillis, to: UnixMillis) -> [Shift] {
        if let table { return table.overlapping(schedule: scheduleID, from: from, to: to) }
        return list.filter { $0.start < to && $0.end > from }
    }
}
