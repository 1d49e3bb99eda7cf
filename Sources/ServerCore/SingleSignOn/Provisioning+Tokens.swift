import RosterDomain
import RosterProtocol
import RosterStore
import RosterTLS

extension Provisioning {
    /// The SCIM base URL on this server's HTTP listener ("" without one).
    var baseURL: String {
        let callback = SingleSignOn.defaultRedirectURI(core)
        guard let range = callback.range(of: SingleSignOn.callbackPath) else { return "" }
        return callback[..<range.lowerBound] + "/scim/v2"
    }

    /// The IdentityAdmin actions on SCIM bearer tokens: create (the secret shown once), list,
    /// revoke. Each is audited.
    func administer(
        _ action: Roster_V1_IdentityAdminRequest.OneOf_Action, tenant: TenantRuntime, actor: Caller, reason: String
    ) async throws -> Result<Roster_V1_IdentityAdminResponse, WireError> {
        let store = core.admin.store, now = core.clock.now()
        var answer = Roster_V1_IdentityAdminResponse()
        switch action {
        case .createProvisioningToken(let label):
            guard label.count <= 200, !ControlCharacters.contains(in: label) else {
                return .failure(WireError(.invalidArgument, "a label is at most 200 characters, none a control"))
            }
            let id = Crypto.hex(Crypto.randomBytes(6)), secret = Crypto.hex(Crypto.randomBytes(32))
            let token = ProvisioningToken(
                id: id, tenantID: tenant.id, secretHash: Crypto.hex(Crypto.sha256(Array(secret.utf8))), label: label,
                createdAt: now)
            try await store.insertProvisioningToken(token)
            try await audit(
                AuditLog.Kind.provisioningTokenCreated, "SCIM token \(id)\(label.isEmpty ? "" : " (\(label))")",
                reason: reason, tenant: tenant, actor: actor, at: now)
            answer.provisioningSecret = Self.tokenPrefix + id + "_" + secret
            answer.provisioningTokens = [Self.wire(token)]
            answer.provisioningURL = baseURL
        case .listProvisioningTokens:
            answer.provisioningTokens = try await store.provisioningTokens(tenantID: tenant.id).map(Self.wire)
        case .revokeProvisioningToken(let id):
            guard try await store.revokeProvisioningToken(tenantID: tenant.id, id: id, at: now) else {
                return .failure(WireError(.notFound, "no SCIM token \(id.prefix(80)) in use in this tenant"))
            }
            try await audit(
                AuditLog.Kind.provisioningTokenRevoked, "SCIM token \(id.prefix(80))", reason: reason, tenant: tenant,
                actor: actor, at: now)
        default:
            return .failure(WireError(.invalidArgument, "not a SCIM token action"))
        }
        return .success(answer)
    }

    private func audit(
        _ kind: String, _ detail: String, reason: String, tenant: TenantRuntime, actor: Caller, at now: UnixMillis
    ) async throws {
        try await core.admin.store.appendAudit(
            tenantID: tenant.id,
            .with {
                $0.kind = kind
                $0.atMs = now
                $0.actor = actor.name
                $0.tokenID = actor.tokenID ?? ""
                $0.address = actor.address
                $0.detail = detail
                $0.reason = reason
            })
    }

    static func wire(_ token: ProvisioningToken) -> Roster_V1_ProvisioningTokenInfo {
        .with {
            $0.id = token.id
            $0.label = token.label
            $0.createdAtMs = token.createdAt
            $0.revokedAtMs = token.revokedAt ?? 0
        }
    }
}
