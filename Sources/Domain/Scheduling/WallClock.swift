import Foundation

/// Wall-clock arithmetic in one IANA zone, with DESIGN.md 5.2's rules: a wall time that does not
/// exist (spring forward) is the first instant after the jump; an ambiguous one (fall back) is its
/// first occurrence, or its last for the end of a window, so windows may overlap at fall-back but
/// never leave a gap.
///
/// The wall-time-to-instant step is done here from the zone's offsets, not with Calendar's
/// `.nextTime` policy: on Linux that policy moves a missing time on a 30-minute transition
/// (Australia/Lord_Howe) to the next day's, which would lose a handoff.
public struct WallClock: Sendable {
    private let zone: TimeZone

    public init?(zone: String) {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        self.zone = timeZone
    }

    public init(timeZone: TimeZone) { zone = timeZone }

    /// The zone's IANA name.
    public var zoneIdentifier: String { zone.identifier }

    /// A local date: year, month, day.
    public struct Day: Sendable, Hashable, Comparable, Codable {
        public var year: Int, month: Int, day: Int
        public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }
        public static func < (a: Day, b: Day) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil):
    /// day arithmetic in integers, without a Calendar call per step.
    static func days(_ day: Day) -> Int {
        let y = day.month <= 2 ? day.year - 1 : day.year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (day.month + (day.month > 2 ? -3 : 9)) + 2) / 5 + day.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01 (civil_from_days).
    static func day(fromDays days: Int) -> Day {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return Day(year: yearOfEra + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The local day `days` days (or `months` months, the day clamped to the month's length)
    /// after `day`.
    public func day(_ day: Day, adding days: Int = 0, months: Int = 0) -> Day {
        var moved = day
        if months != 0 {
            let index = day.year * 12 + (day.month - 1) + months
            let year = index >= 0 ? index / 12 : (index - 11) / 12
            let month = index - year * 12 + 1
            moved = Day(year: year, month: month, day: min(day.day, Self.daysInMonth(year: year, month: month)))
        }
        return days == 0 ? moved : Self.day(fromDays: Self.days(moved) + days)
    }

    /// The instant of `minuteOfDay` (0 ... 1440) on `day`.
    public func instant(_ day: Day, minuteOfDay: Int, lastOccurrence: Bool = false) -> UnixMillis {
        if minuteOfDay >= 1440 {
            return instant(
                self.day(day, adding: minuteOfDay / 1440), minuteOfDay: minuteOfDay % 1440,
                lastOccurrence: lastOccurrence)
        }
        // The wall time read as if it were UTC, in seconds.
        let wall = Self.days(day) * 86_400 + minuteOfDay * 60
        // The instants it can be: the wall time minus the offset before, or after, a transition.
        let offsets = (
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - 86_400))),
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall + 86_400)))
        )
        // Which of the (at most two) candidates really read as this wall time; no collection is
        // made, as this runs for every handoff a resolution looks at.
        let (early, late) = (wall - max(offsets.0, offsets.1), wall - min(offsets.0, offsets.1))
        func matches(_ candidate: Int) -> Bool {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(candidate))) == wall - candidate
        }
        let earlyMatches = matches(early), lateMatches = early != late && matches(late)
        if lastOccurrence ? lateMatches : earlyMatches { return UnixMillis(lastOccurrence ? late : early) * 1000 }
        if earlyMatches || lateMatches { return UnixMillis(earlyMatches ? early : late) * 1000 }
        // The wall time does not exist: the clock jumped over it. The first instant after the jump.
        let before = Date(timeIntervalSince1970: Double(wall - offsets.0 - 86_400))
        let jump =
            zone.nextDaylightSavingTimeTransition(after: before)
            ?? Date(timeIntervalSince1970: Double(wall - offsets.1))
        return UnixMillis((jump.timeIntervalSince1970 * 1000).rounded())
    }

    /// The local day of an instant, and its weekday (1 = Sunday).
    public func day(of instant: UnixMillis) -> (day: Day, weekday: Int) {
        let seconds = Int((instant >= 0 ? instant : instant - 999) / 1000)
        let local = seconds + zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (Self.day(fromDays: days), Self.weekday(days: days))
    }

    public func weekday(of day: Day) -> Int { Self.weekday(days: Self.days(day)) }

    /// The wall-clock date and time of an instant, to the minute.
    public func local(_ instant: UnixMillis) -> LocalDateTime {
        let seconds = Int((instant >= 0 ? instant : instant - 999) / 1000)
        let local = seconds + zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let day = Self.day(fromDays: days), minute = (local - days * 86_400) / 60
        return LocalDateTime(year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
    }

    /// The first instant after `instant` at which the zone's offset changes, if any.
    public func nextTransition(after instant: UnixMillis) -> UnixMillis? {
        zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(instant) / 1000))
            .map { UnixMillis(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// 1970-01-01 was a Thursday, weekday 5 when Sunday is 1.
    static func weekday(days: Int) -> Int { ((days % 7) + 7 + 4) % 7 + 1 }
}
