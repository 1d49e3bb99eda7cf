import RosterDomain
import RosterProtocol

/// `roster-client token create|list|revoke`: a person's own tokens (docs/SSO.md).
extension CommandRunner {
    public func createPersonalToken(
        label: String, readOnly: Bool, schedules: [String], expiresIn: Duration?
    ) async -> ClientExitCode {
        await run {
            let answer = try await client.createPersonalToken(
                .with {
                    $0.label = label
                    $0.readOnly = readOnly
                    $0.schedules = schedules
                    $0.expiresInS = expiresIn?.components.seconds ?? 0
                })
            if json { return Self.out(try answer.jsonString()) }
            Self.out(answer.token)
            if let made = answer.tokens.first {
                Self.out("Token id: \(made.tokenID) (the token is shown this once); \(describe(made))")
            }
        }
    }

    public func listPersonalTokens() async -> ClientExitCode {
        await run {
            let tokens = try await client.personalTokens()
            if json {
                return Self.out(try "[" + tokens.map { try $0.jsonString() }.joined(separator: ",") + "]")
            }
            if tokens.isEmpty { return Self.out("No personal tokens.") }
            for token in tokens {
                Self.out("\(token.tokenID)  \(describe(token))" + (token.label.isEmpty ? "" : "  \(token.label)"))
            }
        }
    }

    public func revokePersonalToken(id: String) async -> ClientExitCode {
        await run {
            try await client.revokePersonalToken(id: id)
            if !json { Self.out("Personal token \(id) revoked.") }
        }
    }

    /// "read only, until 2027-03-01T09:00:00Z" or "own actions on sch_1, until …".
    private func describe(_ token: Roster_V1_PersonalToken) -> String {
        (token.readOnly ? "read only" : "own actions")
            + (token.schedules.isEmpty ? "" : " on " + token.schedules.joined(separator: ", "))
            + ", until \(TimeText.iso8601(token.expiresMs))"
    }
}
