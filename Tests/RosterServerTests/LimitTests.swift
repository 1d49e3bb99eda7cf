import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct LimitTests {
    @Test func connectionLimit() async throws {
        try await using(try await ServerHarness.start { $0.limits.maxConnections = 2 }) { harness in
            let one = try await harness.connect()
            let two = try await harness.connect()
            let three = try RawSocket(port: harness.port)
            let (frames, closed) = await three.readUntilClosed()
            #expect(frames.map(\.errorCode) == [.resourceExhausted] && closed)
            await one.close()
            await two.close()
        }
    }

    @Test func subscriptionLimit() async throws {
        try await using(try await ServerHarness.start { $0.limits.maxSubscriptionsPerConnection = 1 }) { harness in
            let client = try await harness.connect()
            let inbox = Inbox(client)
            client.subscribe(.with { $0.topics = [.onDuty] })
            _ = try await inbox.untilSynced()
            client.subscribe(.with { $0.topics = [.roster] })
            #expect(try await inbox.next().message.errorCode == .resourceExhausted)
            try await client.barrier()  // the connection stays open
            await client.close()
        }
    }

    @Test func inFlightLimit() async throws {
        let directory = TestScratch.directory("roster-test").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let gate = GatedStore(try await SQLiteRosterStore.open(path: directory + "/roster.sqlite"))
        try await using(
            try await ServerHarness.start(dataDirectory: directory, store: gate) {
                $0.limits.maxInFlightRequests = 1
            }
        ) { harness in
            let client = try await harness.connect()
            gate.hold()
            async let first = client.admin(.setMotd(.with { $0.motd = "one" }))
            // The first is in flight once its commit waits at the gate.
            #expect(await eventually(120) { gate.held == 1 })
            do {
                try await client.admin(.setMotd(.with { $0.motd = "two" }))
                Issue.record("expected RESOURCE_EXHAUSTED")
            } catch let error as RosterClientError {
                #expect(error.code == .resourceExhausted)
            }
            gate.release()
            #expect(try await first.revision == 1)
            await client.close()
        }
    }
}

/// The real SQLite store, with commits that can be held back to make a request stay in flight.
/// A held commit waits on a continuation, never on a lock: no thread is blocked.
final class GatedStore: ForwardingStore, Sendable {
    let inner: SQLiteRosterStore
    private let gate = NIOLockedValueBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((true, []))

    init(_ store: SQLiteRosterStore) { inner = store }

    func hold() { gate.withLockedValue { $0.open = false } }
    /// How many commits wait at the gate now.
    var held: Int { gate.withLockedValue { $0.waiting.count } }
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

    func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
        outbox: OutboxWrite, duty: DutyRecordWrite, provisioning: ProvisioningWrite
    ) async throws {
        await passGate()
        try await inner.commit(
            tenantID: tenantID, entry: entry, historyLimit: historyLimit, audit: audit, outbox: outbox, duty: duty,
            provisioning: provisioning)
    }
}
