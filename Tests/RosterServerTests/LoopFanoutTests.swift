import NIOCore
import NIOEmbedded
import RosterDomain
import RosterProtocol
@testable import RosterServer
@testable import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// The fan-out against a recording sink, without a connection: which subscriptions a push is
/// handed to, how often a sink is flushed, and that a subscription's bookkeeping moves only
/// for frames that went out.
@Suite(.timeLimit(.minutes(10))) struct LoopFanoutTests {
    /// A sink that records what it is handed and answers as told.
    final class RecordingSink: PushSink {
        let eventLoop: any EventLoop
        var answer: (UInt64) -> PushOutcome
        private(set) var handed: [(subscription: UInt64, kind: ConnectionStateMachine.PushKind)] = []
        private(set) var flushes = 0

        init(loop: any EventLoop, answer: @escaping (UInt64) -> PushOutcome) {
            eventLoop = loop
            self.answer = answer
        }

        func push(
            _ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, subscription id: UInt64,
            at instant: PushInstant,
            heldKey: String
        ) -> PushOutcome {
            handed.append((id, kind))
            return answer(id)
        }

        func flushPushes() { flushes += 1 }
    }

    static func tenant(on loop: EmbeddedEventLoop) -> TenantRuntime {
        let people = [
            Employee(id: "e1", firstName: "Ada", lastName: "Lovelace"),
            Employee(id: "e2", firstName: "Alan", lastName: "Turing"),
        ]
        let state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: people, shifts: [])
        return TenantRuntime(
            stored: StoredTenant(state: state, epoch: 1, revision: 1, history: []), clock: ManualClock(now: t0),
            historyLimit: 10, loops: [loop])
    }

    static func subscribe(
        _ tenant: TenantRuntime, id: UInt64, sink: RecordingSink, topics: Set<Roster_V1_Topic> = [.roster]
    ) throws
        -> Subscription
    {
        try tenant.subscribe(
            id: id, topics: topics, filter: .init(), connection: sink, sinceRevision: nil, epoch: nil,
            schedules: [], allSchedules: true
        ).subscription
    }

    static func push(revision: UInt64, on tenant: TenantRuntime) -> RosterPush {
        let state = tenant.view.state
        return RosterPush(
            entry: HistoryEntry(revision: revision, committedAt: t0, changes: [.motdSet("revision \(revision)")]),
            epoch: 1, previous: state, current: state, sharedFrame: ByteBuffer(string: "frame"))
    }

    @Test func aPushReachesEachSubscriptionOnceAndEachSinkIsFlushedOnce() throws {
        let loop = EmbeddedEventLoop()
        let tenant = Self.tenant(on: loop)
        // One connection with two subscriptions (written, flushed once by the fan-out), one with one (flushed by itself).
        var pending = false
        let shared = RecordingSink(loop: loop) { _ in
            defer { pending = true }
            return pending ? .written : .writtenFlushLater
        }
        let single = RecordingSink(loop: loop) { _ in .sent }
        _ = try Self.subscribe(tenant, id: 1, sink: shared)
        _ = try Self.subscribe(tenant, id: 2, sink: shared)
        _ = try Self.subscribe(tenant, id: 1, sink: single)
        let fanout = tenant.fanout(on: loop)
        #expect(fanout.count == 3)

        fanout.deliver(Self.push(revision: 2, on: tenant))
        #expect(shared.handed.map(\.subscription).sorted() == [1, 2])
        #expect(shared.flushes == 1, "one flush per connection per fan-out")
        #expect(single.handed.map(\.subscription) == [1])
        #expect(single.flushes == 0, "a frame that was sent needs no flush from the fan-out")

        // The same revision again (a replay racing the live push) is handed to nobody.
        fanout.deliver(Self.push(revision: 2, on: tenant))
        #expect(shared.handed.count == 2 && single.handed.count == 1)
        #expect(shared.flushes == 1)
    }

    @Test func onlyAFrameThatWentOutCountsAsSent() throws {
        let loop = EmbeddedEventLoop()
        let tenant = Self.tenant(on: loop)
        let held = RecordingSink(loop: loop) { _ in .notSent }
        let open = RecordingSink(loop: loop) { _ in .sent }
        let heldSubscription = try Self.subscribe(tenant, id: 1, sink: held)
        let openSubscription = try Self.subscribe(tenant, id: 1, sink: open)
        let heldSince = heldSubscription.lastSentAt, openSince = openSubscription.lastSentAt

        tenant.fanout(on: loop).deliver(Self.push(revision: 2, on: tenant))
        #expect(held.handed.count == 1 && open.handed.count == 1)
        #expect(heldSubscription.lastSentAt == heldSince, "nothing went out: its idle time keeps running")
        #expect(openSubscription.lastSentAt > openSince)
        #expect(held.flushes == 0)
    }

    @Test func aSubscriptionGetsOnlyItsTopicsAndLeavesOnRemoval() throws {
        let loop = EmbeddedEventLoop()
        let tenant = Self.tenant(on: loop)
        let sink = RecordingSink(loop: loop) { _ in .sent }
        let roster = try Self.subscribe(tenant, id: 1, sink: sink, topics: [.roster])
        _ = try Self.subscribe(tenant, id: 2, sink: sink, topics: [.onDuty])
        let fanout = tenant.fanout(on: loop)

        fanout.deliver(Self.push(revision: 2, on: tenant))
        #expect(sink.handed.map(\.subscription) == [1], "the on-duty subscription is not handed roster changes")

        fanout.remove(roster)
        #expect(fanout.count == 1)
        fanout.deliver(Self.push(revision: 3, on: tenant))
        #expect(sink.handed.count == 1, "a removed subscription is handed nothing")
    }
}
