import RosterDomain
import RosterStore
@testable import RosterServerCore
import Testing

/// Who may make, list and revoke calendar links, as plain rules over tokens: no server, no
/// socket. CalendarCLITests runs the same through the binaries; SecurityFindingsTests the limits
/// against a server.
@Suite(.timeLimit(.minutes(10))) struct CalendarLinkRulesTests {
    static let now: UnixMillis = 1_795_996_800_000

    static func link(
        _ id: String, by maker: String?, tenant: String = "acme", created: UnixMillis = 1,
        role: AccessRole = .calendar, expires: UnixMillis? = nil, revoked: UnixMillis? = nil
    ) -> StoredToken {
        StoredToken(
            id: id, tenantID: tenant, role: role, secretHash: [], createdAt: created, expiresAt: expires,
            revokedAt: revoked, scope: "schedule:p", mintedBy: maker)
    }

    static let ada = Caller(tokenID: "tok_ada", name: "ada", isAdmin: false, employeeID: "ada")
    static let alan = Caller(tokenID: "tok_alan", name: "alan", isAdmin: false, employeeID: "alan")
    static let admin = Caller(tokenID: "tok_admin", name: "ops", isAdmin: true)
    static let anonymous = Caller(tokenID: nil, name: "", isAdmin: false)

    @Test func whoeverMadeALinkManagesItAndAnAdminAnyOfTheTenants() {
        let adas = Self.link("cal_1", by: "tok_ada")
        #expect(CalendarLinkRules.manages(adas, tenantID: "acme", actor: Self.ada))
        #expect(!CalendarLinkRules.manages(adas, tenantID: "acme", actor: Self.alan))
        #expect(CalendarLinkRules.manages(adas, tenantID: "acme", actor: Self.admin))
        #expect(!CalendarLinkRules.manages(adas, tenantID: "globex", actor: Self.admin), "another tenant's link")
        #expect(
            !CalendarLinkRules.manages(
                Self.link("tok_x", by: "tok_ada", role: .reader), tenantID: "acme", actor: Self.ada),
            "a reader token is no calendar link, whoever made it")
        // An anonymous caller manages nothing, not even links made anonymously long ago.
        #expect(!CalendarLinkRules.manages(Self.link("cal_0", by: nil), tenantID: "acme", actor: Self.anonymous))
    }

    @Test func aListHoldsTheLinksThatStillWorkOldestFirst() {
        let tokens = [
            Self.link("cal_3", by: "tok_ada", created: 30),
            Self.link("cal_1", by: "tok_ada", created: 10),
            Self.link("cal_2", by: "tok_alan", created: 20),
            Self.link("cal_4", by: "tok_ada", created: 5, expires: Self.now),
            Self.link("cal_5", by: "tok_ada", created: 6, revoked: Self.now - 1),
        ]
        #expect(
            CalendarLinkRules.listed(tokens, tenantID: "acme", actor: Self.ada, now: Self.now).map(\.id) == [
                "cal_1", "cal_3",
            ])
        #expect(
            CalendarLinkRules.listed(tokens, tenantID: "acme", actor: Self.admin, now: Self.now).map(\.id)
                == ["cal_1", "cal_2", "cal_3"])
        #expect(CalendarLinkRules.listed(tokens, tenantID: "acme", actor: Self.anonymous, now: Self.now).isEmpty)
    }

    @Test func mintingStopsAtEachLimitAndSaysWhich() {
        #expect(CalendarLinkRules.mintRefusal(live: (tenant: 0, minter: 0), tenantID: "acme") == nil)
        #expect(
            CalendarLinkRules.mintRefusal(
                live: (tenant: CalendarLinkRules.perTenant - 1, minter: CalendarLinkRules.perMinter - 1),
                tenantID: "acme") == nil)
        let perToken = CalendarLinkRules.mintRefusal(
            live: (tenant: 25, minter: CalendarLinkRules.perMinter), tenantID: "acme")
        #expect(perToken?.body.code == .resourceExhausted)
        #expect(
            perToken?.body.message.hasPrefix(
                "this token has minted 20 calendar tokens that still work (the limit is 20)") == true)
        let perTenant = CalendarLinkRules.mintRefusal(
            live: (tenant: CalendarLinkRules.perTenant, minter: 3), tenantID: "acme")
        #expect(perTenant?.body.message.contains("the tenant has 1000 calendar tokens") == true)
        #expect(perTenant?.body.message.contains("token list --tenant acme") == true)
    }
}
