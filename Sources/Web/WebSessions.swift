import NIOConcurrencyHelpers
import RosterDomain
import RosterHTTP
import RosterServerCore

/// Who is looking at a page and what they may do: the protocol's roles exactly. Anonymous (a
/// loopback listener's default tenant, not signed in) and readers read; admins edit; a token
/// bound to a person acts for that person where the schedule lets readers volunteer.
struct Viewer: Sendable {
    /// nil: anonymous on loopback.
    var credential: Credential?
    /// The browser's session, when it signed in (its CSRF token goes into every form).
    var session: WebSessions.Session?
    /// The full name of the person the token names, for the header; nil when it names nobody.
    var personName: String?
    /// The page's words, in the reader's language.
    var words: Words
    /// Whether the reader chose the language (the language form's cookie), not their browser.
    var languageChosen = false

    init(credential: Credential?, session: WebSessions.Session?, tenant: TenantRuntime? = nil, words: Words) {
        (self.credential, self.session, self.words) = (credential, session, words)
        personName = credential?.employeeID.flatMap { tenant?.view.state.employees[$0]?.fullName }
    }

    var isAdmin: Bool { credential?.role == .admin }
    var employeeID: String? { credential?.employeeID }
    var signedIn: Bool { session != nil }

    /// Whether the page offers this viewer an override on `schedule` (the server checks again
    /// when it is asked: `ScheduleEdit.refusal`).
    func mayEdit(_ schedule: ScheduleDefinition) -> Bool {
        isAdmin || (employeeID != nil && schedule.readersMayVolunteer)
    }

    static func anonymous(_ words: Words) -> Viewer { Viewer(credential: nil, session: nil, words: words) }
}

/// Signed-in browsers (docs/WEB.md, "Signing in"): a token is exchanged once for a session,
/// kept by the browser in an HttpOnly, SameSite=Strict cookie (Secure off loopback). A session
/// holds the token's id, never its secret, and is checked against the token at every request,
/// so revoking the token ends its sessions at once. Kept in this node's memory: a restart signs
/// everyone out. Bounded, so that no token can sign anyone else out: one token holds at most
/// `maxPerToken` sessions and one tenant `maxPerTenant` (a new one replaces the least recently
/// used of its own); past `maxSessions` in all a sign-in is refused, nobody is evicted. Each
/// lasts `lifetime` from sign-in.
package final class WebSessions: Sendable {
    package struct Session: Sendable {
        package var id: String
        package var tokenID: String
        package var tenantID: String
        /// The value every form of this session carries; a change without it is refused.
        package var csrf: String
        package var signedIn: UnixMillis
        package var lastUsed: UnixMillis
    }

    static let cookieName = "roster_session"
    static let maxSessions = 10_000
    static let maxPerTenant = 2_000
    static let maxPerToken = 16
    static let lifetime: UnixMillis = 12 * 3_600_000

    private let sessions = NIOLockedValueBox<[String: Session]>([:])

    package init() {}

    /// A new session for `tokenID` of `tenantID`, replacing the least recently used of the same
    /// token (or tenant) at its cap; nil when the node holds `maxSessions` (expired ones are
    /// dropped first).
    package func open(tokenID: String, tenantID: String, now: UnixMillis) -> Session? {
        let session = Session(
            id: Self.secret(), tokenID: tokenID, tenantID: tenantID, csrf: Self.secret(), signedIn: now, lastUsed: now)
        return sessions.withLockedValue { sessions -> Session? in
            func dropOldest(where belongs: (Session) -> Bool, cap: Int) {
                let own = sessions.values.filter(belongs)
                if own.count >= cap, let oldest = own.min(by: { $0.lastUsed < $1.lastUsed }) {
                    sessions.removeValue(forKey: oldest.id)
                }
            }
            dropOldest(where: { $0.tokenID == tokenID }, cap: Self.maxPerToken)
            dropOldest(where: { $0.tenantID == tenantID }, cap: Self.maxPerTenant)
            if sessions.count >= Self.maxSessions {
                sessions = sessions.filter { now - $0.value.signedIn < Self.lifetime }
            }
            guard sessions.count < Self.maxSessions else { return nil }
            sessions[session.id] = session
            return session
        }
    }

    /// The session a cookie names, if it is current; an expired one is dropped.
    package func session(_ id: String, now: UnixMillis) -> Session? {
        sessions.withLockedValue { sessions in
            guard var found = sessions[id] else { return nil }
            guard now - found.signedIn < Self.lifetime else {
                sessions.removeValue(forKey: id)
                return nil
            }
            found.lastUsed = now
            sessions[id] = found
            return found
        }
    }

    func close(_ id: String) { _ = sessions.withLockedValue { $0.removeValue(forKey: id) } }

    var count: Int { sessions.withLockedValue { $0.count } }

    /// 256 random bits as hex, from the system's generator (getrandom on Linux).
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next(), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The Set-Cookie header that keeps `session` (nil: one that clears the cookie).
    static func cookie(_ session: Session?, secure: Bool) -> (String, String) {
        let value = session.map { "\(cookieName)=\($0.id); Max-Age=\(lifetime / 1000)" } ?? "\(cookieName)=; Max-Age=0"
        return ("Set-Cookie", value + "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : ""))
    }

    /// Whether `given` is the session's CSRF value, compared in constant time.
    static func matches(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension WebApp {
    /// Who is asking, and of which tenant, by the protocol's rule: a session cookie or a bearer
    /// token reads its token's tenant anywhere; otherwise the default tenant on loopback.
    enum Reading {
        case viewer(Viewer, TenantRuntime)
        case starting
        case refused
        case signInNeeded
    }

    func reading(_ request: HTTPAPI.Request, side: HTTPSide) -> Reading {
        switch readingAnyLanguage(request, side: side) {
        case .viewer(var viewer, let tenant):
            viewer.languageChosen = request.languageChosen
            return .viewer(viewer, tenant)
        case let other: return other
        }
    }

    private func readingAnyLanguage(_ request: HTTPAPI.Request, side: HTTPSide) -> Reading {
        guard let core = side.context else { return .starting }
        let words = request.words
        let now = core.clock.now()
        if let (session, credential) = signedIn(request, core: core, now: now) {
            guard let tenant = core.tenant(credential.tenantID) else { return .refused }
            return .viewer(Viewer(credential: credential, session: session, tenant: tenant, words: words), tenant)
        }
        if let header = request.authorization, header.lowercased().hasPrefix("bearer ") {
            guard let credential = core.tokens.authenticate(String(header.dropFirst(7)), now: now),
                let tenant = core.tenant(credential.tenantID)
            else {
                side.metrics?.counters.authenticationFailed()
                core.auditAuthenticationFailure(
                    token: String(header.dropFirst(7)), address: request.peer, door: "HTTP Bearer token", at: now)
                return .refused
            }
            return .viewer(Viewer(credential: credential, session: nil, tenant: tenant, words: words), tenant)
        }
        guard side.isDevelopment(request) else { return .signInNeeded }
        return core.tenant(core.defaultTenant).map { .viewer(.anonymous(words), $0) } ?? .starting
    }

    /// The request's session and what its token grants now, if it has a current one.
    func signedIn(_ request: HTTPAPI.Request, core: ServerCore, now: UnixMillis) -> (WebSessions.Session, Credential)? {
        guard let id = request.cookie(WebSessions.cookieName), let session = sessions.session(id, now: now) else {
            return nil
        }
        guard let credential = core.tokens.credential(tokenID: session.tokenID, now: now) else {
            sessions.close(id)  // the token was revoked or expired: so is the session
            return nil
        }
        return (session, credential)
    }
}
