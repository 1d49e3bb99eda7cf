/// The work one resolution may do, counted as it is done: a unit for every rotation turn looked
/// at and for every stretch made (a turn's on-duty stretch for one person, a one-off shift, an
/// override in the window). A resolution that would need more stops and throws
/// `ScheduleResolver.Problem.overBudget`, so that no request can make the server resolve a
/// year of minutely rotations; definitions are checked against it when they are stored
/// (`ScheduleDefinition.costViolations`), so the windows the server resolves by itself (the
/// on-duty index, notices, previews) always fit.
public struct ResolutionBudget: Sendable, Equatable {
    /// What one request (or one index build) may spend. About 0.3 s of one core in a release
    /// build (`roster-bench resolve --budget`; docs/BENCHMARKS.md, "Current figures").
    public static let perRequest = 400_000

    public let limit: Int
    public private(set) var spent = 0

    public init(limit: Int = Self.perRequest) { self.limit = limit }

    public static var standard: ResolutionBudget { ResolutionBudget() }

    /// Spends `units`; throws once more than the limit has been spent.
    mutating func spend(_ units: Int = 1) throws(ScheduleResolver.Problem) {
        spent += units
        if spent > limit { throw .overBudget(limit: limit) }
    }
}

/// Bounds on one schedule's definitions, checked wherever a definition is stored (an edit, an
/// import, a restore through the protocol): they keep the resolver's work per window bounded
/// whatever an admin sends.
public enum ScheduleLimits {
    /// Layers of one schedule.
    public static let maxLayers = 50
    /// Rotations of one schedule, every version counted (an edit adds a version).
    public static let maxRotations = 200
    /// Overrides of one schedule.
    public static let maxOverrides = 5_000
    /// People in one slot of a rotation.
    public static let maxSlotPeople = 100
    /// The window the store-time check sizes: the longest the server resolves by itself (a
    /// preview looks 35 days ahead; notices 28; the on-duty index 12 weeks of slow rotations, or
    /// 9 days of sub-hourly ones).
    public static let checkedWindow: UnixMillis = 35 * 86_400_000
}
