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

    private struct Pending {
        var deviceCode: String
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
    package func begin(tenantID: String, address: String, now: UnixMillis) -> (deviceCode: String, userCode: String)? {
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
                deviceCode: deviceCode, userCode: userCode, tenantID: tenantID, address: address, startedAt: now)
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

    /// Records the person's answer for `userCode`; false when no such login waits.
    package func decide(userCode: String, _ outcome: Poll, now: UnixMillis) -> Bool {
        let code = Self.normalized(userCode)
        return table.withLockedValue { table in
            guard let device = table.deviceByUser[code], var login = table.byDevice[device],
                now - login.startedAt < Self.lifetime, login.outcome == nil
            else { return false }
            login.outcome = outcome
            table.byDevice[device] = login
            return true
        }
    }

    /// The terminal's poll: a decided login is handed out once and forgotten.
    package func poll(deviceCode: String, now: UnixMillis) -> Poll {
        table.withLockedValue { table in
            guard var login = table.byDevice[deviceCode] else { return .expired }
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
