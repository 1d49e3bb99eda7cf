import Foundation
import RosterDomain

/// A resource's attributes as Roster keeps them: the names as the schema spells them (a
/// provider may write `USERNAME`), only the attributes described (`SCIMSchema`), each checked
/// for its type; an extension's attributes in an object under the extension's URN.
public struct SCIMResource: Sendable, Equatable {
    public var type: SCIMResourceType
    public var attributes: [String: JSONValue]

    /// The most elements a multi-valued attribute holds (a group's members: `maxMembers`), and
    /// the longest string kept.
    public static let maxValues = 100
    public static let maxMembers = 10_000
    public static let maxString = 2_048

    public init(type: SCIMResourceType, attributes: [String: JSONValue] = [:]) {
        (self.type, self.attributes) = (type, attributes)
    }

    /// What a provider sent (a POST or PUT body, a PATCH value) read against the schema:
    /// `schemas`, `id` and `meta` are the server's, unknown attributes are left out, a value of
    /// the wrong type is refused (`invalidValue`).
    public static func canonical(_ json: JSONValue, type: SCIMResourceType) throws(SCIMError) -> SCIMResource {
        guard case .object(let members) = json else { throw .invalidSyntax("a \(type.rawValue) is a JSON object") }
        var kept: [String: JSONValue] = [:]
        for (key, value) in members {
            let lowered = key.lowercased()
            if ["schemas", "id", "meta"].contains(lowered) { continue }
            if let schema = type.extensions.first(where: { $0.id.lowercased() == lowered }) {
                guard case .object(let inner) = value else {
                    if value == .null { continue }
                    throw .invalidValue("\(schema.id) is an object")
                }
                var extensionMembers: [String: JSONValue] = [:]
                for (innerKey, innerValue) in inner {
                    guard let attribute = schema.attribute(innerKey) else { continue }
                    if let checked = try checked(innerValue, attribute) { extensionMembers[attribute.name] = checked }
                }
                if !extensionMembers.isEmpty { kept[schema.id] = .object(extensionMembers) }
                continue
            }
            let attribute: SCIMAttribute
            if lowered == "externalid" {
                attribute = SCIMSchema.externalID
            } else if let found = type.schema.attribute(key) {
                attribute = found
            } else {
                continue
            }
            if let checked = try checked(value, attribute) { kept[attribute.name] = checked }
        }
        return SCIMResource(type: type, attributes: kept)
    }

    /// `value` as `attribute` keeps it; nil when it is null or empty (the attribute is absent).
    static func checked(_ value: JSONValue, _ attribute: SCIMAttribute, element: Bool = false) throws(SCIMError)
        -> JSONValue?
    {
        if value == .null { return nil }
        if attribute.multiValued && !element {
            let items: [JSONValue]
            switch value {
            case .array(let list): items = list
            case .object: items = [value]
            default: throw .invalidValue("\(attribute.name) is a list")
            }
            let limit = attribute.name == "members" ? maxMembers : maxValues
            guard items.count <= limit else { throw .invalidValue("\(attribute.name) holds at most \(limit) values") }
            var kept: [JSONValue] = []
            for item in items {
                if let one = try checked(item, attribute, element: true), !kept.contains(one) { kept.append(one) }
            }
            return kept.isEmpty ? nil : .array(kept)
        }
        switch attribute.kind {
        case .complex:
            guard case .object(let members) = value else { throw .invalidValue("\(attribute.name) is an object") }
            var kept: [String: JSONValue] = [:]
            for (key, member) in members {
                guard let sub = attribute.sub(key) else { continue }
                if let one = try checked(member, sub) { kept[sub.name] = one }
            }
            return kept.isEmpty ? nil : .object(kept)
        case .boolean:
            switch value {
            case .bool: return value
            // Some providers (Entra ID among them) send "True" and "False" as strings.
            case .string(let text) where text.lowercased() == "true": return .bool(true)
            case .string(let text) where text.lowercased() == "false": return .bool(false)
            default: throw .invalidValue("\(attribute.name) is true or false")
            }
        case .string, .reference:
            guard case .string(let text) = value else { throw .invalidValue("\(attribute.name) is a string") }
            guard text.count <= maxString else {
                throw .invalidValue("\(attribute.name) is at most \(maxString) characters")
            }
            guard !ControlCharacters.contains(in: text) else {
                throw .invalidValue("\(attribute.name) contains a control character")
            }
            return value
        }
    }

    /// The unique name: userName or displayName.
    public var name: String { attributes[type.nameAttribute]?.string ?? "" }

    /// Refuses a resource without its required attributes.
    public func requireComplete() throws(SCIMError) {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidValue("a \(type.rawValue) needs \(type.nameAttribute)")
        }
    }

    /// The attributes as stored: JSON with sorted keys, so equal resources are equal text.
    public var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(JSONValue.object(attributes)), as: UTF8.self)) ?? "{}"
    }

    /// Reads what `stored` wrote.
    public init(stored: String, type: SCIMResourceType) {
        self.init(type: type, attributes: JSONValue.parse(Data(stored.utf8))?.objectMembers ?? [:])
    }

    /// The ETag of this version (a weak one: the attributes' hash).
    public var version: String { "W/\"" + StableHash.hex(stored) + "\"" }

    /// The resource as served: its schemas, id and meta besides its attributes, cut to the
    /// `attributes` asked for or without the `excluded` ones (RFC 7644 §3.9).
    public func rendered(
        id: String, created: UnixMillis, modified: UnixMillis, base: String, attributes wanted: [SCIMPath] = [],
        excluded: [SCIMPath] = []
    ) -> JSONValue {
        var members = attributes
        if !wanted.isEmpty {
            var kept: [String: JSONValue] = [:]
            for path in wanted { Self.copy(path, from: members, into: &kept) }
            members = kept
        }
        for path in excluded { Self.remove(path, from: &members) }
        var schemas = [JSONValue.string(type.schema.id)]
        for schema in type.extensions where members[schema.id] != nil { schemas.append(.string(schema.id)) }
        members["schemas"] = .array(schemas)
        members["id"] = .string(id)
        members["meta"] = .object([
            "resourceType": .string(type.rawValue), "created": .string(TimeText.iso8601(created)),
            "lastModified": .string(TimeText.iso8601(modified)),
            "location": .string(base + "/" + type.endpoint + "/" + id), "version": .string(version),
        ])
        return .object(members)
    }

    private static func copy(_ path: SCIMPath, from source: [String: JSONValue], into target: inout [String: JSONValue])
    {
        guard let container = path.container else {
            guard let attribute = path.attribute, let value = source[attribute.name] else { return }
            if let sub = path.sub, case .object(let inner) = value, let one = inner[sub.name] {
                var merged = target[attribute.name]?.objectMembers ?? [:]
                merged[sub.name] = one
                target[attribute.name] = .object(merged)
            } else if path.sub == nil {
                target[attribute.name] = value
            }
            return
        }
        guard let inner = source[container]?.objectMembers else { return }
        guard let attribute = path.attribute else {
            target[container] = .object(inner)
            return
        }
        guard let value = inner[attribute.name] else { return }
        var merged = target[container]?.objectMembers ?? [:]
        merged[attribute.name] = value
        target[container] = .object(merged)
    }

    private static func remove(_ path: SCIMPath, from members: inout [String: JSONValue]) {
        guard let container = path.container else {
            guard let attribute = path.attribute else { return }
            if let sub = path.sub, case .object(var inner)? = members[attribute.name] {
                inner[sub.name] = nil
                members[attribute.name] = inner.isEmpty ? nil : .object(inner)
            } else if path.sub == nil {
                members[attribute.name] = nil
            }
            return
        }
        guard let attribute = path.attribute else {
            members[container] = nil
            return
        }
        guard case .object(var inner)? = members[container] else { return }
        inner[attribute.name] = nil
        members[container] = inner.isEmpty ? nil : .object(inner)
    }
}
