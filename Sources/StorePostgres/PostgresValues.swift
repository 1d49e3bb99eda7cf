import Foundation

/// A statement and its parameters. Written as a string with interpolations: each interpolated
/// value becomes a parameter (`$1`, `$2` …), sent apart from the SQL, so no value is ever
/// spliced into it; `\(unescaped:)` splices SQL text written in this module (column lists).
struct PostgresQuery: ExpressibleByStringInterpolation, Sendable {
    var sql: String
    var binds: PostgresBindings

    /// SQL with `$n` placeholders already written, and their values in order.
    init(unsafeSQL sql: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = sql
        self.binds = binds
    }

    init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBindings()

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

/// Parameter values, in PostgreSQL's binary format with their types named, so the server never
/// guesses a type from text.
struct PostgresBindings: Sendable {
    struct Value: Sendable {
        var type: UInt32
        /// nil is SQL NULL.
        var bytes: [UInt8]?
    }

    private(set) var values: [Value] = []

    var count: Int { values.count }

    mutating func append<Bound: PostgresEncodable>(_ value: Bound) {
        values.append(Value(type: Bound.postgresType, bytes: value.postgresBytes))
    }

    mutating func append<Bound: PostgresEncodable>(_ value: Bound?) {
        values.append(Value(type: Bound.postgresType, bytes: value?.postgresBytes))
    }
}

/// PostgreSQL's type ids for the types the store reads and writes (pg_type.oid).
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let unknown: UInt32 = 705
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043

    static let texts: Set<UInt32> = [text, varchar, bpchar, name, unknown]
    static let integers: Set<UInt32> = [int2, int4, int8]
}

/// A Swift value sent as a parameter.
protocol PostgresEncodable: Sendable {
    static var postgresType: UInt32 { get }
    var postgresBytes: [UInt8] { get }
}

extension String: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.text }
    var postgresBytes: [UInt8] { Array(utf8) }
}

extension Int64: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.int8 }
    var postgresBytes: [UInt8] { withUnsafeBytes(of: bigEndian) { Array($0) } }
}

extension Int: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.int8 }
    var postgresBytes: [UInt8] { Int64(self).postgresBytes }
}

extension Int32: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.int4 }
    var postgresBytes: [UInt8] { withUnsafeBytes(of: bigEndian) { Array($0) } }
}

extension Bool: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.bool }
    var postgresBytes: [UInt8] { [self ? 1 : 0] }
}

extension Data: PostgresEncodable {
    static var postgresType: UInt32 { PostgresType.bytea }
    var postgresBytes: [UInt8] { Array(self) }
}

/// A column's value that does not read as the Swift type asked for.
struct PostgresDecodingError: Error, CustomStringConvertible {
    let column: Int
    let type: UInt32
    let expected: String

    var description: String { "column \(column + 1) (PostgreSQL type \(type)) does not read as \(expected)" }
}

/// A Swift value read from a column in binary format.
protocol PostgresDecodable {
    /// `cell` is nil for SQL NULL.
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Self
}

extension String: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> String {
        guard let cell, PostgresType.texts.contains(type) else {
            throw PostgresDecodingError(column: column, type: type, expected: "text")
        }
        return String(decoding: cell, as: UTF8.self)
    }
}

extension Int64: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Int64 {
        guard let cell, PostgresType.integers.contains(type), [2, 4, 8].contains(cell.count) else {
            throw PostgresDecodingError(column: column, type: type, expected: "an integer")
        }
        // Big-endian two's complement of 2, 4 or 8 bytes, sign-extended.
        var value = Int64(Int8(bitPattern: cell.first!))
        for byte in cell.dropFirst() { value = value << 8 | Int64(byte) }
        return value
    }
}

extension Int32: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Int32 {
        guard let value = Int32(exactly: try Int64.decode(cell, type: type, column: column)) else {
            throw PostgresDecodingError(column: column, type: type, expected: "a 32-bit integer")
        }
        return value
    }
}

extension Bool: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Bool {
        guard let cell, type == PostgresType.bool, cell.count == 1 else {
            throw PostgresDecodingError(column: column, type: type, expected: "a boolean")
        }
        return cell.first! != 0
    }
}

extension Data: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Data {
        guard let cell, type == PostgresType.bytea else {
            throw PostgresDecodingError(column: column, type: type, expected: "bytea")
        }
        return Data(cell)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    static func decode(_ cell: ArraySlice<UInt8>?, type: UInt32, column: Int) throws -> Wrapped? {
        guard let cell else { return nil }
        return try Wrapped.decode(cell, type: type, column: column)
    }
}

/// A statement's rows in binary format, copied out of libpq: every cell's bytes in one buffer.
struct PostgresRows: Sendable {
    /// Each column's type id.
    var types: [UInt32] = []
    var bytes: [UInt8] = []
    /// Row-major; nil is SQL NULL.
    var cells: [Range<Int>?] = []

    var count: Int { types.isEmpty ? 0 : cells.count / types.count }

    func cell(row: Int, column: Int) -> ArraySlice<UInt8>? {
        cells[row * types.count + column].map { bytes[$0] }
    }

    /// Every row's one column as `column`.
    func decode<Column: PostgresDecodable>(_ column: Column.Type) throws -> [Column] {
        guard count == 0 || types.count == 1 else {
            throw PostgresDecodingError(column: 1, type: 0, expected: "1 column, not \(types.count)")
        }
        return try (0..<count).map { try Column.decode(cell(row: $0, column: 0), type: types[0], column: 0) }
    }

    /// Every row's columns as a tuple of as many types as there are columns.
    func decode<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> [(repeat each Column)] {
        var arity = 0
        for _ in repeat (each Column).self { arity += 1 }
        guard count == 0 || arity == types.count else {
            throw PostgresDecodingError(
                column: min(arity, types.count), type: 0, expected: "\(arity) columns, not \(types.count)")
        }
        var decoded: [(repeat each Column)] = []
        decoded.reserveCapacity(count)
        for row in 0..<count {
            var column = 0
            func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
                defer { column += 1 }
                return try Value.decode(cell(row: row, column: column), type: types[column], column: column)
            }
            decoded.append((repeat try next((each Column).self)))
        }
        return decoded
    }
}
