import Foundation

/// An independent iCalendar reader: Python's `icalendar` and `recurring-ical-events` (PyPI;
/// .ci/run installs them) expand a feed into the events that fall in a window, as a calendar
/// program would show them.
public enum ICalendarReader {
    public struct Event: Sendable, Equatable {
        public var uid: String
        /// ISO 8601 with the offset the reader gives (`+00:00` for our UTC instants).
        public var start: String
        public var end: String
        public var summary: String
        public var transparency: String
        public var status: String
        public var alarms: Int
    }

    public struct Calendar: Sendable {
        public var name: String
        public var events: [Event]
        public var confirmed: [Event] { events.filter { $0.status == "CONFIRMED" } }
    }

    static let script = """
        import json, sys, datetime, icalendar, recurring_ical_events
        calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        start = datetime.datetime.fromisoformat(sys.argv[2])
        end = datetime.datetime.fromisoformat(sys.argv[3])
        events = []
        for event in recurring_ical_events.of(calendar).between(start, end):
            events.append({'uid': str(event['UID']), 'start': event['DTSTART'].dt.isoformat(), 'end': event['DTEND'].dt.isoformat(),
                           'summary': str(event['SUMMARY']), 'transp': str(event['TRANSP']), 'status': str(event['STATUS']),
                           'alarms': len(event.walk('VALARM'))})
        print(json.dumps({'name': str(calendar.get('X-WR-CALNAME', '')), 'events': events}))
        """

    /// Reads `feed` and returns the events between `from` and `to` (ISO 8601 with an offset,
    /// for example `2027-03-01T00:00:00+00:00`).
    public static func read(_ feed: String, from: String, to: String) async throws -> Calendar {
        let scratch = TestScratch.directory("roster-ical")
        defer { TestScratch.remove(scratch) }
        let file = scratch.appendingPathComponent("feed.ics")
        try Data(feed.utf8).write(to: file)
        let python = try ChildProcess("/usr/bin/env", ["python3", "-c", script, file.path, from, to])
        guard let status = await python.waitForExit(timeout: .seconds(30)) else {
            await python.stop(signal: SIGKILL)
            throw TestFailure("python3 did not finish")
        }
        guard status == 0 else {
            throw TestFailure(
                "python3 with icalendar and recurring-ical-events (pip install icalendar recurring-ical-events): \(python.stderr)"
            )
        }
        guard let parsed = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any],
            let events = parsed["events"] as? [[String: Any]]
        else { throw TestFailure("the reader printed no calendar: \(python.stdout)") }
        return Calendar(
            name: parsed["name"] as? String ?? "",
            events: events.map { event in
                Event(
                    uid: event["uid"] as? String ?? "", start: event["start"] as? String ?? "",
                    end: event["end"] as? String ?? "",
                    summary: event["summary"] as? String ?? "", transparency: event["transp"] as? String ?? "",
                    status: event["status"] as? String ?? "", alarms: event["alarms"] as? Int ?? -1)
            })
    }
}

/// A holiday file as public-holiday calendars publish them: one all-day event for each of the
/// days from `from` days after today (UTC) to `through` days after it.
public enum HolidayFile {
    public static func allDays(from: Int, through: Int) -> String {
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        let today = utc.startOfDay(for: Date())
        var events = ""
        for offset in from...through {
            let day = utc.dateComponents(
                [.year, .month, .day], from: utc.date(byAdding: .day, value: offset, to: today)!)
            events +=
                "BEGIN:VEVENT\r\nSUMMARY:Day \(offset)\r\nDTSTART;VALUE=DATE:"
                + String(format: "%04d%02d%02d", day.year!, day.month!, day.day!) + "\r\nEND:VEVENT\r\n"
        }
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n\(events)END:VCALENDAR\r\n"
    }
}
