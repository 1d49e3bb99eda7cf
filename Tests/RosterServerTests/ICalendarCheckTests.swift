import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// Our iCalendar output read by an independent implementation: Python's `icalendar` and
/// `recurring-ical-events` (PyPI; .ci/run installs them), across a DST change.
@Suite(.timeLimit(.minutes(10))) struct ICalendarCheckTests {
    @Test func aBerlinWeeklyRotationAcrossTheMarchChangeReadsBackAtTheSameInstants() async throws {
        let schedule = ScheduleDefinition(
            id: "platform", name: "Platform primary", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "weekly", slots: [["ada"], ["alan"]], cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2027, month: 3, day: 15, hour: 9))
                    ])
            ])
        let from = TimeText.parseISO8601("2027-03-15T00:00:00Z")!, to = TimeText.parseISO8601("2027-04-12T00:00:00Z")!
        let shifts = try ScheduleResolver.resolve(schedule, from: from, to: to)
        let names = ["ada": "Ada Lovelace", "alan": "Alan Turing"]
        var events = shifts.map { shift in
            CalendarEvent(
                uid: shift.id, start: shift.start, end: shift.end,
                summary: "\(names[shift.employeeID]!) on call; Platform primary",
                lastModified: from)
        }
        events.append(
            CalendarEvent(
                uid: "removed@1", start: to, end: to + 86_400_000, summary: "removed", lastModified: from,
                cancelledAt: from))
        let feed = ICalendar.feed(
            events, options: .init(name: "Platform primary, Berlin", alarmBefore: .seconds(900)), now: from)

        let calendar = try await ICalendarReader.read(
            feed, from: "2027-03-01T00:00:00+00:00", to: "2027-05-01T00:00:00+00:00")
        #expect(calendar.name == "Platform primary, Berlin")
        let confirmed = calendar.confirmed
        // 09:00 Berlin is 08:00Z before 28 March 2027 and 07:00Z after it.
        #expect(
            confirmed.map(\.start) == [
                "2027-03-15T08:00:00+00:00", "2027-03-22T08:00:00+00:00", "2027-03-29T07:00:00+00:00",
                "2027-04-05T07:00:00+00:00",
            ])
        #expect(confirmed.map(\.uid) == shifts.filter { $0.start >= from }.map(\.id))
        #expect(confirmed.first?.summary == "Ada Lovelace on call; Platform primary")
        #expect(calendar.events.allSatisfy { $0.transparency == "TRANSPARENT" })
        #expect(confirmed.allSatisfy { $0.alarms == 1 })
        #expect(calendar.events.contains { $0.uid == "removed@1" && $0.status == "CANCELLED" })
    }
}
