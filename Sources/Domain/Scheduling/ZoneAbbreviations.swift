import Foundation
import Synchronization

/// The zone abbreviations people read ("CET" in November and "CEST" in July, "EST", "EDT",
/// "IST"), taken from the tz database's own files, since Foundation on Linux names most zones
/// "GMT+1". Where the database has no letters for a time ("+03" in Istanbul) or no file for the
/// zone, the numeric form is used, as the database itself writes it.
///
/// A zone's file is read once per process, the first time the zone is labelled (a few KB from
/// `TZDIR`, else /usr/share/zoneinfo), and kept: at most `maxZones` of them.
public enum ZoneAbbreviations {
    public static let maxZones = 1_024

    /// The tz database's directory: TZDIR if set, else Debian's /usr/share/zoneinfo.
    static var directory: String { ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo" }

    /// Each zone read so far: its file, or nil when it has none that parses.
    private static let files = Mutex<[String: TZif?]>([:])

    /// The abbreviation of `zone` at `instant` (milliseconds since 1970) for a clock
    /// `offsetSeconds` from UTC there (WallClock's): the database's name when its offset agrees,
    /// else the numeric form.
    public static func abbreviation(zone: String, at instant: Int64, offsetSeconds: Int) -> String {
        let seconds = instant >= 0 ? instant / 1_000 : (instant - 999) / 1_000
        if let file = file(for: zone), let name = file.abbreviation(at: seconds, offsetSeconds: offsetSeconds) {
            return name
        }
        return numeric(offsetSeconds)
    }

    /// "+01", "-05", "+0530", "+054530": the tz database's form for a time without letters.
    public static func numeric(_ offsetSeconds: Int) -> String {
        let sign = offsetSeconds < 0 ? "-" : "+"
        let total = abs(offsetSeconds)
        let hours = total / 3_600, minutes = total % 3_600 / 60, seconds = total % 60
        var text = sign + twoDigits(hours)
        if minutes != 0 || seconds != 0 { text += twoDigits(minutes) }
        if seconds != 0 { text += twoDigits(seconds) }
        return text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// A zone name that can only be a file under the database's directory: 1 to 64 characters of
    /// letters, digits, "/", "_", "+" and "-", no empty, "." or ".." part.
    static func isZoneName(_ zone: String) -> Bool {
        guard (1...64).contains(zone.utf8.count),
            zone.utf8.allSatisfy({
                TZif.isAlphanumeric($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
            })
        else { return false }
        return zone.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty }
    }

    /// Reads the zones' files now (a blocking read of a few KB each): the server calls it at
    /// start on a thread of its own, so that a later label, in an async context, reads none.
    public static func preload(_ zones: some Sequence<String>) {
        for zone in zones { _ = file(for: zone.isEmpty ? "UTC" : zone) }
    }

    /// Whether a zone's file (or its absence) is kept already.
    package static func isKept(_ zone: String) -> Bool { files.withLock { $0[zone] != nil } }

    /// The zone's parsed file, read on first use.
    static func file(for zone: String) -> TZif? {
        if let known = files.withLock({ $0[zone] }) { return known }
        let parsed = isZoneName(zone) ? read((directory as NSString).appendingPathComponent(zone)) : nil
        files.withLock { files in
            if files.count >= maxZones { files.removeAll() }
            files[zone] = .some(parsed)
        }
        return parsed
    }

    /// The file at `path`, if it is a regular file within `TZif.maxBytes` that parses.
    static func read(_ path: String) -> TZif? {
        // Older names are links to the current ones (US/Eastern to America/New_York).
        let path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= TZif.maxBytes,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? TZif(parsing: [UInt8](data))
    }
}
