import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// What docs/PROTOCOL.md promises a client written from it alone, checked on the real server.
@Suite(.timeLimit(.minutes(10))) struct SpecAgreementTests {
    /// §7.2, §12: deleting an employee says on the wire every shift it removes, in one revision.
    @Test func anEmployeeDeletionCarriesTheirShiftDeletions() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let first = try await admin.addShift(ada, t0, t0 + 60 * minute)
            let second = try await admin.addShift(ada, t0 + 120 * minute, t0 + 180 * minute)
            let watcher = try await harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()

            let result = try await admin.admin(.deleteEmployee(.with { $0.id = "Ada Lovelace" }))
            #expect(Set(result.ids) == [ada, first, second])
            guard case .rosterChanged(let event) = try await inbox.next().message else {
                throw TestFailure("expected RosterChanged")
            }
            #expect(event.revision == result.revision)
            #expect(event.changes.map(\.shiftDeleted).filter { !$0.isEmpty }.sorted() == [first, second].sorted())
            #expect(event.changes.last?.employeeDeleted == ada, "the shifts go before their employee")
            await watcher.close()
            await admin.close()
        }
    }

    @Test func addShiftWithAnExistingIDIsAlreadyExists() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            try await admin.addShift(ada, t0, t0 + 60 * minute, id: "s-fixed")
            await #expect {
                try await admin.addShift(ada, t0 + 60 * minute, t0 + 120 * minute, id: "s-fixed")
            } throws: { error in
                (error as? RosterClientError)?.code == .alreadyExists
            }
            let snapshot = try await admin.request(.getSnapshot(.init()))
            guard case .snapshot(let state) = snapshot else { throw TestFailure("expected Snapshot") }
            #expect(state.shifts.map(\.endMs) == [t0 + 60 * minute], "the shift was not replaced")
            await admin.close()
        }
    }

    /// §7.2: a filtered copy kept up to date by events equals a fresh filtered snapshot, live
    /// and after a resume, whatever moved in or out of the filter.
    @Test func aFilteredCopyStaysEqualToAFreshFilteredSnapshot() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let core = Roster_V1_SubscriptionFilter.with { $0.team = "Core" }
            let ada = try await admin.addEmployee("Ada", "Lovelace", team: "Core")
            let alan = try await admin.addEmployee("Alan", "Turing", team: "Edge")
            try await admin.addShift(ada, t0, t0 + 60 * minute)
            let alanShift = try await admin.addShift(alan, t0 + 60 * minute, t0 + 120 * minute)

            let watcher = try await harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(
                .with {
                    $0.topics = [.roster]; $0.filter = core
                })
            var copy = FilteredCopy()
            for message in try await inbox.untilSynced() { copy.apply(message) }
            let atResume = copy  // what a client that disconnects now holds

            // Alan joins Core (arrives with his shift), Ada leaves it, a shift moves between them,
            // Grace is added to Edge (never seen), then to Core.
            try await admin.addEmployee("Alan", "Turing", id: alan, team: "Core")
            try await admin.addEmployee("Ada", "Lovelace", id: ada, team: "Edge")
            try await admin.admin(
                .importData(
                    .with {
                        $0.format = .shiftsCsv
                        $0.updateExisting = true
                        $0.data = Data(
                            "id,employee,start,end\n\(alanShift),Ada Lovelace,2026-01-01T01:00:00Z,2026-01-01T02:00:00Z\n"
                                .utf8)
                    }))
            let grace = try await admin.addEmployee("Grace", "Hopper", team: "Edge")
            try await admin.addShift(grace, t0, t0 + 30 * minute)
            try await admin.addEmployee("Grace", "Hopper", id: grace, team: "Core")
            let last = try await admin.admin(.setMotd(.with { $0.motd = "done" })).revision
            while copy.revision < last { copy.apply(try await inbox.next().message) }

            let fresh = try await Self.filteredSnapshot(harness, core)
            #expect(copy.state == fresh.state)
            #expect(Set(copy.state.employees.keys) == [alan, grace])

            // A resume from before all of it replays to the same place.
            let resumed = try await harness.connect()
            let resumedInbox = Inbox(resumed)
            var replayed = atResume
            resumed.subscribe(
                .with {
                    $0.topics = [.roster]; $0.filter = core; $0.sinceRevision = atResume.revision;
                    $0.epoch = atResume.epoch
                })
            for message in try await resumedInbox.untilSynced() { replayed.apply(message) }
            #expect(replayed.state.employees == fresh.state.employees)
            #expect(replayed.state.shifts == fresh.state.shifts)
            await resumed.close()
            await watcher.close()
            await admin.close()
        }
    }

    /// A fresh filtered snapshot, as a new subscriber gets it.
    static func filteredSnapshot(_ harness: ServerHarness, _ filter: Roster_V1_SubscriptionFilter) async throws
        -> (state: RosterState, epoch: UInt64)
    {
        let connection = try await harness.connect()
        let inbox = Inbox(connection)
        connection.subscribe(
            .with {
                $0.topics = [.roster]; $0.filter = filter
            })
        var copy = FilteredCopy()
        for message in try await inbox.untilSynced() { copy.apply(message) }
        await connection.close()
        return (copy.state, copy.epoch)
    }

    /// §5: request id 0 is for pushes and pings only.
    @Test func aRequestWithIDZeroIsAProtocolViolation() async throws {
        try await withServer { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(validHello, requestID: 0)
            #expect(await socket.readFrame()?.type == .welcome, "Hello may use any id")
            socket.send(.ping(.with { $0.nonce = 5 }), requestID: 0)
            #expect(await socket.readFrame()?.type == .pong, "a liveness ping may use 0")
            socket.send(.getSnapshot(.init()), requestID: 0)
            let (frames, closed) = await socket.readUntilClosed()
            #expect(frames.map(\.errorCode) == [.protocolViolation])
            #expect(closed)
        }
    }

    /// §7.5: INITIAL's at_ms is the subscribe instant.
    @Test func initialAtMsIsTheSubscribeInstant() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            try await admin.addShift(ada, t0, t0 + 60 * minute)
            harness.clock.advance(to: t0 + 10 * minute)
            let watcher = try await harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty] })
            let initial = try #require(
                try await inbox.untilSynced().compactMap { message -> Roster_V1_OnDutyChanged? in
                    if case .onDutyChanged(let event) = message { return event }
                    return nil
                }.first)
            #expect(
                initial.cause == .initial && initial.atMs == t0 + 10 * minute && initial.untilMs == t0 + 60 * minute)
            await watcher.close()
            await admin.close()
        }
    }
}

/// A client's filtered copy as docs/PROTOCOL.md §7.2 tells it to keep one.
struct FilteredCopy {
    var state = RosterState(tenant: Tenant(id: "", name: ""))
    var revision: UInt64 = 0
    var epoch: UInt64 = 0

    mutating func apply(_ message: RosterMessage) {
        switch message {
        case .snapshot(let snapshot):
            state = RosterState(snapshot)
            revision = snapshot.revision
            epoch = snapshot.epoch
        case .rosterChanged(let event) where event.revision > revision:
            state.apply(event.changes.compactMap(RosterChange.init))
            revision = event.revision
        default:
            break
        }
    }
}
