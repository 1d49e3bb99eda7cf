import Foundation
import NIOCore
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterStore
import RosterTLS

/// SCIM provisioning (RFC 7644, docs/SSO.md): the tenant's identity provider creates, changes
/// and deactivates people and groups. Reads come from the store; every write is queued behind
/// the tenant's other changes and is one revision (with the SCIM resources in its transaction),
/// audited and pushed like an admin's change.
package struct Provisioning: Sendable {
    let core: ServerCore

    package init(core: ServerCore) { self.core = core }

    /// The token text: `rsp_<id>_<secret>`; its own prefix, so it is never mistaken for (or
    /// accepted as) a protocol token.
    package static let tokenPrefix = "rsp_"

    /// The tenant a presented bearer token provisions, or nil (refused, and audited).
    /// `named` is the tenant the request's path names (nil: none named); a token of another
    /// tenant is refused there. A token that is not Roster's own goes to the provider of that
    /// tenant (else the default one) when it takes its provider's tokens (`ProviderTokens`).
    package func tenant(bearer header: String?, named: String?, address: String) async -> Admission {
        let now = core.clock.now()
        guard let header, header.lowercased().hasPrefix("bearer ") else {
            core.auditProvisioningFailure(tenantID: named, address: address, detail: "no bearer token", at: now)
            return .refused
        }
        let text = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix(Self.tokenPrefix) else {
            return await providerToken(text, tenantID: named ?? core.defaultTenant, address: address, now: now)
        }
        let parts = text.dropFirst(4).split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count <= 64, parts[1].count <= 128 else {
            core.auditProvisioningFailure(tenantID: named, address: address, detail: "not a SCIM token", at: now)
            return .refused
        }
        let stored: ProvisioningToken?
        do { stored = try await core.admin.store.provisioningToken(id: String(parts[0])) } catch { return .refused }
        let presented = Array(Crypto.hex(Crypto.sha256(Array(parts[1].utf8))).utf8)
        guard let stored, Crypto.constantTimeEqual(presented, Array(stored.secretHash.utf8)), stored.revokedAt == nil,
            let tenant = core.tenant(stored.tenantID)
        else {
            core.auditProvisioningFailure(
                tenantID: stored?.tenantID, address: address,
                detail: stored == nil ? "unknown token" : stored?.revokedAt != nil ? "revoked token" : "wrong secret",
                at: now)
            return .refused
        }
        guard named == nil || named == tenant.id else {
            core.auditProvisioningFailure(
                tenantID: named, address: address, detail: "a token of another tenant", at: now)
            return .refused
        }
        return .tenant(tenant)
    }

    // MARK: Reading

    /// One resource, or 404.
    package func resource(_ type: SCIMResourceType, id: String, tenant: TenantRuntime) async throws(SCIMError)
        -> ProvisionedResource
    {
        guard let found = try await all(type, tenant: tenant).first(where: { $0.id == id }) else {
            throw .notFound("no \(type.rawValue) \(id.prefix(80))")
        }
        return found
    }

    /// Every resource of `type` that `filter` matches, in id order.
    package func list(_ type: SCIMResourceType, filter: SCIMFilter?, tenant: TenantRuntime) async throws(SCIMError)
        -> [ProvisionedResource]
    {
        // What providers ask before every push (`userName eq "…"`, `id eq "…"`): one row read by
        // its key, not every resource.
        let found: [ProvisionedResource]
        if let filter, let key = Self.key(of: filter, type) {
            do {
                let store = core.admin.store, kind = Self.kind(type)
                found = [
                    try await key.byID
                        ? store.provisioned(tenantID: tenant.id, kind: kind, id: key.value)
                        : store.provisioned(tenantID: tenant.id, kind: kind, nameKey: key.value.lowercased())
                ].compactMap { $0 }
            } catch {
                throw SCIMError(503, nil, "the store could not be read; try again")
            }
        } else {
            found = try await all(type, tenant: tenant)
        }
        guard let filter else { return found }
        return found.filter {
            filter.matches(id: $0.id, body: SCIMResource(stored: $0.body, type: type).attributes)
        }
    }

    private func all(_ type: SCIMResourceType, tenant: TenantRuntime) async throws(SCIMError) -> [ProvisionedResource] {
        do {
            return try await core.admin.store.provisioned(tenantID: tenant.id, kind: Self.kind(type))
        } catch {
            throw SCIMError(503, nil, "the store could not be read; try again")
        }
    }

    static func kind(_ type: SCIMResourceType) -> ProvisionedResource.Kind { type == .user ? .user : .group }

    /// A comparison of the filter that names one resource by a key: its id or its unique name.
    static func key(of filter: SCIMFilter, _ type: SCIMResourceType) -> (byID: Bool, value: String)? {
        for comparison in filter.comparisons {
            guard case .string(let value) = comparison.value else { continue }
            if comparison.isID { return (true, value) }
            if let path = comparison.path, path.container == nil, path.sub == nil,
                path.attribute?.name == type.nameAttribute
            {
                return (false, value)
            }
        }
        return nil
    }

    // MARK: Writing

    package enum Write: Sendable {
        case create(JSONValue)
        case replace(id: String, JSONValue)
        case patch(id: String, JSONValue)
        case delete(id: String)

        var id: String? {
            switch self {
            case .create: nil
            case .replace(let id, _), .patch(let id, _), .delete(let id): id
            }
        }
    }

    /// `write` done: the resource as it now is (nil after a delete).
    package func perform(
        _ write: Write, _ type: SCIMResourceType, ifMatch: String?, tenant: TenantRuntime, address: String,
        loop: any EventLoop
    ) async -> Result<ProvisionedResource?, SCIMError> {
        let promise = loop.makePromise(of: Result<ProvisionedResource?, SCIMError>.self)
        let actor = Caller(tokenID: nil, name: "SCIM provisioning", address: address, isAdmin: true)
        let queued = core.mutations.submit(tenant.id) {
            var outcome = await self.attempt(write, type, ifMatch: ifMatch, tenant: tenant, actor: actor)
            let patience = ContinuousClock.now + AdminOperations.conflictPatience
            while outcome.conflicted && ContinuousClock.now < patience {
                await self.core.resolveConflict(tenant)
                outcome = await self.attempt(write, type, ifMatch: ifMatch, tenant: tenant, actor: actor)
            }
            promise.succeed(outcome.result)
            guard let committed = outcome.committed else { return }
            try? await loop.submit { tenant.publish(committed) }.get()
        }
        if !queued { promise.succeed(.failure(SCIMError(503, nil, "the server is shutting down"))) }
        do { return try await promise.futureResult.get() } catch { return .failure(SCIMError(503, nil, "\(error)")) }
    }

    /// A deactivated person's tokens (sign-ins, logins, any bound to them) stop now; so do the
    /// admin sign-ins of people out of every admin group (they sign in again as readers).
    private func endSignIns(deactivated: Set<String>, demoted: Set<String>, tenant: TenantRuntime, actor: Caller)
        async
    {
        guard !deactivated.isEmpty || !demoted.isEmpty else { return }
        let signIns = [SingleSignOn.webTokenLabel, DeviceLogins.tokenLabel]
        for token in core.tokens.all() where token.tenantID == tenant.id && token.revokedAt == nil {
            let holder = token.employeeID ?? ""
            if deactivated.contains(holder) {
                _ = await core.revoke(token, why: "the person was deactivated by SCIM", address: actor.address)
            } else if demoted.contains(holder), token.role == .admin, signIns.contains(token.label) {
                _ = await core.revoke(
                    token, why: "SCIM took the person out of the admin groups", address: actor.address)
            }
        }
    }

    private struct Attempt {
        var result: Result<ProvisionedResource?, SCIMError>
        var committed: TenantRuntime.CommittedRevision? = nil
        var conflicted = false
    }

    private func attempt(
        _ write: Write, _ type: SCIMResourceType, ifMatch: String?, tenant: TenantRuntime, actor: Caller
    ) async -> Attempt {
        let planned: Plan
        do throws(SCIMError) {
            planned = try await plan(write, type, ifMatch: ifMatch, tenant: tenant)
        } catch {
            return Attempt(result: .failure(error))
        }
        let store = core.admin.store
        let provisioning = ProvisioningWrite(
            put: planned.resource.map { [$0] } ?? [], removed: planned.removed.map { [(Self.kind(type), $0)] } ?? [])
        if planned.people.isEmpty {
            do {
                try await store.writeProvisioning(tenantID: tenant.id, provisioning)
                try await store.appendAudit(
                    tenantID: tenant.id,
                    .with {
                        $0.kind = AuditLog.Kind.provisioned
                        $0.atMs = core.clock.now()
                        $0.actor = actor.name
                        $0.address = actor.address
                        $0.detail = planned.summary + " (no change to the directory)"
                    })
            } catch {
                return Attempt(result: .failure(Self.storeRefused(error)))
            }
            await endSignIns(deactivated: [], demoted: planned.demoted, tenant: tenant, actor: actor)
            return Attempt(result: .success(planned.resource))
        }
        let located = planned.people.map { (location: "scim", change: RosterChange.employeeUpserted($0)) }
        let before = tenant.view.state
        switch await core.admin.commitOnce(
            located, on: tenant, actor: actor, reason: "SCIM: \(planned.summary)", provisioning: provisioning)
        {
        case .success(let done):
            let gone = Set(
                planned.people.filter { $0.deactivated && before.employees[$0.id]?.deactivated != true }.map(\.id))
            await endSignIns(deactivated: gone, demoted: planned.demoted, tenant: tenant, actor: actor)
            return Attempt(result: .success(planned.resource), committed: done.revision)
        case .failure(let failure):
            if failure.conflicted { return Attempt(result: .failure(SCIMError(503, nil, "busy")), conflicted: true) }
            if "\(failure.error.body.message)".lowercased().contains("unique") {
                return Attempt(result: .failure(.uniqueness("the name was taken meanwhile")))
            }
            return Attempt(result: .failure(Self.refusal(failure.error)))
        }
    }

    /// A write's outcome before it is stored: the resource to keep (or the id to drop), and the
    /// people it changes.
    struct Plan {
        var resource: ProvisionedResource?
        var removed: String?
        var people: [Employee] = []
        /// People the change takes out of every admin group: their admin sign-ins end.
        var demoted: Set<String> = []
        var summary: String
    }

    /// Reads what the write needs (the resource, the holder of its name, the users it names or
    /// touches, the groups: never every user) and works out what it changes.
    func plan(_ write: Write, _ type: SCIMResourceType, ifMatch: String?, tenant: TenantRuntime)
        async throws(SCIMError) -> Plan
    {
        let store = core.admin.store, kind = Self.kind(type)
        func read<T>(_ body: () async throws -> T) async throws(SCIMError) -> T {
            do { return try await body() } catch { throw SCIMError(503, nil, "the store could not be read; try again") }
        }
        var current: ProvisionedResource?
        if let id = write.id {
            current = try await read { try await store.provisioned(tenantID: tenant.id, kind: kind, id: id) }
            guard current != nil else { throw .notFound("no \(type.rawValue) \(id.prefix(80))") }
        }
        var after = try Self.resolve(write, type, ifMatch: ifMatch, current: current)
        let id = current?.id ?? IdentifierFactory.make(type == .user ? "emp" : "grp")
        let now = core.clock.now()
        var record: ProvisionedResource?
        var named: Set<String> = []
        if var written = after {
            try written.requireComplete()
            let holder = try await read {
                try await store.provisioned(tenantID: tenant.id, kind: kind, nameKey: written.name.lowercased())
            }
            if let holder, holder.id != id {
                throw .uniqueness(
                    "\(type.nameAttribute) \"\(written.name.prefix(80))\" is \(type.rawValue) \(holder.id)'s")
            }
            if type == .group {
                named = try Self.members(written)
                let found = try await read { try await store.provisioned(tenantID: tenant.id, kind: .user, ids: named) }
                let gone = named.filter { found[$0] == nil }
                // A member whose User was deleted since is dropped; only a new one must exist.
                let before = Set(
                    current.map { SCIMPeople.members(of: SCIMResource(stored: $0.body, type: .group)) } ?? [])
                if let stranger = gone.subtracting(before).sorted().first {
                    throw .invalidValue("member \(stranger.prefix(80)) is no User")
                }
                if !gone.isEmpty {
                    written = SCIMPeople.dropping(members: gone, from: written)
                    named.subtract(gone)
                    after = written
                }
            }
            record = ProvisionedResource(
                kind: kind, id: id, name: written.name, body: written.stored, createdAt: current?.createdAt ?? now,
                updatedAt: now)
        }
        let verb = current == nil ? "created" : after == nil ? "deleted" : "changed"
        var plan = Plan(
            resource: record, removed: after == nil ? id : nil,
            summary: "\(type.rawValue) \((after?.name ?? current?.name ?? id).prefix(80)) \(verb)")

        // The people it touches, derived again from the resources as they will be.
        let groups = try await read { try await store.provisioned(tenantID: tenant.id, kind: .group) }
        var groupResources = Dictionary(groups.map { ($0.id, SCIMResource(stored: $0.body, type: .group)) }) {
            first, _ in first
        }
        let groupsBefore = Array(groupResources.values)
        var touched: Set<String>
        var users: [String: SCIMResource?] = [:]
        if type == .user {
            users[id] = .some(after)
            touched = [id]
        } else {
            touched = Set(groupResources[id].map(SCIMPeople.members) ?? []).union(named)
            groupResources[id] = after
            let stored = try await read { try await store.provisioned(tenantID: tenant.id, kind: .user, ids: touched) }
            for (userID, user) in stored { users[userID] = .some(SCIMResource(stored: user.body, type: .user)) }
        }
        let settings = try await read { try await store.singleSignOn(tenantID: tenant.id) }.flatMap {
            SingleSignOn.settings(stored: $0)
        }
        let roleGroups = Set((settings?.adminGroups ?? []) + (settings?.readerGroups ?? []))
        let allGroups = groupResources.values.sorted { $0.name < $1.name }
        let state = tenant.view.state
        for personID in touched.sorted() {
            var person: Employee
            if let user = users[personID] ?? nil {
                person = SCIMPeople.person(
                    id: personID, user: user, groups: allGroups, existing: state.employees[personID],
                    teamGroups: settings?.teamGroups ?? [:], roleGroups: roleGroups)
                // Two people may share a name; the directory needs them apart.
                if state.employeeIDs(named: person.fullName).contains(where: { $0 != personID }) {
                    person.lastName += " (\(user.name))"
                }
            } else if type == .user, var gone = state.employees[personID] {
                // Deleted by the provider: deactivated, never removed (their history stays).
                gone.deactivated = true
                person = gone
            } else {
                continue
            }
            if state.employees[personID] != person { plan.people.append(person) }
            let admins = Set(settings?.adminGroups ?? [])
            if !SCIMPeople.groupNames(of: personID, in: groupsBefore).isDisjoint(with: admins),
                SCIMPeople.groupNames(of: personID, in: allGroups).isDisjoint(with: admins)
            {
                plan.demoted.insert(personID)
            }
        }
        return plan
    }

    /// The resource as the write leaves it (nil: deleted), once `ifMatch` holds.
    static func resolve(_ write: Write, _ type: SCIMResourceType, ifMatch: String?, current: ProvisionedResource?)
        throws(SCIMError) -> SCIMResource?
    {
        if let current, let ifMatch, ifMatch != "*",
            !ifMatch.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == SCIMResource(stored: current.body, type: type).version
            })
        {
            throw SCIMError(412, nil, "the \(type.rawValue) changed since that version (If-Match)")
        }
        switch write {
        case .create(let body), .replace(_, let body): return try SCIMResource.canonical(body, type: type)
        case .patch(_, let body):
            return try SCIMPatch.apply(body, to: SCIMResource(stored: current?.body ?? "{}", type: type))
        case .delete: return nil
        }
    }

    /// A group's members' ids; Users only.
    static func members(_ group: SCIMResource) throws(SCIMError) -> Set<String> {
        guard case .array(let items)? = group.attributes["members"] else { return [] }
        var ids: Set<String> = []
        for item in items {
            if let kind = item["type"]?.string, kind != "User" {
                throw .invalidValue("a group's members are Users (not \(kind.prefix(20)))")
            }
            guard let value = item["value"]?.string else { throw .invalidValue("a member without value") }
            ids.insert(value)
        }
        return ids
    }

    static func refusal(_ error: WireError) -> SCIMError {
        switch error.body.code {
        case .invalidArgument, .failedPrecondition: .invalidValue(error.body.message)
        default: SCIMError(503, nil, error.body.message)
        }
    }

    static func storeRefused(_ error: any Error) -> SCIMError {
        if "\(error)".lowercased().contains("unique") { return .uniqueness("the name was taken meanwhile") }
        return SCIMError(503, nil, "the change could not be stored; try again")
    }
}
