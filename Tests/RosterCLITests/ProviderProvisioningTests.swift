import Foundation
import RosterTestSupport
import Testing

/// An identity provider's own SCIM client provisioning Roster: Canaille (canaille/scim/client.py,
/// unchanged) pushes people and groups to the roster-server binary's /scim/v2 with an access
/// token Canaille mints for the client `roster`, which Roster checks at Canaille's introspection
/// endpoint once `admin sso set --scim-provider-tokens` allows it (docs/SSO.md).
@Suite(.timeLimit(.minutes(10))) struct ProviderProvisioningTests {
    /// The directory entry with this e-mail address, as `employees --json` lists it.
    static func person(_ email: String, cli: CLI) async throws -> [String: Any]? {
        let listed = try await cli.run(["employees", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let people = try #require(document?["employees"] as? [[String: Any]], "\(listed.stderr)")
        return people.first { $0["email"] as? String == email }
    }

    @Test(.enabled(if: IdentityProviderProcess.shouldRun, "Canaille is not installed"))
    func canaillesSCIMClientProvisionsPeopleAndGroups() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let base = "http://127.0.0.1:\(try #require(server.httpPort))"
            let scratch = TestScratch.directory("roster-scim-client")
            defer { TestScratch.remove(scratch) }
            let secretFile = scratch.appendingPathComponent("client-secret").path
            try "roster-client-secret\n".write(toFile: secretFile, atomically: false, encoding: .utf8)
            let provider = try await IdentityProviderProcess.start(
                redirectURI: base + "/sign-in/sso/callback", secretFile: secretFile, scratch: scratch,
                scimClientURI: base + "/scim/v2")
            try await withCleanup(provider, cleanUp: { await $0.stop() }) { provider in
                let cli = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(cli.home) }
                let set = [
                    "admin", "sso", "set", "--issuer", provider.issuer, "--client-id", "roster",
                    "--client-secret-file", secretFile,
                ]

                // Sign-in set up, but not the provider's tokens at /scim/v2: its pushes are refused.
                let plain = try await cli.run(set)
                #expect(plain.status == 0, "\(plain.stderr)")
                #expect(await provider.provision("provision"))
                #expect(try await Self.person("grace@example.test", cli: cli) == nil)
                let refused = try await cli.run(["admin", "audit", "--limit", "50"])
                #expect(
                    refused.stdout.contains(
                        "a provider's token refused: the tenant does not take its provider's tokens at /scim/v2"),
                    "\(refused.stdout)")

                // Allowed: the same token (Canaille keeps it for an hour) now opens /scim/v2.
                let allowed = try await cli.run(set + ["--scim-provider-tokens"])
                #expect(allowed.status == 0, "\(allowed.stderr)")
                let shown = try await cli.run(["admin", "sso", "show"])
                #expect(shown.stdout.contains("SCIM takes the provider's tokens: yes"), "\(shown.stdout)")
                #expect(await provider.provision("provision"))
                let grace = try #require(
                    try await Self.person("grace@example.test", cli: cli), "Canaille's push did not arrive")
                // The demo has its own Grace Hopper: the provisioned one gets her userName after.
                #expect(grace["name"] as? String == "Grace Hopper (grace)")
                #expect(grace["lastName"] as? String == "Hopper (grace)")
                #expect(grace["position"] as? String == "Rear admiral")
                #expect(grace["phone"] as? String == "+1 555 0100")
                #expect(grace["team"] as? String == "platform-sre")
                #expect(grace["deactivated"] as? Bool != true)
                let jean = try #require(try await Self.person("jean@example.test", cli: cli))
                #expect(jean["team"] as? String == "platform-sre")

                // A change is sent whole (PUT), the name no longer taken; a person who leaves is
                // deactivated, not removed.
                #expect(await provider.provision("rename"))
                #expect(try await Self.person("grace@example.test", cli: cli)?["lastName"] as? String == "Murray")
                #expect(await provider.provision("leave"))
                let left = try #require(try await Self.person("grace@example.test", cli: cli))
                #expect(left["deactivated"] as? Bool == true)

                // A token the provider did not issue is asked about, refused, and audited.
                let made = try await HTTPGet.request(base + "/scim/v2/Users", token: "not-a-token-canaille-issued")
                #expect(made.status == 401, "\(made.body)")
                let audit = try await cli.run(["admin", "audit", "--limit", "50"])
                #expect(
                    audit.stdout.contains("a provider's token refused: the provider says the token is not active"),
                    "\(audit.stdout)")
                #expect(audit.stdout.contains("SCIM"), "\(audit.stdout)")
            }
        }
    }
}
