import Foundation
import RosterServerCore
import RosterDomain

/// What a timeline shows, read from its query (the one parser of `span`, `start` and `tz`):
/// 1 week, 2 weeks or 1 month from a local midnight, in one zone. Every instant the page draws is
/// worked out from these; the zone changes only the labels and where days begin.
struct TimelineWindow: Equatable {
    enum Span: String, CaseIterable {
        case week = "1w", twoWeeks = "2w", month = "1m"

        func title(_ words: Words) -> String {
            switch self {
            case .week: words("1 week")
            case .twoWeeks: words("2 weeks")
            case .month: words("1 month")
            }
        }
    }

    /// Which zone the times are in: the schedule's, UTC, or one the viewer chose (the browser's).
    enum ZoneChoice: Equatable {
        case schedule, utc, named(String)

        var query: String {
            switch self {
            case .schedule: "schedule"
            case .utc: "utc"
            case .named(let name): name
            }
        }
    }

    var span: Span
    var firstDay: WallClock.Day
    var zone: ZoneChoice
    /// The zone's identifier as `ZoneLabel` takes it.
    var zoneIdentifier: String
    var from: UnixMillis
    var to: UnixMillis

    struct Refusal: Error, Equatable { var message: String }

    /// The longest zone name accepted (IANA names are far shorter).
    static let maxZoneLength = 64

    /// - Parameters: query: the page's query (`span`, `start` as YYYY-MM-DD, `tz`); scheduleZone:
    ///   the schedule's own; now: the instant "today" is taken from.
    init(query: [String: String], scheduleZone: String, now: UnixMillis, words: Words = .english) throws(Refusal) {
        guard let span = Span(rawValue: query["span"] ?? Span.week.rawValue) else {
            throw Refusal(message: words("span is 1w, 2w or 1m"))
        }
        let zone: ZoneChoice
        switch query["tz"] ?? "schedule" {
        case "", "schedule": zone = .schedule
        case "utc", "UTC": zone = .utc
        case let name:
            guard name.utf8.count <= Self.maxZoneLength, WallClock(zone: name) != nil else {
                throw Refusal(message: words("tz is schedule, utc or a zone name such as Europe/Berlin"))
            }
            zone = .named(name)
        }
        let identifier: String
        switch zone {
        case .schedule: identifier = scheduleZone.isEmpty ? "UTC" : scheduleZone
        case .utc: identifier = "UTC"
        case .named(let name): identifier = name
        }
        guard let clock = WallClock(zone: identifier) else {
            throw Refusal(message: words("the schedule’s zone is unknown here"))
        }
        let firstDay: WallClock.Day
        if let text = query["start"], !text.isEmpty {
            guard text.utf8.count == 10,
                let parsed = LocalDateTime.parse(text, allowingSeconds: false, allowingDateOnly: true)?.local,
                (1971...9998).contains(parsed.year)
            else {
                throw Refusal(message: words("start is a date, YYYY-MM-DD"))
            }
            firstDay = WallClock.Day(year: parsed.year, month: parsed.month, day: parsed.day)
        } else {
            firstDay = clock.day(of: now).day
        }
        (self.span, self.firstDay, self.zone, zoneIdentifier) = (span, firstDay, zone, identifier)
        from = clock.instant(firstDay, minuteOfDay: 0)
        to = clock.instant(Self.day(after: firstDay, span: span, clock: clock), minuteOfDay: 0)
    }

    private static func day(after day: WallClock.Day, span: Span, clock: WallClock, times: Int = 1) -> WallClock.Day {
        switch span {
        case .week: clock.day(day, adding: 7 * times)
        case .twoWeeks: clock.day(day, adding: 14 * times)
        case .month: clock.day(day, months: times)
        }
    }

    var clock: WallClock { WallClock(zone: zoneIdentifier)! }

    /// The first day of the window before (-1) or after (+1) this one.
    func shifted(_ times: Int) -> WallClock.Day { Self.day(after: firstDay, span: span, clock: clock, times: times) }

    /// Each local midnight in the window, with its day: where the day lines are drawn (a day may
    /// be 23 or 25 hours long).
    var days: [(day: WallClock.Day, instant: UnixMillis)] {
        let clock = self.clock
        var result: [(WallClock.Day, UnixMillis)] = []
        var day = firstDay
        while true {
            let instant = clock.instant(day, minuteOfDay: 0)
            guard instant < to else { break }
            result.append((day, instant))
            day = clock.day(day, adding: 1)
        }
        return result
    }

    /// The query of this window with some fields changed, as a link's `?…`.
    func query(span: Span? = nil, start: WallClock.Day? = nil, zone: ZoneChoice? = nil, today: Bool = false) -> String {
        var items = [URLQueryItem(name: "span", value: (span ?? self.span).rawValue)]
        if !today {
            let day = start ?? firstDay
            items.append(
                URLQueryItem(name: "start", value: String(format: "%04d-%02d-%02d", day.year, day.month, day.day)))
        }
        let zone = zone ?? self.zone
        if zone != .schedule { items.append(URLQueryItem(name: "tz", value: zone.query)) }
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery.map { "?" + $0 } ?? ""
    }

    /// Where `instant` falls across the window, in percent (clamped to the window).
    func percent(_ instant: UnixMillis) -> Double {
        let clamped = min(max(instant, from), to)
        return Double(clamped - from) / Double(to - from) * 100
    }
}
