import Foundation

/// The one grammar for durations people type: a number and a unit, "500ms", "10s", "5m",
/// "2h", "30d", "1w"; a bare number is seconds. Used by `--timeout`, token lifetimes and the
/// like, so that every flag reads durations the same way.
extension Duration {
    /// Whole milliseconds (rounded down), for the wire and for APIs that count in them.
    public var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}

public enum DurationText {
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber }
        guard let value = Int64(digits), value > 0 else { return nil }
        switch trimmed.dropFirst(digits.count) {
        case "ms": return .milliseconds(value)
        case "", "s": return .seconds(value)
        case "m": return .seconds(value * 60)
        case "h": return .seconds(value * 3_600)
        case "d": return .seconds(value * 86_400)
        case "w": return .seconds(value * 7 * 86_400)
        default: return nil
        }
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
