/// A tenant's one-off shifts: by id, and by schedule and week for "which shifts overlap this
/// window".
///
/// A server keeps the state of the last revision while it builds the next (queries read the old
/// one), so every change copies what it touches. One dictionary of a million shifts made each
/// small change copy a million entries; here a change copies the shard and the week bucket it
/// touches, and finding a schedule's shifts around an instant reads only the weeks asked about.
public struct ShiftTable: Sendable {
    /// Shards by a stable hash of the id, so the layout (and equality) does not depend on the
    /// process's hash seed.
    private var shards: [[String: Shift]]
    public private(set) var count = 0
    /// Schedule key → week number → ids of the shifts overlapping that week. A shift spanning
    /// more than `longWeeks` weeks is in `long` instead of in every week it covers.
    private var weeks: [String: [Int64: Set<String>]] = [:]
    private var long: [String: Set<String>] = [:]
    /// Employee → schedule key → how many of their shifts it holds, sharded like `shards` (a
    /// change copies one shard of the directory, not all of it).
    private var schedulesOfEmployee: [[String: [String: Int]]]

    static let shardCount = 256
    static let weekMillis: UnixMillis = 7 * 86_400_000
    static let longWeeks: Int64 = 8

    public init() {
        shards = Array(repeating: [:], count: Self.shardCount)
        schedulesOfEmployee = Array(repeating: [:], count: Self.shardCount)
    }

    public init<S: Sequence>(_ shifts: S) where S.Element == Shift {
        self.init()
        for shift in shifts { self[shift.id] = shift }
    }

    /// The key a schedule's shifts are filed under: the default schedule's shifts carry "".
    public static func scheduleKey(_ scheduleID: String) -> String {
        scheduleID.isEmpty ? ScheduleDefinition.defaultID : scheduleID
    }

    public subscript(id: String) -> Shift? {
        get { shards[Self.shard(of: id)][id] }
        set {
            let shard = Self.shard(of: id)
            if let old = shards[shard][id] { unfile(old) }
            if let newValue {
                if shards[shard].updateValue(newValue, forKey: id) == nil { count += 1 }
                file(newValue)
            } else if shards[shard].removeValue(forKey: id) != nil {
                count -= 1
            }
        }
    }

    /// Every shift, in no particular order.
    public var values: FlattenSequence<[Dictionary<String, Shift>.Values]> { shards.map(\.values).joined() }

    /// Every shift's id, in no particular order.
    public var keys: FlattenSequence<[Dictionary<String, Shift>.Keys]> { shards.map(\.keys).joined() }

    /// Removes every shift `shouldRemove` picks (a cascade: O(shifts)).
    public mutating func removeAll(where shouldRemove: (Shift) -> Bool) {
        for shift in values where shouldRemove(shift) { self[shift.id] = nil }
    }

    /// A schedule's shifts that overlap `[from, to)`: O(weeks in the window + shifts found).
    public func overlapping(schedule scheduleID: String, from: UnixMillis, to: UnixMillis) -> [Shift] {
        let key = Self.scheduleKey(scheduleID)
        guard from < to else { return [] }
        var ids = long[key] ?? []
        if let byWeek = weeks[key] {
            let first = Self.week(of: from), last = Self.week(of: to - 1)
            if last - first < Int64(byWeek.count) {
                for week in first...last { if let found = byWeek[week] { ids.formUnion(found) } }
            } else {
                for (week, found) in byWeek where week >= first && week <= last { ids.formUnion(found) }
            }
        }
        return ids.compactMap { self[$0] }.filter { $0.start < to && $0.end > from }
    }

    /// A schedule's shifts, all of them.
    public func all(schedule scheduleID: String) -> [Shift] {
        let key = Self.scheduleKey(scheduleID)
        var ids = long[key] ?? []
        for found in (weeks[key] ?? [:]).values { ids.formUnion(found) }
        return ids.compactMap { self[$0] }
    }

    /// The keys of the schedules that hold shifts of this employee.
    public func schedules(ofEmployee employeeID: String) -> Set<String> {
        schedulesOfEmployee[Self.shard(of: employeeID)][employeeID].map { Set($0.keys) } ?? []
    }

    /// The weeks a shift is filed under (an empty shift, which validation refuses, under its start's).
    private static func weeks(of shift: Shift) -> ClosedRange<Int64> {
        let first = week(of: shift.start)
        return first...max(first, week(of: shift.end - 1))
    }

    private mutating func file(_ shift: Shift) {
        let key = Self.scheduleKey(shift.scheduleID)
        schedulesOfEmployee[Self.shard(of: shift.employeeID)][shift.employeeID, default: [:]][key, default: 0] += 1
        let weeks = Self.weeks(of: shift)
        if weeks.upperBound - weeks.lowerBound >= Self.longWeeks {
            long[key, default: []].insert(shift.id)
            return
        }
        for week in weeks { self.weeks[key, default: [:]][week, default: []].insert(shift.id) }
    }

    private mutating func unfile(_ shift: Shift) {
        let key = Self.scheduleKey(shift.scheduleID)
        let employeeShard = Self.shard(of: shift.employeeID)
        if let held = schedulesOfEmployee[employeeShard][shift.employeeID]?[key] {
            schedulesOfEmployee[employeeShard][shift.employeeID]?[key] = held > 1 ? held - 1 : nil
            if schedulesOfEmployee[employeeShard][shift.employeeID]?.isEmpty == true {
                schedulesOfEmployee[employeeShard][shift.employeeID] = nil
            }
        }
        let weeks = Self.weeks(of: shift)
        if weeks.upperBound - weeks.lowerBound >= Self.longWeeks {
            long[key]?.remove(shift.id)
            return
        }
        for week in weeks {
            self.weeks[key]?[week]?.remove(shift.id)
            if self.weeks[key]?[week]?.isEmpty == true { self.weeks[key]?[week] = nil }
        }
    }

    static func week(of instant: UnixMillis) -> Int64 {
        let instant = min(max(instant, -(1 << 60)), 1 << 60)  // no overflow at Int64's ends
        return instant >= 0 ? instant / weekMillis : -((-instant + weekMillis - 1) / weekMillis)
    }

    /// FNV-1a of the id's UTF-8: stable across processes, unlike `Hasher`.
    static func shard(of id: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(shardCount))
    }
}

extension ShiftTable: Hashable {
    /// Equal when they hold the same shifts (the week index follows from them).
    public static func == (lhs: ShiftTable, rhs: ShiftTable) -> Bool {
        lhs.count == rhs.count && lhs.shards == rhs.shards
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(shards)
    }
}
