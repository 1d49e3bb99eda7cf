import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import SwiftProtobuf

/// `admin sso ...` (docs/SSO.md): text for people, or with --json the answer as JSON.
extension CommandRunner {
    public func setSingleSignOn(_ setting: Roster_V1_SingleSignOnSetting, reason: String = "") async -> ClientExitCode {
        await run {
            let answer = try await client.setSingleSignOn(setting, reason: reason)
            if json { return Self.out(try answer.jsonString()) }
            Self.out("Sign-in with \(answer.singleSignOn.issuer) is set up (client \(answer.singleSignOn.clientID)).")
            describe(answer)
        }
    }

    public func showSingleSignOn() async -> ClientExitCode {
        await run {
            let answer = try await client.singleSignOn()
            if json { return Self.out(try answer.jsonString()) }
            guard answer.hasSingleSignOn else { return Self.out("Sign-in with an identity provider is not set up.") }
            let setting = answer.singleSignOn
            Self.out(
                "Issuer: \(setting.issuer)\nClient id: \(setting.clientID)\nScopes: \(setting.scopes.joined(separator: " "))"
            )
            Self.out("Groups claim: \(setting.groupsClaim)")
            if !setting.adminGroups.isEmpty { Self.out("Admin groups: \(setting.adminGroups.joined(separator: ", "))") }
            if !setting.readerGroups.isEmpty {
                Self.out("Reader groups: \(setting.readerGroups.joined(separator: ", "))")
            }
            for (group, team) in setting.teamGroups.sorted(by: { $0.key < $1.key }) {
                Self.out("Team \(team): group \(group)")
            }
            Self.out(
                "New people: \(setting.createPeople ? "created at their first sign-in" : "added by an admin first")")
            Self.out("Linked by verified e-mail: \(setting.linkByVerifiedEmail ? "yes" : "no")")
            Self.out("SCIM takes the provider's tokens: \(setting.scimProviderTokens ? "yes" : "no")")
            describe(answer)
        }
    }

    public func removeSingleSignOn(reason: String = "") async -> ClientExitCode {
        await run {
            try await client.removeSingleSignOn(reason: reason)
            if !json { Self.out("Sign-in with an identity provider is off.") }
        }
    }

    private func describe(_ answer: Roster_V1_IdentityAdminResponse) {
        if !answer.redirectUri.isEmpty { Self.out("Redirect URI to register with the provider: \(answer.redirectUri)") }
        for note in answer.notes { Self.out("Note: \(note)") }
    }
}

/// `admin scim token ...` (docs/SSO.md): the bearer tokens an identity provider provisions with.
extension CommandRunner {
    /// Prints the new token alone on its first line (so `| head -1` takes it), then where to use it.
    public func createProvisioningToken(label: String, reason: String = "") async -> ClientExitCode {
        await run {
            let answer = try await client.createProvisioningToken(label: label, reason: reason)
            if json { return Self.out(try answer.jsonString()) }
            Self.out(answer.provisioningSecret)
            if !answer.provisioningURL.isEmpty { Self.out("SCIM base URL: \(answer.provisioningURL)") }
            if let token = answer.provisioningTokens.first { Self.out("Token id: \(token.id) (shown this once)") }
        }
    }

    public func listProvisioningTokens() async -> ClientExitCode {
        await run {
            let tokens = try await client.provisioningTokens()
            if json {
                return Self.out(
                    try "[" + tokens.map { try $0.jsonString() }.joined(separator: ",") + "]")
            }
            if tokens.isEmpty { return Self.out("No SCIM tokens.") }
            for token in tokens {
                let state =
                    token.revokedAtMs == 0 ? "in use" : "revoked \(TimeText.iso8601(token.revokedAtMs))"
                Self.out(
                    "\(token.id)  \(state)  created \(TimeText.iso8601(token.createdAtMs))"
                        + (token.label.isEmpty ? "" : "  \(token.label)"))
            }
        }
    }

    public func revokeProvisioningToken(id: String, reason: String = "") async -> ClientExitCode {
        await run {
            try await client.revokeProvisioningToken(id: id, reason: reason)
            if !json { Self.out("SCIM token \(id) revoked.") }
        }
    }
}
