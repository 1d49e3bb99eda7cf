import Foundation
import RosterClient
import RosterDomain

/// Exit codes of roster-client, as documented in its help and the README.
public enum ClientExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// The server was unreachable; the answer came from the cache (its age is printed).
    case answeredFromCache = 3
    /// The server was unreachable and nothing was cached.
    case unreachable = 4
    /// No employees (an empty directory, or nothing matched).
    case nothingToShow = 5
    /// The server sent data that does not follow the protocol.
    case malformedData = 6
    /// The token is missing, wrong or lacks the role (e.g. a reader changing the plan).
    case permissionDenied = 7
    /// The employee or shift named does not exist (close matches are suggested).
    case notFound = 8
    /// The server refused the input (each bad field is listed).
    case invalidInput = 9
    /// TLS failed: the server's certificate was rejected or its pinned CA changed.
    case insecure = 10
    /// A change was sent and no answer came: it may or may not have been made.
    case outcomeUnknown = 11
    /// `plan`: the file would change something (as `terraform plan -detailed-exitcode`).
    case changesPlanned = 2
    /// `migrate --verify-against`: the source's rendered list and Roster's duty differ somewhere.
    case differencesFound = 12

    public static let summary = """
        Exit codes: 0 success; 1 other failure; 2 `plan` found changes to make; 3 server unreachable, answered from the cache; \
        4 server unreachable and nothing cached; 5 no employees; 6 malformed data from the server; \
        7 permission denied; 8 not found; 9 input refused; 10 TLS refused (certificate or pinned CA); \
        11 a change was sent but not answered (check before retrying); 12 `migrate` found differences from the \
        source's own on-call list; 64 bad command-line arguments.
        """
}

/// How times and names are shown: the local zone, or UTC with --utc.
public struct Display: Sendable {
    public var timeZone: TimeZone

    public init(utc: Bool) {
        timeZone = utc ? TimeZone(identifier: "UTC")! : .current
    }

    private func format(_ instant: UnixMillis, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: Double(instant) / 1000))
    }

    /// "2026-11-22 15:47"
    public func dateTime(_ instant: UnixMillis) -> String { format(instant, "yyyy-MM-dd HH:mm") }

    /// "2026-11-22 15:47:09"
    public func dateTimeSeconds(_ instant: UnixMillis) -> String { format(instant, "yyyy-MM-dd HH:mm:ss") }

    /// "2026-11-22 09:00 – 2026-11-29 09:00", with "before" and "and on" where the stretch runs past
    /// what was resolved (`WholeStretches`).
    public func stretch<Item>(_ stretch: WholeStretches.Stretch<Item>) -> String {
        (stretch.startedEarlier ? "before " : "") + dateTime(stretch.start) + " – " + dateTime(stretch.end)
            + (stretch.continues ? " and on" : "")
    }

    /// "15:47", or "Mon 15:47" when not on the same day as `now`.
    public func clock(_ instant: UnixMillis, now: UnixMillis = .now) -> String {
        format(instant, "yyyy-MM-dd") == format(now, "yyyy-MM-dd")
            ? format(instant, "HH:mm") : format(instant, "EEE HH:mm")
    }

    /// The zone times are shown in, as a label: "UTC" for UTC however the host names it (TZ=UTC
    /// reads as "GMT"), else its abbreviation now, as the tz database names it ("CET", "EST").
    public var zoneName: String {
        let utc: Set = [
            "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "UCT", "Etc/UCT",
        ]
        guard !utc.contains(timeZone.identifier) else { return "UTC" }
        let now = Date()
        return ZoneAbbreviations.abbreviation(
            zone: timeZone.identifier, at: Int64(now.timeIntervalSince1970 * 1000),
            offsetSeconds: timeZone.secondsFromGMT(for: now))
    }

    /// "42s", "5m 03s", "2h 05m", "3d 4h".
    public static func duration(millis: Int64) -> String {
        let seconds = max(0, millis / 1000)
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return String(format: "%dm %02ds", seconds / 60, seconds % 60)
        case ..<86400: return String(format: "%dh %02dm", seconds / 3600, (seconds % 3600) / 60)
        default: return "\(seconds / 86400)d \((seconds % 86400) / 3600)h"
        }
    }
}

/// A plain text table: a header row, then rows, columns padded to their widest cell.
public struct TextTable {
    public var headers: [String]
    public var rows: [[String]] = []

    public init(_ headers: [String]) { self.headers = headers }

    /// Columns line up by what a terminal shows: a CJK character or an emoji takes two cells.
    /// Each cell is measured once and the text is written into one string: a directory of
    /// 12,000 people is a table of 12,000 rows.
    public func render(indent: String = "") -> String {
        let lines = [headers] + rows
        let cellWidths = lines.map { $0.map(DisplayWidth.of) }
        var widths = [Int](repeating: 0, count: lines.map(\.count).max() ?? 0)
        for row in cellWidths {
            for (column, width) in row.enumerated() { widths[column] = max(widths[column], width) }
        }
        // Every run of spaces a cell needs, made once: a cell's padding is then one append.
        let paddings = (0...(widths.max() ?? 0)).map { String(repeating: " ", count: $0) }
        var text = ""
        text.reserveCapacity(lines.count * (indent.utf8.count + widths.reduce(0, +) + 2 * widths.count + 1))
        for (row, cells) in lines.enumerated() {
            if row > 0 { text += "\n" }
            text += indent
            for (column, cell) in cells.enumerated() {
                if column > 0 { text += "  " }
                text += cell
                if column < cells.count - 1 { text += paddings[max(0, widths[column] - cellWidths[row][column])] }
            }
        }
        return text
    }
}

/// How many terminal cells a text takes, as wcwidth counts them: one per character, two for East
/// Asian wide and fullwidth characters and for emoji, none for combining marks (which Swift's
/// `Character` already folds into the one before).
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        // Printable ASCII, most of any table, is one cell a byte; Unicode properties cost more.
        if ControlCharacters.isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.generalCategory == .control || first.properties.generalCategory == .format { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return 2 }
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }  // text emoji asked to show as emoji
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

/// JSON shapes printed with --json (one object per line in `watch`). Instants are ISO 8601 UTC.
extension Display {
    /// Who comes on duty at the next change, and who stays on through it: "Grace Hopper",
    /// "Barbara Liskov joins (Alan Turing stays on)", "nobody new (Ada Lovelace stays on)", "nobody".
    /// Never names someone already on duty as coming.
    public static func incoming(_ status: OnDutyStatus) -> String {
        let names = status.incoming.map(\.employee.fullName)
        let current = Set(status.current.map(\.employee.id))
        let staying = status.next.filter { current.contains($0.employee.id) }.map(\.employee.fullName)
        let stay = "(\(staying.joined(separator: ", ")) \(staying.count == 1 ? "stays" : "stay") on)"
        if !names.isEmpty {
            return names.joined(separator: ", ")
                + (staying.isEmpty ? "" : " join\(names.count == 1 ? "s" : "") \(stay)")
        }
        return staying.isEmpty ? "nobody" : "nobody new \(stay)"
    }
}

public enum JSONShapes {
    /// An employee as its Codable fields plus "name", the full name.
    public struct Person: Encodable, Sendable {
        public var employee: Employee
        /// Whether the person is in the `--contacts` file; nil (left out) without one.
        public var inContacts: Bool?

        public init(_ employee: Employee, inContacts: Bool? = nil) {
            self.employee = employee
            self.inContacts = inContacts
        }

        enum Keys: String, CodingKey { case name, inContacts }

        public func encode(to encoder: any Encoder) throws {
            try employee.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(employee.fullName, forKey: .name)
            try container.encodeIfPresent(inContacts, forKey: .inContacts)
        }
    }

    public struct ShiftEntry: Encodable, Sendable {
        public var id: String
        public var employeeId: String
        public var employee: String?
        public var start: String
        public var end: String
        public var role: String

        public init(_ shift: Shift, employee: Employee? = nil) {
            id = shift.id
            employeeId = shift.employeeID
            self.employee = employee?.fullName
            start = TimeText.iso8601(shift.start)
            end = TimeText.iso8601(shift.end)
            role = shift.role
        }
    }

    /// A person on duty: the employee's fields, "name", and the shift that puts them there.
    public struct OnDutyPerson: Encodable, Sendable {
        public var entry: OnDutyEntry

        public init(_ entry: OnDutyEntry) { self.entry = entry }

        enum Keys: String, CodingKey { case shift }

        public func encode(to encoder: any Encoder) throws {
            try Person(entry.employee).encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(ShiftEntry(entry.shift), forKey: .shift)
        }
    }

    public struct OnDuty: Encodable, Sendable {
        public var event: String?
        public var at: String
        public var current: [OnDutyPerson]
        public var until: String?
        public var next: [OnDutyPerson]
        public var previous: [OnDutyPerson]?
        public var cause: String?
        public var revision: UInt64
        /// "server" or "cache".
        public var source: String
        public var ageSeconds: Int?
        /// The schedule, when the tenant has more than the default one (or it was asked for).
        public var schedule: String?
        public var scheduleId: String?

        public init(_ status: OnDutyStatus, source: String, event: String? = nil, ageSeconds: Int? = nil) {
            self.event = event
            at = TimeText.iso8601(status.at)
            current = status.current.map(OnDutyPerson.init)
            until = status.until.map(TimeText.iso8601)
            next = status.next.map(OnDutyPerson.init)
            previous = event == nil ? nil : status.previous.map(OnDutyPerson.init)
            cause = status.cause?.rawValue
            revision = status.revision
            self.source = source
            self.ageSeconds = ageSeconds
        }
    }

    /// One JSON object on one line. Every control character is escaped (JSONEncoder leaves DEL,
    /// the C1 range and bidi overrides raw), so a line is safe on a terminal too.
    public static func line<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
        guard text.unicodeScalars.contains(where: ControlCharacters.isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if ControlCharacters.isControl(scalar) {
                escaped += String(format: "\\u%04x", scalar.value)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
