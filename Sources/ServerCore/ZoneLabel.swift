import Foundation
import RosterDomain

/// An instant as a schedule's zone shows it, with the zone's abbreviation: "Thu 26 Nov 21:00 CET".
/// In another language, the date as its locale writes it ("Do., 26. Nov., 21:00 CET"); the
/// abbreviation is the tz database's in every language.
package struct ZoneLabel: Sendable {
    package let name: String
    private let clock: WallClock
    private let zone: TimeZone
    /// The locale's own forms (nil: the English one written here, which is also the CLI's).
    private let localized: (label: Date.FormatStyle, time: Date.FormatStyle, weekday: Date.FormatStyle)?
    /// Put around every label (the web app's pseudo-locale marks what went through here).
    private let marks: (open: String, close: String)

    /// Zones that are UTC however the host names them (Linux's Foundation calls UTC "GMT").
    private static let utc: Set = [
        "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "UCT", "Etc/UCT",
    ]
    private let isUTC: Bool

    package init(zone identifier: String, locale: Locale? = nil, marked marks: (String, String) = ("", "")) {
        let zone = TimeZone(identifier: identifier.isEmpty ? "UTC" : identifier) ?? TimeZone(identifier: "UTC")!
        self.zone = zone
        isUTC = Self.utc.contains(zone.identifier)
        name = isUTC ? "UTC" : zone.identifier
        clock = WallClock(zone: zone.identifier) ?? WallClock(zone: "UTC")!
        self.marks = marks
        localized = locale.map { locale in
            let base = Date.FormatStyle(locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: zone)
            let time = base.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
            return (
                base.weekday(.abbreviated).day().month(.abbreviated).hour(.twoDigits(amPM: .omitted))
                    .minute(.twoDigits), time, base.weekday(.abbreviated)
            )
        }
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package var wallClock: WallClock { clock }

    /// "Mon" for a day.
    package func weekday(_ day: WallClock.Day) -> String {
        guard let localized else { return marks.open + Self.weekdays[clock.weekday(of: day) - 1] + marks.close }
        // Noon of the day: the same weekday in every zone's day, whatever its transitions.
        let noon = clock.instant(day, minuteOfDay: 12 * 60)
        return Date(timeIntervalSince1970: Double(noon) / 1000).formatted(localized.weekday)
    }

    /// "14:23 UTC": the time of day and the zone.
    package func time(_ instant: UnixMillis) -> String {
        if let localized {
            return Date(timeIntervalSince1970: Double(instant) / 1000).formatted(localized.time) + " "
                + abbreviation(at: instant)
        }
        let local = clock.local(instant)
        return marks.open + Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute) + " "
            + abbreviation(at: instant) + marks.close
    }

    /// The time alone when `instant` falls within a day after `reference`, else the whole label.
    package func near(_ instant: UnixMillis, to reference: UnixMillis) -> String {
        instant >= reference && instant - reference < 86_400_000 ? time(instant) : label(instant)
    }

    package func label(_ instant: UnixMillis) -> String {
        if let localized {
            return Date(timeIntervalSince1970: Double(instant) / 1000).formatted(localized.label) + " "
                + abbreviation(at: instant)
        }
        let local = clock.local(instant)
        let weekday = clock.weekday(of: WallClock.Day(year: local.year, month: local.month, day: local.day))
        let time = Self.twoDigits(local.hour) + ":" + Self.twoDigits(local.minute)
        return marks.open
            + "\(Self.weekdays[weekday - 1]) \(local.day) \(Self.months[local.month - 1]) \(time) \(abbreviation(at: instant))"
            + marks.close
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The zone's abbreviation at an instant, as the tz database names it ("CET", "CEST", "+03").
    private func abbreviation(at instant: UnixMillis) -> String {
        guard !isUTC else { return "UTC" }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
        return ZoneAbbreviations.abbreviation(zone: zone.identifier, at: instant, offsetSeconds: offset)
    }
}
