import Synchronization

/// Whole weeks of resolved schedules, kept so that a window asked again (a year ahead from "now",
/// polled by a calendar, a dashboard or a script) costs a lookup for every week it covers whole.
///
/// A week is kept for one version of a tenant's state (`Version`): a change makes a new version,
/// and the tenant's older weeks are dropped when the first week of the new one is kept. Weeks lie
/// on a fixed grid (`FinalScheduleResolution.week`), so windows that start anywhere share them.
/// Each kept week remembers the budget units resolving it cost, and a lookup charges them again:
/// answers and refusals are exactly those of resolving (only the time differs).
///
/// Bounded: at most `maxShifts` stretches over every tenant (the oldest weeks go first), and no
/// week of more than a sixteenth of that is kept.
public final class ResolvedWeeks: Sendable {
    /// The version of a tenant's state the weeks were resolved from.
    public struct Version: Sendable, Hashable {
        public var tenant: String
        public var epoch: UInt64
        public var revision: UInt64

        public init(tenant: String, epoch: UInt64, revision: UInt64) {
            (self.tenant, self.epoch, self.revision) = (tenant, epoch, revision)
        }
    }

    /// One schedule's week, resolved, and what resolving it cost.
    public struct Week: Sendable {
        public var shifts: [ResolvedShift]
        public var units: Int
    }

    /// A cache seen from one version: what `FinalScheduleResolution` is given.
    public struct Scope: Sendable {
        let weeks: ResolvedWeeks
        let version: Version

        func week(schedule: String, start: UnixMillis) -> Week? {
            weeks.week(version, schedule: schedule, start: start)
        }
        func keep(_ week: Week, schedule: String, start: UnixMillis) {
            weeks.keep(week, version, schedule: schedule, start: start)
        }
    }

    private struct Key: Hashable {
        var schedule: String
        var start: UnixMillis
    }

    private struct Tenant {
        var version: Version
        var weeks: [Key: Week] = [:]
    }

    private struct State {
        var tenants: [String: Tenant] = [:]
        /// Kept weeks, oldest first; entries of dropped versions are skipped when reached.
        var order: [(version: Version, key: Key)] = []
        var orderStart = 0
        var shifts = 0
        var hits = 0

        mutating func drop(_ tenant: String) {
            shifts -= tenants.removeValue(forKey: tenant)?.weeks.values.reduce(0) { $0 + $1.shifts.count } ?? 0
        }

        /// Drops the oldest weeks until `needed` more stretches fit under `limit`.
        mutating func evict(toFit needed: Int, limit: Int) {
            while shifts + needed > limit, orderStart < order.count {
                let (version, key) = order[orderStart]
                orderStart += 1
                if tenants[version.tenant]?.version == version,
                    let week = tenants[version.tenant]?.weeks.removeValue(forKey: key)
                {
                    shifts -= week.shifts.count
                }
            }
            // The skipped entries are let go once they are most of the list.
            if orderStart > 1_024 && orderStart * 2 > order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
        }
    }

    public let maxShifts: Int
    private let state = Mutex(State())

    /// At about 150 bytes a stretch (an estimate), the default keeps some 15 MB at most.
    public init(maxShifts: Int = 100_000) {
        self.maxShifts = max(0, maxShifts)
    }

    /// The weeks as `version` sees them.
    public func scope(_ version: Version) -> Scope { Scope(weeks: self, version: version) }

    /// Stretches kept now, over every tenant.
    public var keptShifts: Int { state.withLock { $0.shifts } }

    /// Weeks answered from what was kept, since the start.
    public var hits: Int { state.withLock { $0.hits } }

    func week(_ version: Version, schedule: String, start: UnixMillis) -> Week? {
        state.withLock { state in
            guard let tenant = state.tenants[version.tenant], tenant.version == version else { return nil }
            guard let week = tenant.weeks[Key(schedule: schedule, start: start)] else { return nil }
            state.hits += 1
            return week
        }
    }

    func keep(_ week: Week, _ version: Version, schedule: String, start: UnixMillis) {
        guard week.shifts.count <= maxShifts / 16 else { return }
        state.withLock { state in
            if let tenant = state.tenants[version.tenant], tenant.version != version {
                // An older view's answer (a change landed meanwhile) is not kept over the newer one.
                guard version.epoch != tenant.version.epoch || version.revision > tenant.version.revision else {
                    return
                }
                state.drop(version.tenant)
            }
            let key = Key(schedule: schedule, start: start)
            guard state.tenants[version.tenant]?.weeks[key] == nil else { return }
            state.evict(toFit: week.shifts.count, limit: maxShifts)
            state.tenants[version.tenant, default: Tenant(version: version)].weeks[key] = week
            state.order.append((version, key))
            state.shifts += week.shifts.count
        }
    }
}
