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
            try await store.appendAudit(
                tenantID: tenant.id,
                AuditLog.administered(
                    AuditLog.Kind.provisioningTokenCreated,
                    detail: "SCIM token \(id)\(label.isEmpty ? "" : " (\(label))")",
                    reason: reason, at: now, actor: actor))
            answer.provisioningSecret = Self.tokenPrefix + id + "_" + secret
            answer.provisioningTokens = [Self.wire(token)]
            answer.provisioningURL = baseURL
        case .listProvisioningTokens:
            answer.provisioningTokens = try await store.provisioningTokens(tenantID: tenant.id).map(Self.wire)
        case .revokeProvisioningToken(let id):
            guard try await store.revokeProvisioningToken(tenantID: tenant.id, id: id, at: now) else {
                return .failure(WireError(.notFound, "no SCIM token \(id.prefix(80)) in use in this tenant"))
            }
            try await store.appendAudit(
                tenantID: tenant.id,
                AuditLog.administered(
                    AuditLog.Kind.provisioningTokenRevoked, detail: "SCIM token \(id.prefix(80))", reason: reason,
                    at: now,
                    actor: actor))
        default:
            return .failure(WireError(.invalidArgument, "not a SCIM token action"))
        }
        return .success(answer)
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
