import Foundation
import GRDB
import NIOCore
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
@testable import RosterServer
@testable import RosterNotifications
@testable import RosterHTTP
@testable import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import RosterTLS
import Testing

/// The medium and low findings of issue #30, each as the thing that must hold now: webhooks
/// cannot reach the server's own network, secrets and tokens are kept as they should be, and
/// answers and files stay within their bounds.
@Suite(.timeLimit(.minutes(10))) struct SecurityFindingsTests {
    static func address(_ text: String) -> [UInt8] { IPRange.bytes(of: text)! }

    @Test func webhooksReachPublicAddressesOnlyUnlessAllowed() {
        let policy = WebhookAddressPolicy()
        for inside in [
            "169.254.169.254", "10.1.2.3", "172.16.0.1", "192.168.1.1", "127.0.0.1", "0.0.0.0", "100.64.0.1",
            "::1", "::", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe",
            "2002:a9fe:a9fe::1", "224.0.0.1",
        ] {
            #expect(policy.refusal(of: Self.address(inside)) != nil, "\(inside) is reachable")
        }
        for outside in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            #expect(policy.refusal(of: Self.address(outside)) == nil, "\(outside) is refused")
        }
        // Loopback in loopback development mode; an operator's range.
        #expect(WebhookAddressPolicy(allowLoopback: true).refusal(of: Self.address("127.0.0.1")) == nil)
        #expect(WebhookAddressPolicy(allowLoopback: true).refusal(of: Self.address("10.0.0.1")) != nil)
        let allowed = WebhookAddressPolicy(allowed: [IPRange("10.1.0.0/16")!])
        #expect(allowed.refusal(of: Self.address("10.1.200.3")) == nil)
        #expect(allowed.refusal(of: Self.address("10.2.0.1")) != nil)
        // One parser for the ranges: exact addresses and prefixes in range only.
        for bad in ["10.0.0.0/33", "10.0.0/8", "::/129", "10.0.0.1/", "localhost", "10.0.0.1/8x", "2130706433"] {
            #expect(IPRange(bad) == nil, "\(bad) parsed")
        }
    }

    @Test func aWebhookURLIsCheckedWhenAddedAndItsNameWhenDelivered() async throws {
        // Literal internal addresses are refused at once; control characters (forged log lines) too.
        #expect(WebhookClient.validate("http://169.254.169.254/latest/meta-data")?.contains("link-local") == true)
        #expect(WebhookClient.validate("http://[::ffff:10.0.0.1]/")?.contains("private") == true)
        #expect(WebhookClient.validate("https://hooks.example/x\r\nforged: line") != nil)
        #expect(WebhookClient.validate("https://hooks.example/ok") == nil)
        // Every spelling of an IPv4 literal is judged as the address it is (169.254.169.254 and 127.0.0.1 here).
        for url in [
            "http://2852039166/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://169.254.43518/",
            "http://0xA9.0xFE.0xA9.0xFE/", "http://169.16689662/",
        ] {
            #expect(WebhookClient.validate(url)?.contains("link-local") == true, "\(url)")
        }
        for url in ["http://127.1/", "http://0x7f000001:8080/", "http://017700000001/"] {
            #expect(WebhookClient.validate(url)?.contains("loopback") == true, "\(url)")
        }
        #expect(
            IPRange.bytes(ofHost: "2852039166") == [169, 254, 169, 254] && IPRange.bytes(ofHost: "hooks.example") == nil
        )
        #expect(
            IPRange.bytes(ofHost: "4294967296") == nil && IPRange.bytes(ofHost: "1.2.3.256") == nil,
            "out of range is no address")
        // A password in a URL is never shown.
        #expect(WebhookClient.redacted("https://user:hunter2@hooks.example/x") == "https://***@hooks.example/x")
        // A name (or a decimal form) that resolves to loopback is refused when the server is not
        // in loopback mode, at delivery, before anything is sent.
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            let port = try #require(URL(string: receiver.url)?.port)
            let client = WebhookClient(
                group: MultiThreadedEventLoopGroup.singleton,
                tls: WebhookClient.LazyTLS(TLSClientConfiguration()), addresses: WebhookAddressPolicy())
            for url in ["http://localhost:\(port)/hook", "http://2130706433:\(port)/hook"] {
                do {
                    _ = try await client.post(url: url, headers: [], body: Data("{}".utf8), timeout: .seconds(5))
                    Issue.record("\(url) was delivered")
                } catch {
                    #expect("\(error)".contains("loopback"), "\(url): \(error)")
                }
            }
            #expect(receiver.requests.isEmpty, "nothing reached the receiver")
        }
    }

    @Test func webhookSecretsAreSealedInTheStoreAndStillSign() async throws {
        // Sealing: what is stored opens with the key, not with another, and old plaintext passes.
        let sealer = SecretSealer(key: Crypto.randomBytes(32))
        let sealed = sealer.seal("whsec_abc")
        #expect(sealed.hasPrefix(SecretSealer.prefix) && !sealed.contains("whsec_abc"))
        #expect(sealer.open(sealed) == "whsec_abc")
        #expect(SecretSealer(key: Crypto.randomBytes(32)).open(sealed) == nil)
        #expect(sealer.open("whsec_legacy") == "whsec_legacy")
        // A server keeps only the sealed form, and its key file is private.
        try await withServer { harness in
            let admin = try await harness.connect()
            let answer = try await WebhookTests.notificationAdmin(
                admin,
                .with {
                    $0.addWebhook = .with {
                        $0.url = "http://user:pw@127.0.0.1:9/hook"; $0.events = ["shifts.changed"]
                    }
                })
            #expect(answer.webhooks.first?.url == "http://***@127.0.0.1:9/hook")
            await admin.close()
            let database = try harness.openStoreFile()
            let stored = try await database.read { try String.fetchAll($0, sql: "SELECT secret FROM webhook") }
            try database.close()
            #expect(
                stored.count == 1
                    && stored.allSatisfy { $0.hasPrefix(SecretSealer.prefix) && !$0.contains(answer.secret) })
            let mode =
                try FileManager.default.attributesOfItem(atPath: harness.dataDirectory + "/secrets.key")[
                    .posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func calendarTokensExpireStopWithTheirMinterAndAreCapped() async throws {
        try await withServer(configure: { $0.httpListen = HostPort(host: "127.0.0.1", port: 0) }) { harness in
            let admin = try await harness.connect()
            let created = try await admin.request(
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.name = "Primary"; $0.zone = "UTC"
                        }
                    }))
            _ = created
            let token = try await StoreAdministrationFixture.readerToken(harness)
            let reader = try await harness.connect(token: token.text)
            guard
                case .calendar(let first) = try await reader.request(
                    .getCalendar(
                        .with {
                            $0.schedule = "Primary"; $0.createToken = true
                        }))
            else { throw TestFailure("expected a calendar") }
            let http = try #require(harness.server.httpPort)
            let feed = "http://127.0.0.1:\(http)/v1/calendar/\(first.token).ics"
            #expect(try await HTTPGet.request(feed).status == 200)
            // It lasts a year and names its minter.
            let minted = try #require(try await harness.storedTokens().first { first.token.contains($0.id) })
            #expect(minted.mintedBy == token.id)
            #expect(minted.expiresAt == harness.clock.now() + CalendarLinkRules.lifetime.milliseconds)
            // A label that would drive a terminal is refused.
            do {
                _ = try await reader.request(
                    .getCalendar(
                        .with {
                            $0.schedule = "Primary"; $0.createToken = true; $0.label = "\u{1B}[2J"
                        }))
                Issue.record("a label with an escape sequence was accepted")
            } catch let error as RosterClientError { #expect(error.code == .invalidArgument) }
            // One minter may hold so many that work; past it, RESOURCE_EXHAUSTED.
            for _ in 1..<CalendarLinkRules.perMinter {
                _ = try await reader.request(
                    .getCalendar(
                        .with {
                            $0.schedule = "Primary"; $0.createToken = true
                        }))
            }
            do {
                _ = try await reader.request(
                    .getCalendar(
                        .with {
                            $0.schedule = "Primary"; $0.createToken = true
                        }))
                Issue.record("minted past the cap")
            } catch let error as RosterClientError { #expect(error.code == .resourceExhausted) }
            // Revoking the minting token stops its feeds.
            try await harness.revoke(tokenID: token.id)
            #expect(await eventually(10) { (try? await HTTPGet.request(feed).status) == 404 })
            await reader.close()
            await admin.close()
        }
    }

    @Test func auditAnswersFitOneFrame() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            // 400 changes with a motd of 4,000 characters: about 3 MB of audit entries.
            for index in 0..<400 {
                _ = try await admin.admin(
                    .setMotd(.with { $0.motd = String(repeating: "m", count: 3_990) + "\(index)" }))
            }
            guard case .audit(let audit) = try await admin.request(.getAudit(.with { $0.limit = 1_000 })) else {
                throw TestFailure("expected an audit answer")
            }
            #expect(audit.truncated && !audit.entries.isEmpty)
            #expect((try audit.serializedBytes() as [UInt8]).count <= WireProtocol.defaultMaxFrameLength - 6)
            // The newest are the ones kept.
            #expect(audit.entries.last?.revision == 400)
            await admin.close()
        }
    }

    @Test func aBackupIsPrivateFromItsFirstByteAndNeverFollowsALink() async throws {
        try await withServer { harness in
            let scratch = TestScratch.directory("backup")
            defer { TestScratch.remove(scratch) }
            // A dangling link where the backup should go: refused, and nothing made at its target.
            let target = scratch.appendingPathComponent("elsewhere.sqlite").path
            let link = scratch.appendingPathComponent("link.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            await #expect(throws: StoreBackup.Failure.destinationExists(link)) {
                try await StoreBackup.backup(databasePath: harness.dataDirectory + "/roster.sqlite", to: link)
            }
            #expect(!FileManager.default.fileExists(atPath: target))
            let path = scratch.appendingPathComponent("ok.sqlite").path
            try await StoreBackup.backup(databasePath: harness.dataDirectory + "/roster.sqlite", to: path)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test func metricsOffLoopbackNameNoTenantWithoutAnAdminToken() async throws {
        try await withServer(configure: { $0.httpListen = HostPort(host: "127.0.0.1", port: 0) }) { harness in
            let side = try #require(harness.server.httpSideForTests)
            #expect(side.readings(.all).contains { $0.labels.contains { $0.0 == "tenant" } })
            #expect(side.readings(.serverOnly).isEmpty)
            #expect(side.readings(.tenant("demo")).allSatisfy { $0.labels.contains { $0 == ("tenant", "demo") } })
        }
    }

    @Test func settingsOutOfRangeAreRefusedByTheLibrary() async throws {
        var configuration = ServerConfiguration(dataDirectory: "/nonexistent")
        configuration.limits.maxConnections = 0
        configuration.limits.httpHeaderTimeout = .seconds(100_000)
        #expect(configuration.problems.count == 2)
        let server = RosterServer(configuration: configuration)
        await #expect(throws: ServerStartError.self) { try await server.run() }
        // Caps that the open-file limit cannot hold are lowered, and the note says so.
        let fitted = try #require(ServerConfiguration.Limits().fitted(toOpenFiles: 1_024))
        #expect(
            fitted.limits.maxConnections + fitted.limits.httpMaxConnections <= 1_024
                - ServerConfiguration.Limits.reservedDescriptors)
        #expect(fitted.note.contains("ulimit"))
    }
}

/// Reader tokens and their store for the calendar test.
enum StoreAdministrationFixture {
    static func readerToken(_ harness: ServerHarness) async throws -> (text: String, id: String) {
        let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
        let created = try await administration.createToken(
            tenant: "demo", role: .reader, expiresIn: nil, label: "reader")
        await administration.close()
        // The running server re-reads tokens every second.
        _ = await eventually(10) { (try? await harness.connect(token: created.text)) != nil }
        return (created.text, created.token.id)
    }
}

extension ServerHarness {
    func storedTokens() async throws -> [StoredToken] {
        let administration = try await StoreAdministration.open(dataDirectory: dataDirectory)
        defer { Task { await administration.close() } }
        return try await administration.tokens()
    }

    func revoke(tokenID: String) async throws {
        let administration = try await StoreAdministration.open(dataDirectory: dataDirectory)
        try await administration.revokeToken(tokenID)
        await administration.close()
    }
}
