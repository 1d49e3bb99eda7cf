import Foundation

/// Holidays from an iCalendar file (RFC 5545), as public-holiday calendars publish them: one
/// all-day VEVENT per holiday. The dates are read as written, in no zone (a holiday is a local
/// day wherever the report counts it).
public enum HolidayCalendar {
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The local days the file's events cover, "YYYY-MM-DD", sorted and without repeats. An
    /// all-day event covers DTSTART up to DTEND (exclusive; one day without DTEND); a timed
    /// one, the date it starts on. A recurring event (RRULE) is refused rather than read as its
    /// first occurrence; so are more than `HoursReportOptions.maxHolidays` days.
    public static func dates(fromICS text: String) throws(Invalid) -> [String] {
        guard let lines = unfoldedLines(text) else {
            throw Invalid(description: "not an iCalendar file (it must begin with BEGIN:VCALENDAR)")
        }
        var days = Set<WallClock.Day>()
        var inEvent = false, start: WallClock.Day?, end: WallClock.Day?, allDay = false, summary = ""
        for (number, line) in lines.enumerated() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let head = line[..<colon].uppercased(), value = String(line[line.index(after: colon)...])
            let name = head.split(separator: ";").first.map(String.init) ?? ""
            switch name {
            case "BEGIN" where value.uppercased() == "VEVENT":
                (inEvent, start, end, allDay, summary) = (true, nil, nil, false, "")
            case "SUMMARY" where inEvent:
                summary = value
            case "RRULE" where inEvent, "RDATE" where inEvent:
                throw Invalid(
                    description:
                        "line \(number + 1): a recurring event (\(name)) is not read: list each holiday as its own event"
                )
            case "DTSTART" where inEvent, "DTEND" where inEvent:
                guard let day = day(value) else {
                    throw Invalid(
                        description:
                            "line \(number + 1): \(name) \"\(value)\" is not a date (YYYYMMDD or YYYYMMDDTHHMMSS)")
                }
                if name == "DTSTART" {
                    start = day
                    allDay = value.count == 8
                } else {
                    end = day
                }
            case "END" where value.uppercased() == "VEVENT" && inEvent:
                inEvent = false
                guard let start else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" has no DTSTART")
                }
                let clock = WallClock(timeZone: .gmt)
                var day = start
                let last = allDay ? (end.map { clock.day($0, adding: -1) } ?? start) : start
                guard WallClock.days(last) - WallClock.days(start) < 366 else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" lasts more than a year")
                }
                while day <= last {
                    days.insert(day)
                    day = clock.day(day, adding: 1)
                }
                guard days.count <= HoursReportOptions.maxHolidays else {
                    throw Invalid(description: "more than \(HoursReportOptions.maxHolidays) holidays")
                }
            default:
                continue
            }
        }
        return days.sorted().map { String(format: "%04d-%02d-%02d", $0.year, $0.month, $0.day) }
    }

    /// The content lines of an iCalendar text, unfolded (a line starting with a space or tab
    /// continues the one before); nil unless it begins with BEGIN:VCALENDAR.
    static func unfoldedLines(_ text: String) -> [String]? {
        var lines: [String] = []
        for raw in text.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        return lines.first?.uppercased() == "BEGIN:VCALENDAR" ? lines : nil
    }

    /// "YYYYMMDD", or the date of "YYYYMMDDTHHMMSS[Z]".
    static func day(_ value: String) -> WallClock.Day? {
        let bytes = Array(value.utf8)
        guard bytes.count == 8 || ((15...16).contains(bytes.count) && bytes[8] == UInt8(ascii: "T")) else { return nil }
        let digits = bytes.prefix(8)
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let text = String(decoding: digits, as: UTF8.self)
        let dashed = "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
        return LocalDateTime.parseDate(dashed)
    }
}
