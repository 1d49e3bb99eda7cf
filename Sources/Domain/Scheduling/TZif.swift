/// A time zone information file of the tz database (RFC 8536, "TZif"), read for what people see
/// on a clock: which local time type (its offset from UTC, whether it is daylight time, its
/// abbreviation such as "CET" or "+03") holds at an instant. Offsets for arithmetic come from
/// `WallClock`; this only names them.
///
/// One parser for the format, checked against its own counts: every count is bounded before it
/// is multiplied, every index is checked against what it indexes, and a file that is short,
/// inconsistent or larger than `maxBytes` is refused with a typed error, never read past.
public struct TZif: Sendable, Equatable {
    public struct LocalTimeType: Sendable, Equatable {
        public var offsetSeconds: Int32
        public var isDaylight: Bool
        public var abbreviation: String
    }

    /// Transition instants (seconds since 1970, ascending) and the type that starts at each.
    public private(set) var transitions: [Int64]
    public private(set) var transitionTypes: [Int]
    public private(set) var types: [LocalTimeType]
    /// The footer's TZ string (version 2 and later) for instants after the last transition,
    /// read for its names and offsets only.
    public private(set) var footer: PosixTZ?

    public static let maxBytes = 256 * 1024
    /// RFC 8536 §3.1: at most 256 local time types (typecnt), and here at most 8,192 transitions.
    static let maxTypes = 256
    static let maxTransitions = 8_192
    static let maxAbbreviationBytes = 1_024

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case tooLarge(Int)
        case notTZif
        case truncated(String)
        case invalid(String)

        public var description: String {
            switch self {
            case .tooLarge(let bytes): "a TZif file of \(bytes) bytes is over the \(TZif.maxBytes)-byte limit"
            case .notTZif: "not a TZif file (no \"TZif\" magic)"
            case .truncated(let part): "the TZif file ends inside its \(part)"
            case .invalid(let why): "invalid TZif file: \(why)"
            }
        }
    }

    public init(parsing bytes: [UInt8]) throws(Problem) {
        guard bytes.count <= Self.maxBytes else { throw .tooLarge(bytes.count) }
        var reader = Reader(bytes: bytes)
        let first = try Header(&reader)
        // Version 1 data: skipped when 64-bit data follows (version 2 and later).
        if first.version >= 2 {
            try reader.skip(first.dataLength(timeSize: 4), "version 1 data")
            let second = try Header(&reader)
            self = try Self.body(&reader, header: second, timeSize: 8)
            footer = try Self.footer(&reader)
        } else {
            self = try Self.body(&reader, header: first, timeSize: 4)
            footer = nil
        }
    }

    private init(transitions: [Int64], transitionTypes: [Int], types: [LocalTimeType]) {
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        footer = nil
    }

    /// The local time type in effect at `instant` (seconds), or nil when the footer governs
    /// (after the last transition) or the file has none.
    public func type(at instant: Int64) -> LocalTimeType? {
        guard !types.isEmpty else { return nil }
        guard let last = transitions.last else { return footer == nil ? types[0] : nil }
        // Before the first transition: type 0 (RFC 8536 §3.2).
        guard instant >= transitions[0] else { return types[0] }
        if instant >= last, footer != nil { return nil }
        // The last transition at or before the instant.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypes[low]]
    }

    /// The abbreviation in effect at `instant` for a clock `offsetSeconds` from UTC: the file's
    /// type there (or the footer's name with that offset), when its offset agrees; nil when the
    /// file says nothing about that offset.
    public func abbreviation(at instant: Int64, offsetSeconds: Int) -> String? {
        if let type = type(at: instant) {
            return Int(type.offsetSeconds) == offsetSeconds ? type.abbreviation : nil
        }
        return footer?.name(forOffset: offsetSeconds)
    }

    // MARK: Reading

    private struct Header {
        var version: Int
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        init(_ reader: inout Reader) throws(Problem) {
            guard reader.remaining >= 44 else { throw reader.position == 0 ? .notTZif : .truncated("header") }
            guard try reader.bytes(4, "header") == Array("TZif".utf8) else { throw .notTZif }
            let version = try reader.byte("header")
            switch version {
            case 0: self.version = 1
            case UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"):
                self.version = Int(version - UInt8(ascii: "0"))
            default: throw .invalid("unknown version byte \(version)")
            }
            try reader.skip(15, "header")
            isUTCCount = try reader.count("header")
            isStandardCount = try reader.count("header")
            leapCount = try reader.count("header")
            timeCount = try reader.count("header")
            typeCount = try reader.count("header")
            charCount = try reader.count("header")
            guard typeCount >= 1, typeCount <= TZif.maxTypes else { throw .invalid("\(typeCount) local time types") }
            guard timeCount <= TZif.maxTransitions else { throw .invalid("\(timeCount) transitions") }
            guard charCount >= 1, charCount <= TZif.maxAbbreviationBytes else {
                throw .invalid("\(charCount) bytes of abbreviations")
            }
            guard leapCount <= TZif.maxTransitions else { throw .invalid("\(leapCount) leap-second records") }
            guard isUTCCount == 0 || isUTCCount == typeCount, isStandardCount == 0 || isStandardCount == typeCount
            else { throw .invalid("indicator counts do not match the types") }
        }

        /// Bytes of the data block after this header; every count is bounded above, so no
        /// product overflows.
        func dataLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    private static func body(_ reader: inout Reader, header: Header, timeSize: Int) throws(Problem) -> TZif {
        guard reader.remaining >= header.dataLength(timeSize: timeSize) else { throw .truncated("data block") }
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let time =
                timeSize == 8 ? try reader.int64("transition times") : Int64(try reader.int32("transition times"))
            if let previous = transitions.last, time <= previous { throw .invalid("transition times out of order") }
            transitions.append(time)
        }
        var transitionTypes: [Int] = []
        transitionTypes.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let index = Int(try reader.byte("transition types"))
            guard index < header.typeCount else {
                throw .invalid("a transition names type \(index) of \(header.typeCount)")
            }
            transitionTypes.append(index)
        }
        var raw: [(offset: Int32, daylight: Bool, nameIndex: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = try reader.int32("local time types")
            // RFC 8536: -2^31 is not a valid offset; real ones are within a day.
            guard offset > -89_999, offset < 93_599 else { throw .invalid("a UTC offset of \(offset) s") }
            let daylight = try reader.byte("local time types")
            guard daylight <= 1 else { throw .invalid("a daylight flag of \(daylight)") }
            let nameIndex = Int(try reader.byte("local time types"))
            guard nameIndex < header.charCount else { throw .invalid("an abbreviation index past the abbreviations") }
            raw.append((offset, daylight == 1, nameIndex))
        }
        let names = try reader.bytes(header.charCount, "abbreviations")
        var types: [LocalTimeType] = []
        for entry in raw {
            let name = names[entry.nameIndex...].prefix { $0 != 0 }
            guard entry.nameIndex + name.count < names.count else { throw .invalid("an abbreviation without its NUL") }
            guard name.allSatisfy({ $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || Self.isAlphanumeric($0) })
            else { throw .invalid("an abbreviation with characters other than letters, digits, + and -") }
            types.append(
                LocalTimeType(
                    offsetSeconds: entry.offset, isDaylight: entry.daylight,
                    abbreviation: String(decoding: name, as: UTF8.self)))
        }
        try reader.skip(header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount, "data block")
        return TZif(transitions: transitions, transitionTypes: transitionTypes, types: types)
    }

    /// "\nTZ\n": the TZ string between two newlines (empty when the file has none).
    private static func footer(_ reader: inout Reader) throws(Problem) -> PosixTZ? {
        guard reader.remaining > 0 else { return nil }
        guard try reader.byte("footer") == UInt8(ascii: "\n") else { throw .invalid("no newline before the footer") }
        var text: [UInt8] = []
        while true {
            let byte = try reader.byte("footer")
            if byte == UInt8(ascii: "\n") { break }
            guard text.count < 256 else { throw .invalid("a footer over 256 bytes") }
            text.append(byte)
        }
        return text.isEmpty ? nil : try PosixTZ(parsing: String(decoding: text, as: UTF8.self))
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Big-endian reads that never pass the end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var remaining: Int { bytes.count - position }

        mutating func bytes(_ count: Int, _ part: String) throws(Problem) -> [UInt8] {
            guard count >= 0, count <= remaining else { throw .truncated(part) }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        mutating func skip(_ count: Int, _ part: String) throws(Problem) {
            guard count >= 0, count <= remaining else { throw .truncated(part) }
            position += count
        }

        mutating func byte(_ part: String) throws(Problem) -> UInt8 {
            guard remaining >= 1 else { throw .truncated(part) }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func int32(_ part: String) throws(Problem) -> Int32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(try byte(part)) }
            return Int32(bitPattern: value)
        }

        mutating func int64(_ part: String) throws(Problem) -> Int64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte(part)) }
            return Int64(bitPattern: value)
        }

        /// A header count: unsigned 32-bit, bounded by the caller.
        mutating func count(_ part: String) throws(Problem) -> Int { Int(UInt32(bitPattern: try int32(part))) }
    }
}
