import Foundation
import RosterDomain
import RosterProtocol
import RosterServer
import RosterStore
import RosterTestSupport
import Testing

/// /scim/v2 opened by the provider's own access tokens (`--scim-provider-tokens`, docs/SSO.md),
/// over real HTTP against the hostile provider's introspection endpoint: only when the tenant
/// allows it, one check per token a minute, a made-up token refused and not asked about again
/// for ten seconds, at most four checks at once per tenant (then 429) while the tenant's own
/// SCIM token goes on working, and a token of one tenant refused at another's path.
@Suite(.timeLimit(.minutes(10))) struct ProviderTokenTests {
    static func introspections(_ issuer: String) async throws -> Int {
        try await HTTPGet.request(issuer + "/introspections").json["count"] as? Int ?? -1
    }

    static func users(_ base: String, _ token: String, tenant: String? = nil) async throws -> Int {
        let root = tenant.map { "/tenants/\($0)/scim/v2" } ?? "/scim/v2"
        return try await HTTPGet.request(base + root + "/Users", token: token).status
    }

    @Test func aProvidersTokensOpenSCIMOnlyWhenAllowedAndWithinTheirBudget() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            try await SingleSignOnTests.withProvider { issuer, _ in
                let admin = try await harness.connect()
                try await SingleSignOnTests.play("valid", issuer: issuer, now: harness.clock.now())
                try await SingleSignOnTests.setUp(admin, issuer: issuer)

                // Not allowed: refused without asking the provider.
                #expect(try await Self.users(base, "good-1") == 401)
                #expect(try await Self.introspections(issuer) == 0)

                let kept = try await SingleSignOnTests.setUp(admin, issuer: issuer) { $0.scimProviderTokens = true }
                #expect(kept.singleSignOn.scimProviderTokens)
                for _ in 0..<4 { #expect(try await Self.users(base, "good-1") == 200) }
                #expect(try await Self.introspections(issuer) == 1, "a burst costs one check")
                harness.clock.advance(to: harness.clock.now() + 61_000)
                #expect(try await Self.users(base, "good-1") == 200)
                #expect(try await Self.introspections(issuer) == 2, "checked again after a minute")

                // Refused: another client's token, a made-up one (asked about once in ten seconds).
                #expect(try await Self.users(base, "other-client") == 401)
                #expect(try await Self.users(base, "made-up") == 401)
                #expect(try await Self.users(base, "made-up") == 401)
                #expect(try await Self.introspections(issuer) == 4)

                // Four checks held by the provider: a fifth token is told to wait (429), while the
                // tenant's own SCIM token and a token already checked go on.
                let (own, _) = try await ProvisioningTests.token(harness)
                let held = (1...4).map { index in Task { try await Self.users(base, "slow-\(index)") } }
                let deadline = ContinuousClock.now + .seconds(20)
                while try await Self.introspections(issuer) < 8, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let busy = try await HTTPGet.request(base + "/scim/v2/Users", token: "slow-5")
                #expect(busy.status == 429 && ProvisioningTests.header(busy, "Retry-After") == "1", "\(busy.body)")
                #expect(try await Self.users(base, own) == 200)
                #expect(try await Self.users(base, "good-1") == 200)
                _ = try await HTTPGet.request(issuer + "/release", method: "POST")
                for task in held { #expect(try await task.value == 401) }
                #expect(try await Self.introspections(issuer) == 8)

                // A tenant named in the path: the own token opens its own tenant only.
                #expect(try await Self.users(base, own, tenant: "demo") == 200)
                #expect(try await Self.users(base, own, tenant: "other") == 401)
                #expect(try await Self.users(base, "good-1", tenant: "other") == 401)

                // Sign-in removed: the remembered token is forgotten at once.
                _ = try await SingleSignOnTests.identityAdmin(admin, .with { $0.removeSingleSignOn = true })
                #expect(try await Self.users(base, "good-1") == 401)
                guard case .audit(let audit) = try await admin.request(.getAudit(.init())) else {
                    throw TestFailure("expected the audit log")
                }
                #expect(
                    audit.entries.contains {
                        $0.kind == "auth.failed"
                            && $0.detail.contains("a provider's token refused: the token was issued to another client")
                    }, "\(audit.entries.map(\.detail))")
            }
        }
    }
}

/// A SCIM Group named as an admin group grants its members the role at sign-in; the change that
/// takes a person out of every admin group ends their admin sign-ins at once (web and
/// roster-client login), and nothing else of theirs.
@Suite(.timeLimit(.minutes(10))) struct ProvisionedRoleTests {
    @Test func leavingTheSCIMAdminGroupEndsAdminSignIns() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            try await SingleSignOnTests.withProvider { issuer, _ in
                let admin = try await harness.connect()
                try await SingleSignOnTests.play("valid", issuer: issuer, now: harness.clock.now())
                try await SingleSignOnTests.setUp(admin, issuer: issuer) { $0.adminGroups = ["oncall-admins"] }
                let (scim, _) = try await ProvisioningTests.token(harness)
                let ada = try await ProvisioningTests.scim(
                    base, scim, "POST", "/Users",
                    #"{"userName": "ada", "name": {"givenName": "Ada", "familyName": "Lovelace"}}"#)
                let adaID = try #require(ada.json["id"] as? String, "\(ada.body)")
                let group = try await ProvisioningTests.scim(
                    base, scim, "POST", "/Groups",
                    #"{"displayName": "oncall-admins", "members": [{"value": "\#(adaID)"}]}"#)
                let groupID = try #require(group.json["id"] as? String, "\(group.body)")

                let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
                func token(_ role: AccessRole, _ label: String) async throws -> String {
                    try await administration.createToken(
                        tenant: "demo", role: role, expiresIn: nil, label: label, employee: adaID
                    ).text
                }
                let webAdmin = try await token(.admin, "web sign-in")
                let loginAdmin = try await token(.admin, "roster-client login")
                let webReader = try await token(.reader, "web sign-in")
                let minted = try await token(.admin, "minted by an admin")
                for text in [webAdmin, loginAdmin, webReader, minted] {
                    #expect(await eventually(60) { (try? await harness.connect(token: text)) != nil })
                }

                let removed = try await ProvisioningTests.scim(
                    base, scim, "PATCH", "/Groups/\(groupID)",
                    #"{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "remove", "path": "members[value eq \"\#(adaID)\"]"}]}"#
                )
                #expect(removed.status == 200, "\(removed.body)")
                #expect(await LoginRefreshTests.refused(harness, webAdmin))
                #expect(await LoginRefreshTests.refused(harness, loginAdmin))
                #expect(!(await LoginRefreshTests.refused(harness, webReader)), "a reader's sign-in stays")
                #expect(!(await LoginRefreshTests.refused(harness, minted)), "a token an admin made stays")
                guard case .audit(let audit) = try await admin.request(.getAudit(.init())) else {
                    throw TestFailure("expected the audit log")
                }
                #expect(
                    audit.entries.filter { $0.detail.contains("SCIM took the person out of the admin groups") }.count
                        == 2, "\(audit.entries.map(\.detail))")
            }
        }
    }
}
