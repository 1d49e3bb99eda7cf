import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct TimeArgumentTests {
    // 2026-11-22T10:30:00Z.
    let now: UnixMillis = 1_795_343_400_000
    let utc = TimeZone(identifier: "UTC")!
    let paris = TimeZone(identifier: "Europe/Paris")!

    @Test func relativeForms() throws {
        #expect(try TimeArgument.parse("now", now: now, timeZone: utc) == now)
        #expect(try TimeArgument.parse("+2h", now: now, timeZone: utc) == now + 7_200_000)
        #expect(try TimeArgument.parse("-30m", now: now, timeZone: utc) == now - 1_800_000)
        #expect(try TimeArgument.parse("+1d", now: now, timeZone: utc) == now + 86_400_000)
        #expect(try TimeArgument.parse("+1h30m", now: now, timeZone: utc) == now + 5_400_000)
        #expect(try TimeArgument.parse("90s ago", now: now, timeZone: utc) == now - 90_000)
        #expect(try TimeArgument.parse("in 2h", now: now, timeZone: utc) == now + 7_200_000)
    }

    @Test func wallClockFormsUseTheDisplayZone() throws {
        #expect(
            try TimeArgument.parse("tomorrow 09:00", now: now, timeZone: utc)
                == TimeText.parseISO8601("2026-11-23T09:00:00Z"))
        #expect(
            try TimeArgument.parse("tomorrow 09:00", now: now, timeZone: paris)
                == TimeText.parseISO8601("2026-11-23T08:00:00Z"))
        #expect(
            try TimeArgument.parse("17:45", now: now, timeZone: utc) == TimeText.parseISO8601("2026-11-22T17:45:00Z"))
        #expect(
            try TimeArgument.parse("yesterday 23:00", now: now, timeZone: utc)
                == TimeText.parseISO8601("2026-11-21T23:00:00Z"))
        #expect(
            try TimeArgument.parse("2026-12-01 08:00", now: now, timeZone: paris)
                == TimeText.parseISO8601("2026-12-01T07:00:00Z"))
    }

    @Test func iso8601WithAZoneIsAbsolute() throws {
        #expect(
            try TimeArgument.parse("2026-11-22T09:00:00+01:00", now: now, timeZone: utc)
                == TimeText.parseISO8601("2026-11-22T08:00:00Z"))
        #expect(try TimeArgument.parse("2026-11-22T09:00:00.250Z", now: now, timeZone: paris) == 1_795_338_000_250)
    }

    @Test func hostileTextIsRefusedWithoutTrapping() {
        // Found by FuzzParsers: a combining character made Foundation's DateFormatter trap; a
        // huge offset overflowed the sum; a day the month does not have was moved to the next.
        for text in [
            "2\u{33B}00", "+99999999999999999d", "+9999999999h9999999999h", "2026-02-30", "2026-11-31 09:00",
            "2026-11-30T9:00", "٢٠٢٦-١١-٣٠",
        ] {
            #expect(throws: TimeArgument.Invalid.self, "\(text)") {
                try TimeArgument.parse(text, now: now, timeZone: utc)
            }
        }
        #expect(
            (try? TimeArgument.parse("2026-11-30", now: now, timeZone: utc))
                == TimeText.parseISO8601("2026-11-30T00:00:00Z"))
        #expect(
            (try? TimeArgument.parse("2026-11-30 09:00:30", now: now, timeZone: utc))
                == TimeText.parseISO8601("2026-11-30T09:00:30Z"))
    }

    @Test func nonsenseIsRefused() {
        for text in ["half past nine", "+2x", "25:00", "tomorrow 9:61", "", "+", "in soon"] {
            #expect(throws: TimeArgument.Invalid.self, "\(text)") {
                try TimeArgument.parse(text, now: now, timeZone: utc)
            }
        }
    }
}
