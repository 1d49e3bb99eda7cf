import Foundation

/// One event of a calendar feed: a resolved shift, or one that was removed (cancelled).
public struct CalendarEvent: Sendable, Hashable, Codable {
    /// Stable across feeds and refreshes: the resolved shift's id.
    public var uid: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var summary: String
    public var description: String
    /// Increases whenever the event changes (RFC 5545 §3.8.7.4), so calendars take the new one.
    public var sequence: Int
    public var lastModified: UnixMillis
    /// When the shift left the plan: it is kept with STATUS:CANCELLED for a while, so that
    /// subscribed calendars drop it.
    public var cancelledAt: UnixMillis?
    public var cancelled: Bool { cancelledAt != nil }

    public init(
        uid: String, start: UnixMillis, end: UnixMillis, summary: String, description: String = "", sequence: Int = 0,
        lastModified: UnixMillis, cancelledAt: UnixMillis? = nil
    ) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.description = description
        self.sequence = sequence
        self.lastModified = lastModified
        self.cancelledAt = cancelledAt
    }

    /// What a subscriber sees of it: a change in any of these is a new SEQUENCE.
    var content: [String] { [String(start), String(end), summary, description] }
}

/// What a feed publishes, given what it published last time: an unchanged event keeps its
/// SEQUENCE and LAST-MODIFIED, a changed one gets the next SEQUENCE, and a future one that left
/// the plan stays as CANCELLED for `keepCancelled` (a past one that left the window is dropped).
public enum CalendarFeedState {
    public static let keepCancelled: UnixMillis = 30 * 86_400_000

    public struct Update: Sendable {
        /// The feed, by start.
        public var publish: [CalendarEvent]
        /// Events to store (new or changed), and uids to forget.
        public var store: [CalendarEvent]
        public var forget: [String]
    }

    public static func update(previous: [CalendarEvent], current: [CalendarEvent], now: UnixMillis) -> Update {
        let before = Dictionary(previous.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        var publish: [CalendarEvent] = [], store: [CalendarEvent] = [], forget: [String] = []
        var seen = Set<String>()
        for var event in current {
            seen.insert(event.uid)
            if let old = before[event.uid] {
                if old.content == event.content && !old.cancelled {
                    event.sequence = old.sequence
                    event.lastModified = old.lastModified
                } else {
                    event.sequence = old.sequence + 1
                    event.lastModified = now
                    store.append(event)
                }
            } else {
                event.sequence = 0
                event.lastModified = now
                store.append(event)
            }
            publish.append(event)
        }
        for var old in previous where !seen.contains(old.uid) {
            if let cancelled = old.cancelledAt {
                if now - cancelled < keepCancelled { publish.append(old) } else { forget.append(old.uid) }
            } else if old.end > now {
                old.cancelledAt = now
                old.sequence += 1
                old.lastModified = now
                store.append(old)
                publish.append(old)
            } else {
                forget.append(old.uid)
            }
        }
        publish.sort { ($0.start, $0.uid) < ($1.start, $1.uid) }
        return Update(publish: publish, store: store, forget: forget)
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
            "X-PUBLISHED-TTL:" + duration(options.refresh),
            "REFRESH-INTERVAL;VALUE=DURATION:" + duration(options.refresh),
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
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + text(event.summary),
                    "TRIGGER:-" + duration(before), "END:VALARM",
                ]
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
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second],
            from: Date(timeIntervalSince1970: Double(millis) / 1000))
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
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
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                    escaped.append(character)
                }
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
