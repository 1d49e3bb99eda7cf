import NIOCore
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterStore

extension SingleSignOn {
    /// The person a verified ID token names, in `tenant`: found by their link, linked by e-mail
    /// or created (each change one revision, as an admin's would be), their team refreshed from
    /// their groups; then a token for them, stored and audited before it is used.
    func admit(
        _ claims: IDTokenClaims, settings: SingleSignOnSettings, tenant: TenantRuntime, core: ServerCore,
        address: String, loop: any EventLoop, now: UnixMillis
    ) async throws(SignInRefusal) -> (token: StoredToken, name: String) {
        let (person, role, linked) = try await person(
            claims, settings: settings, tenant: tenant, core: core, address: address, loop: loop)
        let issued = AccessToken.issue(
            tenantID: tenant.id, role: role, label: Self.webTokenLabel, now: now,
            expiresAt: now + Self.tokenLifetime, employeeID: person.id)
        do {
            try await store(linked: linked, claims: claims, person: person, tenant: tenant, core: core, now: now)
            try await core.admin.store.insertToken(issued.stored)
            var entry = AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now)
            entry.actor = "\(person.fullName) (\(settings.issuer))"
            entry.address = address
            entry.detail +=
                linked == nil ? ", first sign-in with the identity provider" : ", signed in with the identity provider"
            try await core.admin.store.appendAudit(tenantID: tenant.id, entry)
        } catch {
            throw .providerUnavailable("the sign-in could not be stored")
        }
        core.tokens.insert(issued.stored)
        return (issued.stored, person.fullName)
    }

    /// The link (issuer, subject) → person, kept at a first sign-in.
    func store(
        linked: String?, claims: IDTokenClaims, person: Employee, tenant: TenantRuntime, core: ServerCore,
        now: UnixMillis
    ) async throws {
        guard linked == nil else { return }
        try await core.admin.store.linkIdentity(
            tenantID: tenant.id, issuer: claims.issuer, subject: claims.subject, employeeID: person.id, at: now)
    }

    /// Who a verified ID token is (found, linked by e-mail or created, their team refreshed) and
    /// their role; `linked`: the person the link already named, nil at a first sign-in.
    func person(
        _ claims: IDTokenClaims, settings: SingleSignOnSettings, tenant: TenantRuntime, core: ServerCore,
        address: String, loop: any EventLoop
    ) async throws(SignInRefusal) -> (person: Employee, role: AccessRole, linked: String?) {
        let store = core.admin.store
        let linked: String?
        let provisioned: [String: Set<String>]
        do {
            linked = try await store.identityLink(tenantID: tenant.id, issuer: claims.issuer, subject: claims.subject)
            provisioned = SCIMPeople.groupNamesByMember(
                try await store.provisioned(tenantID: tenant.id, kind: .group).map {
                    SCIMResource(stored: $0.body, type: .group)
                })
        } catch {
            throw .providerUnavailable("the store could not be read")
        }
        let state = tenant.view.state
        let identity = try SignInIdentity.resolve(
            claims, settings: settings, linked: linked, directory: Array(state.employees.values),
            provisionedGroups: { provisioned[$0] ?? [] }, newID: { IdentifierFactory.make("emp") })
        let actor = Caller(tokenID: nil, name: "single sign-on (\(settings.issuer))", address: address, isAdmin: true)
        var person: Employee
        switch identity.person {
        case .linked(let id), .linkedByEmail(let id):
            guard let found = state.employees[id] else { throw .linkedPersonGone }
            guard !found.deactivated else { throw .personDeactivated }
            person = found
            if let team = identity.team, person.team != team {
                person.team = team
                try await upsert(
                    person, reason: "team from the provider's groups", actor: actor, on: tenant, core: core, loop: loop)
            }
        case .created(let made):
            person = made
            try await upsert(person, reason: "first sign-in", actor: actor, on: tenant, core: core, loop: loop)
        }
        return (person, identity.role == .admin ? .admin : .reader, linked)
    }

    /// `person` put in the directory through the tenant's change queue, as an admin's change.
    private func upsert(
        _ person: Employee, reason: String, actor: Caller, on tenant: TenantRuntime, core: ServerCore,
        loop: any EventLoop
    ) async throws(SignInRefusal) {
        let request = Roster_V1_UpsertEmployeeRequest.with {
            $0.employee = Roster_V1_Employee(person)
            $0.reason = reason
        }
        let answer: Result<RosterMessage, WireError>
        do {
            answer = try await core.perform(.upsertEmployee(request), on: tenant, actor: actor, loop: loop).get()
        } catch {
            throw .providerUnavailable("the server is stopping")
        }
        if case .failure(let error) = answer {
            throw .directoryRefused(error.body.message)
        }
    }
}

extension SingleSignOn {
    /// A web session signed out: the token a provider sign-in minted for it is revoked (a token
    /// made otherwise, by `token create`, is the admin's to revoke).
    package func signedOut(tokenID: String, core: ServerCore, address: String) async {
        guard let token = core.tokens.token(id: tokenID), token.label == Self.webTokenLabel, token.revokedAt == nil
        else { return }
        _ = await core.revoke(token, why: "signed out", address: address)
    }
}

extension ServerCore {
    /// `token` revoked by the server for its holder (signed out, logged out, deactivated):
    /// stored, audited, and refused from now on by this node (others see it at their next
    /// refresh). False when the store could not be written.
    func revoke(_ token: StoredToken, why: String, address: String) async -> Bool {
        let core = self
        let now = core.clock.now()
        var token = token
        do {
            _ = try await core.admin.store.revokeToken(id: token.id, at: now)
            token.revokedAt = now
            var entry = AuditLog.token(AuditLog.Kind.tokenRevoked, token, at: now)
            entry.actor = token.employeeID ?? ""
            entry.tokenID = token.id
            entry.address = address
            entry.detail += ", " + why
            try await core.admin.store.appendAudit(tenantID: token.tenantID, entry)
        } catch {
            core.logger.warning("could not revoke token \(token.id) (\(why)): \(error)")
            return false
        }
        core.tokens.insert(token)
        return true
    }
}
