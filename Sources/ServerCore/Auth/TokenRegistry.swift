import NIOConcurrencyHelpers
import RosterDomain
import RosterStore
import RosterTLS

/// The tokens a running server accepts, mirrored from the store. `roster-server token ...`
/// writes the store directly (possibly while the server runs); `refresh` picks the changes up
/// and reports which tokens were revoked, so that their live connections can be closed.
package final class TokenRegistry: Sendable {
    private struct Mirror {
        var tokens: [String: StoredToken] = [:]
        /// Counts this server's own changes (`insert`); each token changed here keeps the count
        /// of its last change until a copy of the store loaded after it has replaced the mirror.
        var changes: UInt64 = 0
        var changedAt: [String: UInt64] = [:]
        /// Tokens this server revoked (`insert` of a revoked copy) whose connections the next
        /// `replace` reports: the copy it loads no longer differs from the mirror there.
        var revokedHere: Set<String> = []
    }

    private let mirror = NIOLockedValueBox(Mirror())
    /// Compared against when the id is unknown, so that a wrong id costs the same as a wrong secret.
    private let decoyHash = Crypto.sha256(Array("decoy".utf8))

    package init(_ initial: [StoredToken] = []) {
        replace(with: initial, loadedAfter: 0)
    }

    /// Where this server's own changes stand: take it before loading the store's tokens, and
    /// pass it to `replace`.
    package var stamp: UInt64 { mirror.withLockedValue { $0.changes } }

    /// Installs a fresh copy of the store's tokens, loaded after `stamp` was taken; returns the
    /// ids that became unusable (revoked or deleted) since the last copy. A token this server
    /// changed after the stamp keeps its own version: the copy may have been read before that
    /// change was stored, and a token minted meanwhile must be neither lost nor taken for revoked.
    @discardableResult
    package func replace(with stored: [StoredToken], loadedAfter stamp: UInt64) -> [String] {
        var fresh = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return mirror.withLockedValue { mirror in
            mirror.changedAt = mirror.changedAt.filter { $0.value > stamp }
            for id in mirror.changedAt.keys { fresh[id] = mirror.tokens[id] }
            let lost = mirror.tokens.values.filter { old in
                old.revokedAt == nil && (fresh[old.id] == nil || fresh[old.id]?.revokedAt != nil)
            }.map(\.id)
            mirror.tokens = fresh
            defer { mirror.revokedHere = [] }
            return lost + mirror.revokedHere.subtracting(lost).sorted()
        }
    }

    var isEmpty: Bool { mirror.withLockedValue { $0.tokens.isEmpty } }

    /// A token just stored by this server, usable at once (before the next refresh); a revoked
    /// copy stops it at once.
    func insert(_ token: StoredToken) {
        mirror.withLockedValue { mirror in
            mirror.changes += 1
            if token.revokedAt != nil, mirror.tokens[token.id]?.revokedAt == nil { mirror.revokedHere.insert(token.id) }
            mirror.tokens[token.id] = token
            mirror.changedAt[token.id] = mirror.changes
        }
    }

    /// Every token known (revoked and expired ones too).
    func all() -> [StoredToken] { mirror.withLockedValue { Array($0.tokens.values) } }

    func token(id: String) -> StoredToken? { mirror.withLockedValue { $0.tokens[id] } }

    /// The credential a presented token grants, or nil (unknown, wrong secret, expired or
    /// revoked: the caller answers all of these the same way).
    package func authenticate(_ text: String, now: UnixMillis) -> Credential? {
        // A calendar token opens its feed only.
        guard let stored = verified(text, now: now), stored.role != .calendar else { return nil }
        return Credential(
            tokenID: stored.id, tenantID: stored.tenantID, role: stored.role, expiresAt: stored.expiresAt,
            employeeID: stored.employeeID, label: stored.label, limits: TokenLimits(scope: stored.scope))
    }

    /// The credential the token with this id grants now, if it is still usable: how a web
    /// session, which keeps the token's id and not its secret, sees a revocation at once.
    package func credential(tokenID: String, now: UnixMillis) -> Credential? {
        guard let stored = token(id: tokenID), stored.isUsable(at: now), stored.role != .calendar else { return nil }
        return Credential(
            tokenID: stored.id, tenantID: stored.tenantID, role: stored.role, expiresAt: stored.expiresAt,
            employeeID: stored.employeeID, label: stored.label, limits: TokenLimits(scope: stored.scope))
    }

    /// The calendar token a feed URL presents, if it is one and usable: also the token that
    /// minted it, if one did (a feed never outlives the access it was made with).
    package func calendarToken(_ text: String, now: UnixMillis) -> StoredToken? {
        guard let stored = verified(text, now: now), stored.role == .calendar, stored.scope != nil else { return nil }
        if let parent = stored.mintedBy {
            guard let minter = mirror.withLockedValue({ $0.tokens[parent] }), minter.isUsable(at: now) else {
                return nil
            }
        }
        return stored
    }

    /// Calendar tokens of `tenant` still usable, and those of them minted by `minter` (nil:
    /// anonymously): what the minting limits count.
    func liveCalendarTokens(tenant: String, mintedBy minter: String?, now: UnixMillis) -> (tenant: Int, minter: Int) {
        mirror.withLockedValue { mirror in
            var ofTenant = 0, ofMinter = 0
            for token in mirror.tokens.values
            where token.role == .calendar && token.tenantID == tenant && token.isUsable(at: now) {
                ofTenant += 1
                if token.mintedBy == minter { ofMinter += 1 }
            }
            return (ofTenant, ofMinter)
        }
    }

    /// The stored token whose secret `text` proves, if usable; a wrong id costs what a wrong secret does.
    private func verified(_ text: String, now: UnixMillis) -> StoredToken? {
        guard let (id, secret) = AccessToken.parse(text) else { return nil }
        let stored = mirror.withLockedValue { $0.tokens[id] }
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
        guard let stored = mirror.withLockedValue({ $0.tokens[id] }) else { return ("unknown token", id, nil) }
        if !Crypto.constantTimeEqual(Crypto.sha256(Array(secret.utf8)), stored.secretHash) {
            return ("wrong secret", id, stored.tenantID)
        }
        if stored.revokedAt != nil { return ("revoked token", id, stored.tenantID) }
        if !stored.isUsable(at: now) { return ("expired token", id, stored.tenantID) }
        return ("the token is for another tenant", id, stored.tenantID)
    }

    func isRevoked(_ id: String) -> Bool {
        mirror.withLockedValue { $0.tokens[id].map { $0.revokedAt != nil } ?? true }
    }
}
