import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterIdentity
import RosterStore
import RosterTLS

/// `/scim/v2` opened by an access token the tenant's provider issued to Roster's client
/// (`admin sso set --scim-provider-tokens`; docs/SSO.md), checked at the provider's
/// introspection endpoint. The token is only ever sent to the provider of the tenant the
/// request names (the path's tenant, else the default one), never tried on another. An accepted
/// token is remembered until it expires or for a minute, whichever is sooner, so a provider's
/// burst of requests costs one check; a refused one for ten seconds, and at most
/// `maxInFlight` checks run at once per tenant, so a stream of made-up tokens cannot make the
/// server hammer the provider.
package final class ProviderTokens: Sendable {
    package static let acceptedFor: UnixMillis = 60_000
    package static let refusedFor: UnixMillis = 10_000
    package static let maxInFlight = 4
    package static let maxRemembered = 1_000

    package enum Outcome: Sendable, Equatable {
        case accepted
        case refused(String)
        /// `maxInFlight` checks already under way for the tenant: try again shortly.
        case busy
    }

    private struct Remembered {
        var tenantID: String
        var refusal: String?
        var until: UnixMillis
    }

    private enum Admission {
        case remembered(Remembered)
        case check
        case busy
    }

    private struct State {
        var remembered: [String: Remembered] = [:]
        var inFlight: [String: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Forgets what was decided for the tenant's tokens: its settings changed.
    package func forget(tenantID: String) {
        state.withLockedValue { state in state.remembered = state.remembered.filter { $0.value.tenantID != tenantID } }
    }

    /// Whether `token` opens `tenantID`'s SCIM.
    package func check(token: String, tenantID: String, singleSignOn: SingleSignOn, core: ServerCore) async -> Outcome {
        guard token.utf8.count <= TokenIntrospection.maxTokenBytes else { return .refused("the token is too long") }
        let now = core.clock.now()
        let digest = Crypto.hex(Crypto.sha256(Array((tenantID + "\n" + token).utf8)))
        let admission: Admission = state.withLockedValue { state in
            if let found = state.remembered[digest], found.until > now { return .remembered(found) }
            guard state.inFlight[tenantID, default: 0] < Self.maxInFlight else { return .busy }
            state.inFlight[tenantID, default: 0] += 1
            return .check
        }
        switch admission {
        case .remembered(let held): return held.refusal.map(Outcome.refused) ?? .accepted
        case .busy: return .busy
        case .check: break
        }
        let result = await introspect(token, tenantID: tenantID, singleSignOn: singleSignOn, core: core, now: now)
        state.withLockedValue { state in
            state.inFlight[tenantID, default: 1] -= 1
            if state.inFlight[tenantID] == 0 { state.inFlight[tenantID] = nil }
            if state.remembered.count >= Self.maxRemembered {
                state.remembered = state.remembered.filter { $0.value.until > now }
                if state.remembered.count >= Self.maxRemembered { state.remembered.removeAll() }
            }
            switch result {
            case .success(let accepted):
                let until = min(now + Self.acceptedFor, accepted.expiresAt ?? .max)
                state.remembered[digest] = Remembered(tenantID: tenantID, until: until)
            case .failure(let refusal):
                state.remembered[digest] = Remembered(
                    tenantID: tenantID, refusal: refusal.message, until: now + Self.refusedFor)
            }
        }
        switch result {
        case .success: return .accepted
        case .failure(let refusal): return .refused(refusal.message)
        }
    }

    private func introspect(
        _ token: String, tenantID: String, singleSignOn: SingleSignOn, core: ServerCore, now: UnixMillis
    ) async -> Result<TokenIntrospection.Accepted, IdentityError> {
        let settings: SingleSignOnSettings, secret: String
        do { (settings, secret) = try await singleSignOn.configured(tenantID, store: core.admin.store) } catch {
            return .failure(IdentityError("the tenant has no identity provider set up"))
        }
        guard settings.scimProviderTokens == true else {
            return .failure(IdentityError("the tenant does not take its provider's tokens at /scim/v2"))
        }
        do throws(IdentityError) {
            let metadata = try await singleSignOn.providers.metadata(issuer: settings.issuer, now: now)
            guard
                let request = TokenIntrospection.request(
                    token: token, metadata: metadata, clientID: settings.clientID, clientSecret: secret)
            else { throw IdentityError("the provider offers no introspection endpoint") }
            let answer = try await singleSignOn.providers.transport.send(
                ProviderRequest(
                    url: request.url, method: "POST", headers: request.headers, body: request.body,
                    maxBytes: TokenIntrospection.maxAnswerBytes))
            return .success(
                try TokenIntrospection.check(
                    status: answer.status, body: answer.body, issuer: settings.issuer, clientID: settings.clientID,
                    now: now))
        } catch {
            return .failure(error)
        }
    }
}

extension Provisioning {
    package enum Admission: Sendable {
        case tenant(TenantRuntime)
        case refused
        /// The provider is being asked about as many tokens as it may be at once.
        case busy
    }

    func providerToken(_ token: String, tenantID: String, address: String, now: UnixMillis) async -> Admission {
        guard let singleSignOn = core.singleSignOn, let tenant = core.tenant(tenantID) else {
            core.auditProvisioningFailure(tenantID: nil, address: address, detail: "not a SCIM token", at: now)
            return .refused
        }
        switch await singleSignOn.providerTokens.check(
            token: token, tenantID: tenantID, singleSignOn: singleSignOn, core: core)
        {
        case .accepted: return .tenant(tenant)
        case .busy: return .busy
        case .refused(let why):
            core.auditProvisioningFailure(
                tenantID: tenantID, address: address, detail: "a provider's token refused: \(why)", at: now)
            return .refused
        }
    }
}
