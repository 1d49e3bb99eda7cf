import RosterProtocol

/// A person's own tokens (docs/SSO.md): made with a token bound to them, limited to reading or to
/// their own actions, optionally on some schedules.
extension RosterClient {
    /// A new personal token: `token` holds it (shown this once), `tokens` what it is.
    public func createPersonalToken(_ spec: Roster_V1_PersonalTokenSpec) async throws
        -> Roster_V1_PersonalTokensResponse
    {
        try await personalTokens(.with { $0.create = spec })
    }

    /// The live personal tokens of the connection's person (an admin's: every person's).
    public func personalTokens() async throws -> [Roster_V1_PersonalToken] {
        try await personalTokens(.with { $0.list = true }).tokens
    }

    public func revokePersonalToken(id: String) async throws {
        _ = try await personalTokens(.with { $0.revoke = id })
    }

    private func personalTokens(_ body: Roster_V1_PersonalTokensRequest) async throws
        -> Roster_V1_PersonalTokensResponse
    {
        guard case .personalTokensResult(let answer) = try await request(RosterMessage.personalTokens(body)) else {
            throw RosterClientError.protocolViolation("expected PersonalTokensResult")
        }
        return answer
    }
}
