import Foundation
import NIOCore
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterStore

/// Sign-in with a tenant's identity provider (docs/SSO.md): the authorization code flow with
/// PKCE from start to a person-bound Roster token. The provider's tokens are used once and not
/// kept; what a sign-in leaves is that token (its holder's role from their groups, expiring
/// with the web session) and, at a first sign-in, the link (issuer, subject) → person.
package final class SingleSignOn: Sendable {
    /// How long the token a web sign-in mints lasts: a web session's lifetime.
    package static let tokenLifetime: UnixMillis = 12 * 3_600_000
    /// The label of such a token (`token list`), and how signing out knows to revoke it.
    package static let webTokenLabel = "web sign-in"
    /// The path the provider sends the browser back to (registered with the provider).
    package static let callbackPath = "/sign-in/sso/callback"

    package let attempts = SignInAttempts()
    /// `roster-client login`s waiting for their person's approval.
    package let logins = DeviceLogins()
    /// The provider's own tokens /scim/v2 has checked (`--scim-provider-tokens`).
    package let providerTokens = ProviderTokens()
    let providers: ProviderDirectory
    let sealer: SecretSealer

    package init(transport: any ProviderTransport, sealer: SecretSealer) {
        providers = ProviderDirectory(transport: transport)
        self.sealer = sealer
    }

    /// The tenant's settings and client secret; `notConfigured` when it has none.
    func configured(_ tenantID: String, store: any RosterStore) async throws(SignInRefusal) -> (
        SingleSignOnSettings, secret: String
    ) {
        let stored: StoredSingleSignOn?
        do { stored = try await store.singleSignOn(tenantID: tenantID) } catch {
            throw .providerUnavailable("the store could not be read")
        }
        guard let stored, let settings = Self.settings(stored: stored) else { throw .notConfigured }
        guard let secret = sealer.open(stored.clientSecret) else {
            throw .providerUnavailable("the client secret was sealed under another secrets key")
        }
        return (settings, secret)
    }

    /// The redirect URI the tenant's settings name, if they name one.
    package func redirectURI(tenantID: String, core: ServerCore) async -> String? {
        guard let stored = try? await core.admin.store.singleSignOn(tenantID: tenantID) else { return nil }
        return Self.settings(stored: stored)?.redirectURI
    }

    /// The settings as the store keeps them (JSON), nil when they do not read.
    static func settings(stored: StoredSingleSignOn) -> SingleSignOnSettings? {
        try? JSONDecoder().decode(SingleSignOnSettings.self, from: Data(stored.settings.utf8))
    }

    /// Whether the tenant has sign-in with a provider set up (the sign-in page offers it).
    package func isConfigured(_ tenantID: String, core: ServerCore) async -> Bool {
        (try? await core.admin.store.singleSignOn(tenantID: tenantID)) != nil
    }

    private func flow(_ settings: SingleSignOnSettings, secret: String, redirectURI: String, now: UnixMillis)
        async throws(SignInRefusal) -> AuthorizationCodeFlow
    {
        let metadata: ProviderMetadata
        do { metadata = try await providers.metadata(issuer: settings.issuer, now: now) } catch {
            throw .providerUnavailable(error.message)
        }
        // Groups mapped to roles or teams need the groups claim: asked for by its scope when the
        // provider lists one by that name (Canaille, Authentik, Okta), never a scope it does not.
        var scopes = settings.scopes
        let mapsGroups = !(settings.adminGroups.isEmpty && settings.readerGroups.isEmpty && settings.teamGroups.isEmpty)
        if mapsGroups, metadata.scopesSupported.contains("groups"), !scopes.contains("groups") {
            scopes.append("groups")
        }
        return AuthorizationCodeFlow(
            metadata: metadata, clientID: settings.clientID, clientSecret: secret, redirectURI: redirectURI,
            scopes: scopes)
    }

    /// Where to send the browser (at `address`) to sign in to `tenantID`, coming back to `redirectURI`.
    package func begin(
        tenantID: String, address: String, redirectURI: String, returnTo: String, core: ServerCore
    ) async -> Result<
        URL, SignInRefusal
    > {
        let now = core.clock.now()
        do {
            let (settings, secret) = try await configured(tenantID, store: core.admin.store)
            let flow = try await flow(settings, secret: secret, redirectURI: redirectURI, now: now)
            guard let attempt = attempts.begin(tenantID: tenantID, address: address, returnTo: returnTo, now: now)
            else {
                return .failure(.providerUnavailable("this server has as many sign-ins under way as it may; try again"))
            }
            return .success(flow.authorizationURL(for: attempt))
        } catch {
            return .failure(error)
        }
    }

    /// What a finished sign-in gives: the token to open a session with, and where to land.
    package struct SignedIn: Sendable {
        package var token: StoredToken
        package var returnTo: String
        package var personName: String
    }

    /// The provider's redirect back (`query`) taken to its end: the code exchanged, the ID token
    /// verified, the person found, linked or created, and a token minted for them. Every refusal
    /// is recorded as an `auth.failed` audit entry under the refused-Hello budget.
    package func finish(
        query: [String: String], redirectURI: String, core: ServerCore, address: String, loop: any EventLoop
    ) async -> Result<SignedIn, SignInRefusal> {
        let now = core.clock.now()
        let tenantID = attempts.tenant(of: query["state"] ?? "")
        do throws(SignInRefusal) {
            guard let tenantID, let tenant = core.tenant(tenantID) else {
                // Unknown or replayed: said as such, and the state is spent.
                _ = try attempts.finish(state: query["state"] ?? "", now: now)
                throw SignInRefusal.unknownState
            }
            let (settings, secret) = try await configured(tenantID, store: core.admin.store)
            let flow = try await flow(settings, secret: secret, redirectURI: redirectURI, now: now)
            let (attempt, code) = try flow.readRedirect(query, attempts: attempts, now: now)
            let idToken = try await exchange(code, attempt: attempt, flow: flow)
            let claims = try await providers.verify(
                idToken, metadata: flow.metadata,
                expecting: IDTokenExpectation(
                    issuer: settings.issuer, clientID: settings.clientID, nonce: attempt.nonce,
                    algorithms: flow.metadata.signingAlgorithms), now: now)
            let signedIn = try await admit(
                claims, settings: settings, tenant: tenant, core: core, address: address, loop: loop, now: now)
            return .success(SignedIn(token: signedIn.token, returnTo: attempt.returnTo, personName: signedIn.name))
        } catch {
            core.auditSignInFailure(
                tenantID: tenantID ?? core.defaultTenant, address: address, detail: "\(error.code): \(error)", at: now)
            return .failure(error)
        }
    }

    /// The code exchanged at the token endpoint for the ID token.
    private func exchange(_ code: String, attempt: SignInAttempt, flow: AuthorizationCodeFlow)
        async throws(SignInRefusal) -> String
    {
        let request = flow.tokenRequest(code: code, attempt: attempt)
        let answer: ProviderResponse
        do {
            answer = try await providers.transport.send(
                ProviderRequest(
                    url: flow.metadata.tokenEndpoint, method: "POST", headers: request.headers, body: request.body,
                    maxBytes: 64 * 1024))
        } catch {
            throw .providerUnavailable(error.message)
        }
        return try AuthorizationCodeFlow.idToken(fromTokenResponse: answer.status, body: answer.body)
    }
}
