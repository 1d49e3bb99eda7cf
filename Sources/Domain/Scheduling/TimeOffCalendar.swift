/// Time off read from an iCalendar file (RFC 5545), as calendar and HR programs export absences:
/// each VEVENT is one stretch away. All-day events cover whole local days in `zone`; timed ones
/// their instants (UTC with "Z", their TZID's zone, else `zone`). A recurring event (RRULE,
/// RDATE) is refused rather than read as its first occurrence; a cancelled one is skipped.
public enum TimeOffCalendar {
    public struct Event: Sendable, Hashable {
        public var uid: String
        public var start: UnixMillis
        public var end: UnixMillis
        public var summary: String
    }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The most bytes of a file read, and events taken from one.
    public static let maxBytes = 1 << 20
    public static let maxEvents = TimeOff.maxPerPerson

    public static func events(fromICS text: String, zone: String) throws(Invalid) -> [Event] {
        guard text.utf8.count <= maxBytes else { throw Invalid(description: "the file is larger than 1 MiB") }
        guard let defaultClock = WallClock(zone: zone) else {
            throw Invalid(description: "\"\(zone)\" is not an IANA time zone")
        }
        guard let lines = HolidayCalendar.unfoldedLines(text) else {
            throw Invalid(description: "not an iCalendar file (it must begin with BEGIN:VCALENDAR)")
        }
        var events: [Event] = []
        var inEvent = false, cancelled = false, uid = "", summary = ""
        var start: (instant: UnixMillis, allDay: Bool)?, end: (instant: UnixMillis, allDay: Bool)?
        for (number, line) in lines.enumerated() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let head = line[..<colon], value = String(line[line.index(after: colon)...])
            let parameters = head.split(separator: ";").map(String.init)
            let name = parameters.first?.uppercased() ?? ""
            switch name {
            case "BEGIN" where value.uppercased() == "VEVENT":
                (inEvent, cancelled, uid, summary, start, end) = (true, false, "", "", nil, nil)
            case "UID" where inEvent: uid = value
            case "SUMMARY" where inEvent:
                summary = value.replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
            case "STATUS" where inEvent: cancelled = value.uppercased() == "CANCELLED"
            case "RRULE" where inEvent, "RDATE" where inEvent:
                throw Invalid(
                    description:
                        "line \(number + 1): a recurring event (\(name)) is not read: list each absence as its own event"
                )
            case "DTSTART" where inEvent, "DTEND" where inEvent:
                var clock = defaultClock
                for parameter in parameters.dropFirst() where parameter.uppercased().hasPrefix("TZID=") {
                    guard let named = WallClock(zone: String(parameter.dropFirst(5))) else {
                        throw Invalid(description: "line \(number + 1): \(parameter) is not an IANA time zone")
                    }
                    clock = named
                }
                guard let read = instant(value, clock: clock) else {
                    throw Invalid(
                        description:
                            "line \(number + 1): \(name) \"\(value)\" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS[Z])"
                    )
                }
                if name == "DTSTART" { start = read } else { end = read }
            case "END" where value.uppercased() == "VEVENT" && inEvent:
                inEvent = false
                guard !cancelled else { continue }
                guard let start else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" has no DTSTART")
                }
                guard !uid.isEmpty else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" has no UID")
                }
                let stop: UnixMillis
                if let end {
                    stop = end.instant
                } else if start.allDay {
                    let local = defaultClock.local(start.instant)
                    stop = defaultClock.instant(
                        defaultClock.day(
                            WallClock.Day(year: local.year, month: local.month, day: local.day), adding: 1),
                        minuteOfDay: 0)
                } else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" has no DTEND")
                }
                guard start.instant < stop else {
                    throw Invalid(description: "line \(number + 1): the event \"\(summary)\" ends before it starts")
                }
                events.append(Event(uid: uid, start: start.instant, end: stop, summary: summary))
                guard events.count <= maxEvents else { throw Invalid(description: "more than \(maxEvents) events") }
            default:
                continue
            }
        }
        return events
    }

    /// "YYYYMMDD" (local midnight in `clock`'s zone), "YYYYMMDDTHHMMSS" (local) or "...Z" (UTC).
    static func instant(_ value: String, clock: WallClock) -> (instant: UnixMillis, allDay: Bool)? {
        guard let day = HolidayCalendar.day(value) else { return nil }
        if value.utf8.count == 8 { return (clock.instant(day, minuteOfDay: 0), true) }
        let bytes = Array(value.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var total = 0
            for index in range {
                guard (48...57).contains(bytes[index]) else { return nil }
                total = total * 10 + Int(bytes[index] - 48)
            }
            return total
        }
        guard let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15), hour < 24,
            minute < 60, second < 60
        else {
            return nil
        }
        if bytes.count == 16 {
            guard bytes[15] == UInt8(ascii: "Z") else { return nil }
            return (
                WallClock(timeZone: .gmt).instant(day, minuteOfDay: hour * 60 + minute) + UnixMillis(second) * 1000,
                false
            )
        }
        return (clock.instant(day, minuteOfDay: hour * 60 + minute) + UnixMillis(second) * 1000, false)
    }
}
