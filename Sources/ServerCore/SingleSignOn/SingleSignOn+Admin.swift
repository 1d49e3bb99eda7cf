import Foundation
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterStore

extension SingleSignOn {
    /// An admin's IdentityAdmin request. Settings are checked against the provider (its
    /// discovery document and keys are fetched) before they are kept, so a wrong issuer is said
    /// now, not at the first person's sign-in.
    package func administer(
        _ request: Roster_V1_IdentityAdminRequest, tenant: TenantRuntime, actor: Caller, core: ServerCore
    ) async -> Result<RosterMessage, WireError> {
        let store = core.admin.store
        let now = core.clock.now()
        var answer = Roster_V1_IdentityAdminResponse()
        do {
            switch request.action {
            case .setSingleSignOn(let wire):
                let previous = try await store.singleSignOn(tenantID: tenant.id)
                let settings = Self.settings(wire)
                if let problem = settings.problems.first { return .failure(WireError(.invalidArgument, problem)) }
                var secret = wire.clientSecret
                if secret.isEmpty, let previous, let kept = sealer.open(previous.clientSecret) { secret = kept }
                guard !secret.isEmpty, secret.utf8.count <= SingleSignOnSettings.maxTextLength else {
                    return .failure(WireError(.invalidArgument, "the client secret is empty or longer than 512 bytes"))
                }
                let metadata: ProviderMetadata
                let keys: JSONWebKeySet
                do {
                    metadata = try await providers.metadata(issuer: settings.issuer, now: now, fresh: true)
                    keys = try await providers.keys(for: metadata, now: now, fresh: true).keys
                } catch {
                    return .failure(WireError(.failedPrecondition, "the provider cannot be used: \(error.message)"))
                }
                if settings.scimProviderTokens == true, metadata.introspectionEndpoint == nil {
                    return .failure(
                        WireError(
                            .failedPrecondition,
                            "the provider offers no introspection endpoint (RFC 7662), so /scim/v2 cannot check its tokens: give it a token from `admin scim token create` instead"
                        ))
                }
                let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
                try await store.setSingleSignOn(
                    tenantID: tenant.id,
                    StoredSingleSignOn(settings: json, clientSecret: sealer.seal(secret), updatedAt: now))
                try await store.appendAudit(
                    tenantID: tenant.id,
                    AuditLog.administered(
                        AuditLog.Kind.singleSignOnSet,
                        detail: "sign-in with \(settings.issuer) as client \(settings.clientID)",
                        reason: request.reason, at: now, actor: actor))
                providerTokens.forget(tenantID: tenant.id)
                answer.singleSignOn = Self.wire(settings)
                answer.notes = Self.notes(metadata, keys: keys)
            case .showSingleSignOn:
                if let stored = try await store.singleSignOn(tenantID: tenant.id),
                    let settings = Self.settings(stored: stored)
                {
                    answer.singleSignOn = Self.wire(settings)
                }
            case .removeSingleSignOn:
                try await store.setSingleSignOn(tenantID: tenant.id, nil)
                providerTokens.forget(tenantID: tenant.id)
                try await store.appendAudit(
                    tenantID: tenant.id,
                    AuditLog.administered(
                        AuditLog.Kind.singleSignOnRemoved, detail: "sign-in with an identity provider turned off",
                        reason: request.reason, at: now, actor: actor))
            case .createProvisioningToken, .listProvisioningTokens, .revokeProvisioningToken:
                return try await Provisioning(core: core).administer(
                    request.action!, tenant: tenant, actor: actor, reason: request.reason
                ).map(RosterMessage.identityAdminResult)
            case nil:
                return .failure(WireError(.invalidArgument, "IdentityAdmin names no action"))
            }
        } catch {
            return .failure(WireError(.unavailable, "the store could not be used: \(error)", retryable: true))
        }
        if answer.hasSingleSignOn {
            answer.redirectUri =
                answer.singleSignOn.redirectUri.isEmpty
                ? Self.defaultRedirectURI(core) : answer.singleSignOn.redirectUri
        }
        return .success(.identityAdminResult(answer))
    }

    /// This server's callback on its HTTP listener, as a browser on the listener's host reaches it.
    static func defaultRedirectURI(_ core: ServerCore) -> String {
        guard let port = core.httpPort else { return "" }
        let listen = core.configuration.httpListen?.host ?? "127.0.0.1"
        let host = ["0.0.0.0", "::", ""].contains(listen) ? "127.0.0.1" : listen
        let scheme = core.configuration.tls == nil ? "http" : "https"
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)\(callbackPath)"
    }

    /// What an admin should know of the provider: the keys left out, the device grant.
    static func notes(_ metadata: ProviderMetadata, keys: JSONWebKeySet) -> [String] {
        var notes = [
            "the provider signs ID tokens with \(metadata.signingAlgorithms.map(\.rawValue).sorted().joined(separator: ", "))"
        ]
        notes += keys.skipped.map { "a key left out: \($0)" }
        notes.append(
            metadata.deviceAuthorizationEndpoint == nil
                ? "the provider offers no device grant: roster-client login is approved in Roster's web app"
                : "the provider offers the device grant: roster-client login signs in on the provider's page")
        return notes
    }

    /// The settings a wire message asks for, with the standard claims where it names none.
    static func settings(_ wire: Roster_V1_SingleSignOnSetting) -> SingleSignOnSettings {
        var claims = SingleSignOnSettings.ClaimPaths()
        func take(_ text: String, _ path: WritableKeyPath<SingleSignOnSettings.ClaimPaths, String>) {
            if !text.isEmpty { claims[keyPath: path] = text }
        }
        take(wire.nameClaim, \.name)
        take(wire.givenNameClaim, \.givenName)
        take(wire.familyNameClaim, \.familyName)
        take(wire.emailClaim, \.email)
        take(wire.phoneClaim, \.phone)
        take(wire.groupsClaim, \.groups)
        var settings = SingleSignOnSettings(
            issuer: wire.issuer, clientID: wire.clientID, claims: claims, adminGroups: wire.adminGroups,
            readerGroups: wire.readerGroups, teamGroups: wire.teamGroups, createPeople: wire.createPeople,
            linkByVerifiedEmail: wire.linkByVerifiedEmail)
        if !wire.scopes.isEmpty { settings.scopes = wire.scopes }
        settings.redirectURI = wire.redirectUri.isEmpty ? nil : wire.redirectUri
        settings.scimProviderTokens = wire.scimProviderTokens ? true : nil
        return settings
    }

    static func wire(_ settings: SingleSignOnSettings) -> Roster_V1_SingleSignOnSetting {
        .with {
            $0.issuer = settings.issuer
            $0.clientID = settings.clientID
            $0.scopes = settings.scopes
            $0.nameClaim = settings.claims.name
            $0.givenNameClaim = settings.claims.givenName
            $0.familyNameClaim = settings.claims.familyName
            $0.emailClaim = settings.claims.email
            $0.phoneClaim = settings.claims.phone
            $0.groupsClaim = settings.claims.groups
            $0.adminGroups = settings.adminGroups
            $0.readerGroups = settings.readerGroups
            $0.teamGroups = settings.teamGroups
            $0.createPeople = settings.createPeople
            $0.linkByVerifiedEmail = settings.linkByVerifiedEmail
            $0.redirectUri = settings.redirectURI ?? ""
            $0.scimProviderTokens = settings.scimProviderTokens == true
        }
    }
}
