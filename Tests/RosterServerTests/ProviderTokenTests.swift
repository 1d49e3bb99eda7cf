import Foundation
import RosterDomain
import RosterProtocol
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
                var setting = Roster_V1_SingleSignOnSetting.with {
                    $0.issuer = issuer
                    $0.clientID = "roster"
                    $0.clientSecret = SingleSignOnTests.secret
                }
                try await SingleSignOnTests.play("valid", issuer: issuer, now: harness.clock.now())
                _ = try await SingleSignOnTests.identityAdmin(admin, .with { $0.setSingleSignOn = setting })

                // Not allowed: refused without asking the provider.
                #expect(try await Self.users(base, "good-1") == 401)
                #expect(try await Self.introspections(issuer) == 0)

                setting.scimProviderTokens = true
                let kept = try await SingleSignOnTests.identityAdmin(admin, .with { $0.setSingleSignOn = setting })
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
