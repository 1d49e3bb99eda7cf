import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import RosterTLS
import Testing

/// Tokens, roles and tenants (PROTOCOL.md section 13): who may read, subscribe and change what.
@Suite(.timeLimit(.minutes(10))) struct AuthorizationTests {
    /// A server with tenants "demo" (the default) and "beta", each with one employee, and tokens.
    struct TwoTenants: StoppableTestResource {
        let harness: ServerHarness
        let administration: StoreAdministration
        let readerA: String
        let readerB: String
        let adminB: String

        static func start(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TwoTenants {
            let harness = try await ServerHarness.start { configuration in
                configuration.limits.tokenRefresh = .milliseconds(50)
                configuration.limits.authFailureDelay = .milliseconds(200)
                configure(&configuration)
            }
            return try await harness.stoppingOnError { harness in
                let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
                try await administration.createTenant(id: "beta", name: "Beta Corp")
                let readerA = try await administration.createToken(
                    tenant: "demo", role: .reader, expiresIn: nil, now: t0
                ).text
                let readerB = try await administration.createToken(
                    tenant: "beta", role: .reader, expiresIn: nil, now: t0
                ).text
                let adminB = try await administration.createToken(tenant: "beta", role: .admin, expiresIn: nil, now: t0)
                    .text
                // The running server picks up the new tenant and tokens from the store.
                let ready = await eventually(10) { (try? await harness.connect(token: adminB)) != nil }
                try #require(ready, "the server did not pick up tenant beta")
                let adminA = try await harness.connect()
                _ = try await adminA.addEmployee("Alice", "Alpha")
                await adminA.close()
                let beta = try await harness.connect(token: adminB)
                _ = try await beta.addEmployee("Bob", "Beta")
                await beta.close()
                return TwoTenants(
                    harness: harness, administration: administration, readerA: readerA, readerB: readerB, adminB: adminB
                )
            }
        }

        func stop() async {
            await administration.close()
            await harness.stop()
        }
    }

    static func lastNames(_ connection: RosterConnection) async throws -> [String] {
        guard case .employees(let list) = try await connection.request(.listEmployees(.init())) else { return [] }
        return list.employees.map(\.lastName)
    }

    static func refusal(_ attempt: () async throws -> Void) async -> Roster_V1_Error? {
        do {
            try await attempt()
            return nil
        } catch let error as RosterClientError {
            if case .server(let body) = error { return body }
            return nil
        } catch {
            return nil
        }
    }

    @Test func aTokenSeesOnlyItsOwnTenant() async throws {
        try await using(try await TwoTenants.start()) { servers in
            let a = try await servers.harness.connect(token: servers.readerA)
            let b = try await servers.harness.connect(token: servers.readerB)
            #expect(a.welcome.tenant.id == "demo" && b.welcome.tenant.id == "beta")
            #expect(try await Self.lastNames(a) == ["Alpha"])
            #expect(try await Self.lastNames(b) == ["Beta"])

            // Naming the other tenant in Hello does not open it: the same generic refusal as a bad token.
            let crossed = await Self.refusal {
                _ = try await servers.harness.connect(tenant: "beta", token: servers.readerA)
            }
            #expect(crossed?.code == .unauthenticated)
            #expect(crossed?.message == "authentication failed")

            // Subscribing gives only the token's tenant.
            let inbox = Inbox(b)
            b.subscribe(.with { $0.topics = [.roster] })
            let frames = try await inbox.untilSynced()
            let snapshot = frames.compactMap { if case .snapshot(let s) = $0 { return s } else { return nil } }.first
            #expect(snapshot?.employees.map(\.lastName) == ["Beta"])
            await a.close()
            await b.close()
        }
    }

    @Test func readersMayNotChangeThePlanAndAdminsOnlyTheirOwn() async throws {
        try await using(try await TwoTenants.start()) { servers in
            let reader = try await servers.harness.connect(token: servers.readerA)
            #expect(reader.welcome.role == .reader)
            let denied = await Self.refusal { try await reader.admin(.setMotd(.with { $0.motd = "no" })) }
            #expect(denied?.code == .permissionDenied)
            #expect(reader.isActive, "a denied request leaves the connection open")

            // Anonymous on a loopback listener: a reader, never an admin.
            let anonymous = try await servers.harness.connect(token: "")
            #expect(anonymous.welcome.role == .reader)
            #expect(
                await Self.refusal { try await anonymous.admin(.setMotd(.with { $0.motd = "no" })) }?.code
                    == .permissionDenied)

            // Beta's admin changes beta only.
            let adminB = try await servers.harness.connect(token: servers.adminB)
            try await adminB.admin(.setMotd(.with { $0.motd = "beta news" }))
            #expect(adminB.welcome.role == .admin)
            let demo = try await reader.request(.getSnapshot(.init())).snapshotBody()
            #expect(demo.tenant.motd.isEmpty)
            for connection in [reader, anonymous, adminB] { await connection.close() }
        }
    }

    @Test func badTokensGetOneGenericAnswerAfterADelay() async throws {
        try await using(try await TwoTenants.start()) { servers in
            let valid = try #require(AccessToken.parse(servers.readerA))
            let attempts = [
                "rst_\(valid.id)_\(String(repeating: "0", count: 64))",  // right id, wrong secret
                "rst_000000000000_\(valid.secret)",  // unknown id
                "not-a-token",
            ]
            for token in attempts {
                let started = ContinuousClock.now
                let refusal = await Self.refusal { _ = try await servers.harness.connect(token: token) }
                #expect(refusal?.code == .unauthenticated)
                #expect(refusal?.message == "authentication failed", "the answer does not say which part was wrong")
                #expect(ContinuousClock.now - started >= .milliseconds(200), "refusals wait authFailureDelay")
            }
        }
    }

    @Test func anExpiredTokenIsRefusedAndItsLiveSubscriptionClosed() async throws {
        try await using(try await TwoTenants.start()) { servers in
            let expiring = try await servers.administration.createToken(
                tenant: "demo", role: .reader, expiresIn: .seconds(60),
                now: t0
            ).text
            #expect(await eventually(10) { (try? await servers.harness.connect(token: expiring)) != nil })
            let watcher = try await servers.harness.connect(token: expiring)
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()

            servers.harness.clock.advance(to: t0 + 61_000)
            // The next event is not delivered: the connection is closed instead.
            let admin = try await servers.harness.connect()
            try await admin.admin(.setMotd(.with { $0.motd = "after expiry" }))
            let next = try await inbox.next()
            let error = try #require(next.message.errorBody, "expected an Error, got \(next.message.type)")
            #expect(error.code == .unauthenticated && error.message.contains("expired"))
            await watcher.closed()
            #expect(!watcher.isActive)
            #expect(
                await Self.refusal { _ = try await servers.harness.connect(token: expiring) }?.code == .unauthenticated)

            // A connection made before expiry may not subscribe after it.
            let later = try await servers.administration.createToken(
                tenant: "demo", role: .reader, expiresIn: .seconds(60),
                now: t0 + 61_000
            ).text
            #expect(await eventually(10) { (try? await servers.harness.connect(token: later)) != nil })
            let early = try await servers.harness.connect(token: later)
            servers.harness.clock.advance(to: t0 + 122_000)
            let earlyInbox = Inbox(early)
            early.subscribe(.with { $0.topics = [.onDuty] })
            let refused = try #require(
                try await earlyInbox.next().message.errorBody, "a subscription was accepted on an expired token")
            #expect(refused.code == .unauthenticated)
            await early.closed()
            await admin.close()
        }
    }

    @Test func revokingATokenClosesItsLiveSubscriptions() async throws {
        try await using(try await TwoTenants.start()) { servers in
            let watcher = try await servers.harness.connect(token: servers.readerB)
            let other = try await servers.harness.connect(token: servers.readerA)
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty, .roster] })
            _ = try await inbox.untilSynced()

            try await servers.administration.revokeToken(servers.readerB)
            let next = try await inbox.next()
            let error = try #require(next.message.errorBody, "expected an Error, got \(next.message.type)")
            #expect(error.code == .unauthenticated && error.message.contains("revoked"))
            await watcher.closed()
            #expect(other.isActive, "other tokens' connections stay")
            #expect(try await Self.lastNames(other) == ["Alpha"])
            #expect(
                await Self.refusal { _ = try await servers.harness.connect(token: servers.readerB) }?.code
                    == .unauthenticated)
            await other.close()
        }
    }

    @Test func aNonLoopbackListenerRefusesToStartWithoutTLS() async throws {
        var configuration = ServerConfiguration(dataDirectory: TestScratch.directory("roster-insecure").path)
        configuration.listen.host = "0.0.0.0"
        configuration.listen.port = 0
        let server = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
        await #expect(throws: ServerStartError.self) { try await server.run() }
    }

    @Test func aNonLoopbackListenerAdmitsNoAnonymousReaders() async throws {
        try await using(
            try await ServerHarness.start { configuration in
                configuration.listen.host = "0.0.0.0"
                configuration.tls = .init()
                configuration.limits.authFailureDelay = .milliseconds(10)
            }
        ) { harness in
            let tls = try TLSContext.client(.init(trust: .caFile(harness.dataDirectory + "/tls/ca.pem")))
            let anonymous = await Self.refusal { _ = try await harness.connect(token: "", tls: tls) }
            #expect(anonymous?.code == .unauthenticated)
            let admin = try await harness.connect(tls: tls)
            #expect(admin.welcome.role == .admin)
            await admin.close()
        }
    }
}
