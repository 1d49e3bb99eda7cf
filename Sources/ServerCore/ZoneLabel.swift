import Foundation
import RosterDomain

/// An instant as a schedule's zone shows it, with the zone's abbreviation: "Thu 26 Nov 21:00 CET".
package struct ZoneLabel: Sendable {
    package let name: String
    private let clock: WallClock
    private let zone: TimeZone

    /// Zones that are UTC however the host names them (Linux's Foundation calls UTC "GMT").
    private static let utc: Set = [
        "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "UCT", "Etc/UCT",
    ]
    private let isUTC: Bool

    package init(zone identifier: String) {
        let zone = TimeZone(identifier: identifier.isEmpty ? "UTC" : identifier) ?? TimeZone(identifier: "UTC")!
        self.zone = zone
        isUTC = Self.utc.contains(zone.identifier)
        name = isUTC ? "UTC" : zone.identifier
        clock = WallClock(zone: zone.identifier) ?? WallClock(zone: "UTC")!
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package var wallClock: WallClock { clock }

    /// "Mon" for a day.
    package func weekday(_ day: WallClock.Day) -> String { Self.weekdays[clock.weekday(of: day) - 1] }

    /// "14:23 UTC": the time of day and the zone.
    package func time(_ instant: UnixMillis) -> String {
        let local = clock.local(instant)
        return Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute) + " " + abbreviation(at: instant)
    }

    /// The time alone when `instant` falls within a day after `reference`, else the whole label.
    package func near(_ instant: UnixMillis, to reference: UnixMillis) -> String {
        instant >= reference && instant - reference < 86_400_000 ? time(instant) : label(instant)
    }

    package func label(_ instant: UnixMillis) -> String {
        let local = clock.local(instant)
        let weekday = clock.weekday(of: WallClock.Day(year: local.year, month: local.month, day: local.day))
        let time = Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute)
        return
            "\(Self.weekdays[weekday - 1]) \(local.day) \(Self.months[local.month - 1]) \(time) \(abbreviation(at: instant))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The zone's abbreviation at an instant, as the tz database names it ("CET", "CEST", "+03").
    private func abbreviation(at instant: UnixMillis) -> String {
        guard !isUTC else { return "UTC" }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
        return ZoneAbbreviations.abbreviation(zone: zone.identifier, at: instant, offsetSeconds: offset)
    }
}
