import RosterProtocol

/// Sign-in with the tenant's identity provider, as an admin sets it up (docs/SSO.md).
extension RosterClient {
    /// Sets the tenant's provider; the server checks it (discovery and keys) before keeping it.
    /// The answer has the settings as kept, the redirect URI to register and notes on the provider.
    public func setSingleSignOn(_ setting: Roster_V1_SingleSignOnSetting, reason: String = "") async throws
        -> Roster_V1_IdentityAdminResponse
    {
        try await identityAdmin(
            .with {
                $0.setSingleSignOn = setting
                $0.reason = reason
            })
    }

    /// The tenant's provider settings (no secret); `hasSingleSignOn` false when none is set.
    public func singleSignOn() async throws -> Roster_V1_IdentityAdminResponse {
        try await identityAdmin(.with { $0.showSingleSignOn = true })
    }

    public func removeSingleSignOn(reason: String = "") async throws {
        _ = try await identityAdmin(
            .with {
                $0.removeSingleSignOn = true
                $0.reason = reason
            })
    }

    /// A new SCIM bearer token for the tenant: `provisioningSecret` holds it, shown this once,
    /// and `provisioningURL` the SCIM base URL (docs/SSO.md).
    public func createProvisioningToken(label: String = "", reason: String = "") async throws
        -> Roster_V1_IdentityAdminResponse
    {
        try await identityAdmin(
            .with {
                $0.createProvisioningToken = label
                $0.reason = reason
            })
    }

    /// The tenant's SCIM tokens, revoked ones too (never their secrets).
    public func provisioningTokens() async throws -> [Roster_V1_ProvisioningTokenInfo] {
        try await identityAdmin(.with { $0.listProvisioningTokens = true }).provisioningTokens
    }

    public func revokeProvisioningToken(id: String, reason: String = "") async throws {
        _ = try await identityAdmin(
            .with {
                $0.revokeProvisioningToken = id
                $0.reason = reason
            })
    }

    private func identityAdmin(_ body: Roster_V1_IdentityAdminRequest) async throws -> Roster_V1_IdentityAdminResponse {
        guard case .identityAdminResult(let answer) = try await request(RosterMessage.identityAdmin(body)) else {
            throw RosterClientError.protocolViolation("expected IdentityAdminResult")
        }
        return answer
    }
}
