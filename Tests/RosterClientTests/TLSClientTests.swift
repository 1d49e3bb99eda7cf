import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterTestSupport
import RosterTLS
import Testing

/// RosterClient over TLS: follows, resumes across a restart, and refuses a server it cannot verify.
@Suite(.timeLimit(.minutes(2))) struct TLSClientTests {
    @Test func followsAndResumesAcrossARestartOverTLS() async throws {
        let directory = temporaryDirectory().path
        var harness = try await ServerHarness.startOnStablePort(dataDirectory: directory) { $0.tls = .init() }
        let port = harness.port
        let caFile = directory + "/tls/ca.pem"
        let tls = try TLSContext.client(.init(trust: .caFile(caFile)))
        var admin = try await harness.connect(tls: tls)
        _ = try await admin.addEmployee("Ada", "Lovelace")

        var configuration = fastReconnect(port, cache: temporaryDirectory())
        configuration.tls = TLSClientConfiguration(trust: .caFile(caFile))
        configuration.token = harness.adminToken
        let client = RosterClient(configuration: configuration)
        let reader = UpdateReader(client)
        await client.start()
        try await reader.until(isSynced)
        let start = try #require(await client.roster?.revision)
        try await admin.admin(.setMotd(.with { $0.motd = "before restart" }))
        try await reader.until { if case .rosterChanged(let revision, _) = $0 { return revision == start + 1 } else { return false } }

        await admin.close()
        await harness.stop()
        harness = try await ServerHarness.start(dataDirectory: directory, port: port) { $0.tls = .init() }
        admin = try await harness.connect(tls: tls)
        try await admin.admin(.setMotd(.with { $0.motd = "after restart" }))
        try await reader.until { if case .rosterChanged(let revision, _) = $0 { return revision == start + 2 } else { return false } }
        #expect(await client.appliedRevisions == [start + 1, start + 2], "resumed over TLS: nothing missed, nothing twice")
        #expect(await client.roster?.state.tenant.motd == "after restart")
        await client.stop()
        await admin.close()
        await harness.stop()
    }

    @Test func aServerThatCannotBeVerifiedIsRefusedForGood() async throws {
        try await using(try await ServerHarness.start { $0.tls = .init() }) { harness in
            var configuration = fastReconnect(harness.port, cache: nil)
            configuration.tls = TLSClientConfiguration(trust: .caFile(try TestPKI().caFile))
            let client = RosterClient(configuration: configuration)
            let reader = UpdateReader(client)
            await client.start()
            let updates = try await reader.until { if case .refused = $0 { return true } else { return false } }
            guard case .refused(let error) = updates.last, case .tls(.certificateRejected) = error else {
                Issue.record("expected a refusal for the certificate, got \(String(describing: updates.last))")
                return
            }
            #expect(await client.state == .offline, "no retry loop against a server that cannot be verified")
            await client.stop()
        }
    }
}
