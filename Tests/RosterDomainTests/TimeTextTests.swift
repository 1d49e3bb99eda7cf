import Foundation
import RosterDomain
import Testing

/// The one reader and writer of absolute instants (issue #31: exports wrote some instants 1 ms
/// early through a Double, and impossible dates were moved to the next month).
@Suite(.timeLimit(.minutes(10))) struct TimeTextTests {
    @Test func everyMillisecondReadsBackExactly() {
        // Spread over the supported years, with awkward milliseconds (…123 has no exact Double).
        var instant: UnixMillis = TimeRange.supported.lowerBound
        let step: UnixMillis = (TimeRange.supported.upperBound - TimeRange.supported.lowerBound) / 5_003
        while instant + 1_000 < TimeRange.supported.upperBound {
            for millis in [instant, instant + 123, instant + 999, instant + 1] {
                let text = TimeText.iso8601Millis(millis)
                #expect(TimeText.parseISO8601(text) == millis, "\(text)")
            }
            instant += step
        }
        #expect(TimeText.iso8601Millis(1_795_343_400_123) == "2026-11-22T10:30:00.123Z")
        #expect(TimeText.iso8601(1_795_343_400_999) == "2026-11-22T10:30:00Z", "whole seconds, rounded down")
        #expect(TimeText.iso8601(-1) == "1969-12-31T23:59:59Z")
    }

    @Test func offsetsFractionsAndShortForms() {
        #expect(TimeText.parseISO8601("2026-11-22T09:00:00+01:00") == TimeText.parseISO8601("2026-11-22T08:00:00Z"))
        #expect(TimeText.parseISO8601("2026-11-22T09:00:00-0530") == TimeText.parseISO8601("2026-11-22T14:30:00Z"))
        #expect(TimeText.parseISO8601("2026-11-22T09:00Z") == TimeText.parseISO8601("2026-11-22T09:00:00Z"))
        #expect(
            TimeText.parseISO8601("2026-11-22T09:00:00.25Z") == TimeText.parseISO8601("2026-11-22T09:00:00Z")! + 250)
        #expect(
            TimeText.parseISO8601("2026-11-22T09:00:00.123456789Z") == TimeText.parseISO8601("2026-11-22T09:00:00Z")!
                + 123)
    }

    /// An HTTP `Date` header (a source's clock in `migrate --api`): IMF-fixdate only, each field
    /// checked as an ISO instant's is.
    @Test func httpDatesInTheirOneCurrentForm() {
        #expect(
            TimeText.parseHTTPDate("Fri, 26 Feb 2027 12:00:00 GMT") == TimeText.parseISO8601("2027-02-26T12:00:00Z"))
        #expect(TimeText.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777_000)
        for refused in [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 2027 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT",
            "Sun, 06 Nov +994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ", "Xyz, 06 Nov 1994 08:49:37 GMT", "",
        ] {
            #expect(TimeText.parseHTTPDate(refused) == nil, "\(refused)")
        }
    }

    @Test func impossibleOrSloppyTimesAreRefused() {
        for text in [
            "2027-02-30T09:00:00Z", "2026-11-31T09:00:00Z", "2026-11-30T9:00:00Z", "2026-11-30T24:00:00Z",
            "2026-11-30T09:60:00Z", "2026-11-30T09:00:60Z", "2026-11-30T09:00:00", "2026-11-30T09:00:00+25:00",
            "2026-11-30T09:00:00.Z", "2026-11-30T09:00:00.1234567890Z", "2026-11-30", "2026-11-30 09:00:00Z",
            "2026-11-30T09:00:00ZZ", "２０２６-11-30T09:00:00Z", "",
        ] {
            #expect(TimeText.parseISO8601(text) == nil, "\(text)")
        }
    }
}
