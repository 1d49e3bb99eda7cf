import Foundation
import RosterClient
import RosterTestSupport
import RosterTLS
import Testing

/// The cache belongs to the tenant the server authenticated, not to a flag.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CacheTenantCLITests {
    @Test func eachTokenIsAnsweredFromItsOwnTenantsCache() async throws {
        try await withServerProcess { server in
            let directory = server.dataDirectory
            let admin = CLI(port: server.port, token: server.adminToken)
            #expect(
                try await admin.server(["tenant", "create", "acme", "--name", "Acme", "--data-dir", directory]).status
                    == 0)
            let acmeAdmin = try await admin.server([
                "token", "create", "--tenant", "acme", "--role", "admin", "--data-dir", directory,
            ])
            let demoReader = try await admin.server([
                "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", directory,
            ])
            let acmeToken = acmeAdmin.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let demoToken = demoReader.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try await admin.run(["admin", "employee", "add", "--first", "Dora", "--last", "Demo"])
            #expect(
                await eventually(10) {
                    (try? await admin.run([
                        "admin", "employee", "add", "--first", "Alice", "--last", "Acme", "--token", acmeToken,
                    ]).status) == 0
                })

            // One CLI home, one cache directory, two tokens: each fills its own tenant's cache.
            let cli = CLI(port: server.port)
            #expect(try await cli.run(["employees", "--token", acmeToken]).stdout.contains("Acme"))
            #expect(try await cli.run(["employees", "--token", demoToken]).stdout.contains("Demo"))
            await server.terminate()  // from here on, answers come from the cache
            let gone = try RefusingPort(holding: server.port)  // refused, not taken by another test
            defer { withExtendedLifetime(gone) {} }
            let offlineDemo = try await cli.run(["employees", "--token", demoToken, "--json"])
            let offlineAcme = try await cli.run(["employees", "--token", acmeToken, "--tenant", "demo", "--json"])
            #expect(offlineDemo.status == 3 && offlineAcme.status == 3, "answered from the cache")
            #expect(
                offlineDemo.stdout.contains("Dora") && !offlineDemo.stdout.contains("Alice"), "\(offlineDemo.stdout)")
            #expect(
                offlineAcme.stdout.contains("Alice") && !offlineAcme.stdout.contains("Dora"),
                "--tenant does not choose the cache: the token's tenant does (\(offlineAcme.stdout))")
        }
    }
}
