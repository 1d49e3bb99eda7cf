import Foundation

/// The one grammar for durations people type: a number and a unit, "500ms", "10s", "5m",
/// "2h", "30d", "1w". The unit is required: a bare "90" is refused, not taken as seconds (a
/// token meant to last 90 days must not expire in 90 seconds). Used by `--timeout`, token
/// lifetimes, calendar alarms and reminders, so that every flag reads durations the same way.
extension Duration {
    /// Whole milliseconds (rounded down), for the wire and for APIs that count in them.
    public var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}

public enum DurationText {
    /// The longest duration anything accepts: 100 years. Every use has a tighter bound of its
    /// own (`parse(_:within:)`); this one keeps the arithmetic far from overflow.
    public static let maximum: Duration = .seconds(100 * 366 * 86_400)

    /// A duration of `text`, or nil when it is not one, is not positive, or is longer than
    /// `bound`. Digits are ASCII only and the multiplication is checked, so no text can overflow.
    public static func parse(_ text: String, within bound: Duration = maximum) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        // 18 digits fit an Int64; more are refused before they are read.
        guard !digits.isEmpty, digits.count <= 18, let value = Int64(digits), value > 0 else { return nil }
        let unitMillis: Int64
        switch trimmed.dropFirst(digits.count) {
        case "ms": unitMillis = 1
        case "s": unitMillis = 1_000
        case "m": unitMillis = 60_000
        case "h": unitMillis = 3_600_000
        case "d": unitMillis = 86_400_000
        case "w": unitMillis = 7 * 86_400_000
        default: return nil
        }
        let (millis, overflow) = value.multipliedReportingOverflow(by: unitMillis)
        guard !overflow, millis <= min(bound, maximum).milliseconds else { return nil }
        return .milliseconds(millis)
    }

    /// A whole number of minutes in the largest unit that divides it: "15m", "2h", "1d".
    public static func format(minutes: Int) -> String {
        if minutes > 0, minutes % 1440 == 0 { return "\(minutes / 1440)d" }
        if minutes > 0, minutes % 60 == 0 { return "\(minutes / 60)h" }
        return "\(minutes)m"
    }

    /// How old something is, in its largest whole unit: "3 seconds", "5 minutes", "2 hours",
    /// "4 days". The CLI's cache answers and the view models' offline message both say it so.
    public static func age(seconds: TimeInterval) -> String {
        let value = max(0, Int(seconds))
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        switch value {
        case ..<60: return unit(value, "second")
        case ..<3600: return unit(value / 60, "minute")
        case ..<86400: return unit(value / 3600, "hour")
        default: return unit(value / 86400, "day")
        }
    }
}
