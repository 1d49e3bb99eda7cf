import NIOConcurrencyHelpers
import RosterDomain
import RosterStore
import RosterTLS

/// The tokens a running server accepts, mirrored from the store. `roster-server token ...`
/// writes the store directly (possibly while the server runs); `refresh` picks the changes up
/// and reports which tokens were revoked, so that their live connections can be closed.
final class TokenRegistry: Sendable {
    private let tokens = NIOLockedValueBox<[String: StoredToken]>([:])
    /// Compared against when the id is unknown, so that a wrong id costs the same as a wrong secret.
    private let decoyHash = Crypto.sha256(Array("decoy".utf8))

    init(_ initial: [StoredToken] = []) {
        replace(with: initial)
    }

    /// Installs a fresh copy of the store's tokens; returns the ids that became unusable (revoked
    /// or deleted) since the last copy.
    @discardableResult
    func replace(with stored: [StoredToken]) -> [String] {
        let fresh = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return tokens.withLockedValue { current in
            let lost = current.values.filter { old in
                old.revokedAt == nil && (fresh[old.id] == nil || fresh[old.id]?.revokedAt != nil)
            }.map(\.id)
            current = fresh
            return lost
        }
    }

    var isEmpty: Bool { tokens.withLockedValue { $0.isEmpty } }

    /// A token just stored by this server, usable at once (before the next refresh); a revoked
    /// copy stops it at once.
    func insert(_ token: StoredToken) { tokens.withLockedValue { $0[token.id] = token } }

    /// Every token known (revoked and expired ones too).
    func all() -> [StoredToken] { tokens.withLockedValue { Array($0.values) } }

    func token(id: String) -> StoredToken? { tokens.withLockedValue { $0[id] } }

    /// The credential a presented token grants, or nil (unknown, wrong secret, expired or
    /// revoked: the caller answers all of these the same way).
    func authenticate(_ text: String, now: UnixMillis) -> Credential? {
        // A calendar token opens its feed only.
        guard let stored = verified(text, now: now), stored.role != .calendar else { return nil }
        return Credential(tokenID: stored.id, tenantID: stored.tenantID, role: stored.role, expiresAt: stored.expiresAt,
                          employeeID: stored.employeeID, label: stored.label)
    }

    /// The calendar token a feed URL presents, if it is one and usable: also the token that
    /// minted it, if one did (a feed never outlives the access it was made with).
    func calendarToken(_ text: String, now: UnixMillis) -> StoredToken? {
        guard let stored = verified(text, now: now), stored.role == .calendar, stored.scope != nil else { return nil }
        if let parent = stored.mintedBy {
            guard let minter = tokens.withLockedValue({ $0[parent] }), minter.isUsable(at: now) else { return nil }
        }
        return stored
    }

    /// Calendar tokens of `tenant` still usable, and those of them minted by `minter` (nil:
    /// anonymously): what the minting limits count.
    func liveCalendarTokens(tenant: String, mintedBy minter: String?, now: UnixMillis) -> (tenant: Int, minter: Int) {
        tokens.withLockedValue { tokens in
            var ofTenant = 0, ofMinter = 0
            for token in tokens.values where token.role == .calendar && token.tenantID == tenant && token.isUsable(at: now) {
                ofTenant += 1
                if token.mintedBy == minter { ofMinter += 1 }
            }
            return (ofTenant, ofMinter)
        }
    }

    /// The stored token whose secret `text` proves, if usable; a wrong id costs what a wrong secret does.
    private func verified(_ text: String, now: UnixMillis) -> StoredToken? {
        guard let (id, secret) = AccessToken.parse(text) else { return nil }
        let stored = tokens.withLockedValue { $0[id] }
        let presented = Crypto.sha256(Array(secret.utf8))
        let matches = Crypto.constantTimeEqual(presented, stored?.secretHash ?? decoyHash)
        guard let stored, matches, stored.isUsable(at: now) else { return nil }
        return stored
    }

    /// Why `authenticate` refused a presented token, for the audit log (never for the peer, who
    /// gets one answer for every cause), and the id and tenant of the token it names if known.
    func refusal(of text: String, now: UnixMillis) -> (detail: String, tokenID: String, tenantID: String?) {
        guard !text.isEmpty else { return ("no token (anonymous access is for loopback listeners)", "", nil) }
        guard let (id, secret) = AccessToken.parse(text) else { return ("not a Roster token", "", nil) }
        guard let stored = tokens.withLockedValue({ $0[id] }) else { return ("unknown token", id, nil) }
        if !Crypto.constantTimeEqual(Crypto.sha256(Array(secret.utf8)), stored.secretHash) {
            return ("wrong secret", id, stored.tenantID)
        }
        if stored.revokedAt != nil { return ("revoked token", id, stored.tenantID) }
        if !stored.isUsable(at: now) { return ("expired token", id, stored.tenantID) }
        return ("the token is for another tenant", id, stored.tenantID)
    }

    func isRevoked(_ id: String) -> Bool {
        tokens.withLockedValue { $0[id].map { $0.revokedAt != nil } ?? true }
    }
}
