import RosterDomain
import RosterStore
import RosterTLS

/// What a `roster-client login` holds (docs/SSO.md): a token for an hour and the refresh secret
/// that renews it, `rsr_<id>_<secret>`.
package struct LoginGrant: Sendable, Equatable {
    package var token: String
    package var expiresAt: UnixMillis
    package var refresh: String
    package var refreshExpiresAt: UnixMillis

    package init(token: String, expiresAt: UnixMillis, refresh: String, refreshExpiresAt: UnixMillis) {
        (self.token, self.expiresAt, self.refresh, self.refreshExpiresAt) = (
            token, expiresAt, refresh, refreshExpiresAt
        )
    }
}

/// What a renewal gives.
package enum LoginRenewal: Sendable, Equatable {
    case renewed(LoginGrant)
    /// Unknown, ended, copied (a replaced secret presented again: the login ends) or the person is
    /// gone or deactivated: `roster-client login` again.
    case refused
    /// The store could not be written; nothing changed.
    case unavailable
}

/// `rsr_<id>_<secret>`: the one reader and writer of a refresh secret's text.
enum LoginRefreshText {
    static func make(id: String, secret: String) -> String { "rsr_\(id)_\(secret)" }

    /// The id and the secret; nil for anything else (at most 200 bytes are looked at).
    static func parse(_ text: String) -> (id: String, secret: String)? {
        guard text.utf8.count <= 200 else { return nil }
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "rsr", !parts[1].isEmpty, parts[2].utf8.count == 64,
            parts[1].allSatisfy({ $0.isHexDigit }), parts[2].allSatisfy({ $0.isHexDigit })
        else { return nil }
        return (String(parts[1]), String(parts[2]))
    }

    static func hash(_ secret: String) -> String { Crypto.hex(Crypto.sha256(Array(secret.utf8))) }
}

extension SingleSignOn {
    /// The signed-in person's approval of the login `userCode`: a token for them with their
    /// session's role and the login's refresh record, stored and audited before the terminal can
    /// fetch them. Nil when no such login waits or the session names nobody; else where to send
    /// the browser for a loopback login (`DeviceLogins.decideReturning`).
    package func approveLogin(userCode: String, credential: Credential, core: ServerCore, address: String) async
        -> String??
    {
        let now = core.clock.now()
        guard let employeeID = credential.employeeID,
            logins.tenant(userCode: userCode, now: now) == credential.tenantID,
            let grant = await mintLogin(
                tenantID: credential.tenantID, employeeID: employeeID, role: credential.role,
                actor: credential.label.isEmpty ? (credential.tokenID ?? "") : credential.label,
                actorToken: credential.tokenID ?? "", how: "approved in the web app", core: core, address: address)
        else { return nil }
        return logins.decideReturning(userCode: userCode, .approved(grant), now: now)
    }

    /// A login for the person: its token and refresh record, stored and audited before anyone
    /// can fetch them; nil when the store refused.
    func mintLogin(
        tenantID: String, employeeID: String, role: AccessRole, actor: String, actorToken: String, how: String,
        core: ServerCore, address: String
    ) async -> LoginGrant? {
        let now = core.clock.now()
        let issued = AccessToken.issue(
            tenantID: tenantID, role: role, label: DeviceLogins.tokenLabel, now: now,
            expiresAt: now + DeviceLogins.tokenLifetime, employeeID: employeeID)
        let id = Crypto.hex(Crypto.randomBytes(8)), secret = Crypto.hex(Crypto.randomBytes(32))
        let refresh = LoginRefresh(
            id: id, tenantID: tenantID, employeeID: employeeID, role: role,
            secretHash: LoginRefreshText.hash(secret), accessTokenID: issued.stored.id, createdAt: now,
            expiresAt: now + DeviceLogins.refreshLifetime)
        do {
            try await core.admin.store.insertToken(issued.stored)
            try await core.admin.store.insertLoginRefresh(refresh)
            var entry = AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now)
            entry.actor = actor
            entry.tokenID = actorToken
            entry.address = address
            entry.detail += ", \(how) for roster-client (login \(id))"
            try await core.admin.store.appendAudit(tenantID: tenantID, entry)
        } catch {
            core.logger.warning("could not store a roster-client login's token: \(error)")
            return nil
        }
        core.tokens.insert(issued.stored)
        return LoginGrant(
            token: issued.text, expiresAt: issued.stored.expiresAt ?? now,
            refresh: LoginRefreshText.make(id: id, secret: secret), refreshExpiresAt: refresh.expiresAt)
    }

    /// A new token and refresh secret for the login `text` names, the old secret replaced (a
    /// compare-and-swap: of two renewals with one secret, one wins). The person must still be in
    /// the directory and active, and the login's last token not revoked (by an admin, or by SCIM
    /// taking the person out of the admin groups): else the login ends. The token keeps the
    /// login's role.
    package func renewLogin(refresh text: String, core: ServerCore, address: String) async -> LoginRenewal {
        let now = core.clock.now()
        let store = core.admin.store
        guard let (id, secret) = LoginRefreshText.parse(text) else { return .refused }
        let record: LoginRefresh
        do {
            guard let found = try await store.loginRefresh(id: id) else { return .refused }
            record = found
        } catch {
            return .unavailable
        }
        let presented = LoginRefreshText.hash(secret)
        guard record.isLive(at: now) else { return .refused }
        if presented == record.previousHash {
            // A secret already replaced: two holders of one login. Both lose it.
            await endLogin(record, why: "a replaced refresh secret was presented again", core: core, address: address)
            return .refused
        }
        guard presented == record.secretHash else { return .refused }
        if let last = core.tokens.token(id: record.accessTokenID), last.revokedAt != nil {
            await endLogin(record, why: "its token was revoked", core: core, address: address)
            return .refused
        }
        guard let person = core.tenant(record.tenantID)?.view.state.employees[record.employeeID], !person.deactivated
        else {
            await endLogin(record, why: "the person is gone or deactivated", core: core, address: address)
            return .refused
        }
        let issued = AccessToken.issue(
            tenantID: record.tenantID, role: record.role, label: DeviceLogins.tokenLabel, now: now,
            expiresAt: now + DeviceLogins.tokenLifetime, employeeID: person.id)
        let newSecret = Crypto.hex(Crypto.randomBytes(32))
        let expiresAt = now + DeviceLogins.refreshLifetime
        do {
            // The token first: a rotation that wins always has its token stored.
            try await store.insertToken(issued.stored)
            guard
                try await store.rotateLoginRefresh(
                    id: id, expectedHash: presented, newHash: LoginRefreshText.hash(newSecret),
                    accessTokenID: issued.stored.id, expiresAt: expiresAt)
            else {
                _ = try await store.revokeToken(id: issued.stored.id, at: now)
                return .refused
            }
            var entry = AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now)
            entry.actor = person.fullName
            entry.address = address
            entry.detail += ", roster-client login \(id) renewed"
            try await store.appendAudit(tenantID: record.tenantID, entry)
        } catch {
            core.logger.warning("could not renew roster-client login \(id): \(error)")
            return .unavailable
        }
        core.tokens.insert(issued.stored)
        return .renewed(
            LoginGrant(
                token: issued.text, expiresAt: issued.stored.expiresAt ?? now,
                refresh: LoginRefreshText.make(id: id, secret: newSecret), refreshExpiresAt: expiresAt))
    }

    /// `roster-client logout`: the login's token, and its refresh record when the refresh secret
    /// (current) is given, are revoked. False when neither is a login's.
    package func logout(token: String?, refresh: String?, core: ServerCore, address: String) async -> Bool {
        var ended = false
        if let refresh, let (id, secret) = LoginRefreshText.parse(refresh),
            let record = try? await core.admin.store.loginRefresh(id: id), record.revokedAt == nil,
            record.secretHash == LoginRefreshText.hash(secret)
        {
            await endLogin(record, why: "logged out of roster-client", core: core, address: address)
            ended = true
        }
        let now = core.clock.now()
        if let token, let credential = core.tokens.authenticate(token, now: now), let id = credential.tokenID,
            let stored = core.tokens.token(id: id), stored.label == DeviceLogins.tokenLabel
        {
            ended = await core.revoke(stored, why: "logged out of roster-client", address: address) || ended
        }
        return ended
    }

    /// Revokes the login's refresh record and the last token it issued.
    private func endLogin(_ record: LoginRefresh, why: String, core: ServerCore, address: String) async {
        do {
            _ = try await core.admin.store.revokeLoginRefresh(id: record.id, at: core.clock.now())
        } catch {
            core.logger.warning("could not end roster-client login \(record.id) (\(why)): \(error)")
        }
        if let token = core.tokens.token(id: record.accessTokenID), token.revokedAt == nil {
            _ = await core.revoke(token, why: why + " (login \(record.id))", address: address)
        }
    }
}
