/// A tenant's one-off shifts: by id, and by schedule and week for "which shifts overlap this
/// window".
///
/// One dictionary of a million shifts made each small change copy a million entries (the server
/// keeps the old state for queries while it builds the new one); here a change copies the shard
/// and the week buckets it touches, and finding a schedule's shifts around an instant reads only
/// the weeks asked about.
public struct ShiftTable: Sendable {
    private var byID = ShardedDictionary<Shift>()
    /// Schedule key → week number → ids of the shifts overlapping that week. A shift spanning
    /// more than `longWeeks` weeks is in `long` instead of in every week it covers.
    private var weeks: [String: [Int64: Set<String>]] = [:]
    private var long: [String: Set<String>] = [:]
    /// Employee → schedule key → how many of their shifts it holds.
    private var schedulesOfEmployee = ShardedDictionary<[String: Int]>()

    static let weekMillis: UnixMillis = 7 * 86_400_000
    static let longWeeks: Int64 = 8

    public init() {}

    public init<S: Sequence>(_ shifts: S) where S.Element == Shift {
        self.init()
        for shift in shifts { self[shift.id] = shift }
    }

    /// The key a schedule's shifts are filed under: the default schedule's shifts carry "".
    public static func scheduleKey(_ scheduleID: String) -> String {
        scheduleID.isEmpty ? ScheduleDefinition.defaultID : scheduleID
    }

    public var count: Int { byID.count }

    public subscript(id: String) -> Shift? {
        get { byID[id] }
        set {
            if let old = byID[id] { unfile(old) }
            byID[id] = newValue
            if let newValue { file(newValue) }
        }
    }

    /// Every shift, in no particular order.
    public var values: FlattenSequence<[Dictionary<String, Shift>.Values]> { byID.values }

    /// Every shift's id, in no particular order.
    public var keys: FlattenSequence<[Dictionary<String, Shift>.Keys]> { byID.keys }

    /// Removes every shift `shouldRemove` picks (a cascade: O(shifts)).
    public mutating func removeAll(where shouldRemove: (Shift) -> Bool) {
        for shift in values where shouldRemove(shift) { self[shift.id] = nil }
    }

    /// A schedule's shifts that overlap `[from, to)`: O(weeks in the window + shifts found).
    public func overlapping(schedule scheduleID: String, from: UnixMillis, to: UnixMillis) -> [Shift] {
        let key = Self.scheduleKey(scheduleID)
        guard from < to else { return [] }
        func overlaps(_ shift: Shift) -> Bool { shift.start < to && shift.end > from }
        var found = (long[key] ?? []).compactMap { byID[$0] }.filter(overlaps)
        guard let byWeek = weeks[key] else { return found }
        let first = Self.week(of: from), last = Self.week(of: to - 1)
        // A shift filed under several weeks of the window is taken from the first of them.
        func take(_ ids: Set<String>, week: Int64) {
            for id in ids {
                guard let shift = byID[id], overlaps(shift), max(Self.week(of: shift.start), first) == week else {
                    continue
                }
                found.append(shift)
            }
        }
        if last - first < Int64(byWeek.count) {
            for week in first...last { if let ids = byWeek[week] { take(ids, week: week) } }
        } else {
            for (week, ids) in byWeek where week >= first && week <= last { take(ids, week: week) }
        }
        return found
    }

    /// Whether any shift belongs to the schedule.
    public func holdsShifts(schedule scheduleID: String) -> Bool {
        let key = Self.scheduleKey(scheduleID)
        return !(weeks[key]?.isEmpty ?? true) || !(long[key]?.isEmpty ?? true)
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
        schedulesOfEmployee[employeeID].map { Set($0.keys) } ?? []
    }

    /// The weeks a shift is filed under (an empty shift, which validation refuses, under its start's).
    private static func weeks(of shift: Shift) -> ClosedRange<Int64> {
        let first = week(of: shift.start)
        return first...max(first, week(of: shift.end - 1))
    }

    private mutating func file(_ shift: Shift) {
        let key = Self.scheduleKey(shift.scheduleID)
        schedulesOfEmployee[shift.employeeID, default: [:]][key, default: 0] += 1
        let weeks = Self.weeks(of: shift)
        if weeks.upperBound - weeks.lowerBound >= Self.longWeeks {
            long[key, default: []].insert(shift.id)
            return
        }
        for week in weeks { self.weeks[key, default: [:]][week, default: []].insert(shift.id) }
    }

    private mutating func unfile(_ shift: Shift) {
        let key = Self.scheduleKey(shift.scheduleID)
        if var held = schedulesOfEmployee[shift.employeeID] {
            held[key] = (held[key] ?? 0) > 1 ? held[key]! - 1 : nil
            schedulesOfEmployee[shift.employeeID] = held.isEmpty ? nil : held
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
}

extension ShiftTable: Hashable {
    /// Equal when they hold the same shifts (the week index follows from them).
    public static func == (lhs: ShiftTable, rhs: ShiftTable) -> Bool {
        lhs.byID == rhs.byID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(byID)
    }
}
