/// The grammar of days of the week: "Mon-Fri", "Sat,Sun", "Mon,Wed-Fri", "Monday" (case
/// ignored). One reader for restrictions and reports.
public enum WeekdayList {
    static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The weekdays named (1 = Sunday … 7 = Saturday, as `WallClock` counts them); nil for
    /// anything else. Days are joined by "," and "-" only: "Mon+Tue" is refused, not read as
    /// Monday; a range may wrap ("Fri-Mon").
    public static func parse(_ text: String) -> Set<Int>? {
        var days = Set<Int>()
        for item in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let range = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            let indices = range.compactMap { names.firstIndex(of: $0) ?? fullNames.firstIndex(of: $0) }
            guard indices.count == range.count, (1...2).contains(indices.count) else { return nil }
            var day = indices[0]
            while true {
                days.insert(day + 1)
                if day == indices.last! { break }
                day = (day + 1) % 7
            }
        }
        return days
    }

    /// "Mon,Tue,Wed" text of a set of weekdays.
    public static func text(_ days: Set<Int>) -> String {
        days.sorted().map { names[$0 - 1].capitalized }.joined(separator: ",")
    }
}

/// A stretch of the day in minutes after midnight, [start, end); it wraps past midnight when
/// end ≤ start ("22:00-08:00").
public struct DayWindow: Sendable, Hashable, Codable {
    public var start: Int, end: Int

    public init(start: Int, end: Int) { (self.start, self.end) = (start, end) }

    /// "HH:MM-HH:MM"; nil for anything else, or for a window of no time ("09:00-09:00").
    public static func parse(_ text: String) -> DayWindow? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
            .map(String.init)
        guard parts.count == 2, let start = RestrictionWindow.minuteOfDay(parts[0]),
            let end = RestrictionWindow.minuteOfDay(parts[1]),
            start % 1440 != end % 1440
        else { return nil }
        return DayWindow(start: start % 1440, end: end == 1440 ? 1440 : end)
    }

    public func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    public var text: String { RestrictionWindow.clockText(start) + "-" + RestrictionWindow.clockText(end) }
}

/// How an hours report splits time: in one zone, business hours on workdays, an optional
/// night, and holidays. Every instant falls in exactly one `DutyCategory`.
public struct HoursReportOptions: Sendable, Hashable {
    /// The most holidays one report takes.
    public static let maxHolidays = 1_000

    public var zone: String
    public var business = DayWindow(start: 9 * 60, end: 18 * 60)
    /// 1 = Sunday … 7 = Saturday.
    public var workdays: Set<Int> = [2, 3, 4, 5, 6]
    public var night: DayWindow?
    public var holidays: Set<WallClock.Day> = []

    public init(zone: String) { self.zone = zone }

    /// The options from their texts ("09:00-18:00", "Mon-Fri", "22:00-08:00", "2026-12-25"),
    /// each checked; every problem at once, by field. Empty texts keep the defaults.
    public static func parse(zone: String, businessHours: String, workdays: String, night: String, holidays: [String])
        throws(RosterError) -> HoursReportOptions
    {
        var options = HoursReportOptions(zone: zone)
        var problems: [RosterViolation] = []
        if WallClock(zone: zone) == nil {
            problems.append(
                RosterViolation(field: "zone", message: "\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin)"))
        }
        if !businessHours.isEmpty {
            if let window = DayWindow.parse(businessHours), window.start < window.end {
                options.business = window
            } else {
                problems.append(
                    RosterViolation(
                        field: "business_hours",
                        message: "\"\(businessHours)\" is not a daytime window: use e.g. 09:00-18:00"))
            }
        }
        if !workdays.isEmpty {
            if let days = WeekdayList.parse(workdays) {
                options.workdays = days
            } else {
                problems.append(
                    RosterViolation(
                        field: "workdays",
                        message: "\"\(workdays)\" is not a list of days: use e.g. Mon-Fri or Mon,Tue,Thu"))
            }
        }
        if !night.isEmpty {
            if let window = DayWindow.parse(night) {
                options.night = window
            } else {
                problems.append(
                    RosterViolation(
                        field: "night", message: "\"\(night)\" is not a window of the day: use e.g. 22:00-08:00"))
            }
        }
        if holidays.count > maxHolidays {
            problems.append(
                RosterViolation(field: "holidays", message: "\(holidays.count) holidays: at most \(maxHolidays)"))
        } else {
            for text in holidays {
                guard let date = LocalDateTime.parseDate(text) else {
                    problems.append(
                        RosterViolation(field: "holidays", message: "\"\(text)\" is not a date: use YYYY-MM-DD"))
                    continue
                }
                options.holidays.insert(date)
            }
        }
        if !problems.isEmpty { throw .invalid(problems) }
        return options
    }
}

extension LocalDateTime {
    /// "YYYY-MM-DD" as a local day; nil for anything else (no 30 February).
    public static func parseDate(_ text: String) -> WallClock.Day? {
        guard text.utf8.count == 10, let parsed = LocalDateTime.parse(text)?.local else { return nil }
        return WallClock.Day(year: parsed.year, month: parsed.month, day: parsed.day)
    }
}
