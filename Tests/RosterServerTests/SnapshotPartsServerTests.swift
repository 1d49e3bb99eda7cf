import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// A snapshot larger than the frame limit reaches a client that understands parts in frames
/// within the limit, and the client library gives the whole of it (GetSnapshot and a roster
/// subscription alike); a client that does not list the feature gets the single frame it always got.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SnapshotPartsServerTests {
    static let limit = 8 * 1024

    /// A server on a store that holds 240 people and 480 shifts in one revision (about 20 KB of
    /// snapshot, over two frame limits), written before it starts.
    static func withBigSnapshotServer(_ body: (ServerHarness) async throws -> Void) async throws {
        let directory = TestScratch.directory("roster-parts")
        let store = try await DataDirectory(directory.path).openStore()
        try await store.createTenant(Tenant(id: "demo", name: "Demo"), epoch: 5)
        var changes: [RosterChange] = (0..<240).map {
            .employeeUpserted(Employee(id: "e\($0)", firstName: "Person\($0)", lastName: "Surname\($0)"))
        }
        changes += (0..<480).map {
            .shiftAdded(
                Shift(
                    id: "s\($0)", employeeID: "e\($0 % 240)", start: t0 + UnixMillis($0) * minute,
                    end: t0 + UnixMillis($0 + 90) * minute))
        }
        try await store.commit(
            tenantID: "demo", entry: HistoryEntry(revision: 1, committedAt: t0, changes: changes), historyLimit: 100)
        try await store.close()
        let harness = try await ServerHarness.start(
            dataDirectory: directory.path, configure: { $0.limits.maxFrameBytes = Self.limit })
        try await withCleanup(
            harness,
            cleanUp: {
                await $0.stop(); TestScratch.remove(directory)
            }, body)
    }

    @Test func theClientLibraryGetsTheWholeSnapshotThroughParts() async throws {
        try await Self.withBigSnapshotServer { harness in
            let admin = try await harness.connect()
            defer { Task { await admin.close() } }
            let whole = try await admin.request(.getSnapshot(.init())).snapshotBody()
            #expect(whole.employees.count == 240 && whole.shifts.count == 480 && !whole.more)
            #expect(
                RosterMessage.snapshot(whole).frame().encoded().readableBytes > 2 * Self.limit,
                "the test needs several parts")
            #expect(RosterState(whole).employees.count == 240)
            #expect(whole.tenant.id == "demo" && whole.revision == 1)

            // A roster subscription's snapshot, assembled the same way before Synced.
            let subscriber = try await harness.connect(token: harness.adminToken)
            defer { Task { await subscriber.close() } }
            let inbox = AsyncInbox(subscriber.inbound)
            subscriber.subscribe(.with { $0.topics = [.roster] })
            let synced = try await inbox.until { if case .synced = $0.message { true } else { false } }
            let snapshots = synced.compactMap { try? $0.message.snapshotBody() }
            #expect(snapshots.count == 1)
            #expect(snapshots.first.map { Set($0.shifts.map(\.id)) == Set(whole.shifts.map(\.id)) } == true)
            #expect(snapshots.first?.employees.count == 240)
        }
    }

    /// A snapshot's frames up to its last (`more` false), each read with the socket's 10 s wait:
    /// not "until a second of quiet", which beside the whole suite ended before the first part.
    static func snapshot(from socket: RawSocket) async throws -> [Roster_V1_Snapshot] {
        var parts: [Roster_V1_Snapshot] = []
        while parts.count < 100, let frame = await socket.readFrame() {
            let part = try frame.snapshotBody()
            parts.append(part)
            if !part.more { break }
        }
        return parts
    }

    @Test func partsFitTheLimitAndOnlyAClientThatAsksGetsThem() async throws {
        try await Self.withBigSnapshotServer { harness in
            let asking = try RawSocket(port: harness.port)
            asking.send(
                .hello(
                    .with {
                        $0.minVersion = 1; $0.maxVersion = 1;
                        $0.features = ["some-future-thing", SnapshotParts.feature]
                    }))
            guard case .welcome(let welcome) = await asking.readFrame() else { throw TestFailure("no Welcome") }
            #expect(
                welcome.features == [SnapshotParts.feature], "the server names the features of the Hello it supports")
            asking.send(.getSnapshot(.init()), requestID: 5)
            let parts = try await Self.snapshot(from: asking)
            try #require(parts.count >= 3, "\(parts.count) parts")
            #expect(parts.dropLast().allSatisfy(\.more) && parts.last?.more == false)
            for part in parts {
                let length = RosterMessage.snapshot(part).frame().encoded().readableBytes - 4
                #expect(length <= Self.limit, "a part of \(length) bytes")
                #expect(part.epoch == parts[0].epoch && part.revision == 1)
            }
            #expect(parts[0].hasTenant && !parts.dropFirst().contains(where: \.hasTenant))
            #expect(parts.flatMap(\.employees).count == 240 && parts.flatMap(\.shifts).count == 480)

            let legacy = try RawSocket(port: harness.port)
            legacy.send(validHello)
            guard case .welcome(let plain) = await legacy.readFrame() else { throw TestFailure("no Welcome") }
            #expect(plain.features.isEmpty)
            legacy.send(.getSnapshot(.init()), requestID: 5)
            let single = try await Self.snapshot(from: legacy)
            #expect(single.count == 1 && single.first?.employees.count == 240 && single.first?.more == false)
        }
    }
}
