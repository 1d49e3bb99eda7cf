import Foundation
import RosterDomain
import RosterIdentity
import RosterServerCore
import RosterStore

/// `/scim/v2` (RFC 7644, docs/SSO.md): the tenant's identity provider provisions people and
/// groups with the tenant's SCIM bearer token. Kept out of the JSON API's route table and
/// OpenAPI document: SCIM describes itself (`/ServiceProviderConfig`, `/ResourceTypes`,
/// `/Schemas`), and every answer, errors included, is SCIM's own JSON.
extension HTTPAPI {
    static let scimRoot = "/scim/v2"
    /// The same for a named tenant: `/tenants/ID/scim/v2` (a provider's own tokens, docs/SSO.md).
    static let scimTenantsPrefix = "/tenants/"

    /// Where a path is under SCIM's root: the root as the path spells it, and the tenant it names.
    static func scimAddress(_ path: String) -> (root: String, tenant: String?)? {
        func under(_ root: String) -> Bool { path == root || path.hasPrefix(root + "/") }
        if under(scimRoot) { return (scimRoot, nil) }
        guard path.hasPrefix(scimTenantsPrefix) else { return nil }
        let rest = path.dropFirst(scimTenantsPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), slash > rest.startIndex,
            rest.distance(from: rest.startIndex, to: slash) <= 64
        else { return nil }
        let root = scimTenantsPrefix + rest[..<slash] + scimRoot
        return under(root) ? (root, String(rest[..<slash])) : nil
    }

    /// Every count a list may ask for at once, and the default.
    static let scimMaxCount = 1_000
    static let scimDefaultCount = 100

    func scim(_ request: Request, at address: (root: String, tenant: String?)) async -> Reply {
        guard let core = side.context, let loop = request.loop else {
            return Self.scimError(SCIMError(503, nil, "starting: the tenants are not loaded yet"))
        }
        let provisioning = Provisioning(core: core)
        let tenant: TenantRuntime
        switch await provisioning.tenant(bearer: request.authorization, named: address.tenant, address: request.peer) {
        case .tenant(let found): tenant = found
        case .busy:
            var reply = Self.scimError(SCIMError(429, nil, "the identity provider is being asked about other tokens"))
            reply.headers.append(("Retry-After", "1"))
            return reply
        case .refused:
            var reply = Self.scimError(
                SCIMError(401, nil, "send the tenant's SCIM token: Authorization: Bearer rsp_... (docs/SSO.md)"))
            reply.headers.append(("WWW-Authenticate", "Bearer"))
            return reply
        }
        let parts = request.path.dropFirst(address.root.count).split(separator: "/").map(String.init)
        let base = (side.currentTLS == nil ? "http://" : "https://") + (request.host ?? "localhost") + address.root
        do throws(SCIMError) {
            switch (request.method, parts.first, parts.count) {
            case ("GET", "ServiceProviderConfig", 1): return Self.scimJSON(SCIMDiscovery.serviceProviderConfig(base))
            case ("GET", "ResourceTypes", 1):
                return Self.scimJSON(SCIMDiscovery.list(SCIMDiscovery.resourceTypes(base)))
            case ("GET", "ResourceTypes", 2):
                guard let found = SCIMDiscovery.resourceTypes(base).first(where: { $0["id"]?.string == parts[1] })
                else {
                    throw .notFound("no resource type \(parts[1].prefix(80))")
                }
                return Self.scimJSON(found)
            case ("GET", "Schemas", 1):
                return Self.scimJSON(SCIMDiscovery.list(SCIMSchema.all.map { $0.published(location: base) }))
            case ("GET", "Schemas", 2):
                guard let found = SCIMSchema.all.first(where: { $0.id == parts[1] }) else {
                    throw .notFound("no schema \(parts[1].prefix(120))")
                }
                return Self.scimJSON(found.published(location: base))
            case ("POST", ".search", 1):
                throw SCIMError(501, nil, "search one resource type: POST /Users/.search or /Groups/.search")
            case (_, "ServiceProviderConfig"?, 1), (_, "ResourceTypes"?, 1...2), (_, "Schemas"?, 1...2):
                throw SCIMError(405, nil, "\(parts[0]) is read with GET only")
            default: break
            }
            guard let endpoint = parts.first,
                let type = SCIMResourceType.allCases.first(where: { $0.endpoint == endpoint })
            else {
                throw .notFound("no such resource: \(request.path.prefix(120)) (docs/SSO.md)")
            }
            switch (request.method, parts.count) {
            case ("GET", 1):
                let query = try SCIMQuery(fields: request.query, type: type)
                return try await scimList(query, type, provisioning: provisioning, tenant: tenant, base: base)
            case ("POST", 2) where parts[1] == ".search":
                let query = try SCIMQuery(search: try Self.scimBody(request), type: type)
                return try await scimList(query, type, provisioning: provisioning, tenant: tenant, base: base)
            case ("POST", 1):
                let made = try await provisioning.perform(
                    .create(try Self.scimBody(request)), type, ifMatch: nil, tenant: tenant, address: request.peer,
                    loop: loop
                ).get()
                var reply = try Self.scimResource(made, type, base: base, query: SCIMQuery(fields: [:], type: type))
                reply.status = 201
                if let location = reply.headers.first(where: { $0.0 == "ETag" }).map({ _ in
                    "\(base)/\(endpoint)/\(made?.id ?? "")"
                }) {
                    reply.headers.append(("Location", location))
                }
                return reply
            case ("GET", 2):
                let found = try await provisioning.resource(type, id: parts[1], tenant: tenant)
                let reply = try Self.scimResource(
                    found, type, base: base, query: SCIMQuery(fields: request.query, type: type))
                if let wanted = request.ifNoneMatch, reply.headers.contains(where: { $0 == ("ETag", wanted) }) {
                    return Reply(status: 304, contentType: "application/scim+json", body: [], headers: reply.headers)
                }
                return reply
            case ("PUT", 2), ("PATCH", 2), ("DELETE", 2):
                let write: Provisioning.Write =
                    switch request.method {
                    case "PUT": .replace(id: parts[1], try Self.scimBody(request))
                    case "PATCH": .patch(id: parts[1], try Self.scimBody(request))
                    default: .delete(id: parts[1])
                    }
                let done = try await provisioning.perform(
                    write, type, ifMatch: request.ifMatch, tenant: tenant, address: request.peer, loop: loop
                ).get()
                guard done != nil else { return Reply(status: 204, contentType: "application/scim+json", body: []) }
                return try Self.scimResource(
                    done, type, base: base, query: SCIMQuery(fields: request.query, type: type))
            default:
                throw SCIMError(405, nil, "\(request.method) is not taken at \(request.path.prefix(120))")
            }
        } catch {
            return Self.scimError(error)
        }
    }

    private func scimList(
        _ query: SCIMQuery, _ type: SCIMResourceType, provisioning: Provisioning, tenant: TenantRuntime, base: String
    ) async throws(SCIMError) -> Reply {
        let found = try await provisioning.list(type, filter: query.filter, tenant: tenant)
        let page = found.dropFirst(query.startIndex - 1).prefix(query.count)
        return Self.scimJSON(
            .object([
                "schemas": .array([.string(SCIMSchema.listResponse)]), "totalResults": .number(Double(found.count)),
                "startIndex": .number(Double(query.startIndex)), "itemsPerPage": .number(Double(page.count)),
                "Resources": .array(page.map { query.render($0, type, base: base) }),
            ]))
    }

    private static func scimResource(
        _ resource: ProvisionedResource?, _ type: SCIMResourceType, base: String, query: SCIMQuery
    ) throws(SCIMError) -> Reply {
        guard let resource else { throw .notFound("gone") }
        var reply = scimJSON(query.render(resource, type, base: base))
        reply.headers.append(("ETag", SCIMResource(stored: resource.body, type: type).version))
        return reply
    }

    private static func scimBody(_ request: Request) throws(SCIMError) -> JSONValue {
        guard let body = JSONValue.parse(Data(request.body)) else { throw .invalidSyntax("the body is not JSON") }
        return body
    }

    static func scimJSON(_ value: JSONValue, status: Int = 200) -> Reply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Reply(
            status: status, contentType: "application/scim+json",
            body: Array((try? encoder.encode(value)) ?? Data("{}".utf8)))
    }

    static func scimError(_ error: SCIMError) -> Reply { scimJSON(error.json, status: error.status) }
}

/// A list's parameters (RFC 7644 §3.4.2, §3.4.3), from a query string or a SearchRequest: one
/// reader for both, every number range-checked.
struct SCIMQuery {
    var filter: SCIMFilter?
    var startIndex = 1
    var count = HTTPAPI.scimDefaultCount
    var attributes: [SCIMPath] = []
    var excluded: [SCIMPath] = []

    init(fields: [String: String], type: SCIMResourceType) throws(SCIMError) {
        try self.init(
            filter: fields["filter"], startIndex: fields["startIndex"], count: fields["count"],
            attributes: fields["attributes"]?.split(separator: ",").map(String.init) ?? [],
            excluded: fields["excludedAttributes"]?.split(separator: ",").map(String.init) ?? [], type: type)
    }

    init(search: JSONValue, type: SCIMResourceType) throws(SCIMError) {
        func text(_ name: String) throws(SCIMError) -> String? {
            switch search[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case .number(let value)?:
                return value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)"
            default: throw .invalidValue("\(name) is a string or a number")
            }
        }
        func list(_ name: String) throws(SCIMError) -> [String] {
            switch search[name] {
            case nil, .null?: return []
            case .array(let items)?: return items.compactMap(\.string)
            case .string(let value)?: return value.split(separator: ",").map(String.init)
            default: throw .invalidValue("\(name) is a list of attribute names")
            }
        }
        try self.init(
            filter: try text("filter"), startIndex: try text("startIndex"), count: try text("count"),
            attributes: try list("attributes"), excluded: try list("excludedAttributes"), type: type)
    }

    private init(
        filter: String?, startIndex: String?, count: String?, attributes: [String], excluded: [String],
        type: SCIMResourceType
    ) throws(SCIMError) {
        if let filter, !filter.isEmpty { self.filter = try SCIMFilter.parse(filter, in: type) }
        // RFC 7644 §3.4.2.4: a startIndex below 1 is 1; a count below 0 is 0.
        if let startIndex { self.startIndex = max(1, try Self.number(startIndex, "startIndex")) }
        if let count { self.count = min(HTTPAPI.scimMaxCount, max(0, try Self.number(count, "count"))) }
        guard attributes.count + excluded.count <= 50 else { throw .invalidValue("at most 50 attribute names") }
        self.attributes = try attributes.map { (name) throws(SCIMError) in
            try SCIMPath.parse(name, in: type, allowFilter: false)
        }
        self.excluded = try excluded.map { (name) throws(SCIMError) in
            try SCIMPath.parse(name, in: type, allowFilter: false)
        }
    }

    /// An integer parameter: digits with an optional sign, at most 9 of them.
    static func number(_ text: String, _ name: String) throws(SCIMError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let value = Int(trimmed) else {
            throw .invalidValue("\(name) is a whole number (got \"\(text.prefix(20))\")")
        }
        return value
    }

    func render(_ resource: ProvisionedResource, _ type: SCIMResourceType, base: String) -> JSONValue {
        SCIMResource(stored: resource.body, type: type).rendered(
            id: resource.id, created: resource.createdAt, modified: resource.updatedAt, base: base,
            attributes: attributes, excluded: excluded)
    }
}

extension Result where Failure == SCIMError {
    /// The value, or the SCIM error thrown typed.
    func get() throws(SCIMError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
