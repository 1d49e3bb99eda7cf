/// The names and offsets of a POSIX TZ string, as a TZif footer holds it for the years after its
/// last transition: "CET-1CEST,M3.5.0,M10.5.0/3", "<+03>-3", "EST5EDT,M3.2.0,M11.1.0". Only the
/// part before the rules is read (who is called what at which offset); the rules themselves are
/// not needed, since `WallClock` gives the offset and this only names it.
///
/// POSIX counts offsets west of Greenwich as positive ("EST5" is five hours behind UTC); the
/// values kept here are the usual sign, east positive.
public struct PosixTZ: Sendable, Equatable {
    public var standardName: String
    public var standardOffsetSeconds: Int
    public var daylightName: String?
    public var daylightOffsetSeconds: Int?

    public init(parsing text: String) throws(TZif.Problem) {
        var rest = Substring(text)
        standardName = try Self.name(&rest)
        standardOffsetSeconds = try Self.offset(&rest)
        guard !rest.isEmpty, rest.first != "," else {
            daylightName = nil
            daylightOffsetSeconds = nil
            return
        }
        daylightName = try Self.name(&rest)
        if rest.isEmpty || rest.first == "," {
            // Daylight time is an hour ahead of standard time unless the string says otherwise.
            daylightOffsetSeconds = standardOffsetSeconds + 3_600
        } else {
            daylightOffsetSeconds = try Self.offset(&rest)
        }
        guard rest.isEmpty || rest.first == "," else { throw .invalid("unexpected text in the TZ string \(text)") }
    }

    /// The name of the time this string calls `offsetSeconds` from UTC; nil if neither.
    public func name(forOffset offsetSeconds: Int) -> String? {
        if offsetSeconds == standardOffsetSeconds { return standardName }
        if let daylightName, offsetSeconds == daylightOffsetSeconds { return daylightName }
        return nil
    }

    /// `<+0530>` (any of letters, digits, + and -) or three or more letters.
    private static func name(_ rest: inout Substring) throws(TZif.Problem) -> String {
        if rest.first == "<" {
            guard let close = rest.firstIndex(of: ">") else { throw .invalid("a TZ name without its >") }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            guard name.utf8.count >= 3, name.utf8.count <= 16,
                name.utf8.allSatisfy({ TZif.isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
            else { throw .invalid("a TZ name <\(name)>") }
            rest = rest[rest.index(after: close)...]
            return String(name)
        }
        let letters = rest.prefix { $0.isASCII && $0.isLetter }
        guard letters.count >= 3, letters.count <= 16 else { throw .invalid("a TZ name of \(letters.count) letters") }
        rest = rest.dropFirst(letters.count)
        return String(letters)
    }

    /// [+-]hh[:mm[:ss]], hours 0–24, in POSIX's west-positive sense; returned east-positive.
    private static func offset(_ rest: inout Substring) throws(TZif.Problem) -> Int {
        var sign = 1
        if rest.first == "+" || rest.first == "-" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count), let value = Int(digits) else { throw .invalid("a TZ offset") }
            parts.append(value)
            rest = rest.dropFirst(digits.count)
            guard rest.first == ":" else { break }
            rest = rest.dropFirst()
        }
        guard parts[0] <= 24, parts.dropFirst().allSatisfy({ $0 < 60 }) else {
            throw .invalid("a TZ offset out of range")
        }
        let seconds = parts[0] * 3_600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return -sign * seconds
    }
}
