import Foundation
@testable import RosterDomain
import Testing

/// The iCalendar writer's rules from RFC 5545: folding, escaping, UTC instants, durations.
@Suite(.timeLimit(.minutes(10))) struct ICalendarTests {
    @Test func longLinesFoldAt75OctetsAndNeverInsideACharacter() {
        let summary = String(repeating: "Håkon Wium Lie on call — Plattform Grün ", count: 6)
        let line = "SUMMARY:" + ICalendar.text(summary)
        let folded = ICalendar.fold(line)
        let physical = folded.components(separatedBy: "\r\n")
        #expect(physical.count > 3)
        #expect(physical.allSatisfy { $0.utf8.count <= 75 }, "\(physical.map(\.utf8.count))")
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(
            physical.first! + physical.dropFirst().map { String($0.dropFirst()) }.joined() == line,
            "unfolding gives the line back")
        #expect(ICalendar.fold("SHORT:line") == "SHORT:line")
    }

    @Test func textIsEscapedAndControlCharactersDropped() {
        #expect(ICalendar.text("a;b,c\\d\ne\u{7}f") == "a\\;b\\,c\\\\d\\nef")
    }

    @Test func instantsAreUTCAndDurationsAreRFC5545() {
        #expect(ICalendar.instant(TimeText.parseISO8601("2027-03-29T07:00:00Z")!) == "20270329T070000Z")
        #expect(ICalendar.duration(.seconds(3600)) == "PT1H")
        #expect(ICalendar.duration(.seconds(900)) == "PT15M")
        #expect(ICalendar.duration(.seconds(86_400 + 1800)) == "P1DT30M")
        #expect(ICalendar.duration(.seconds(86_400)) == "P1D")
        #expect(ICalendar.duration(.seconds(0)) == "PT0S")
    }

    @Test func aFeedHasEveryEventTransparentWithItsStatusAndAlarm() {
        let feed = ICalendar.feed(
            [
                CalendarEvent(
                    uid: "r:a@1", start: 0, end: 3_600_000, summary: "Ada Lovelace on call, Platform", sequence: 2,
                    lastModified: 1000),
                CalendarEvent(
                    uid: "r:a@2", start: 3_600_000, end: 7_200_000, summary: "gone", lastModified: 1000,
                    cancelledAt: 1000),
            ], options: .init(name: "Platform primary", alarmBefore: .seconds(900)), now: 5000)
        #expect(feed.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && feed.hasSuffix("END:VCALENDAR\r\n"))
        #expect(feed.components(separatedBy: "TRANSP:TRANSPARENT").count == 3)
        #expect(feed.contains("SUMMARY:Ada Lovelace on call\\, Platform\r\n"))
        #expect(feed.contains("STATUS:CANCELLED") && feed.contains("SEQUENCE:2") && feed.contains("TRIGGER:-PT15M"))
        #expect(feed.components(separatedBy: "BEGIN:VALARM").count == 2, "no alarm for a cancelled shift")
        #expect(feed.contains("X-PUBLISHED-TTL:PT1H") && feed.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H"))
    }
}
