import RosterDomain
import RosterStore

/// Who may make, list and revoke calendar links (calendar tokens), as plain rules over tokens:
/// `ServerCore.calendar` and `calendarLinks` apply them to the token registry and the store.
/// A link is made with a token only (an anonymous link could be neither listed nor revoked by
/// whoever made it); whoever made a link sees and may revoke it, and an admin any of the tenant's.
enum CalendarLinkRules {
    /// Calendar tokens last a year (a calendar app re-subscribes with a new link), stop with the
    /// token that minted them, and at most so many per minting token and per tenant still work.
    static let lifetime: Duration = .seconds(366 * 86_400)
    static let perMinter = 20
    static let perTenant = 1_000

    static let anonymous = WireError(
        .permissionDenied,
        """
        calendar links are made, listed and revoked with a token (--token or --token-file): \
        an anonymous link could not be told apart from anyone else's
        """)

    /// Whether `actor` sees and may revoke `token`.
    static func manages(_ token: StoredToken, tenantID: String, actor: Caller) -> Bool {
        guard let maker = actor.tokenID else { return false }
        return token.role == .calendar && token.tenantID == tenantID && (actor.isAdmin || token.mintedBy == maker)
    }

    /// The links `actor` lists: those it manages that still work, oldest first.
    static func listed(_ tokens: [StoredToken], tenantID: String, actor: Caller, now: UnixMillis) -> [StoredToken] {
        tokens.filter { manages($0, tenantID: tenantID, actor: actor) && $0.isUsable(at: now) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Why one more link may not be made, given the tenant's links that still work and those of
    /// them the caller's token made; nil when it may.
    static func mintRefusal(live: (tenant: Int, minter: Int), tenantID: String) -> WireError? {
        if live.minter >= perMinter {
            return exhausted("this token has minted \(live.minter)", limit: perMinter, tenantID: tenantID)
        }
        if live.tenant >= perTenant {
            return exhausted("the tenant has \(live.tenant)", limit: perTenant, tenantID: tenantID)
        }
        return nil
    }

    private static func exhausted(_ count: String, limit: Int, tenantID: String) -> WireError {
        WireError(
            .resourceExhausted,
            """
            \(count) calendar tokens that still work (the limit is \(limit)): reuse a feed URL, or have an admin \
            revoke old ones (roster-server token list --tenant \(tenantID))
            """)
    }
}
