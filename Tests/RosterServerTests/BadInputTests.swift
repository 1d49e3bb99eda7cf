import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterTestSupport
import Testing

/// Each bad input gets its documented error and a close, and the server keeps serving others.
@Suite(.timeLimit(.minutes(2))) struct BadInputTests {
    func expectClosedWith(_ code: Roster_V1_ErrorCode, _ socket: RawSocket, sourceLocation: SourceLocation = #_sourceLocation) async {
        let (frames, closed) = await socket.readUntilClosed()
        #expect(frames.last?.errorCode == code, "frames: \(frames.map(\.type))", sourceLocation: sourceLocation)
        #expect(closed, sourceLocation: sourceLocation)
    }

    func expectHealthy(_ harness: ServerHarness) async throws {
        let client = try await harness.connect()
        guard case .onDuty = try await client.request(.getOnDuty(.init())) else {
            Issue.record("the server stopped answering")
            return
        }
        await client.close()
    }

    @Test func garbageBytes() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        await expectClosedWith(.frameTooLarge, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func lengthShorterThanAHeader() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send([0, 0, 0, 2, 1, 0])
        await expectClosedWith(.malformedFrame, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func oversizeFrameBeforeAndAfterTheHandshake() async throws {
        let harness = try await ServerHarness.start { $0.limits.maxFrameBytes = 64 * 1024 }
        let early = try RawSocket(port: harness.port)
        early.send([0, 0, 0x13, 0x88])  // 5,000 bytes declared before Hello: over the 4 KiB limit
        await expectClosedWith(.frameTooLarge, early)

        let late = try RawSocket(port: harness.port)
        late.send(validHello)
        #expect(await late.readFrame()?.type == .welcome)
        late.send([0, 0x01, 0x86, 0xA0, 0x12, 0])  // 100,000 bytes declared: over 64 KiB
        await expectClosedWith(.frameTooLarge, late)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func noHelloBeforeTheDeadline() async throws {
        let harness = try await ServerHarness.start { $0.limits.helloTimeoutMillis = 200 }
        let socket = try RawSocket(port: harness.port)
        await expectClosedWith(.deadlineExceeded, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func unsupportedVersion() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send(.hello(.with { $0.minVersion = 2; $0.maxVersion = 3 }))
        await expectClosedWith(.unsupportedVersion, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func unknownTypeIsRefusedUnlessIgnorable() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send(validHello)
        #expect(await socket.readFrame()?.type == .welcome)
        // IGNORABLE: dropped, and the connection goes on.
        socket.send(Array(Frame(rawType: 0x7E, flags: .ignorable, requestID: 2, body: .init()).encoded().readableBytesView))
        socket.send(.ping(.with { $0.nonce = 3 }), requestID: 3)
        #expect(await socket.readFrame()?.type == .pong)
        socket.send(Array(Frame(rawType: 0x7F, requestID: 4, body: .init()).encoded().readableBytesView))
        await expectClosedWith(.unknownMessageType, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func requestBeforeHello() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send(.getOnDuty(.init()))
        await expectClosedWith(.protocolViolation, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func bodyThatDoesNotDecode() async throws {
        let harness = try await ServerHarness.start()
        let socket = try RawSocket(port: harness.port)
        socket.send(validHello)
        #expect(await socket.readFrame()?.type == .welcome)
        socket.send(Array(Frame(type: .search, requestID: 5, body: .init(bytes: [0x0A, 0xFF])).encoded().readableBytesView))
        await expectClosedWith(.malformedFrame, socket)
        try await expectHealthy(harness)
        await harness.stop()
    }

    @Test func silentPeerIsPingedThenClosed() async throws {
        let harness = try await ServerHarness.start { $0.limits.pingIntervalMillis = 200 }
        let socket = try RawSocket(port: harness.port)
        socket.send(validHello)
        #expect(await socket.readFrame()?.type == .welcome)
        let (frames, closed) = await socket.readUntilClosed()
        #expect(frames.first?.type == .ping)
        #expect(frames.last?.errorCode == .deadlineExceeded)
        #expect(closed)
        try await expectHealthy(harness)
        await harness.stop()
    }
}

@Suite(.timeLimit(.minutes(2))) struct LimitTests {
    @Test func connectionLimit() async throws {
        let harness = try await ServerHarness.start { $0.limits.maxConnections = 2 }
        let one = try await harness.connect()
        let two = try await harness.connect()
        let three = try RawSocket(port: harness.port)
        let (frames, closed) = await three.readUntilClosed()
        #expect(frames.map(\.errorCode) == [.resourceExhausted] && closed)
        await one.close()
        await two.close()
        await harness.stop()
    }

    @Test func subscriptionLimit() async throws {
        let harness = try await ServerHarness.start { $0.limits.maxSubscriptionsPerConnection = 1 }
        let client = try await harness.connect()
        let inbox = Inbox(client)
        client.subscribe(.with { $0.topics = [.onDuty] })
        _ = try await inbox.untilSynced()
        client.subscribe(.with { $0.topics = [.roster] })
        #expect(try await inbox.next().message.errorCode == .resourceExhausted)
        try await client.barrier()  // the connection stays open
        await client.close()
        await harness.stop()
    }

    @Test func inFlightLimit() async throws {
        let directory = TestScratch.directory("roster-test").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let gate = GatedStore(try await SQLiteRosterStore.open(path: directory + "/roster.sqlite"))
        let harness = try await ServerHarness.start(dataDirectory: directory, store: gate) {
            $0.limits.maxInFlightRequests = 1
        }
        let client = try await harness.connect()
        gate.hold()
        async let first = client.admin(.setMotd(.with { $0.motd = "one" }))
        try await Task.sleep(for: .milliseconds(100))  // let the first reach the server and block on the gate
        do {
            try await client.admin(.setMotd(.with { $0.motd = "two" }))
            Issue.record("expected RESOURCE_EXHAUSTED")
        } catch let error as RosterClientError {
            #expect(error.code == .resourceExhausted)
        }
        gate.release()
        #expect(try await first.revision == 1)
        await client.close()
        await harness.stop()
    }
}

/// The real SQLite store, with commits that can be held back to make a request stay in flight.
/// A held commit waits on a continuation, never on a lock: no thread is blocked.
final class GatedStore: RosterStore, Sendable {
    private let store: SQLiteRosterStore
    private let gate = NIOLockedValueBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((true, []))

    init(_ store: SQLiteRosterStore) { self.store = store }

    func hold() { gate.withLockedValue { $0.open = false } }
    func release() {
        let waiting = gate.withLockedValue { gate in
            gate.open = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    private func passGate() async {
        await withCheckedContinuation { continuation in
            let open = gate.withLockedValue { gate in
                if !gate.open { gate.waiting.append(continuation) }
                return gate.open
            }
            if open { continuation.resume() }
        }
    }

    func loadTenants() async throws -> [StoredTenant] { try await store.loadTenants() }
    func createTenant(_ tenant: Tenant, epoch: UInt64) async throws { try await store.createTenant(tenant, epoch: epoch) }
    func commit(tenantID: String, entry: HistoryEntry, historyLimit: Int) async throws {
        await passGate()
        try await store.commit(tenantID: tenantID, entry: entry, historyLimit: historyLimit)
    }
    func loadTokens() async throws -> [StoredToken] { try await store.loadTokens() }
    func insertToken(_ token: StoredToken) async throws { try await store.insertToken(token) }
    func revokeToken(id: String, at: UnixMillis) async throws -> Bool { try await store.revokeToken(id: id, at: at) }
    func tenantIDs() async throws -> [String] { try await store.tenantIDs() }
    func close() async throws { try await store.close() }
}
