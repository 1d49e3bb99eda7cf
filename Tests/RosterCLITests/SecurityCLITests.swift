import Foundation
import RosterClient
import RosterTestSupport
import RosterTLS
import Testing

/// TLS, pinning and tokens as a user meets them: the real roster-server and roster-client binaries.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SecurityCLITests {
    static func withTLSServer<T>(_ body: (ServerProcess) async throws -> T) async throws -> T {
        try await withServerProcess(arguments: ["--tls"], body)
    }

    static func authority(of server: ServerProcess) throws -> Certificate {
        try Certificate.load(pemFile: server.dataDirectory + "/tls/ca.pem")[0]
    }

    @Test func trustThenReadAndAdministerOverTLS() async throws {
        try await Self.withTLSServer { server in
            let cli = CLI(port: server.port)
            let fingerprint = try Self.authority(of: server).fingerprint

            let plaintext = try await cli.run(["now"])
            #expect(plaintext.status == 10)
            #expect(plaintext.stderr.contains("requires TLS"), "\(plaintext.stderr)")

            let wrong = try await cli.run(["trust", cli.server, "--fingerprint", "SHA256:00:11"])
            #expect(wrong.status == 10)
            #expect(wrong.stderr.contains("does not match"))

            let trusted = try await cli.run(["trust", cli.server, "--fingerprint", fingerprint])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stdout.contains(fingerprint))
            let knownHosts = try String(
                contentsOf: cli.home.appendingPathComponent("config/roster/known_hosts"), encoding: .utf8)
            #expect(knownHosts.hasPrefix("\(cli.server) \(fingerprint) "))

            let anonymous = try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])
            #expect(anonymous.status == 7, "admin needs a token, loopback included")
            let added = try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace",
                "--token-file", server.dataDirectory + "/admin.token",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let employees = try await cli.run(["employees", "--json"])
            #expect(employees.status == 0)
            #expect(employees.stdout.contains("Lovelace"))
        }
    }

    @Test func aChangedCertificateAuthorityIsRefusedWithAWarning() async throws {
        try await Self.withTLSServer { first in
            try await Self.withTLSServer { second in
                let cli = CLI(port: second.port)
                // The pin for the second server's address names the first server's CA, as if the
                // server's certificates had been replaced since `trust`.
                let knownHosts = KnownHosts(file: cli.home.appendingPathComponent("config/roster/known_hosts"))
                try knownHosts.pin(try Self.authority(of: first), for: cli.server, replace: false)

                let refused = try await cli.run(["now"])
                #expect(refused.status == 10)
                #expect(refused.stderr.contains("CHANGED"), "\(refused.stderr)")
                #expect(refused.stderr.contains(try Self.authority(of: first).fingerprint))
                #expect(refused.stderr.contains(try Self.authority(of: second).fingerprint))
                #expect(
                    refused.stderr.contains("roster-client trust \(cli.server) --replace"),
                    "the warning names the real HOST:PORT")

                let noSilentReplace = try await cli.run(["trust", cli.server, "--yes"])
                #expect(noSilentReplace.status == 10)
                #expect(noSilentReplace.stderr.contains("--replace"))
                let replaced = try await cli.run(["trust", cli.server, "--yes", "--replace"])
                #expect(replaced.status == 0)
                #expect(try await cli.run(["now"]).status == 0)
            }
        }
    }

    @Test func tokensAreCreatedListedAndRevoked() async throws {
        try await withServerProcess { server in
            let directory = server.dataDirectory
            let cli = CLI(port: server.port)

            let created = try await cli.server([
                "token", "create", "--tenant", "demo", "--role", "reader", "--expires", "30d",
                "--data-dir", directory,
            ])
            #expect(created.status == 0, "\(created.stderr)")
            let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let id = try #require(AccessTokenText.id(of: token))

            let listed = try await cli.server(["token", "list", "--data-dir", directory])
            let line = listed.stdout.split(separator: "\n").first { $0.hasPrefix(id) }
            #expect(line?.contains("reader") == true && line?.contains("active") == true, "\(listed.stdout)")
            #expect(!listed.stdout.contains(token), "list never shows a secret")

            // The running server accepts a new token within its refresh interval (1 s).
            #expect(await eventually(10) { (try? await cli.run(["now", "--token", token]).status) == 0 })
            let denied = try await cli.run(["admin", "motd", "set", "hi", "--token", token])
            #expect(denied.status == 7, "a reader cannot change the plan")
            #expect(
                denied.stderr.contains("this connection has a reader token (\(id))"),
                "names the token given: \(denied.stderr)")

            #expect(try await cli.server(["token", "revoke", id, "--data-dir", directory]).status == 0)
            // The running server notices within its refresh interval.
            #expect(await eventually(10) { (try? await cli.run(["employees", "--token", token]).status) == 7 })

            let wrongTenant = try await cli.run(["now", "--tenant", "nosuch"])
            #expect(wrongTenant.status == 7)
            #expect(
                wrongTenant.stderr.contains(
                    "Authentication failed for tenant \"nosuch\" without a token: the tenant is unknown"),
                "\(wrongTenant.stderr)")
            #expect(!wrongTenant.stderr.contains("(authentication failed)"), "no echo of the code")
            let badLifetime = try await cli.server([
                "token", "create", "--tenant", "demo", "--role", "reader", "--expires", "90",
                "--data-dir", directory,
            ])
            #expect(
                badLifetime.status == 64 && badLifetime.stderr.contains("a number and a unit"),
                "a bare 90 is refused, not 90 seconds: \(badLifetime.stderr)")
            let unknownTenant = try await cli.server([
                "token", "create", "--tenant", "nosuch", "--role", "reader", "--data-dir", directory,
            ])
            #expect(unknownTenant.status != 0 && unknownTenant.stderr.contains("no tenant \"nosuch\""))
            let badRole = try await cli.server([
                "token", "create", "--tenant", "demo", "--role", "boss", "--data-dir", directory,
            ])
            #expect(badRole.status == 64)
            let badExpiry = try await cli.server([
                "token", "create", "--tenant", "demo", "--role", "reader", "--expires", "soon",
                "--data-dir", directory,
            ])
            #expect(badExpiry.status == 64)
        }
    }
}

/// The id part of `rst_<id>_<secret>`.
enum AccessTokenText {
    static func id(of token: String) -> String? {
        let parts = token.split(separator: "_")
        return parts.count == 3 && parts[0] == "rst" ? String(parts[1]) : nil
    }
}
