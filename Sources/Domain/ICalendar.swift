import Foundation

/// One event of a calendar feed: a resolved shift, or one that was removed (cancelled).
public struct CalendarEvent: Sendable, Hashable {
    /// Stable across feeds and refreshes: the resolved shift's id.
    public var uid: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var summary: String
    public var description: String
    /// Increases whenever the event changes (RFC 5545 §3.8.7.4), so calendars take the new one.
    public var sequence: Int
    public var lastModified: UnixMillis
    /// A shift removed from the plan: kept with STATUS:CANCELLED so subscribed calendars drop it.
    public var cancelled: Bool

    public init(uid: String, start: UnixMillis, end: UnixMillis, summary: String, description: String = "", sequence: Int = 0,
                lastModified: UnixMillis, cancelled: Bool = false) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.description = description
        self.sequence = sequence
        self.lastModified = lastModified
        self.cancelled = cancelled
    }
}

/// Writes an iCalendar (RFC 5545) feed of on-call shifts: times in UTC (so no VTIMEZONE is
/// needed and a handoff across a DST change is exactly the resolver's instant), every event
/// TRANSP:TRANSPARENT (an on-call week does not block a work calendar), lines folded at 75
/// octets, text escaped.
public enum ICalendar {
    public struct Options: Sendable {
        /// X-WR-CALNAME: what a calendar program shows.
        public var name: String
        /// X-PUBLISHED-TTL and REFRESH-INTERVAL: how often to fetch again.
        public var refresh: Duration = .seconds(3600)
        /// A VALARM this long before each shift; nil: none.
        public var alarmBefore: Duration?

        public init(name: String, refresh: Duration = .seconds(3600), alarmBefore: Duration? = nil) {
            self.name = name
            self.refresh = refresh
            self.alarmBefore = alarmBefore
        }
    }

    /// The feed, with CRLF line ends. `now` is every event's DTSTAMP (when this copy was made).
    public static func feed(_ events: [CalendarEvent], options: Options, now: UnixMillis) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Roster//Roster on-call feed//EN", "CALSCALE:GREGORIAN",
            // An X- property: readers take its value as it stands (Python's icalendar keeps "\,"),
            // so only what would break the line is escaped.
            "METHOD:PUBLISH", "X-WR-CALNAME:" + text(options.name, escapingSeparators: false),
            "X-PUBLISHED-TTL:" + duration(options.refresh), "REFRESH-INTERVAL;VALUE=DURATION:" + duration(options.refresh),
        ]
        for event in events {
            lines += [
                "BEGIN:VEVENT", "UID:" + text(event.uid), "DTSTAMP:" + instant(now), "DTSTART:" + instant(event.start),
                "DTEND:" + instant(event.end), "SUMMARY:" + text(event.summary), "SEQUENCE:\(event.sequence)",
                "LAST-MODIFIED:" + instant(event.lastModified), "TRANSP:TRANSPARENT",
                "STATUS:" + (event.cancelled ? "CANCELLED" : "CONFIRMED"),
            ]
            if !event.description.isEmpty { lines.append("DESCRIPTION:" + text(event.description)) }
            if let before = options.alarmBefore, !event.cancelled {
                lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + text(event.summary),
                          "TRIGGER:-" + duration(before), "END:VALARM"]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// "20261201T080000Z"
    static func instant(_ millis: UnixMillis) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: Double(millis) / 1000))
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
                      parts.second!)
    }

    /// "PT1H", "PT15M", "P1D": an RFC 5545 duration (whole seconds).
    static func duration(_ duration: Duration) -> String {
        var seconds = max(0, duration.components.seconds)
        let days = seconds / 86_400
        seconds %= 86_400
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if seconds > 0 || days == 0 {
            text += "T"
            if seconds >= 3600 { text += "\(seconds / 3600)H" }
            if seconds % 3600 >= 60 { text += "\(seconds % 3600 / 60)M" }
            if seconds % 60 > 0 || seconds == 0 { text += "\(seconds % 60)S" }
        }
        return text
    }

    /// TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545 §3.3.11).
    static func text(_ value: String, escapingSeparators: Bool = true) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case ";" where escapingSeparators: escaped += "\\;"
            case "," where escapingSeparators: escaped += "\\,"
            case "\n", "\r\n", "\r": escaped += "\\n"
            default:
                // Other control characters have no place in a content line.
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) { escaped.append(character) }
            }
        }
        return escaped
    }

    /// Lines longer than 75 octets continue on the next line after CRLF and a space (RFC 5545
    /// §3.1), never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var folded = "", current = 0, limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if current + size > limit {
                folded += "\r\n "
                current = 0
                limit = 74  // the leading space counts
            }
            folded.unicodeScalars.append(scalar)
            current += size
        }
        return folded
    }
}
