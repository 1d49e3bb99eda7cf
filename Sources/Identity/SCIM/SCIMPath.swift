import RosterDomain

/// The resource types SCIM serves, with their schemas.
public enum SCIMResourceType: String, Sendable, CaseIterable {
    case user = "User", group = "Group"

    public var schema: SCIMSchema { self == .user ? SCIMSchema.userSchema : SCIMSchema.groupSchema }
    public var extensions: [SCIMSchema] { self == .user ? [SCIMSchema.enterpriseSchema] : [] }
    public var endpoint: String { self == .user ? "Users" : "Groups" }
    /// The attribute unique in the tenant: userName or displayName.
    public var nameAttribute: String { self == .user ? "userName" : "displayName" }
}

/// Where an attribute lives in a resource: in the core schema (`container` nil) or in an
/// extension's object, with a sub-attribute, or an element filter (`emails[type eq "work"]`).
/// One reader for the paths of filters and of PATCH operations (RFC 7644 §3.4.2.2, §3.5.2).
public struct SCIMPath: Sendable {
    public var container: String?
    /// nil: the path names the extension itself (a PATCH may set all of it at once).
    public var attribute: SCIMAttribute?
    public var sub: SCIMAttribute?
    public var filter: SCIMFilter?

    /// The path `text` in resources of `type`; unknown attributes are refused with `invalidPath`.
    public static func parse(_ text: String, in type: SCIMResourceType, allowFilter: Bool = true) throws(SCIMError)
        -> SCIMPath
    {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var schema = type.schema
        var container: String?
        if rest.lowercased().hasPrefix("urn:") {
            let known = ([type.schema] + type.extensions).sorted { $0.id.count > $1.id.count }
            guard let found = known.first(where: { rest.lowercased().hasPrefix($0.id.lowercased()) }) else {
                throw .invalidPath("no schema of \(type.rawValue) is named in \"\(text.prefix(100))\"")
            }
            rest = rest.dropFirst(found.id.count)
            if found.id != type.schema.id {
                container = found.id
                schema = found
            }
            if rest.isEmpty {
                guard container != nil else { throw .invalidPath("a path names an attribute after the core schema") }
                return SCIMPath(container: container)
            }
            guard rest.first == ":" else { throw .invalidPath("\"\(text.prefix(100))\" is not an attribute path") }
            rest = rest.dropFirst()
        }
        var filterText: Substring?
        var subName: Substring?
        if let open = rest.firstIndex(of: "[") {
            guard allowFilter, let close = rest.lastIndex(of: "]"), close > open else {
                throw .invalidPath("\"\(text.prefix(100))\" has a filter where none is taken")
            }
            filterText = rest[rest.index(after: open)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ".", after.count > 1 else {
                    throw .invalidPath("\"\(text.prefix(100))\" is not an attribute path")
                }
                subName = after.dropFirst()
            }
            rest = rest[..<open]
        } else if let dot = rest.firstIndex(of: ".") {
            subName = rest[rest.index(after: dot)...]
            rest = rest[..<dot]
        }
        let name = String(rest)
        let attribute: SCIMAttribute
        if container == nil, name.caseInsensitiveCompare("externalId") == .orderedSame {
            attribute = SCIMSchema.externalID
        } else if let found = schema.attribute(name) {
            attribute = found
        } else {
            throw .invalidPath("\(type.rawValue) has no attribute \"\(name.prefix(100))\" that Roster keeps")
        }
        var path = SCIMPath(container: container, attribute: attribute)
        if let subName {
            guard let sub = attribute.sub(String(subName)) else {
                throw .invalidPath("\(attribute.name) has no sub-attribute \"\(subName.prefix(100))\"")
            }
            path.sub = sub
        }
        if let filterText {
            guard attribute.multiValued else { throw .invalidPath("\(attribute.name) has one value: no filter") }
            path.filter = try SCIMFilter.parse(String(filterText), elementOf: attribute)
        }
        return path
    }
}
