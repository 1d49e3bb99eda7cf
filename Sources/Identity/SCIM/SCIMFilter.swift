import Foundation
import RosterDomain

/// A filter (RFC 7644 §3.4.2.2) as far as Roster takes them: comparisons with `eq` joined by
/// `and`, which is what provisioning clients send (`userName eq "lynn"`, `displayName eq "SRE"`,
/// `id eq "…" and members eq "…"`). Any other operator is refused with `invalidFilter`, so a
/// client never mistakes an ignored filter for an empty answer.
public struct SCIMFilter: Sendable {
    public struct Comparison: Sendable {
        /// The attribute compared: in a resource, a path; in an element filter, a sub-attribute.
        public var path: SCIMPath?
        public var isID = false
        public var elementSub: SCIMAttribute?
        public var value: JSONValue
    }

    public var comparisons: [Comparison]

    /// Filters longer than this, or with more comparisons, are refused.
    public static let maxLength = 1_000
    public static let maxComparisons = 10

    /// A filter on resources of `type`.
    public static func parse(_ text: String, in type: SCIMResourceType) throws(SCIMError) -> SCIMFilter {
        try parse(text) { (name) throws(SCIMError) in
            if name == "id" { return Comparison(isID: true, value: .null) }
            let path = try SCIMPath.parse(name, in: type, allowFilter: false)
            guard path.attribute != nil else { throw .invalidFilter("a filter compares an attribute, not a schema") }
            return Comparison(path: path, value: .null)
        }
    }

    /// A filter on the elements of the multi-valued `attribute` (`emails[type eq "work"]`).
    static func parse(_ text: String, elementOf attribute: SCIMAttribute) throws(SCIMError) -> SCIMFilter {
        try parse(text) { (name) throws(SCIMError) in
            guard let sub = attribute.sub(name) else {
                throw .invalidFilter("\(attribute.name) has no sub-attribute \"\(name.prefix(100))\"")
            }
            return Comparison(elementSub: sub, value: .null)
        }
    }

    private static func parse(_ text: String, attribute: (String) throws(SCIMError) -> Comparison) throws(SCIMError)
        -> SCIMFilter
    {
        guard text.utf8.count <= maxLength else { throw .invalidFilter("a filter is at most \(maxLength) bytes") }
        var scanner = Tokens(Array(text.unicodeScalars))
        var comparisons: [Comparison] = []
        repeat {
            guard comparisons.count < maxComparisons else {
                throw .invalidFilter("a filter has at most \(maxComparisons) comparisons")
            }
            guard let name = scanner.word(), !name.isEmpty else {
                throw .invalidFilter("an attribute name is expected at \(scanner.position)")
            }
            var comparison = try attribute(name)
            guard let op = scanner.word() else { throw .invalidFilter("an operator is expected after \(name)") }
            guard op.lowercased() == "eq" else {
                throw .invalidFilter("Roster filters with eq (and and) only, not \(op.prefix(20))")
            }
            comparison.value = try scanner.value()
            comparisons.append(comparison)
            guard let joiner = scanner.word() else { break }
            guard joiner.lowercased() == "and" else {
                throw .invalidFilter("comparisons are joined with and only, not \(joiner.prefix(20))")
            }
        } while true
        return SCIMFilter(comparisons: comparisons)
    }

    /// Whether the resource `id` with `body` matches every comparison.
    public func matches(id: String, body: [String: JSONValue]) -> Bool {
        comparisons.allSatisfy { comparison in
            if comparison.isID { return comparison.value == .string(id) }
            guard let path = comparison.path, let attribute = path.attribute else { return false }
            let holder = path.container.map { body[$0]?.objectMembers ?? [:] } ?? body
            let found = holder[attribute.name]
            if attribute.multiValued, case .array(let items)? = found {
                let sub = path.sub ?? attribute.sub("value")
                return items.contains { item in
                    Self.equal(
                        sub.flatMap { item[$0.name] } ?? item, comparison.value, caseExact: sub?.caseExact ?? false)
                }
            }
            if let sub = path.sub {
                return Self.equal(found?[sub.name], comparison.value, caseExact: sub.caseExact)
            }
            return Self.equal(found, comparison.value, caseExact: attribute.caseExact)
        }
    }

    /// Whether an element of a multi-valued attribute matches (the element filter of a path).
    func matchesElement(_ element: JSONValue) -> Bool {
        comparisons.allSatisfy { comparison in
            guard let sub = comparison.elementSub else { return false }
            return Self.equal(element[sub.name], comparison.value, caseExact: sub.caseExact)
        }
    }

    static func equal(_ found: JSONValue?, _ wanted: JSONValue, caseExact: Bool) -> Bool {
        switch (found, wanted) {
        case (nil, .null), (.null?, .null): return true
        case (.string(let a)?, .string(let b)):
            return caseExact ? a == b : a.caseInsensitiveCompare(b) == .orderedSame
        default: return found == wanted
        }
    }

    /// The words and values of a filter.
    private struct Tokens {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func skipSpaces() {
            while position < scalars.count, scalars[position] == " " { position += 1 }
        }

        /// A run of characters up to a space; nil at the end.
        mutating func word() -> String? {
            skipSpaces()
            guard position < scalars.count else { return nil }
            var word = String.UnicodeScalarView()
            while position < scalars.count, scalars[position] != " " {
                word.append(scalars[position])
                position += 1
            }
            return String(word)
        }

        /// A JSON string, true, false, null or a number.
        mutating func value() throws(SCIMError) -> JSONValue {
            skipSpaces()
            guard position < scalars.count else { throw .invalidFilter("a value is expected after eq") }
            if scalars[position] == "\"" {
                var end = position + 1
                while end < scalars.count, scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
                guard end < scalars.count else { throw .invalidFilter("a string is not closed") }
                var quoted = String.UnicodeScalarView()
                quoted.append(contentsOf: scalars[position...end])
                position = end + 1
                guard let parsed = JSONValue.parse(Data(String(quoted).utf8)), case .string = parsed else {
                    throw .invalidFilter("\(String(quoted).prefix(60)) is not a JSON string")
                }
                return parsed
            }
            guard let text = word() else { throw .invalidFilter("a value is expected after eq") }
            switch text.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                guard let number = Double(text), number.isFinite, text.count <= 20 else {
                    throw .invalidFilter("\(text.prefix(40)) is not a value: strings are quoted")
                }
                return .number(number)
            }
        }
    }
}

extension JSONValue {
    /// An object's members; nil for anything else.
    public var objectMembers: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
}
