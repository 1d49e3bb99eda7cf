import NIOCore
import RosterDomain
import RosterIdentity
import RosterStore

/// `roster-client login` through the provider's own device authorization grant (RFC 8628), when
/// the tenant's provider offers it (docs/SSO.md): the terminal shows the provider's page and
/// code, the person signs in there, and the server, at the terminal's polls, asks the provider's
/// token endpoint (never more often than the provider's interval, one question at a time per
/// login); the ID token then names the person, found, linked or created as at a web sign-in,
/// with their role from their groups.
extension SingleSignOn {
    /// What a provider's device login started with: Roster's device code for the terminal, and
    /// the provider's codes to show.
    package struct ProviderLoginStart: Sendable {
        package var deviceCode: String
        package var provider: ProviderDeviceGrant.Started
    }

    package enum ProviderLoginOutcome: Sendable {
        /// The tenant's provider offers no device grant: the web app approves the login instead.
        case notOffered
        case started(ProviderLoginStart)
        /// `DeviceLogins`' caps.
        case tooMany
        case failed(String)
    }

    /// A login through the provider's device grant, when the tenant's provider offers one.
    package func startProviderLogin(tenantID: String, address: String, core: ServerCore) async
        -> ProviderLoginOutcome
    {
        let now = core.clock.now()
        guard let (settings, secret) = try? await configured(tenantID, store: core.admin.store),
            let metadata = try? await providers.metadata(issuer: settings.issuer, now: now),
            let endpoint = metadata.deviceAuthorizationEndpoint
        else { return .notOffered }
        var scopes = settings.scopes
        if metadata.scopesSupported.contains("groups"), !scopes.contains("groups"),
            !(settings.adminGroups.isEmpty && settings.readerGroups.isEmpty && settings.teamGroups.isEmpty)
        {
            scopes.append("groups")
        }
        let form = ProviderDeviceGrant.form(
            [("scope", scopes.joined(separator: " "))], metadata: metadata, clientID: settings.clientID,
            clientSecret: secret)
        do throws(IdentityError) {
            let answer = try await providers.transport.send(
                ProviderRequest(
                    url: endpoint, method: "POST", headers: form.headers, body: form.body,
                    maxBytes: ProviderDeviceGrant.maxAnswerBytes))
            let started = try ProviderDeviceGrant.started(status: answer.status, body: answer.body)
            guard
                let (device, _) = logins.begin(
                    tenantID: tenantID, address: address, now: now,
                    provider: DeviceLogins.ProviderPending(
                        deviceCode: started.deviceCode, interval: started.interval * 1_000, now: now))
            else { return .tooMany }
            return .started(ProviderLoginStart(deviceCode: device, provider: started))
        } catch {
            core.auditSignInFailure(tenantID: tenantID, address: address, detail: "device login: \(error)", at: now)
            return .failed(error.message)
        }
    }

    /// The terminal's poll of any login: a provider's device login asks the provider when due.
    package func pollLogin(deviceCode: String, core: ServerCore, address: String, loop: any EventLoop) async
        -> DeviceLogins.Poll
    {
        let now = core.clock.now()
        switch logins.providerTurn(deviceCode: deviceCode, now: now) {
        case .notProvider: return logins.poll(deviceCode: deviceCode, now: now)
        case .answered(let poll): return poll
        case .ask(let tenantID, let providerCode):
            let outcome = await askProvider(
                providerCode, tenantID: tenantID, core: core, address: address, loop: loop)
            switch outcome {
            case .pending, .slowDown:
                logins.providerAnswered(deviceCode: deviceCode, nil, slowDown: outcome == .slowDown, now: now)
                return .pending
            default:
                // Decided: handed to this poll once, and the login forgotten.
                logins.providerAnswered(deviceCode: deviceCode, outcome, now: now)
                if case .answered(let poll) = logins.providerTurn(deviceCode: deviceCode, now: now) { return poll }
                return .expired
            }
        }
    }

    private func askProvider(
        _ providerCode: String, tenantID: String, core: ServerCore, address: String, loop: any EventLoop
    ) async -> DeviceLogins.Poll {
        let now = core.clock.now()
        do throws(SignInRefusal) {
            guard let tenant = core.tenant(tenantID) else { throw .notConfigured }
            let (settings, secret) = try await configured(tenantID, store: core.admin.store)
            let metadata: ProviderMetadata
            do { metadata = try await providers.metadata(issuer: settings.issuer, now: now) } catch {
                throw .providerUnavailable(error.message)
            }
            let form = ProviderDeviceGrant.form(
                [("grant_type", ProviderDeviceGrant.grantType), ("device_code", providerCode)], metadata: metadata,
                clientID: settings.clientID, clientSecret: secret)
            let answer: ProviderResponse
            do {
                answer = try await providers.transport.send(
                    ProviderRequest(
                        url: metadata.tokenEndpoint, method: "POST", headers: form.headers, body: form.body,
                        maxBytes: ProviderDeviceGrant.maxAnswerBytes))
            } catch {
                // Unreachable for now: the terminal asks again at its next poll.
                core.logger.info("device login: the provider's token endpoint: \(error.message)")
                return .pending
            }
            let idToken: String
            switch ProviderDeviceGrant.answer(status: answer.status, body: answer.body) {
            case .pending: return .pending
            case .slowDown: return .slowDown
            case .denied: return .denied
            case .expired: return .expired
            case .failed(let why): throw .codeRefused(why)
            case .signedIn(let token): idToken = token
            }
            let claims = try await providers.verify(
                idToken, metadata: metadata,
                expecting: IDTokenExpectation(
                    issuer: settings.issuer, clientID: settings.clientID, nonce: nil,
                    algorithms: metadata.signingAlgorithms), now: now)
            let (person, role, linked) = try await person(
                claims, settings: settings, tenant: tenant, core: core, address: address, loop: loop)
            do {
                try await store(linked: linked, claims: claims, person: person, tenant: tenant, core: core, now: now)
            } catch {
                throw .providerUnavailable("the sign-in could not be stored")
            }
            guard
                let grant = await mintLogin(
                    tenantID: tenantID, employeeID: person.id, role: role,
                    actor: "\(person.fullName) (\(settings.issuer))", actorToken: "",
                    how: "signed in with the provider's device grant", core: core, address: address)
            else { throw .providerUnavailable("the login could not be stored") }
            return .approved(grant)
        } catch {
            core.auditSignInFailure(
                tenantID: tenantID, address: address, detail: "device login: \(error.code): \(error)", at: now)
            return .denied
        }
    }
}
