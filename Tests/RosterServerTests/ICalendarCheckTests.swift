import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// Our iCalendar output read by an independent implementation: Python's `icalendar` and
/// `recurring-ical-events` (PyPI; .ci/run installs them), across a DST change.
@Suite(.timeLimit(.minutes(1))) struct ICalendarCheckTests {
    static let reader = """
        import json, sys, datetime, icalendar, recurring_ical_events
        calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        start = datetime.datetime(2027, 3, 1, tzinfo=datetime.timezone.utc)
        end = datetime.datetime(2027, 5, 1, tzinfo=datetime.timezone.utc)
        events = []
        for event in recurring_ical_events.of(calendar).between(start, end):
            events.append({'uid': str(event['UID']), 'start': event['DTSTART'].dt.isoformat(), 'end': event['DTEND'].dt.isoformat(),
                           'summary': str(event['SUMMARY']), 'transp': str(event['TRANSP']), 'status': str(event['STATUS']),
                           'alarms': len(event.walk('VALARM'))})
        print(json.dumps({'name': str(calendar['X-WR-CALNAME']), 'events': events}))
        """

    @Test func aBerlinWeeklyRotationAcrossTheMarchChangeReadsBackAtTheSameInstants() async throws {
        let schedule = ScheduleDefinition(id: "platform", name: "Platform primary", zone: "Europe/Berlin", layers: [
            ScheduleLayer(level: 0, rotations: [Rotation(id: "weekly", slots: [["ada"], ["alan"]], cadence: .weeks(1),
                                                         handoff: LocalDateTime(year: 2027, month: 3, day: 15, hour: 9))]),
        ])
        let from = TimeText.parseISO8601("2027-03-15T00:00:00Z")!, to = TimeText.parseISO8601("2027-04-12T00:00:00Z")!
        let shifts = try ScheduleResolver.resolve(schedule, from: from, to: to)
        let names = ["ada": "Ada Lovelace", "alan": "Alan Turing"]
        var events = shifts.map { shift in
            CalendarEvent(uid: shift.id, start: shift.start, end: shift.end, summary: "\(names[shift.employeeID]!) on call; Platform primary",
                          lastModified: from)
        }
        events.append(CalendarEvent(uid: "removed@1", start: to, end: to + 86_400_000, summary: "removed", lastModified: from, cancelledAt: from))
        let feed = ICalendar.feed(events, options: .init(name: "Platform primary, Berlin", alarmBefore: .seconds(900)), now: from)

        let scratch = TestScratch.directory("roster-ical")
        defer { TestScratch.remove(scratch) }
        let file = scratch.appendingPathComponent("platform.ics")
        try Data(feed.utf8).write(to: file)
        let python = try ChildProcess("/usr/bin/env", ["python3", "-c", Self.reader, file.path])
        guard let status = await python.waitForExit(timeout: .seconds(30)) else {
            await python.stop(signal: SIGKILL)
            throw TestFailure("python3 did not finish")
        }
        try #require(status == 0, "python3 with icalendar and recurring-ical-events (pip install icalendar recurring-ical-events): \(python.stderr)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any])
        #expect(parsed["name"] as? String == "Platform primary, Berlin")
        let read = try #require(parsed["events"] as? [[String: Any]])
        let confirmed = read.filter { $0["status"] as? String == "CONFIRMED" }
        // 09:00 Berlin is 08:00Z before 28 March 2027 and 07:00Z after it.
        #expect(confirmed.map { $0["start"] as? String } == [
            "2027-03-15T08:00:00+00:00", "2027-03-22T08:00:00+00:00", "2027-03-29T07:00:00+00:00", "2027-04-05T07:00:00+00:00",
        ])
        #expect(confirmed.map { $0["uid"] as? String } == shifts.filter { $0.start >= from }.map(\.id))
        #expect(confirmed.map { $0["summary"] as? String }.first == "Ada Lovelace on call; Platform primary")
        #expect(read.allSatisfy { $0["transp"] as? String == "TRANSPARENT" })
        #expect(confirmed.allSatisfy { $0["alarms"] as? Int == 1 })
        #expect(read.contains { $0["uid"] as? String == "removed@1" && $0["status"] as? String == "CANCELLED" })
    }
}
