import Foundation
import RosterDomain

/// A JSON document exported from another on-call system, read with the path of every value so
/// that each problem names where it is: `schedules[3].schedule_layers[0].users[1]`.
struct SourceJSON: Sendable {
    /// The largest export read: far above 500 people and 100 schedules (about 2 MiB), small
    /// enough that a file that is something else is refused before it is parsed.
    static let maxBytes = 64 * 1_048_576

    let value: JSONValue
    let path: String

    /// The document's root, or why it is not JSON.
    static func parse(_ data: Data, name: String) throws(MigrationError) -> SourceJSON {
        guard data.count <= maxBytes else {
            throw MigrationError(name, "is larger than \(maxBytes / 1_048_576) MiB: not an export this reads")
        }
        guard let value = JSONValue.parse(data) else {
            throw MigrationError(name, "is not JSON: was the export cut short?")
        }
        return SourceJSON(value: value, path: "")
    }

    /// A member of an object; nil when the value is not an object, or the member is absent or null.
    subscript(key: String) -> SourceJSON? {
        guard case .object(let members) = value, let member = members[key], member != .null else { return nil }
        return SourceJSON(value: member, path: path.isEmpty ? key : path + "." + key)
    }

    var isObject: Bool { if case .object = value { true } else { false } }
    var keys: [String] { if case .object(let members) = value { members.keys.sorted() } else { [] } }

    /// The elements of an array, each with its index in its path; nil when this is not an array.
    var elements: [SourceJSON]? {
        guard case .array(let list) = value else { return nil }
        return list.enumerated().map { SourceJSON(value: $1, path: "\(path)[\($0)]") }
    }

    var string: String? { if case .string(let text) = value { text } else { nil } }

    /// An integer (not a fraction), within `Int32` so sums of them never overflow.
    var integer: Int? {
        guard case .number(let number) = value, number.rounded() == number, abs(number) <= Double(Int32.max)
        else { return nil }
        return Int(number)
    }
}

/// What a reading of an export found, in the order found: the problems that stop it (nothing is
/// written while any is left) and the report's entries.
struct SourceReading {
    var problems: [MigrationProblem] = []
    var report = MigrationReport()

    mutating func refuse(_ node: SourceJSON?, _ field: String, _ message: String) {
        problems.append(MigrationProblem(path: Self.path(node, field), message: message))
    }

    static func path(_ node: SourceJSON?, _ field: String) -> String {
        let base = node?.path ?? ""
        if field.isEmpty { return base.isEmpty ? "document" : base }
        return base.isEmpty ? field : base + "." + field
    }

    /// A required text member: refused when it is absent or not text.
    mutating func text(_ node: SourceJSON, _ key: String) -> String? {
        guard let member = node[key] else {
            refuse(node, key, "is missing")
            return nil
        }
        guard let text = member.string else {
            refuse(node, key, "is not text")
            return nil
        }
        return text
    }

    /// An optional text member: "" when absent; refused when it is there and not text.
    mutating func optionalText(_ node: SourceJSON, _ key: String) -> String {
        guard let member = node[key] else { return "" }
        guard let text = member.string else {
            refuse(node, key, "is not text")
            return ""
        }
        return text
    }

    /// A required integer member within `range`.
    mutating func integer(_ node: SourceJSON, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let member = node[key] else {
            refuse(node, key, "is missing")
            return nil
        }
        guard let number = member.integer, range.contains(number) else {
            refuse(node, key, "is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return number
    }

    /// An instant written in ISO 8601 with an offset, as every source's API writes them.
    mutating func instant(_ node: SourceJSON, _ key: String, required: Bool = true) -> UnixMillis? {
        guard let member = node[key] else {
            if required { refuse(node, key, "is missing") }
            return nil
        }
        guard let text = member.string, let instant = TimeText.parseISO8601(text) else {
            refuse(node, key, "is not an instant such as 2026-11-30T09:00:00+01:00")
            return nil
        }
        return instant
    }

    /// A required array member (an absent one is refused; `optional` makes it empty).
    mutating func list(_ node: SourceJSON, _ key: String, optional: Bool = false) -> [SourceJSON] {
        guard let member = node[key] else {
            if !optional { refuse(node, key, "is missing") }
            return []
        }
        guard let elements = member.elements else {
            refuse(node, key, "is not a list")
            return []
        }
        return elements
    }

    /// Each element that is an object; the others refused.
    mutating func objects(_ list: [SourceJSON]) -> [SourceJSON] {
        list.filter { element in
            if element.isObject { return true }
            refuse(element, "", "is not an object")
            return false
        }
    }
}
