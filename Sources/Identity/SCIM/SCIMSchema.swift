import RosterDomain

/// The SCIM attributes Roster keeps (RFC 7643), one description for everything: what
/// `/Schemas` publishes, how a provider's JSON is read (`SCIMResource.canonical`) and how a
/// filter or a PATCH path finds an attribute. Every attribute of RFC 7643's User, enterprise
/// User and Group is described: a client that builds its models from `/Schemas` (scim2-client,
/// which Canaille's SCIM client uses) refuses to send one that is not. Those the directory does
/// not show (addresses, photos, roles ...) are kept with the SCIM resource and given back, as a
/// checker expects of what is published; `password` and a User's `groups` are published but
/// never kept (`kept: false`, returned never): Roster has no use for a password, and a
/// person's groups are the Groups' members.
public struct SCIMAttribute: Sendable {
    public enum Kind: String, Sendable { case string, boolean, complex, reference }

    public var name: String
    public var kind: Kind
    public var multiValued = false
    public var required = false
    public var caseExact = false
    public var mutability = "readWrite"
    public var uniqueness = "none"
    public var referenceTypes: [String] = []
    public var canonicalValues: [String] = []
    public var subAttributes: [SCIMAttribute] = []
    public var description = ""
    /// False: published so that clients may send it, and dropped (`returned: never`).
    public var kept = true

    /// The kept sub-attribute named `name`, ignoring case (attribute names are case-insensitive).
    public func sub(_ name: String) -> SCIMAttribute? {
        subAttributes.first { $0.kept && $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// An attribute kept with the SCIM resource and not shown in the directory (a `complex`
    /// one with these sub-attributes); `kept: false`, accepted and dropped.
    static func other(
        _ name: String, _ kind: Kind = .string, multiValued: Bool = false, subAttributes: [String] = [],
        mutability: String = "readWrite", kept: Bool = true
    ) -> SCIMAttribute {
        SCIMAttribute(
            name: name, kind: kind, multiValued: multiValued, mutability: mutability,
            referenceTypes: kind == .reference ? ["external"] : [],
            subAttributes: subAttributes.map {
                other($0, $0 == "$ref" ? .reference : $0 == "primary" ? .boolean : .string, kept: kept)
            },
            description: kept ? "kept for the provider, not shown in Roster" : "accepted, never kept", kept: kept)
    }

    var published: JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(name), "type": .string(kind.rawValue), "multiValued": .bool(multiValued),
            "description": .string(description), "required": .bool(required), "caseExact": .bool(caseExact),
            "mutability": .string(mutability), "returned": .string(kept ? "default" : "never"),
            "uniqueness": .string(uniqueness),
        ]
        if kind == .complex { members["subAttributes"] = .array(subAttributes.map(\.published)) }
        if kind == .reference { members["referenceTypes"] = .array(referenceTypes.map(JSONValue.string)) }
        if !canonicalValues.isEmpty { members["canonicalValues"] = .array(canonicalValues.map(JSONValue.string)) }
        return .object(members)
    }
}

/// A schema: its URN and attributes.
public struct SCIMSchema: Sendable {
    public var id: String
    public var name: String
    public var attributes: [SCIMAttribute]

    /// The kept attribute named `name`, ignoring case.
    public func attribute(_ name: String) -> SCIMAttribute? {
        attributes.first { $0.kept && $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The `/Schemas/{id}` document.
    public func published(location: String) -> JSONValue {
        .object([
            "schemas": .array([.string("urn:ietf:params:scim:schemas:core:2.0:Schema")]),
            "id": .string(id), "name": .string(name), "description": .string(name),
            "attributes": .array(attributes.map(\.published)),
            "meta": .object(["resourceType": .string("Schema"), "location": .string(location + "/Schemas/" + id)]),
        ])
    }

    public static let user = "urn:ietf:params:scim:schemas:core:2.0:User"
    public static let enterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
    public static let group = "urn:ietf:params:scim:schemas:core:2.0:Group"
    public static let listResponse = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
    public static let patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
    public static let searchRequest = "urn:ietf:params:scim:api:messages:2.0:SearchRequest"
    public static let error = "urn:ietf:params:scim:api:messages:2.0:Error"

    private static func plural(_ name: String, _ description: String) -> SCIMAttribute {
        SCIMAttribute(
            name: name, kind: .complex, multiValued: true,
            subAttributes: [
                SCIMAttribute(name: "value", kind: .string, description: description),
                SCIMAttribute(name: "type", kind: .string, description: "work, home, mobile, other"),
                SCIMAttribute(name: "primary", kind: .boolean, description: "the one Roster shows"),
            ], description: description)
    }

    /// The User schema: what the directory shows of a person (docs/SSO.md has the mapping).
    public static let userSchema = SCIMSchema(
        id: user, name: "User",
        attributes: [
            SCIMAttribute(
                name: "userName", kind: .string, required: true, uniqueness: "server",
                description: "unique in the tenant, ignoring case"),
            SCIMAttribute(
                name: "name", kind: .complex,
                subAttributes: [
                    SCIMAttribute(name: "givenName", kind: .string, description: "first name"),
                    SCIMAttribute(name: "familyName", kind: .string, description: "last name"),
                    SCIMAttribute(name: "formatted", kind: .string, description: "the whole name"),
                    .other("middleName"), .other("honorificPrefix"), .other("honorificSuffix"),
                ], description: "the person's name"),
            SCIMAttribute(name: "displayName", kind: .string, description: "the name shown when name is absent"),
            SCIMAttribute(name: "title", kind: .string, description: "the position"),
            SCIMAttribute(name: "active", kind: .boolean, description: "false: deactivated, never deleted"),
            plural("emails", "an e-mail address"),
            plural("phoneNumbers", "a phone number"),
            .other("nickName"), .other("profileUrl", .reference), .other("userType"),
            .other("preferredLanguage"), .other("locale"), .other("timezone"),
            .other("password", mutability: "writeOnly", kept: false),
            .other("ims", .complex, multiValued: true, subAttributes: ["value", "display", "type", "primary"]),
            .other("photos", .complex, multiValued: true, subAttributes: ["value", "display", "type", "primary"]),
            .other(
                "addresses", .complex, multiValued: true,
                subAttributes: [
                    "formatted", "streetAddress", "locality", "region", "postalCode", "country", "type", "primary",
                ]),
            .other(
                "groups", .complex, multiValued: true, subAttributes: ["value", "$ref", "display", "type"],
                mutability: "readOnly", kept: false),
            .other(
                "entitlements", .complex, multiValued: true, subAttributes: ["value", "display", "type", "primary"]),
            .other("roles", .complex, multiValued: true, subAttributes: ["value", "display", "type", "primary"]),
            .other(
                "x509Certificates", .complex, multiValued: true,
                subAttributes: ["value", "display", "type", "primary"]),
        ])

    public static let enterpriseSchema = SCIMSchema(
        id: enterpriseUser, name: "EnterpriseUser",
        attributes: [
            SCIMAttribute(name: "department", kind: .string, description: "the team"),
            .other("employeeNumber"), .other("costCenter"), .other("organization"), .other("division"),
            .other("manager", .complex, subAttributes: ["value", "$ref", "displayName"]),
        ])

    public static let groupSchema = SCIMSchema(
        id: group, name: "Group",
        attributes: [
            SCIMAttribute(
                name: "displayName", kind: .string, required: true, uniqueness: "server",
                description: "the team or role it stands for"),
            SCIMAttribute(
                name: "members", kind: .complex, multiValued: true,
                subAttributes: [
                    SCIMAttribute(name: "value", kind: .string, caseExact: true, description: "a User's id"),
                    SCIMAttribute(
                        name: "$ref", kind: .reference, caseExact: true, referenceTypes: ["User"],
                        description: "the User's URI"),
                    SCIMAttribute(name: "type", kind: .string, canonicalValues: ["User"], description: "User"),
                    .other("display"),
                ], description: "the people in the group"),
        ])

    /// `externalId`, which every resource has besides its schema's attributes (RFC 7643 §3.1).
    public static let externalID = SCIMAttribute(
        name: "externalId", kind: .string, caseExact: true, description: "the provider's own id")

    public static let all = [userSchema, enterpriseSchema, groupSchema]
}
