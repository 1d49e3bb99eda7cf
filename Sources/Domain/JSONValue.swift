import Foundation

/// A JSON value as parsed, a boolean apart from a number: exports read by migrate, ID tokens
/// and provider documents read by sign-in.
public enum JSONValue: Sendable, Hashable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// `data` parsed by JSONSerialization (a Decodable enum that tries each type in turn paid
    /// for a failed decoding at every value: four times slower on a 200 KiB export), or nil.
    public static func parse(_ data: Data) -> JSONValue? {
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])).flatMap(JSONValue.init)
    }

    /// A member of an object (nil for anything else), as an API's answer is walked.
    public subscript(key: String) -> JSONValue? { if case .object(let members) = self { members[key] } else { nil } }

    public var string: String? { if case .string(let text) = self { text } else { nil } }

    /// Foundation's booleans are NSNumbers of their own class.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    public init?(_ value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let number as NSNumber:
            self =
                ObjectIdentifier(type(of: number)) == Self.booleanClass
                ? .bool(number.boolValue) : .number(number.doubleValue)
        case let list as [Any]:
            var items: [JSONValue] = []
            items.reserveCapacity(list.count)
            for element in list {
                guard let item = JSONValue(element) else { return nil }
                items.append(item)
            }
            self = .array(items)
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.count)
            for (key, element) in object {
                guard let member = JSONValue(element) else { return nil }
                members[key] = member
            }
            self = .object(members)
        case is NSNull: self = .null
        default: return nil
        }
    }
}

/// Written back as it was read (migrate saves what an API answered).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let items): try container.encode(items)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}
