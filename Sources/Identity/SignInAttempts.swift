import NIOConcurrencyHelpers
import RosterDomain
import RosterTLS

/// One sign-in under way: what the provider's redirect back must find again (OIDC Core §3.1.2.1,
/// RFC 7636): the `state` that names it, the `nonce` its ID token must carry, the PKCE verifier
/// only this server knows, and the page to land on.
public struct SignInAttempt: Sendable, Equatable {
    public let state: String
    public let nonce: String
    public let codeVerifier: String
    public let tenantID: String
    /// Who started it (the browser's address), for the per-address cap.
    public let address: String
    public let returnTo: String
    public let startedAt: UnixMillis

    /// RFC 7636 §4.2's S256 challenge: base64url(SHA-256(verifier)).
    public var codeChallenge: String { Self.challenge(codeVerifier) }

    public static func challenge(_ verifier: String) -> String { Base64URL.encode(Crypto.sha256(Array(verifier.utf8))) }

    /// 256 bits from the system's generator, as 43 base64url characters (a PKCE verifier's
    /// alphabet and length, RFC 7636 §4.1).
    static func random() -> String { Base64URL.encode(Crypto.randomBytes(32)) }
}

/// The sign-ins under way on this node, each used once: a `state` that was finished, or that is
/// older than `lifetime`, is refused. Bounded: at `maxAttempts` (after the expired are dropped)
/// a new sign-in is refused, nobody's under way is evicted; one tenant holds at most
/// `maxPerTenant` and one address `maxPerAddress`, each its own oldest replaced, so no tenant
/// fills the node for the others and no address a tenant for its other people.
public final class SignInAttempts: Sendable {
    public static let lifetime: UnixMillis = 10 * 60_000
    public static let maxAttempts = 10_000
    public static let maxPerTenant = 2_000
    public static let maxPerAddress = 50

    private struct Table {
        var open: [String: SignInAttempt] = [:]
        var perTenant: [String: Int] = [:]
        var perAddress: [String: Int] = [:]
        /// States finished within `lifetime`, so that a replay is told apart from a stranger.
        var finished: [String: UnixMillis] = [:]
    }
    private let table = NIOLockedValueBox(Table())

    public init() {}

    /// A new attempt for `tenantID` from `address`, or nil when the node holds as many as it may.
    public func begin(tenantID: String, address: String, returnTo: String, now: UnixMillis) -> SignInAttempt? {
        let attempt = SignInAttempt(
            state: SignInAttempt.random(), nonce: SignInAttempt.random(), codeVerifier: SignInAttempt.random(),
            tenantID: tenantID, address: address, returnTo: returnTo, startedAt: now)
        return table.withLockedValue { table -> SignInAttempt? in
            // The scans below run only at a cap, so a sign-in costs O(1) until then.
            if table.open.count >= Self.maxAttempts { Self.dropExpired(&table, now: now) }
            func replaceOldest(where belongs: (SignInAttempt) -> Bool) {
                if let oldest = table.open.values.filter(belongs).min(by: { $0.startedAt < $1.startedAt }) {
                    Self.remove(oldest.state, from: &table)
                }
            }
            if table.perAddress[address, default: 0] >= Self.maxPerAddress { replaceOldest { $0.address == address } }
            if table.perTenant[tenantID, default: 0] >= Self.maxPerTenant { replaceOldest { $0.tenantID == tenantID } }
            guard table.open.count < Self.maxAttempts else { return nil }
            table.open[attempt.state] = attempt
            table.perTenant[tenantID, default: 0] += 1
            table.perAddress[address, default: 0] += 1
            return attempt
        }
    }

    /// The attempt `state` names, taken out so that it can never be used again.
    public func finish(state: String, now: UnixMillis) throws(SignInRefusal) -> SignInAttempt {
        let found: Result<SignInAttempt, SignInRefusal> = table.withLockedValue { table in
            if let attempt = Self.remove(state, from: &table) {
                if table.finished.count >= Self.maxAttempts { Self.dropExpired(&table, now: now) }
                if table.finished.count < Self.maxAttempts { table.finished[state] = now }
                guard now - attempt.startedAt < Self.lifetime else { return .failure(.expiredState) }
                return .success(attempt)
            }
            return .failure(table.finished[state] != nil ? .replayedState : .unknownState)
        }
        return try found.get()
    }

    public var count: Int { table.withLockedValue { $0.open.count } }

    /// The tenant of the attempt `state` names, if it is open (it stays open: `finish` takes it).
    public func tenant(of state: String) -> String? { table.withLockedValue { $0.open[state]?.tenantID } }

    private static func dropExpired(_ table: inout Table, now: UnixMillis) {
        for attempt in table.open.values where now - attempt.startedAt >= lifetime {
            remove(attempt.state, from: &table)
        }
        table.finished = table.finished.filter { now - $0.value < lifetime }
    }

    @discardableResult
    private static func remove(_ state: String, from table: inout Table) -> SignInAttempt? {
        guard let attempt = table.open.removeValue(forKey: state) else { return nil }
        table.perTenant[attempt.tenantID, default: 1] -= 1
        if table.perTenant[attempt.tenantID] == 0 { table.perTenant.removeValue(forKey: attempt.tenantID) }
        table.perAddress[attempt.address, default: 1] -= 1
        if table.perAddress[attempt.address] == 0 { table.perAddress.removeValue(forKey: attempt.address) }
        return attempt
    }
}
