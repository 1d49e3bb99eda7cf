import RosterDomain

/// PATCH (RFC 7644 §3.5.2): `add`, `replace` and `remove` operations applied in order to a
/// resource, all or none. Paths as `SCIMPath` reads them, element filters included
/// (`emails[type eq "work"].value`, `members[value eq "…"]`).
public enum SCIMPatch {
    /// The most operations one request carries.
    public static let maxOperations = 1_000

    enum Op: String { case add, replace, remove }

    public static func apply(_ body: JSONValue, to resource: SCIMResource) throws(SCIMError) -> SCIMResource {
        guard case .object(let members) = body,
            let operations = members.first(where: { $0.key.lowercased() == "operations" })?.value,
            case .array(let list) = operations
        else {
            throw .invalidSyntax("a PATCH body is a PatchOp with a list of Operations")
        }
        guard list.count <= maxOperations else {
            throw .invalidSyntax("a PATCH has at most \(maxOperations) operations")
        }
        var patched = resource
        for (index, operation) in list.enumerated() {
            guard case .object(let fields) = operation else {
                throw .invalidSyntax("operation \(index) is not an object")
            }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key.lowercased() == name }?.value }
            guard let opText = field("op")?.string, let op = Op(rawValue: opText.lowercased()) else {
                throw .invalidSyntax("operation \(index): op is add, replace or remove")
            }
            let value = field("value")
            if let pathText = field("path")?.string, !pathText.isEmpty {
                // A write-only attribute Roster never keeps (a User's password) is taken and dropped.
                if let named = resource.type.schema.attributes.first(where: {
                    !$0.kept && $0.mutability == "writeOnly" && $0.name.caseInsensitiveCompare(pathText) == .orderedSame
                }) {
                    guard op != .remove else { throw .noTarget("operation \(index): \(named.name) is never kept") }
                    continue
                }
                let path = try SCIMPath.parse(pathText, in: resource.type)
                try apply(op, path: path, value: value, to: &patched.attributes, type: resource.type)
            } else {
                guard op != .remove else { throw .noTarget("operation \(index): remove needs a path") }
                guard let value else { throw .invalidSyntax("operation \(index): \(op.rawValue) needs a value") }
                let fragment = try SCIMResource.canonical(value, type: resource.type)
                for (key, one) in fragment.attributes {
                    merge(key, one, into: &patched.attributes, replacing: op == .replace, type: resource.type)
                }
            }
        }
        return try SCIMResource.canonical(.object(patched.attributes), type: resource.type)
    }

    /// Sets `key` to `value`: a list added to is appended to, an object added to is merged.
    private static func merge(
        _ key: String, _ value: JSONValue, into attributes: inout [String: JSONValue], replacing: Bool,
        type: SCIMResourceType
    ) {
        switch (attributes[key], value) {
        case (.array(let old)?, .array(let new)) where !replacing:
            attributes[key] = .array(old + new.filter { !old.contains($0) })
        case (.object(var old)?, .object(let new)) where !replacing || type.extensions.contains { $0.id == key }:
            for (name, member) in new { old[name] = member }
            attributes[key] = .object(old)
        default:
            attributes[key] = value
        }
    }

    private static func apply(
        _ op: Op, path: SCIMPath, value: JSONValue?, to attributes: inout [String: JSONValue], type: SCIMResourceType
    ) throws(SCIMError) {
        guard let attribute = path.attribute else {
            // The extension itself.
            guard let container = path.container else { return }
            if op == .remove {
                attributes[container] = nil
                return
            }
            let fragment = try SCIMResource.canonical(.object([container: value ?? .null]), type: type)
            if let inner = fragment.attributes[container] {
                merge(container, inner, into: &attributes, replacing: false, type: type)
            } else if op == .replace {
                attributes[container] = nil
            }
            return
        }
        var holder = path.container.map { attributes[$0]?.objectMembers ?? [:] } ?? attributes
        defer {
            if let container = path.container {
                attributes[container] = holder.isEmpty ? nil : .object(holder)
            } else {
                attributes = holder
            }
        }
        if attribute.multiValued, path.filter != nil || path.sub != nil {
            try applyToElements(op, path: path, attribute: attribute, value: value, holder: &holder)
            return
        }
        if let sub = path.sub {
            var inner = holder[attribute.name]?.objectMembers ?? [:]
            if op == .remove {
                inner[sub.name] = nil
            } else {
                inner[sub.name] = try SCIMResource.checked(value ?? .null, sub)
            }
            holder[attribute.name] = inner.isEmpty ? nil : .object(inner)
            return
        }
        switch op {
        case .remove:
            if attribute.multiValued, let value, let gone = try SCIMResource.checked(value, attribute),
                case .array(let removed) = gone, case .array(let items)? = holder[attribute.name]
            {
                // `{"op": "remove", "path": "members", "value": [{"value": "…"}]}`: those elements.
                let left = items.filter { item in !removed.contains { Self.sameElement(item, $0) } }
                holder[attribute.name] = left.isEmpty ? nil : .array(left)
            } else {
                holder[attribute.name] = nil
            }
        case .add, .replace:
            guard let checked = try SCIMResource.checked(value ?? .null, attribute) else {
                if op == .replace { holder[attribute.name] = nil }
                return
            }
            merge(attribute.name, checked, into: &holder, replacing: op == .replace, type: type)
        }
    }

    /// An element named by its `value` when it has one (a member), else wholly.
    private static func sameElement(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let left = a["value"], let right = b["value"] { return left == right }
        return a == b
    }

    private static func applyToElements(
        _ op: Op, path: SCIMPath, attribute: SCIMAttribute, value: JSONValue?, holder: inout [String: JSONValue]
    ) throws(SCIMError) {
        var items: [JSONValue] = []
        if case .array(let list)? = holder[attribute.name] { items = list }
        let chosen = items.indices.filter { path.filter?.matchesElement(items[$0]) ?? true }
        switch op {
        case .remove:
            if let sub = path.sub {
                for index in chosen {
                    guard case .object(var element) = items[index] else { continue }
                    element[sub.name] = nil
                    items[index] = .object(element)
                }
                items.removeAll { $0 == .object([:]) }
            } else {
                items = items.indices.filter { !chosen.contains($0) }.map { items[$0] }
            }
        case .add, .replace:
            var update: [String: JSONValue]
            if let sub = path.sub {
                update = [:]
                update[sub.name] = try SCIMResource.checked(value ?? .null, sub)
            } else {
                guard let one = try SCIMResource.checked(value ?? .null, attribute, element: true),
                    case .object(let members) = one
                else { throw .invalidValue("\(attribute.name)[…] is set to an object") }
                update = members
            }
            if chosen.isEmpty {
                // Nothing matches: a new element, with what the filter asked for.
                var element: [String: JSONValue] = [:]
                for comparison in path.filter?.comparisons ?? [] {
                    if let sub = comparison.elementSub { element[sub.name] = comparison.value }
                }
                for (name, member) in update { element[name] = member }
                items.append(.object(element))
            }
            for index in chosen {
                guard case .object(var element) = items[index] else { continue }
                for (name, member) in update { element[name] = member }
                items[index] = .object(element)
            }
        }
        holder[attribute.name] = items.isEmpty ? nil : .array(items)
    }
}
