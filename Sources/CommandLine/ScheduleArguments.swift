import Foundation
import RosterDomain

/// The schedule-definition arguments of the CLI: `--every 1w`, `--restrict "Mon-Fri 09:00-17:00"`,
/// `--people "Ada Lovelace+Alan Turing,Grace Hopper"`. Each parse error says what was expected.
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
            throw Invalid(description: "\"\(text)\" is not a cadence: use a number and a unit, e.g. 30m, 12h, 1d, 1w, 1mo")
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
    public static func text(_ cadence: Cadence) -> String {
        switch cadence {
        case .minutes(let n): "\(n)m"
        case .hours(let n): "\(n)h"
        case .days(let n): "\(n)d"
        case .weeks(let n): "\(n)w"
        case .months(let n): "\(n)mo"
        }
    }


    /// "Mon-Fri 09:00-17:00", "Sat,Sun 10:00-14:00", "22:00-06:00" (every day, past midnight).
    public static func restriction(_ text: String) throws(Invalid) -> RestrictionWindow {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let invalid = Invalid(description: "\"\(text)\" is not a restriction: use e.g. \"Mon-Fri 09:00-17:00\" or \"22:00-06:00\"")
        guard (1...2).contains(parts.count) else { throw invalid }
        var weekdays = Set(1...7)
        if parts.count == 2 {
            guard let days = WeekdayList.parse(String(parts[0])) else {
                throw Invalid(description: "\"\(text)\": \"\(parts[0])\" is not a day or a range of days: use e.g. Mon-Fri or Sat,Sun")
            }
            weekdays = days
        }
        let times = parts.last!.split(separator: "-").map(String.init)
        guard times.count == 2, let start = RestrictionWindow.minuteOfDay(times[0]),
              let end = RestrictionWindow.minuteOfDay(times[1]) else { throw invalid }
        return RestrictionWindow(weekdays: weekdays, start: start, end: end)
    }

    /// "Mon-Fri 09:00-17:00" style text of a window.
    public static func text(_ window: RestrictionWindow) -> String {
        let days = window.weekdays.count == 7 ? "" : WeekdayList.text(window.weekdays) + " "
        return days + RestrictionWindow.clockText(window.start) + "-" + RestrictionWindow.clockText(window.end)
    }


    /// Slots separated by commas; people on duty together joined by "+".
    public static func people(_ text: String) throws(Invalid) -> [[String]] {
        // Empty pieces are kept so that "Ada,,Alan" or "Ada+" is refused, not read as fewer slots.
        let slots = text.split(separator: ",", omittingEmptySubsequences: false).map { slot in
            slot.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard !slots.isEmpty, !slots.contains(where: { $0.contains(where: \.isEmpty) }) else {
            throw Invalid(description: "--people \"\(text)\" has an empty name: separate slots by commas (\"Ada Lovelace,Alan Turing\") "
                          + "and join people on duty together with + (\"Ada Lovelace+Alan Turing\")")
        }
        return slots
    }

    /// "2026-11-30T09:00" in the schedule's zone.
    public static func handoff(_ text: String) throws(Invalid) -> LocalDateTime {
        guard let local = LocalDateTime(parsing: text) else {
            throw Invalid(description: "\"\(text)\" is not a local date-time: use YYYY-MM-DDTHH:MM in the schedule's zone, e.g. 2026-11-30T09:00")
        }
        return local
    }
}
