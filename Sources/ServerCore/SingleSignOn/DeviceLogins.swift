import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterIdentity
import RosterStore
import RosterTLS

/// `roster-client login` (docs/SSO.md): the shape of the device authorization grant (RFC 8628),
/// with Roster's web app as the place a signed-in person approves. The terminal asks for a code
/// (`begin`), the person opens the page it prints, signs in as they usually do (their provider,
/// or a token) and approves; the terminal's next poll gets a token bound to that person, with
/// their role. Nothing of the provider is needed: this works with every provider, and without.
///
/// A terminal on a machine with a browser may instead give a loopback redirect URI (RFC 8252 §7.3)
/// with a PKCE challenge (RFC 7636, S256) and state: the approval then sends the browser back to
/// it with a one-time code, which only the holder of the verifier exchanges (`exchange`).
///
/// Bounded: at most `maxPending` logins wait on a node and `maxPerAddress` per address (then
/// `begin` is refused, nobody's is evicted); each lasts `lifetime`; a poll sooner than
/// `pollInterval` after the last is told to slow down; a user code is 8 letters from an alphabet
/// without vowels (no words, no look-alikes), 20^8 ≈ 2.6 × 10^10 codes.
package final class DeviceLogins: Sendable {
    package static let lifetime: UnixMillis = 10 * 60_000
    package static let maxPending = 1_000
    package static let maxPerAddress = 10
    package static let pollInterval: UnixMillis = 2_000
    /// How long a token a login mints lasts: an hour, renewed with the login's refresh secret
    /// (`SingleSignOn.renewLogin`), so a copied token is of use for an hour at most.
    package static let tokenLifetime: UnixMillis = 3_600_000
    /// How long a login lasts unused: every renewal moves its end on by as much.
    package static let refreshLifetime: UnixMillis = 30 * 86_400_000
    /// The label of such a token (`token list`); the token may revoke itself (`roster-client logout`).
    package static let tokenLabel = "roster-client login"
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    package enum Poll: Sendable, Equatable {
        case pending, slowDown, denied, expired
        case approved(LoginGrant)
    }

    /// Where the approval sends the browser back (`roster-client login --browser`).
    package struct Loopback: Sendable, Equatable {
        package var redirectURI: String
        package var challenge: String
        package var state: String

        /// The terminal's loopback request, checked; the reason when it is not one.
        package static func parse(redirectURI: String, challenge: String, method: String, state: String)
            -> Result<Loopback, LoopbackRefusal>
        {
            guard let components = URLComponents(string: redirectURI), components.scheme == "http",
                ["127.0.0.1", "[::1]", "::1"].contains(components.host ?? ""), let port = components.port,
                port > 0, components.user == nil, components.password == nil, components.query == nil,
                components.fragment == nil, redirectURI.utf8.count <= 200
            else {
                return .failure(LoopbackRefusal("redirect_uri is http://127.0.0.1:PORT/PATH or http://[::1]:PORT/PATH"))
            }
            guard method == "S256", challenge.utf8.count == 43,
                challenge.utf8.allSatisfy({ Base64URL.isAlphabet($0) })
            else { return .failure(LoopbackRefusal("code_challenge is 43 base64url characters, method S256")) }
            guard (16...128).contains(state.utf8.count), state.utf8.allSatisfy({ Base64URL.isAlphabet($0) }) else {
                return .failure(LoopbackRefusal("state is 16 to 128 base64url characters"))
            }
            return .success(Loopback(redirectURI: redirectURI, challenge: challenge, state: state))
        }
    }

    package struct LoopbackRefusal: Error, Equatable {
        package var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// A login the provider's own device grant carries (`SingleSignOn+ProviderDevice`): the
    /// provider's device code and when the server may next ask the provider about it.
    package struct ProviderPending: Sendable {
        package var deviceCode: String
        var interval: UnixMillis
        var nextPollAt: UnixMillis
        var asking = false

        package init(deviceCode: String, interval: UnixMillis, now: UnixMillis) {
            (self.deviceCode, self.interval, self.nextPollAt) = (deviceCode, interval, now + interval)
        }
    }

    /// What the server does at a terminal's poll of a provider's device login.
    package enum ProviderTurn: Sendable {
        /// Not such a login: the web app approves it (`poll`).
        case notProvider
        /// Answered without asking the provider (not due yet, asked already, decided, gone).
        case answered(Poll)
        /// Ask the provider now (then `providerAnswered`).
        case ask(tenantID: String, providerDeviceCode: String)
    }

    private struct Pending {
        var deviceCode: String
        var loopback: Loopback?
        var provider: ProviderPending?
        /// The one-time code the approval sent to the loopback address.
        var authorizationCode: String?
        var userCode: String
        var tenantID: String
        var address: String
        var startedAt: UnixMillis
        var lastPoll: UnixMillis = 0
        var outcome: Poll?
    }

    private struct Table {
        var byDevice: [String: Pending] = [:]
        var deviceByUser: [String: String] = [:]
    }
    private let table = NIOLockedValueBox(Table())

    package init() {}

    /// A new login for `tenantID` asked from `address`: the terminal's secret device code and the
    /// code the person confirms on the page; nil at a cap.
    package func begin(
        tenantID: String, address: String, now: UnixMillis, loopback: Loopback? = nil,
        provider: ProviderPending? = nil
    ) -> (deviceCode: String, userCode: String)? {
        let deviceCode = Base64URL.encode(Crypto.randomBytes(32))
        return table.withLockedValue { table -> (String, String)? in
            for (code, login) in table.byDevice where now - login.startedAt >= Self.lifetime {
                table.byDevice.removeValue(forKey: code)
                table.deviceByUser.removeValue(forKey: login.userCode)
            }
            guard table.byDevice.count < Self.maxPending,
                table.byDevice.values.filter({ $0.address == address }).count < Self.maxPerAddress
            else { return nil }
            var userCode = Self.userCode()
            while table.deviceByUser[userCode] != nil { userCode = Self.userCode() }
            table.byDevice[deviceCode] = Pending(
                deviceCode: deviceCode, loopback: loopback, provider: provider, userCode: userCode, tenantID: tenantID,
                address: address, startedAt: now)
            table.deviceByUser[userCode] = deviceCode
            return (deviceCode, userCode)
        }
    }

    /// The tenant of the login waiting for `userCode` (as typed: case and dashes ignored), if any.
    package func tenant(userCode: String, now: UnixMillis) -> String? {
        let code = Self.normalized(userCode)
        return table.withLockedValue { table in
            guard let device = table.deviceByUser[code], let login = table.byDevice[device],
                now - login.startedAt < Self.lifetime, login.outcome == nil
            else { return nil }
            return login.tenantID
        }
    }

    /// The origin (`http://127.0.0.1:PORT`) a waiting loopback login sends the browser back to.
    package func loopbackOrigin(userCode: String, now: UnixMillis) -> String? {
        let code = Self.normalized(userCode)
        return table.withLockedValue { table in
            guard let device = table.deviceByUser[code], let login = table.byDevice[device],
                now - login.startedAt < Self.lifetime, login.outcome == nil,
                let uri = login.loopback.flatMap({ URLComponents(string: $0.redirectURI) }), let host = uri.host,
                let port = uri.port
            else { return nil }
            return "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)"
        }
    }

    /// Records the person's answer for `userCode`; false when no such login waits.
    package func decide(userCode: String, _ outcome: Poll, now: UnixMillis) -> Bool {
        decideReturning(userCode: userCode, outcome, now: now) != nil
    }

    /// Records the answer; for a loopback login, also where to send the browser: the redirect URI
    /// with a new one-time `code` (or `error=access_denied`) and the terminal's `state`. Nil when
    /// no such login waits; `.some(nil)` for a login that polls.
    package func decideReturning(userCode: String, _ outcome: Poll, now: UnixMillis) -> String?? {
        let code = Self.normalized(userCode)
        let authorizationCode = Base64URL.encode(Crypto.randomBytes(32))
        return table.withLockedValue { table -> String?? in
            guard let device = table.deviceByUser[code], var login = table.byDevice[device],
                now - login.startedAt < Self.lifetime, login.outcome == nil
            else { return nil }
            login.outcome = outcome
            guard let loopback = login.loopback else {
                table.byDevice[device] = login
                return .some(nil)
            }
            var back = URLComponents(string: loopback.redirectURI)
            if case .approved = outcome {
                login.authorizationCode = authorizationCode
                back?.queryItems = [
                    .init(name: "code", value: authorizationCode), .init(name: "state", value: loopback.state),
                ]
            } else {
                back?.queryItems = [
                    .init(name: "error", value: "access_denied"), .init(name: "state", value: loopback.state),
                ]
            }
            table.byDevice[device] = login
            return .some(back?.string)
        }
    }

    /// The loopback terminal's exchange of the code the browser brought back, with the PKCE
    /// verifier: the login's outcome once; `.expired` for anything else (a wrong verifier
    /// spends the code, so it cannot be guessed at).
    package func exchange(authorizationCode: String, verifier: String, now: UnixMillis) -> Poll {
        table.withLockedValue { table in
            guard !authorizationCode.isEmpty, verifier.utf8.count <= 128,
                let (device, login) = table.byDevice.first(where: {
                    $0.value.authorizationCode.map {
                        Crypto.constantTimeEqual(Array($0.utf8), Array(authorizationCode.utf8))
                    } ?? false
                })
            else { return .expired }
            table.byDevice.removeValue(forKey: device)
            table.deviceByUser.removeValue(forKey: login.userCode)
            let challenge = Base64URL.encode(Crypto.sha256(Array(verifier.utf8)))
            guard now - login.startedAt < Self.lifetime, let expected = login.loopback?.challenge,
                Crypto.constantTimeEqual(Array(challenge.utf8), Array(expected.utf8)), let outcome = login.outcome
            else { return .expired }
            return outcome
        }
    }

    /// The terminal's poll of a login the provider's device grant carries: whether to ask the
    /// provider now (at most once per its interval, one question at a time).
    package func providerTurn(deviceCode: String, now: UnixMillis) -> ProviderTurn {
        table.withLockedValue { table in
            guard var login = table.byDevice[deviceCode], var provider = login.provider else {
                return table.byDevice[deviceCode] == nil ? .answered(.expired) : .notProvider
            }
            guard now - login.startedAt < Self.lifetime else {
                table.byDevice.removeValue(forKey: deviceCode)
                table.deviceByUser.removeValue(forKey: login.userCode)
                return .answered(.expired)
            }
            if let outcome = login.outcome {
                table.byDevice.removeValue(forKey: deviceCode)
                table.deviceByUser.removeValue(forKey: login.userCode)
                return .answered(outcome)
            }
            let tooSoon = now - login.lastPoll < Self.pollInterval
            login.lastPoll = now
            guard !provider.asking, now >= provider.nextPollAt else {
                table.byDevice[deviceCode] = login
                return .answered(tooSoon ? .slowDown : .pending)
            }
            provider.asking = true
            login.provider = provider
            table.byDevice[deviceCode] = login
            return .ask(tenantID: login.tenantID, providerDeviceCode: provider.deviceCode)
        }
    }

    /// What the provider said: still pending (`slowDown`: its interval grows by 5 s, §3.5), or
    /// the login's outcome.
    package func providerAnswered(deviceCode: String, _ outcome: Poll?, slowDown: Bool = false, now: UnixMillis) {
        table.withLockedValue { table in
            guard var login = table.byDevice[deviceCode], var provider = login.provider else { return }
            provider.asking = false
            if slowDown { provider.interval += 5_000 }
            provider.nextPollAt = now + provider.interval
            login.provider = provider
            login.outcome = outcome
            table.byDevice[deviceCode] = login
        }
    }

    /// The terminal's poll: a decided login is handed out once and forgotten.
    package func poll(deviceCode: String, now: UnixMillis) -> Poll {
        table.withLockedValue { table in
            // A loopback login is finished by `exchange`, never by polling.
            guard var login = table.byDevice[deviceCode], login.loopback == nil else { return .expired }
            guard now - login.startedAt < Self.lifetime else {
                table.byDevice.removeValue(forKey: deviceCode)
                table.deviceByUser.removeValue(forKey: login.userCode)
                return .expired
            }
            if let outcome = login.outcome {
                table.byDevice.removeValue(forKey: deviceCode)
                table.deviceByUser.removeValue(forKey: login.userCode)
                return outcome
            }
            defer {
                login.lastPoll = now
                table.byDevice[deviceCode] = login
            }
            return now - login.lastPoll < Self.pollInterval ? .slowDown : .pending
        }
    }

    /// "WDJB-MJHT": as shown; `normalized` takes it back.
    package static func shown(_ code: String) -> String { String(code.prefix(4)) + "-" + String(code.dropFirst(4)) }

    static func normalized(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != "-" && $0 != " " }.prefix(16))
    }

    /// Eight letters, each from a byte below 240 (12 × 20), so every letter is as likely.
    private static func userCode() -> String {
        var letters: [Character] = []
        while letters.count < 8 {
            for byte in Crypto.randomBytes(16) where byte < 240 && letters.count < 8 {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(letters)
    }
}
