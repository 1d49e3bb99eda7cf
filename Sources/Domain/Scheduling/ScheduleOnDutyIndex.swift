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
/// A schedule of one-off shifts only (every schedule before rotations existed) needs no
/// resolving: its index is the engine over the shifts themselves, valid forever, and answers
/// exactly as before schedules existed.
///
/// A class, not a struct: a tenant keeps one per schedule in a dictionary that every query's view
/// shares, and copying that dictionary on a change must cost one reference per schedule.
public final class ScheduleOnDutyIndex: Sendable {
    public let scheduleID: String
    /// The instants this index answers for; `lookup(at:)` outside it builds the right index.
    public let validFor: Range<UnixMillis>
    private let horizon: Range<UnixMillis>
    private let engine: OnDutyEngine
    private let definition: ScheduleDefinition
    private let employees: [String: Employee]
    /// The engine past the horizon, built the first time a lookup needs it.
    private let far = FarEngine()

    static let week: UnixMillis = 7 * 86_400_000
    /// How far past the horizon a lookup looks for `until` when nothing changes inside it.
    static let farLookahead: UnixMillis = 400 * 86_400_000

    public init(_ definition: ScheduleDefinition, employees: [String: Employee], around instant: UnixMillis) {
        scheduleID = definition.id
        self.definition = definition
        self.employees = employees
        guard definition.hasRules else {
            validFor = UnixMillis.min..<UnixMillis.max
            horizon = UnixMillis.min..<UnixMillis.max
            engine = OnDutyEngine(shifts: definition.shifts, employees: employees)
            return
        }
        let instant = min(max(instant, TimeRange.supported.lowerBound), TimeRange.supported.upperBound)
        let weekStart = Self.floor(instant, to: Self.week)
        validFor = weekStart..<(weekStart + Self.week)
        // A rotation that hands off within the hour would put hundreds of thousands of turns in
        // twelve weeks: its horizon is the week and a day either side.
        let fast = definition.layers.contains { $0.rotations.contains { $0.cadence.isSubHourly } }
        horizon = fast ? (weekStart - 86_400_000)..<(weekStart + Self.week + 86_400_000)
            : (weekStart - 5 * Self.week)..<(weekStart + 7 * Self.week)
        engine = OnDutyEngine(shifts: Self.shifts(of: definition, from: horizon.lowerBound, to: horizon.upperBound),
                              employees: employees)
    }

    /// Who is on duty at `instant`, until when, and who next. O(log n + k) inside `validFor`.
    public func lookup(at instant: UnixMillis) -> OnDutyLookup {
        // Rules are resolved for the years 1 to 9999 only; nobody is on duty outside them.
        guard horizon.upperBound == .max || TimeRange.supported.contains(instant) else {
            return OnDutyLookup(at: instant, current: [], until: nil, next: [])
        }
        guard validFor.contains(instant) else {
            return ScheduleOnDutyIndex(definition, employees: employees, around: instant).lookup(at: instant)
        }
        let lookup = engine.lookup(at: instant)
        // The horizon's end is not a handoff: when the people only change there (or not at all
        // inside the horizon), look further out once.
        guard horizon.upperBound != .max, (lookup.until ?? .max) >= horizon.upperBound else { return lookup }
        // One engine per index (the same for every instant of its week), built on first use.
        let farEnd = validFor.upperBound + Self.farLookahead
        let engine = far.engine {
            OnDutyEngine(shifts: Self.shifts(of: definition, from: horizon.lowerBound, to: farEnd), employees: employees)
        }
        var result = engine.lookup(at: instant)
        if let until = result.until, until >= farEnd {
            result.until = nil
            result.next = []
        }
        return result
    }

    /// When this index stops answering: the next instant a caller must build a new one for.
    public var rebuildAt: UnixMillis? { validFor.upperBound == .max ? nil : validFor.upperBound }

    /// The final schedule as shifts for the engine. A one-off shift that comes out whole keeps
    /// its id and role; everything else carries the resolved shift's stable id.
    static func shifts(of definition: ScheduleDefinition, from: UnixMillis, to: UnixMillis) -> [Shift] {
        let resolved = (try? ScheduleResolver.resolve(definition, from: from, to: to)) ?? []
        let originals = Dictionary(definition.shifts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return resolved.map { piece in
            var role = ""
            switch piece.source {
            case .shift(let id):
                if let original = originals[id] {
                    if original.start == piece.start && original.end == piece.end { return original }
                    role = original.role
                }
            case .override: role = "override"
            case .rotation: break
            }
            return Shift(id: piece.id, employeeID: piece.employeeID, start: piece.start, end: piece.end, role: role,
                         scheduleID: definition.id)
        }
    }

    static func floor(_ value: UnixMillis, to step: UnixMillis) -> UnixMillis {
        value >= 0 ? value / step * step : -((-value + step - 1) / step) * step
    }
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
    private var built: OnDutyEngine?

    func engine(_ build: () -> OnDutyEngine) -> OnDutyEngine {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let engine = build()
        built = engine
        return engine
    }
}

extension ScheduleOnDutyIndex {
    /// The first instant in [from, to) when nobody is on duty, or nil when someone always is.
    /// Walks the handoffs with one index per week it crosses (at most `maxSteps` handoffs; a
    /// schedule busier than that is taken as covered past the last one looked at).
    public func firstGap(from: UnixMillis, to: UnixMillis, maxSteps: Int = 50_000) -> UnixMillis? {
        var index = self
        var instant = from
        for _ in 0..<maxSteps where instant < to {
            if !index.validFor.contains(instant) {
                index = ScheduleOnDutyIndex(definition, employees: employees, around: instant)
            }
            let lookup = index.lookup(at: instant)
            if lookup.current.isEmpty { return instant }
            guard let until = lookup.until else { return nil }
            instant = until
        }
        return nil
    }
}
