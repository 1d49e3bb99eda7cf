import RosterDomain

/// What `/ServiceProviderConfig` and `/ResourceTypes` say of Roster's SCIM service (RFC 7643
/// §5, §6): PATCH, filters (eq and and) and ETags, no bulk, no sorting, bearer tokens.
public enum SCIMDiscovery {
    public static func serviceProviderConfig(_ base: String) -> JSONValue {
        .object([
            "schemas": .array([.string("urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig")]),
            "documentationUri": .string("https://github.com/roster/roster/blob/main/docs/SSO.md"),
            "patch": .object(["supported": .bool(true)]),
            "bulk": .object(["supported": .bool(false), "maxOperations": .number(0), "maxPayloadSize": .number(0)]),
            "filter": .object(["supported": .bool(true), "maxResults": .number(1_000)]),
            "changePassword": .object(["supported": .bool(false)]),
            "sort": .object(["supported": .bool(false)]),
            "etag": .object(["supported": .bool(true)]),
            "authenticationSchemes": .array([
                .object([
                    "type": .string("oauthbearertoken"), "name": .string("Bearer token"),
                    "description": .string("the tenant's SCIM token: roster-client admin scim token create"),
                    "primary": .bool(true),
                ])
            ]),
            "meta": .object([
                "resourceType": .string("ServiceProviderConfig"), "location": .string(base + "/ServiceProviderConfig"),
            ]),
        ])
    }

    public static func resourceTypes(_ base: String) -> [JSONValue] {
        SCIMResourceType.allCases.map { type in
            .object([
                "schemas": .array([.string("urn:ietf:params:scim:schemas:core:2.0:ResourceType")]),
                "id": .string(type.rawValue), "name": .string(type.rawValue), "endpoint": .string("/" + type.endpoint),
                "description": .string(type == .user ? "a person of the directory" : "a team or a role"),
                "schema": .string(type.schema.id),
                "schemaExtensions": .array(
                    type.extensions.map { .object(["schema": .string($0.id), "required": .bool(false)]) }),
                "meta": .object([
                    "resourceType": .string("ResourceType"),
                    "location": .string(base + "/ResourceTypes/" + type.rawValue),
                ]),
            ])
        }
    }

    /// A ListResponse of every item.
    public static func list(_ items: [JSONValue]) -> JSONValue {
        .object([
            "schemas": .array([.string(SCIMSchema.listResponse)]), "totalResults": .number(Double(items.count)),
            "startIndex": .number(1), "itemsPerPage": .number(Double(items.count)), "Resources": .array(items),
        ])
    }
}
