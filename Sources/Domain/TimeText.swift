import Foundation
import SwiftCSV

/// ISO 8601 parsing shared by imports and the CLI.
public enum TimeText {
    /// The one reader of absolute instants: "2026-11-22T09:00:00Z", "2026-11-22T09:00Z", with a
    /// fraction of a second (".250", up to 9 digits; past the millisecond it is cut), and "Z" or
    /// a numeric offset ("+01:00", "+0100"). Every field at its exact width in ASCII digits, a
    /// day its month has: "2027-02-30T09:00:00Z" is refused, never moved to March. Exact integer
    /// arithmetic, so what `iso8601` writes reads back to the same millisecond.
    public static func parseISO8601(_ text: String) -> UnixMillis? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        // The date and clock: 16 bytes (no seconds) or 19.
        let clockEnd = bytes.count > 16 && bytes[16] == UInt8(ascii: ":") ? 19 : 16
        guard bytes.count > clockEnd, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            let (local, second) = LocalDateTime.parse(
                String(decoding: bytes[0..<clockEnd], as: UTF8.self),
                allowingDateOnly: false)
        else { return nil }
        func digit(_ byte: UInt8) -> Int? { (48...57).contains(byte) ? Int(byte) - 48 : nil }
        var index = clockEnd, millis = 0
        if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var count = 0
            while index < bytes.count, let value = digit(bytes[index]) {
                if count < 3 { millis = millis * 10 + value }
                count += 1
                index += 1
            }
            guard (1...9).contains(count) else { return nil }
            if count < 3 { for _ in count..<3 { millis *= 10 } }
        }
        var offsetMinutes = 0
        let zone = Array(bytes[index...])
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] {
            offsetMinutes = 0
        } else {
            guard zone.count == 6 || zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-")
            else { return nil }
            let colon = zone.count == 6
            guard !colon || zone[3] == UInt8(ascii: ":"),
                let h1 = digit(zone[1]), let h2 = digit(zone[2]),
                let m1 = digit(zone[colon ? 4 : 3]), let m2 = digit(zone[colon ? 5 : 4])
            else { return nil }
            let hours = h1 * 10 + h2, minutes = m1 * 10 + m2
            guard hours <= 23, minutes <= 59 else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        }
        let days = WallClock.days(WallClock.Day(year: local.year, month: local.month, day: local.day))
        let seconds = days * 86_400 + local.hour * 3_600 + local.minute * 60 + second - offsetMinutes * 60
        return UnixMillis(seconds) * 1_000 + UnixMillis(millis)
    }

    /// The instant of an HTTP `Date` header in its one current form (RFC 9110 IMF-fixdate, "Sun,
    /// 06 Nov 1994 08:49:37 GMT"), checked field by field as `parseISO8601` checks them; the
    /// obsolete forms are nil.
    public static func parseHTTPDate(_ text: String) -> UnixMillis? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let fields = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","),
            weekdays.contains(String(fields[0].prefix(3))), fields[1].count == 2,
            let month = months.firstIndex(of: fields[2]), fields[3].count == 4, fields[4].count == 8,
            fields[5] == "GMT"
        else { return nil }
        let iso = "\(fields[3])-\(month < 9 ? "0" : "")\(month + 1)-\(fields[1])T\(fields[4])Z"
        return parseISO8601(iso)
    }

    /// "2026-11-22T09:00:00Z" for an instant, in UTC (whole seconds, rounded down).
    public static func iso8601(_ instant: UnixMillis) -> String {
        let (seconds, _) = floorDivision(instant, 1_000)
        return text(seconds: seconds, millis: nil)
    }

    /// "2026-11-22T09:00:00.250Z": every millisecond kept, so an export reads back exactly.
    public static func iso8601Millis(_ instant: UnixMillis) -> String {
        let (seconds, millis) = floorDivision(instant, 1_000)
        return text(seconds: seconds, millis: Int(millis))
    }

    private static func floorDivision(_ value: UnixMillis, _ divisor: UnixMillis) -> (UnixMillis, UnixMillis) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    private static func text(seconds: UnixMillis, millis: Int?) -> String {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let day = WallClock.day(fromDays: Int(days))
        let s = Int(secondOfDay)
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", day.year, day.month, day.day, s / 3_600, s / 60 % 60, s % 60)
        if let millis { text += String(format: ".%03d", millis) }
        return text + "Z"
    }
}
