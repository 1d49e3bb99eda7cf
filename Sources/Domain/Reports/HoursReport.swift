/// The kind of time an instant is, for pay and working-time rules. Every instant is exactly one
/// of them, in this order of precedence: a holiday, else a weekend day (not a workday), else the
/// night window, else outside business hours, else business hours. So the categories never
/// overlap and always add up to the total (PagerDuty's experimental formula counted weekend
/// nights twice).
public enum DutyCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case business, outsideBusinessHours = "outside_business_hours", night, weekend, holiday
}

/// Time split by category, in milliseconds.
public struct CategoryHours: Sendable, Hashable, Codable {
    public var business: UnixMillis = 0
    public var outsideBusinessHours: UnixMillis = 0
    public var night: UnixMillis = 0
    public var weekend: UnixMillis = 0
    public var holiday: UnixMillis = 0

    public init() {}

    public subscript(category: DutyCategory) -> UnixMillis {
        get {
            switch category {
            case .business: business
            case .outsideBusinessHours: outsideBusinessHours
            case .night: night
            case .weekend: weekend
            case .holiday: holiday
            }
        }
        set {
            switch category {
            case .business: business = newValue
            case .outsideBusinessHours: outsideBusinessHours = newValue
            case .night: night = newValue
            case .weekend: weekend = newValue
            case .holiday: holiday = newValue
            }
        }
    }

    public var total: UnixMillis { DutyCategory.allCases.reduce(0) { $0 + self[$1] } }
}

/// One person's hours over a report's window. Durations in milliseconds.
public struct PersonHours: Sendable, Hashable {
    public var employeeID: String
    /// Covered time: overlapping stretches (within a schedule or across schedules) count once.
    public var total: UnixMillis = 0
    /// Covered time on each schedule (their sum exceeds `total` where schedules overlap).
    public var bySchedule: [String: UnixMillis] = [:]
    public var categories = CategoryHours()
    /// Of `total`: on duty through an admin's override or a swap, or by taking duty themself.
    public var fromOverrides: UnixMillis = 0
    /// Of `total`: covering someone's cover request.
    public var coverTaken: UnixMillis = 0
    /// Not in `total`: duty of theirs that someone else took through a cover request.
    public var coverGiven: UnixMillis = 0
    /// Separate periods on duty outside business hours (each evening-to-morning of a week-long
    /// turn is one; a whole weekend is one).
    public var outOfHoursPeriods = 0
    /// Continuous stretches on duty (touching ones joined, across schedules).
    public var stretches = 0
    public var longestStretch: UnixMillis = 0
    /// The shortest time off duty between two stretches in the window; nil with fewer than two.
    public var shortestRest: UnixMillis?

    public init(employeeID: String) { self.employeeID = employeeID }
}

/// Intervals [start, end) joined where they overlap or touch, in order.
public enum IntervalUnion {
    public static func of(_ intervals: some Sequence<(UnixMillis, UnixMillis)>) -> [(
        start: UnixMillis, end: UnixMillis
    )] {
        var merged: [(start: UnixMillis, end: UnixMillis)] = []
        for (start, end) in intervals.sorted(by: { $0.0 < $1.0 }) where start < end {
            if let last = merged.last, start <= last.end {
                merged[merged.count - 1].end = max(last.end, end)
            } else {
                merged.append((start, end))
            }
        }
        return merged
    }

    public static func length(_ merged: [(start: UnixMillis, end: UnixMillis)]) -> UnixMillis {
        merged.reduce(0) { $0 + ($1.end - $1.start) }
    }
}

/// The categories of a window, as consecutive segments: built once per report (a handful per
/// local day), so that splitting a person's duty is a search and a walk, not a zone lookup per
/// stretch.
public struct CategoryTimeline: Sendable {
    public private(set) var segments: [(start: UnixMillis, end: UnixMillis, category: DutyCategory)] = []

    /// The category of the local time `minute` of a day, given whether the day is a holiday or a
    /// workday.
    static func category(minute: Int, holiday: Bool, workday: Bool, options: HoursReportOptions) -> DutyCategory {
        if holiday { return .holiday }
        if !workday { return .weekend }
        if let night = options.night, night.contains(minute: minute) { return .night }
        return options.business.contains(minute: minute) ? .business : .outsideBusinessHours
    }

    /// The segments of [from, to) in `clock`'s zone. The category changes only where the local
    /// time crosses a threshold (midnight, the business and night windows' ends) or the zone's
    /// offset changes, so those instants, and only those, are the segments' ends.
    public init(from: UnixMillis, to: UnixMillis, options: HoursReportOptions, clock: WallClock) {
        var thresholds = Set([options.business.start, options.business.end % 1440, 1440])
        if let night = options.night { thresholds.formUnion([night.start, night.end % 1440]) }
        let ordered = thresholds.filter { $0 > 0 }.sorted()
        var instant = from
        var nextTransition = clock.nextTransition(after: from - 1)
        while instant < to {
            let local = clock.local(instant)
            let day = WallClock.Day(year: local.year, month: local.month, day: local.day)
            let minute = local.hour * 60 + local.minute
            let category = Self.category(
                minute: minute, holiday: options.holidays.contains(day),
                workday: options.workdays.contains(clock.weekday(of: day)), options: options)
            let threshold = ordered.first { $0 > minute } ?? 1440
            var next = clock.instant(day, minuteOfDay: threshold)
            // After a fall-back the same wall time comes again: its second occurrence is next.
            if next <= instant { next = clock.instant(day, minuteOfDay: threshold, lastOccurrence: true) }
            while let transition = nextTransition, transition <= instant {
                nextTransition = clock.nextTransition(after: transition)
            }
            if let transition = nextTransition { next = min(next, transition) }
            if next <= instant { next = instant + 60_000 - (instant % 60_000 + 60_000) % 60_000 }  // never stand still
            next = min(next, to)
            if let last = segments.last, last.category == category, last.end == instant {
                segments[segments.count - 1].end = next
            } else {
                segments.append((instant, next, category))
            }
            instant = next
        }
    }

    /// Calls `body` with each piece of [start, end) and its category, in order.
    public func split(_ start: UnixMillis, _ end: UnixMillis, _ body: (UnixMillis, UnixMillis, DutyCategory) -> Void) {
        var low = 0, high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].end <= start { low = mid + 1 } else { high = mid }
        }
        var index = low
        while index < segments.count, segments[index].start < end {
            let segment = segments[index]
            body(max(start, segment.start), min(end, segment.end), segment.category)
            index += 1
        }
    }
}

/// Hours per person over a window, from stretches of duty (recorded or projected).
public enum HoursReport {
    /// The longest window one report covers.
    public static let maxWindow: UnixMillis = 400 * 86_400_000

    /// Each person's hours over [from, to) from `stretches` (clipped to the window), by employee
    /// id. People who only gave cover appear with their `coverGiven`.
    public static func compute(
        _ stretches: [RecordedStretch], from: UnixMillis, to: UnixMillis, timeline: CategoryTimeline
    )
        -> [String: PersonHours]
    {
        var byPerson: [String: [RecordedStretch]] = [:]
        var given: [String: [(UnixMillis, UnixMillis)]] = [:]
        for var stretch in stretches {
            stretch.start = max(stretch.start, from)
            stretch.end = min(stretch.end, to)
            guard stretch.start < stretch.end else { continue }
            byPerson[stretch.employeeID, default: []].append(stretch)
            if stretch.kind == .cover, !stretch.replacing.isEmpty {
                given[stretch.replacing, default: []].append((stretch.start, stretch.end))
            }
        }
        var result: [String: PersonHours] = [:]
        for (person, own) in byPerson {
            var hours = PersonHours(employeeID: person)
            for (schedule, onIt) in Dictionary(grouping: own, by: \.scheduleID) {
                hours.bySchedule[schedule] = IntervalUnion.length(IntervalUnion.of(onIt.map { ($0.start, $0.end) }))
            }
            hours.fromOverrides = IntervalUnion.length(
                IntervalUnion.of(
                    own.filter { $0.kind == .override || $0.kind == .swap || $0.kind == .take }
                        .map { ($0.start, $0.end) }))
            hours.coverTaken = IntervalUnion.length(
                IntervalUnion.of(own.filter { $0.kind == .cover }.map { ($0.start, $0.end) }))
            let merged = IntervalUnion.of(own.map { ($0.start, $0.end) })
            hours.total = IntervalUnion.length(merged)
            hours.stretches = merged.count
            hours.longestStretch = merged.map { $0.end - $0.start }.max() ?? 0
            hours.shortestRest = zip(merged, merged.dropFirst()).map { $1.start - $0.end }.min()
            var outOfHoursUntil: UnixMillis?
            for interval in merged {
                timeline.split(interval.start, interval.end) { start, end, category in
                    hours.categories[category] += end - start
                    if category == .business {
                        outOfHoursUntil = nil
                    } else {
                        if outOfHoursUntil != start { hours.outOfHoursPeriods += 1 }
                        outOfHoursUntil = end
                    }
                }
            }
            result[person] = hours
        }
        for (person, intervals) in given {
            result[person, default: PersonHours(employeeID: person)].coverGiven = IntervalUnion.length(
                IntervalUnion.of(intervals))
        }
        return result
    }
}
