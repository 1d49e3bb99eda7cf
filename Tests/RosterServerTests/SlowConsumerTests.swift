import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// A subscriber that stops reading gets the documented treatment and delays nobody else.
@Suite(.timeLimit(.minutes(10))) struct SlowConsumerTests {
    /// An import of `count` people with long biographies: one large RosterChanged event.
    /// About 150 KB of events per batch, from 15 people with 9.8 KB biographies each: few people,
    /// so that each import stays cheap as the directory grows (150 people a batch made the 30
    /// batches take minutes on a loaded machine).
    func bigImport(_ batch: Int, count: Int = 15) -> RosterMessage {
        let biography = String(repeating: "A long biography that makes every event large. ", count: 200)
        var csv = "first_name,last_name,biography\n"
        for index in 0..<count { csv += "Batch\(batch),Person\(index),\(biography)\n" }
        return .importData(
            .with {
                $0.format = .employeesCsv; $0.data = Data(csv.utf8)
            })
    }

    func subscribeRaw(_ socket: RawSocket, topics: [Roster_V1_Topic]) async -> UInt64? {
        socket.send(validHello)
        guard await socket.readFrame()?.type == .welcome else { return nil }
        socket.send(.subscribe(.with { $0.topics = topics }), requestID: 2)
        var id: UInt64?
        while let frame = await socket.readFrame() {
            if case .subscribed(let subscribed) = frame { id = subscribed.subscriptionID }
            if case .synced = frame { return id }
        }
        return nil
    }

    @Test func aConsumerThatNeverReadsIsDisconnectedAtTheWriteDeadlineAndDelaysNobody() async throws {
        try await using(
            try await ServerHarness.start {
                $0.limits.outboundHighWaterMark = 16 * 1024
                $0.limits.outboundLowWaterMark = 4 * 1024
                $0.limits.writeDeadline = .milliseconds(300)
            }
        ) { harness in
            let slow = try RawSocket(port: harness.port, receiveBufferBytes: 4096)
            #expect(await subscribeRaw(slow, topics: [.roster, .onDuty]) != nil)

            let healthy = try await harness.connect()
            let inbox = Inbox(healthy)
            healthy.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()

            let admin = try await harness.connect()
            for batch in 1...30 { try await admin.admin(bigImport(batch)) }
            var revisions: [UInt64] = []
            while revisions.count < 30 {
                // 30 events of ~150 KB decoded by a debug build on two busy cores: what is asserted
                // is their order, not how fast they come (roster-bench measures that).
                guard case .rosterChanged(let changed) = try await inbox.next(timeout: .seconds(60)).message else {
                    continue
                }
                revisions.append(changed.revision)
            }
            #expect(revisions == Array(1...30), "the healthy subscriber got every revision, in order")

            // ~30 × 150 KB went to a socket that reads nothing: it is cut off after the deadline.
            let (_, closed) = await slow.readFrames(quiet: 5)
            #expect(closed)
            await admin.close()
            await healthy.close()
        }
    }

    @Test func aStalledConsumerCostsTheServerNoMoreThanItsOutboundCap() async throws {
        let highWaterMark = 64 * 1024
        try await using(
            try await ServerHarness.start {
                $0.limits.outboundHighWaterMark = highWaterMark
                $0.limits.outboundLowWaterMark = 16 * 1024
                $0.limits.writeDeadline = .seconds(60)  // stays connected through the test
                $0.limits.pingInterval = .seconds(3_600)  // a socket that reads nothing answers no ping either
            }
        ) { harness in
            let stalled = try RawSocket(port: harness.port, receiveBufferBytes: 4096)
            #expect(await subscribeRaw(stalled, topics: [.roster, .onDuty]) != nil)
            let admin = try await harness.connect()
            var largestFrame = 0
            for batch in 1...30 {
                let message = bigImport(batch)
                largestFrame = max(largestFrame, message.frame(requestID: 1).encoded().readableBytes)
                try await admin.admin(message)
            }
            // About 4.5 MB of events went to a socket that reads nothing: the server queued at most
            // its cap plus the one frame that crossed it, and dropped the rest (a resync is owed).
            let queued = await harness.server.queuedOutboundBytes()
            let worst = try #require(queued.max())
            #expect(worst <= highWaterMark + 2 * largestFrame, "queued \(worst) bytes for the stalled consumer")
            #expect(worst > 0, "the stalled consumer does have bytes queued")
            await admin.close()
        }
    }

    @Test func aConsumerThatDrainsLateGetsTheLatestOnDutyStateAndAResyncForItsRoster() async throws {
        try await using(
            try await ServerHarness.start(now: t0) {
                $0.limits.outboundHighWaterMark = 16 * 1024
                $0.limits.outboundLowWaterMark = 4 * 1024
                $0.limits.writeDeadline = .seconds(60)
                // The consumer reads nothing for a while, so it answers no ping: on a loaded machine
                // this test can outlast the liveness limit (1.5 ping intervals), which is not what it tests.
                $0.limits.pingInterval = .seconds(3_600)
            }
        ) { harness in
            let admin = try await harness.connect()
            let people = [try await admin.addEmployee("A", "One"), try await admin.addEmployee("B", "Two")]
            // A and B take turns, then C: the last state differs from every earlier one, so the
            // server sees it change whether it looks once at the end or also in between (under
            // load its timer can fire between the advances below, and B at 1 and B again at 5
            // would be no change at all).
            let last = try await admin.addEmployee("C", "Three")
            for slot in 0..<6 {
                try await admin.addShift(
                    slot == 5 ? last : people[slot % 2], t0 + Int64(slot) * minute, t0 + Int64(slot + 1) * minute)
            }
            let slow = try RawSocket(port: harness.port, receiveBufferBytes: 4096)
            let subscriptionID = try #require(await subscribeRaw(slow, topics: [.roster, .onDuty]))

            for batch in 1...30 { try await admin.admin(bigImport(batch)) }
            try await admin.barrier()
            // Five transitions while the subscriber's buffer is full: only the last may be sent.
            for slot in 1...5 { harness.clock.advance(to: t0 + Int64(slot) * minute) }
            try await admin.barrier()

            let (frames, closed) = await slow.readFrames(quiet: 2)
            #expect(!closed)
            let onDuty = frames.compactMap { frame -> Roster_V1_OnDutyChanged? in
                if case .onDutyChanged(let event) = frame, event.cause == .boundary { return event }
                return nil
            }
            #expect(onDuty.count == 1, "coalesced into the latest state")
            #expect(onDuty.last?.atMs == t0 + 5 * minute)
            let resync = frames.compactMap { frame -> Roster_V1_Error? in
                if case .error(let error) = frame, error.code == .resyncRequired { return error }
                return nil
            }
            #expect(
                resync.map(\.subscriptionID) == [subscriptionID],
                "the roster stream ends with RESYNC_REQUIRED, never silently")
            let lastRevision =
                frames.compactMap { frame -> UInt64? in
                    if case .rosterChanged(let changed) = frame { return changed.revision }
                    return nil
                }.max() ?? 0
            #expect(lastRevision < 37, "some revisions were not sent")

            // Resuming from what it has replays exactly the rest.
            slow.send(
                .subscribe(
                    .with {
                        $0.topics = [.roster]; $0.sinceRevision = lastRevision; $0.epoch = admin.welcome.epoch
                    }),
                requestID: 3)
            let (resumed, _) = await slow.readFrames(quiet: 2)
            let replayed = resumed.compactMap { frame -> UInt64? in
                if case .rosterChanged(let changed) = frame { return changed.revision }
                return nil
            }
            #expect(replayed == Array((lastRevision + 1)...39))  // 3 people, 6 shifts, 30 imports
            await admin.close()
        }
    }
}
