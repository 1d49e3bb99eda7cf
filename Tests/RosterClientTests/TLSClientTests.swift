import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import RosterTLS
import Testing

/// RosterClient over TLS: follows, resumes across a restart, and refuses a server it cannot verify.
@Suite(.timeLimit(.minutes(10))) struct TLSClientTests {
    @Test func followsAndResumesAcrossARestartOverTLS() async throws {
        let directory = temporaryDirectory().path
        try await using(
            ServerSlot(try await ServerHarness.startOnStablePort(dataDirectory: directory) { $0.tls = .init() })
        ) { servers in
            var harness = servers.harness
            let port = harness.port
            let caFile = directory + "/tls/ca.pem"
            let tls = try TLSContext.client(.init(trust: .caFile(caFile)))
            var admin = try await harness.connect(tls: tls)
            _ = try await admin.addEmployee("Ada", "Lovelace")

            var configuration = fastReconnect(port, cache: temporaryDirectory())
            configuration.tls = TLSClientConfiguration(trust: .caFile(caFile))
            configuration.token = harness.adminToken
            try await using(RosterClient(configuration: configuration)) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)
                let start = try #require(await client.roster?.revision)
                try await admin.admin(.setMotd(.with { $0.motd = "before restart" }))
                try await reader.until {
                    if case .rosterChanged(let revision, _) = $0 { return revision == start + 1 } else { return false }
                }

                await admin.close()
                harness = try await servers.restart {
                    try await ServerHarness.start(dataDirectory: directory, port: port) { $0.tls = .init() }
                }
                admin = try await harness.connect(tls: tls)
                try await admin.admin(.setMotd(.with { $0.motd = "after restart" }))
                try await reader.until {
                    if case .rosterChanged(let revision, _) = $0 { return revision == start + 2 } else { return false }
                }
                #expect(
                    await client.appliedRevisions == [start + 1, start + 2],
                    "resumed over TLS: nothing missed, nothing twice")
                #expect(await client.roster?.state.tenant.motd == "after restart")
                await admin.close()
            }
        }
    }

    @Test func aServerThatCannotBeVerifiedIsRefusedForGood() async throws {
        try await using(try await ServerHarness.start { $0.tls = .init() }) { harness in
            var configuration = fastReconnect(harness.port, cache: nil)
            configuration.tls = TLSClientConfiguration(trust: .caFile(try TestPKI().caFile))
            try await using(RosterClient(configuration: configuration)) { client in
                let reader = UpdateReader(client)
                await client.start()
                let updates = try await reader.until { if case .refused = $0 { return true } else { return false } }
                guard case .refused(let error) = updates.last, case .tls(.certificateRejected) = error else {
                    Issue.record("expected a refusal for the certificate, got \(String(describing: updates.last))")
                    return
                }
                #expect(await client.state == .offline, "no retry loop against a server that cannot be verified")
            }
        }
    }
}
