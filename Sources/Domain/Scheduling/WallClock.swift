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
    public let calendar: Calendar
    private let zone: TimeZone
    private let utc: Calendar

    public init?(zone: String) {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.zone = timeZone
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        self.utc = utc
    }

    /// A local date: year, month, day.
    public struct Day: Sendable, Hashable, Comparable {
        public var year: Int, month: Int, day: Int
        public init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }
        public static func < (a: Day, b: Day) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
    }

    private func noon(_ day: Day) -> Date {
        calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
    }

    /// The local day `days` days (or `months` months) after `day`.
    public func day(_ day: Day, adding days: Int = 0, months: Int = 0) -> Day {
        let moved = calendar.date(byAdding: DateComponents(month: months, day: days), to: noon(day))!
        let parts = calendar.dateComponents([.year, .month, .day], from: moved)
        return Day(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// The instant of `minuteOfDay` (0 ... 1440) on `day`.
    public func instant(_ day: Day, minuteOfDay: Int, lastOccurrence: Bool = false) -> UnixMillis {
        if minuteOfDay >= 1440 { return instant(self.day(day, adding: minuteOfDay / 1440), minuteOfDay: minuteOfDay % 1440,
                                                lastOccurrence: lastOccurrence) }
        // The wall time read as if it were UTC, in seconds.
        let wall = Int(utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!.timeIntervalSince1970)
            + minuteOfDay * 60
        // The instants it can be: the wall time minus the offset before, or after, a transition.
        let offsets = [zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - 86_400))),
                       zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall + 86_400)))]
        let matching = Set(offsets.map { wall - $0 }).filter {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) == wall - $0
        }.sorted()
        if let found = lastOccurrence ? matching.last : matching.first { return UnixMillis(found) * 1000 }
        // The wall time does not exist: the clock jumped over it. The first instant after the jump.
        let before = Date(timeIntervalSince1970: Double(wall - offsets[0] - 86_400))
        let jump = zone.nextDaylightSavingTimeTransition(after: before) ?? Date(timeIntervalSince1970: Double(wall - offsets[1]))
        return UnixMillis((jump.timeIntervalSince1970 * 1000).rounded())
    }

    /// The local day of an instant, and its weekday (1 = Sunday).
    public func day(of instant: UnixMillis) -> (day: Day, weekday: Int) {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(instant) / 1000))
        return (Day(year: parts.year!, month: parts.month!, day: parts.day!), parts.weekday!)
    }

    public func weekday(of day: Day) -> Int { calendar.component(.weekday, from: noon(day)) }
}
