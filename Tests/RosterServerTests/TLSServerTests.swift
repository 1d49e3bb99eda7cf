import Foundation
import RosterClient
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import RosterTLS
import Testing

/// The server's TLS listener against real peers: our client, and Debian's `openssl s_client`.
@Suite(.timeLimit(.minutes(10))) struct TLSServerTests {
    /// Runs `body` with a TLS server that generated its own CA and certificate in its data dir,
    /// and a client TLS context that trusts that CA; the server stops afterwards.
    static func withTLSServer<T>(_ body: (ServerHarness, TLSContext) async throws -> T) async throws -> T {
        try await using(try await ServerHarness.start { $0.tls = .init() }) { harness in
            try await body(harness, try TLSContext.client(.init(trust: .caFile(harness.dataDirectory + "/tls/ca.pem"))))
        }
    }

    static func tlsError(_ attempt: () async throws -> Void) async -> TLSError? {
        do {
            try await attempt()
        } catch RosterClientError.tls(let error) {
            return error
        } catch {
            Issue.record("expected a TLS error, got \(error)")
        }
        return nil
    }

    @Test func generatedCertificateAndKeysAreWrittenPrivately() async throws {
        try await Self.withTLSServer { harness, _ in
            for key in ["ca.key", "server.key"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: harness.dataDirectory + "/tls/" + key)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(key) is readable by its owner only")
            }
            let chain = try Certificate.load(pemFile: harness.dataDirectory + "/tls/server.pem")
            #expect(chain.count == 2)
            #expect(chain[0].matches(name: "localhost") && chain[0].matches(name: "127.0.0.1"))
            #expect(!chain[0].matches(name: "elsewhere.example"))
            let token = try FileManager.default.attributesOfItem(atPath: harness.adminTokenFile)
            #expect((token[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test func theCAIsKeptAcrossRestartsSoPinsStayValid() async throws {
        let directory = TestScratch.directory("roster-ca")
        defer { TestScratch.remove(directory) }
        let before = try await using(try await ServerHarness.start(dataDirectory: directory.path) { $0.tls = .init() })
        { first in
            try Certificate.load(pemFile: first.dataDirectory + "/tls/ca.pem")[0].fingerprint
        }
        try await using(
            try await ServerHarness.start(dataDirectory: directory.path) {
                $0.tls = .init(); $0.tls?.names = ["roster.example"]
            }
        ) { second in
            let chain = try Certificate.load(pemFile: second.dataDirectory + "/tls/server.pem")
            #expect(chain[1].fingerprint == before)
            #expect(
                chain[0].matches(name: "roster.example"), "a new name re-issues the server certificate from the same CA"
            )
        }
    }

    @Test func ourClientQueriesAndSubscribesOverTLS() async throws {
        try await Self.withTLSServer { harness, tls in
            let admin = try await harness.connect(tls: tls)
            _ = try await admin.addEmployee("Ada", "Lovelace")
            let watcher = try await harness.connect(token: "", tls: tls)
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()
            try await admin.admin(.setMotd(.with { $0.motd = "over TLS" }))
            let pushed = try await inbox.next()
            guard case .rosterChanged(let changed) = pushed.message else {
                Issue.record("expected RosterChanged, got \(pushed.message.type)")
                return
            }
            #expect(changed.revision == 2)
            let list = try await watcher.request(.listEmployees(.init())).employeesBody()
            #expect(list.employees.map(\.lastName) == ["Lovelace"])
            await watcher.close()
            await admin.close()
        }
    }

    @Test func opensslClientNegotiatesTLS13AndVerifiesTheServer() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        try await Self.withTLSServer { harness, _ in
            let result = try await OpenSSLTool.run([
                "s_client", "-connect", "127.0.0.1:\(harness.port)", "-CAfile", harness.dataDirectory + "/tls/ca.pem",
                "-verify_hostname", "localhost", "-verify_return_error", "-brief",
            ])
            #expect(result.output.contains("Protocol version: TLSv1.3"), "\(result.output)")
            #expect(result.output.contains("Verification: OK"))
        }
    }

    @Test(arguments: ["-tls1", "-tls1_1"])
    func tlsBelow12IsRefused(version: String) async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        try await Self.withTLSServer { harness, tls in
            // SECLEVEL=0 lets the client offer the old version at all; the server must still refuse.
            let result = try await OpenSSLTool.run([
                "s_client", "-connect", "127.0.0.1:\(harness.port)", version, "-cipher", "DEFAULT@SECLEVEL=0", "-brief",
            ])
            #expect(result.status != 0)
            #expect(result.output.contains("alert protocol version"), "\(result.output)")
            // The server goes on serving everyone else.
            let healthy = try await harness.connect(token: "", tls: tls)
            #expect(healthy.welcome.tenant.id == "demo")
            await healthy.close()
        }
    }

    @Test func plaintextToATLSPortGetsAClearError() async throws {
        try await Self.withTLSServer { harness, _ in
            do {
                _ = try await harness.connect(token: "")
                Issue.record("a plaintext Hello was accepted on a TLS port")
            } catch RosterClientError.server(let error) {
                #expect(error.code == .tlsRequired)
                #expect(error.message.contains("requires TLS"))
            }
        }
    }

    @Test func tlsToAPlaintextPortIsReportedAsNotTLS() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let tls = try TLSContext.client(.init(trust: .caFile(try TestPKI().caFile)))
            let error = await Self.tlsError { _ = try await harness.connect(token: "", tls: tls) }
            guard case .notTLS = error else {
                Issue.record("expected notTLS, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func wrongHostnameUnknownCAAndExpiredCertificatesAreRefused() async throws {
        let pki = try TestPKI()
        let trusting = try TLSContext.client(.init(trust: .caFile(pki.caFile)))

        /// What our client, trusting the test CA, reports for a server with this certificate.
        func refusal(serving leaf: (chain: String, key: String)) async throws -> TLSError? {
            let server = try await ServerHarness.start {
                $0.tls = .init()
                $0.tls?.certificateChainFile = leaf.chain
                $0.tls?.privateKeyFile = leaf.key
            }
            return try await using(server) { server in
                await Self.tlsError { _ = try await server.connect(token: "", tls: trusting) }
            }
        }

        // A certificate for another name.
        let elsewhere = try pki.leaf("elsewhere", names: ["elsewhere.example"])
        let mismatch = try await refusal(serving: (elsewhere.chain, elsewhere.key))
        guard case .certificateRejected(let mismatchCode, _) = mismatch else {
            Issue.record("expected certificateRejected, got \(String(describing: mismatch))")
            return
        }
        #expect(mismatchCode == 64)  // X509_V_ERR_IP_ADDRESS_MISMATCH: we connect to 127.0.0.1

        // An expired certificate.
        let old = try pki.leaf(
            "expired", notBefore: Date(timeIntervalSinceNow: -2 * 86_400), notAfter: Date(timeIntervalSinceNow: -86_400)
        )
        let stale = try await refusal(serving: (old.chain, old.key))
        guard case .certificateRejected(let code, let reason) = stale else {
            Issue.record("expected certificateRejected, got \(String(describing: stale))")
            return
        }
        #expect(code == 10 && reason.contains("expired"))  // X509_V_ERR_CERT_HAS_EXPIRED

        // A CA we do not trust (the server's own generated one).
        try await Self.withTLSServer { generated, _ in
            let unknown = await Self.tlsError { _ = try await generated.connect(token: "", tls: trusting) }
            guard case .certificateRejected = unknown else {
                Issue.record("expected certificateRejected, got \(String(describing: unknown))")
                return
            }
        }
    }

    @Test func clientCertificatesWhenTheServerRequiresThem() async throws {
        let pki = try TestPKI()
        let clientCertificate = try pki.leaf("client", names: ["reader-1"], usage: .client)
        try await using(
            try await ServerHarness.start { configuration in
                configuration.tls = .init()
                configuration.tls?.certificateChainFile = pki.serverChainFile
                configuration.tls?.privateKeyFile = pki.serverKeyFile
                configuration.tls?.clientCAFile = pki.caFile
            }
        ) { harness in
            var withCertificate = TLSClientConfiguration(trust: .caFile(pki.caFile))
            withCertificate.certificateChainFile = clientCertificate.chain
            withCertificate.privateKeyFile = clientCertificate.key
            let accepted = try await harness.connect(token: "", tls: try TLSContext.client(withCertificate))
            #expect(accepted.welcome.tenant.id == "demo")
            await accepted.close()

            let without = try TLSContext.client(.init(trust: .caFile(pki.caFile)))
            await #expect(throws: RosterClientError.self) { _ = try await harness.connect(token: "", tls: without) }
        }
    }
}
