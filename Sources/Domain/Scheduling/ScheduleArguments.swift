import Foundation

/// The schedule-definition grammars of the CLI and of definition files (docs/AS-CODE.md):
/// `--every 1w`, `--restrict "Mon-Fri 09:00-17:00"`, `--people "Ada Lovelace+Alan Turing,Grace
/// Hopper"`. Each parse error says what was expected.
public enum ScheduleArguments {
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// "30m", "12h", "1d", "1w", "2w", "1mo" (months).
    public static func cadence(_ text: String) throws(Invalid) -> Cadence {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber }
        let unit = trimmed.dropFirst(digits.count)
        guard let count = Int(digits), count >= 1 else {
            throw Invalid(
                description: "\"\(text)\" is not a cadence: use a number and a unit, e.g. 30m, 12h, 1d, 1w, 1mo")
        }
        switch unit {
        case "m", "min": return .minutes(count)
        case "h": return .hours(count)
        case "d": return .days(count)
        case "w": return .weeks(count)
        case "mo": return .months(count)
        default: throw Invalid(description: "\"\(text)\": the unit must be m, h, d, w or mo (e.g. 1w)")
        }
    }

    /// The text `cadence` reads.
    public static func text(_ cadence: Cadence) -> String { cadence.text }

    /// "Mon-Fri 09:00-17:00", "Sat,Sun 10:00-14:00", "22:00-06:00" (every day, past midnight).
    /// Also "first Monday of every second month 09:00-12:00", "last Friday of every month
    /// 16:00-18:00", "day 15 of every 3 months 09:00-17:00"; any of them may end with
    /// "except holidays:NAME".
    public static func restriction(_ text: String) throws(Invalid) -> RestrictionWindow {
        var parts = text.split(separator: " ", omittingEmptySubsequences: true).map { String($0) }
        let invalid = Invalid(
            description: "\"\(text)\" is not a restriction: use e.g. \"Mon-Fri 09:00-17:00\", \"22:00-06:00\", "
                + "\"first Monday of every second month 09:00-12:00\", with \" except holidays:NAME\" if wanted")
        var holidays = ""
        if parts.count >= 3, parts[parts.count - 2].lowercased() == "except" {
            let last = parts[parts.count - 1]
            guard last.lowercased().hasPrefix("holidays:"), HolidaySet.nameProblem(String(last.dropFirst(9))) == nil
            else {
                throw Invalid(
                    description: "\"\(text)\": after \"except\" comes holidays:NAME (a calendar of `admin holidays`)")
            }
            holidays = String(last.dropFirst(9))
            parts.removeLast(2)
        }
        guard let clock = parts.popLast() else { throw invalid }
        let times = clock.split(separator: "-").map(String.init)
        guard times.count == 2, let start = RestrictionWindow.minuteOfDay(times[0]),
            let end = RestrictionWindow.minuteOfDay(times[1])
        else { throw invalid }
        if parts.count > 1 {
            return RestrictionWindow(
                start: start, end: end, exceptHolidays: holidays, monthly: try monthly(parts, text: text))
        }
        var weekdays = Set(1...7)
        if let days = parts.first {
            guard let parsed = WeekdayList.parse(days) else {
                throw Invalid(
                    description: "\"\(text)\": \"\(days)\" is not a day or a range of days: use e.g. Mon-Fri or Sat,Sun"
                )
            }
            weekdays = parsed
        }
        return RestrictionWindow(weekdays: weekdays, start: start, end: end, exceptHolidays: holidays)
    }

    static let ordinals = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1,
        "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
    ]
    static let everyWords = ["other": 2, "second": 2, "third": 3, "fourth": 4, "sixth": 6, "twelfth": 12]

    /// "NTH WEEKDAY of every [N|second|third...] month[s]", "day D of every ...", "last day of every ...".
    private static func monthly(_ words: [String], text: String) throws(Invalid) -> MonthlyDays {
        let lower = words.map { $0.lowercased() }
        let wrong = Invalid(
            description: "\"\(text)\": write the days of the month as \"first Monday of every second month\", "
                + "\"last Friday of every month\" or \"day 15 of every 3 months\"")
        guard let of = lower.firstIndex(of: "of"), of == 2, lower.count >= 5, lower[3] == "every",
            lower.last!.hasPrefix("month")
        else { throw wrong }
        let nth: Int, weekday: Int?
        if lower[0] == "day", let day = Int(lower[1]) {
            (nth, weekday) = (day, nil)
        } else if lower[0] == "last", lower[1] == "day" {
            (nth, weekday) = (-1, nil)
        } else if let ordinal = ordinals[lower[0]], let day = WeekdayList.parse(words[1]), day.count == 1 {
            (nth, weekday) = (ordinal, day.first!)
        } else {
            throw wrong
        }
        var every = 1
        if lower.count == 6 {
            guard let count = Int(lower[4]) ?? everyWords[lower[4]] else { throw wrong }
            every = count
        } else if lower.count != 5 {
            throw wrong
        }
        guard (1...12).contains(every) else { throw Invalid(description: "\"\(text)\": every 1 to 12 months") }
        return MonthlyDays(nth: nth, weekday: weekday, everyMonths: every)
    }

    /// "Mon-Fri 09:00-17:00" style text of a window, as `restriction` reads it.
    public static func text(_ window: RestrictionWindow) -> String { window.text }

    /// Slots separated by commas; people on duty together joined by "+".
    public static func people(_ text: String) throws(Invalid) -> [[String]] {
        // Empty pieces are kept so that "Ada,,Alan" or "Ada+" is refused, not read as fewer slots.
        let slots = text.split(separator: ",", omittingEmptySubsequences: false).map { slot in
            slot.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard !slots.isEmpty, !slots.contains(where: { $0.contains(where: \.isEmpty) }) else {
            throw Invalid(
                description:
                    "--people \"\(text)\" has an empty name: separate slots by commas (\"Ada Lovelace,Alan Turing\") "
                    + "and join people on duty together with + (\"Ada Lovelace+Alan Turing\")")
        }
        return slots
    }

    /// "2026-11-30T09:00" in the schedule's zone.
    public static func handoff(_ text: String) throws(Invalid) -> LocalDateTime {
        guard let local = LocalDateTime(parsing: text) else {
            throw Invalid(
                description:
                    "\"\(text)\" is not a local date-time: use YYYY-MM-DDTHH:MM in the schedule's zone, e.g. 2026-11-30T09:00"
            )
        }
        return local
    }
}
