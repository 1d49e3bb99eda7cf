import Foundation
import RosterDomain

/// TIME arguments: ISO 8601 ("2026-11-22T09:00:00Z", or without a zone for local time),
/// "now", relative offsets ("+2h", "-30m", "+1d", "+90s", "1h30m ago", "in 2h"), and
/// "today 17:00", "tomorrow 09:00", "yesterday 09:00" or a bare "09:00" (today) in the display
/// time zone. (A leading "-" looks like an option to the shell parser: write --start=-1h or "1h ago".)
public enum TimeArgument {
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let text: String
        public var description: String {
            "\"\(text)\" is not a time: use ISO 8601 (2026-11-22T09:00:00Z), now, +2h, 30m ago, +1d, or tomorrow 09:00"
        }
    }

    public static func parse(_ text: String, now: UnixMillis = .now, timeZone: TimeZone = .current) throws(Invalid)
        -> UnixMillis
    {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { throw Invalid(text: text) }
        if trimmed == "now" { return now }
        if let first = trimmed.first, first == "+" || first == "-",
            let offset = parseOffset(String(trimmed.dropFirst()))
        {
            return first == "+" ? now + offset : now - offset
        }
        if trimmed.hasSuffix(" ago"),
            let offset = parseOffset(String(trimmed.dropLast(4)).replacingOccurrences(of: " ", with: ""))
        {
            return now - offset
        }
        if trimmed.hasPrefix("in "),
            let offset = parseOffset(String(trimmed.dropFirst(3)).replacingOccurrences(of: " ", with: ""))
        {
            return now + offset
        }
        if let instant = TimeText.parseISO8601(text) { return instant }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let nowDate = Date(timeIntervalSince1970: Double(now) / 1000)
        // A local date-time without a zone, "2026-11-22T09:00", "2026-11-22 09:00[:00]" or a date,
        // read by the strict reader (Foundation's DateFormatter moved 2026-02-30 to March, and a
        // combining character in the text made it trap).
        if let (local, second) = LocalDateTime.parse(text.trimmingCharacters(in: .whitespaces)),
            (1...9999).contains(local.year)
        {
            let clock = WallClock(timeZone: timeZone)
            return clock.instant(
                WallClock.Day(year: local.year, month: local.month, day: local.day),
                minuteOfDay: local.hour * 60 + local.minute) + UnixMillis(second) * 1000
        }
        var words = trimmed.split(separator: " ").map(String.init)
        var dayOffset = 0
        if let first = words.first, ["today", "tomorrow", "yesterday"].contains(first) {
            dayOffset = first == "tomorrow" ? 1 : (first == "yesterday" ? -1 : 0)
            words.removeFirst()
        }
        let clock = words.first ?? "00:00"
        guard words.count <= 1 else { throw Invalid(text: text) }
        let parts = clock.split(separator: ":").map { Int($0) }
        guard (1...2).contains(parts.count), let hour = parts[0], (0...23).contains(hour),
            let minute = parts.count == 2 ? parts[1] : 0, (0...59).contains(minute)
        else { throw Invalid(text: text) }
        guard let day = calendar.date(byAdding: .day, value: dayOffset, to: calendar.startOfDay(for: nowDate)),
            let date = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)
        else { throw Invalid(text: text) }
        return UnixMillis(date.timeIntervalSince1970 * 1000)
    }

    /// "2h", "30m", "1d", "90s", "1h30m" → milliseconds; nil past 100 years (every product and
    /// sum is checked, so no text can overflow).
    static func parseOffset(_ text: String) -> Int64? {
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isASCII && character.isNumber {
                digits.append(character)
                continue
            }
            guard digits.count <= 18, let value = Int64(digits) else { return nil }
            let unit: Int64
            switch character {
            case "d": unit = 86_400_000
            case "h": unit = 3_600_000
            case "m": unit = 60_000
            case "s": unit = 1000
            default: return nil
            }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow, product <= DurationText.maximum.milliseconds - total else { return nil }
            total += product
            digits = ""
        }
        return digits.isEmpty && total > 0 ? total : nil
    }
}
