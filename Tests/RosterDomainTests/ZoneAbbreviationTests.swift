import Foundation
import RosterDomain
import Testing

/// Zone abbreviations from the tz database's own files (RFC 8536 TZif, and the POSIX TZ string
/// in their footers): what people read, "CET" and "CEST" rather than Foundation's "GMT+1"; the
/// numeric form where the database has no letters; and a parser that refuses every damaged file
/// with a typed error instead of reading past it.
@Suite(.timeLimit(.minutes(10)))
struct ZoneAbbreviationTests {
    static func millis(_ text: String) -> Int64 { TimeText.parseISO8601(text)! }

    /// The label at an instant, with Foundation's offset there, as ZoneLabel asks for it.
    static func label(_ zone: String, _ instant: String) -> String {
        let at = millis(instant)
        let offset = TimeZone(identifier: zone)!.secondsFromGMT(for: Date(timeIntervalSince1970: Double(at) / 1000))
        return ZoneAbbreviations.abbreviation(zone: zone, at: at, offsetSeconds: offset)
    }

    static let zoneinfo = "/usr/share/zoneinfo"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: zoneinfo + "/Europe/Berlin"), "no tz database (tzdata)"))
    func theDatabaseNamesEachSideOfEachChange() {
        let cases: [(String, String, String)] = [
            ("Europe/Berlin", "2026-11-28T12:00:00Z", "CET"),
            ("Europe/Berlin", "2026-07-15T12:00:00Z", "CEST"),
            // Before and after the spring change of 2026 (01:00 UTC on 29 March).
            ("Europe/Berlin", "2026-03-29T00:59:59Z", "CET"),
            ("Europe/Berlin", "2026-03-29T01:00:00Z", "CEST"),
            // Past the file's last transition (2037): the footer's names.
            ("Europe/Berlin", "2050-07-15T12:00:00Z", "CEST"),
            ("Europe/Berlin", "2050-12-15T12:00:00Z", "CET"),
            ("America/New_York", "2026-01-15T12:00:00Z", "EST"),
            ("America/New_York", "2026-07-15T12:00:00Z", "EDT"),
            ("Europe/London", "2026-07-15T12:00:00Z", "BST"),
            ("Asia/Kolkata", "2026-07-15T12:00:00Z", "IST"),
            // No letters in the database: its numeric form.
            ("Europe/Istanbul", "2026-07-15T12:00:00Z", "+03"),
            ("Australia/Lord_Howe", "2026-07-15T12:00:00Z", "+1030"),
            ("Australia/Lord_Howe", "2026-01-15T12:00:00Z", "+11"),
            // An older name is a link to the current one.
            ("US/Eastern", "2026-07-15T12:00:00Z", "EDT"),
        ]
        for (zone, instant, expected) in cases {
            #expect(Self.label(zone, instant) == expected, "\(zone) at \(instant)")
        }
    }

    /// What the server reads at start, off the cooperative pool, is kept: a later label reads no file.
    @Test func preloadedZonesAreKept() {
        // Zones no other test labels, so that nothing else has read them first.
        let zones = ["Pacific/Chatham", "America/St_Johns"]
        #expect(zones.allSatisfy { !ZoneAbbreviations.isKept($0) })
        ZoneAbbreviations.preload(zones + [""])
        #expect(zones.allSatisfy { ZoneAbbreviations.isKept($0) } && ZoneAbbreviations.isKept("UTC"))
        #expect(
            ZoneAbbreviations.abbreviation(
                zone: "America/St_Johns", at: Self.millis("2027-01-15T12:00:00Z"), offsetSeconds: -12_600) == "NST")
    }

    @Test func theNumericFormIsTheDatabases() {
        #expect(ZoneAbbreviations.numeric(3_600) == "+01")
        #expect(ZoneAbbreviations.numeric(0) == "+00")
        #expect(ZoneAbbreviations.numeric(-18_000) == "-05")
        #expect(ZoneAbbreviations.numeric(-12_600) == "-0330")
        #expect(ZoneAbbreviations.numeric(20_700) == "+0545")
        #expect(ZoneAbbreviations.numeric(3_208) == "+005328")
    }

    @Test func aNameThatIsNotAZoneReadsNoFile() {
        // Never a path out of the database: the numeric form instead.
        for name in ["../../etc/passwd", "/etc/passwd", "Europe//Berlin", "Europe/./Berlin", "", "Europe/Berlin\u{0}x"]
        {
            #expect(ZoneAbbreviations.abbreviation(zone: name, at: 0, offsetSeconds: 3_600) == "+01", "\(name)")
        }
        #expect(ZoneAbbreviations.abbreviation(zone: "Nowhere/Atall", at: 0, offsetSeconds: -3_600) == "-01")
    }

    @Test func posixStringsGiveTheirNamesAndOffsets() throws {
        let berlin = try PosixTZ(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(berlin.standardName == "CET" && berlin.standardOffsetSeconds == 3_600)
        #expect(berlin.daylightName == "CEST" && berlin.daylightOffsetSeconds == 7_200)
        let newYork = try PosixTZ(parsing: "EST5EDT,M3.2.0,M11.1.0")
        #expect(newYork.name(forOffset: -18_000) == "EST" && newYork.name(forOffset: -14_400) == "EDT")
        #expect(newYork.name(forOffset: 0) == nil)
        let istanbul = try PosixTZ(parsing: "<+03>-3")
        #expect(
            istanbul.standardName == "+03" && istanbul.standardOffsetSeconds == 10_800 && istanbul.daylightName == nil)
        let kolkata = try PosixTZ(parsing: "IST-5:30")
        #expect(kolkata.standardOffsetSeconds == 19_800)
        let lordHowe = try PosixTZ(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lordHowe.daylightName == "+11" && lordHowe.daylightOffsetSeconds == 39_600)
        for bad in ["", "AB-1", "CET", "CET-25", "CET-1:60", "<+03-3", "<>-3", "CET-1CEST-2x", "CET-1CEST!"] {
            #expect(throws: TZif.Problem.self, "\(bad)") { try PosixTZ(parsing: bad) }
        }
    }

    /// A minimal version 2 file: one transition, two types, and a footer.
    static func sample(
        typeCount: UInt32 = 2, transitionType: UInt8 = 1, nameIndex: UInt8 = 4, footer: String = "\nCET-1CEST\n"
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        // Counts: isutcnt 0, isstdcnt 0, leapcnt 0, timecnt 1, typecnt, charcnt 9 ("CET\0CEST\0").
        func counts(_ values: [UInt32]) -> [UInt8] {
            values.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
        }
        let head = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        let names = Array("CET\0CEST\0".utf8)
        func types() -> [UInt8] {
            var out: [UInt8] = []
            for index in 0..<Int(min(typeCount, 2)) {
                out += counts([index == 0 ? 3_600 : 7_200]) + [UInt8(index), index == 0 ? 0 : nameIndex]
            }
            return out
        }
        // Version 1 block (4-byte times), then version 2 (8-byte times), then the footer.
        bytes += head + counts([0, 0, 0, 1, typeCount, 9])
        bytes += counts([1_000_000]) + [transitionType] + types() + names
        bytes += head + counts([0, 0, 0, 1, typeCount, 9])
        bytes += [0, 0, 0, 0] + counts([1_000_000]) + [transitionType] + types() + names
        bytes += Array(footer.utf8)
        return bytes
    }

    @Test func aWellFormedFileIsReadWhole() throws {
        let file = try TZif(parsing: Self.sample())
        #expect(file.transitions == [1_000_000] && file.types.map(\.abbreviation) == ["CET", "CEST"])
        #expect(file.abbreviation(at: 0, offsetSeconds: 3_600) == "CET", "before the first transition: type 0")
        // At and after the last transition the footer speaks.
        #expect(file.abbreviation(at: 2_000_000, offsetSeconds: 7_200) == "CEST")
        #expect(file.abbreviation(at: 2_000_000, offsetSeconds: 3_600) == "CET")
        #expect(file.abbreviation(at: 0, offsetSeconds: 7_200) == nil, "an offset the file does not give there")
    }

    @Test func damagedFilesAreRefusedNeverReadPast() throws {
        let good = Self.sample()
        #expect(throws: TZif.Problem.notTZif) { try TZif(parsing: []) }
        #expect(throws: TZif.Problem.notTZif) { try TZif(parsing: Array("TZjf2".utf8) + good.dropFirst(5)) }
        #expect(throws: TZif.Problem.tooLarge(TZif.maxBytes + 1)) {
            try TZif(parsing: good + [UInt8](repeating: 0, count: TZif.maxBytes + 1 - good.count))
        }
        // Every truncation: a typed error (the footer's own end included). Cut just before the
        // footer, it is a file without one, which the format allows.
        let beforeFooter = good.count - "\nCET-1CEST\n".utf8.count
        #expect(try TZif(parsing: Array(good.prefix(beforeFooter))).footer == nil)
        for length in 0..<good.count where length != beforeFooter {
            #expect(throws: TZif.Problem.self, "\(length) bytes") { try TZif(parsing: Array(good.prefix(length))) }
        }
        #expect(throws: TZif.Problem.self, "a transition to a type that is not there") {
            try TZif(parsing: Self.sample(transitionType: 2))
        }
        #expect(throws: TZif.Problem.self, "an abbreviation index past the names") {
            try TZif(parsing: Self.sample(nameIndex: 9))
        }
        #expect(throws: TZif.Problem.self, "more types than RFC 8536 allows") {
            try TZif(parsing: Self.sample(typeCount: 100_000))
        }
        #expect(throws: TZif.Problem.self, "a footer that is not a TZ string") {
            try TZif(parsing: Self.sample(footer: "\nnot a zone\n"))
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: zoneinfo + "/Europe/Berlin"), "no tz database (tzdata)"))
    func flippedBytesInARealFileNeverCrash() throws {
        let berlin = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.zoneinfo + "/Europe/Berlin")))
        #expect(try TZif(parsing: berlin).types.contains { $0.abbreviation == "CEST" })
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var damaged = berlin
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            // Parsed or refused; if parsed, every lookup stays in bounds.
            if let file = try? TZif(parsing: damaged) {
                for instant: Int64 in [-5_000_000_000, 0, 1_800_000_000, 4_000_000_000] {
                    _ = file.abbreviation(at: instant, offsetSeconds: 3_600)
                }
            }
        }
    }
}
