import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

func onDutyEvent(_ message: InboundMessage) -> Roster_V1_OnDutyChanged? {
    if case .onDutyChanged(let event) = message.message { return event }
    return nil
}

@Suite(.timeLimit(.minutes(10))) struct PushTests {
    @Test func subscribeGivesSubscribedInitialStateThenSynced() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            let requestID = watcher.subscribe(.with { $0.topics = [.onDuty, .roster] })
            let frames = try await inbox.untilSynced()
            #expect(frames.map(\.type) == [.subscribed, .snapshot, .onDutyChanged, .synced])
            if case .onDutyChanged(let initial) = frames[2] {
                #expect(initial.cause == .initial)
                #expect(names(initial.current) == ["Ada"])
                #expect(initial.untilMs == t0 + 30 * minute)
            }
            if case .synced(let synced) = frames[3] { #expect(synced.revision == 6) }
            _ = requestID
            await watcher.close()
        }
    }

    @Test func pushAtTheBoundaryAndNeverBefore() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty] })
            _ = try await inbox.untilSynced()
            #expect(
                roster.harness.clock.armedInstants.contains(t0 + 30 * minute), "an alarm is armed at the next boundary")

            roster.harness.clock.advance(to: t0 + 30 * minute - 1)
            try await watcher.barrier()
            roster.harness.clock.advance(to: t0 + 30 * minute)
            let event = try #require(onDutyEvent(try await inbox.next()))
            #expect(event.cause == .boundary)
            #expect(
                event.atMs == t0 + 30 * minute, "the first push after the barrier is the boundary's, not an early one")
            #expect(names(event.previous) == ["Ada"])
            #expect(names(event.current) == ["Ada", "Grace"])
            #expect(event.untilMs == t0 + 60 * minute)
            #expect(names(event.next) == ["Grace"])

            roster.harness.clock.advance(to: t0 + 60 * minute)
            let second = try #require(onDutyEvent(try await inbox.next()))
            #expect(names(second.current) == ["Grace"] && second.sequence == event.sequence + 1)
            await watcher.close()
        }
    }

    /// A timer wakes late (tens of ms on a busy host; longer after a suspension): the push still
    /// states the set at the handoff itself, and after several missed handoffs the last one.
    @Test func aLateAlarmStatesTheBoundaryNotTheInstantItWoke() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty] })
            _ = try await inbox.untilSynced()

            roster.harness.clock.advanceLate(to: t0 + 30 * minute + 32)
            let late = try #require(onDutyEvent(try await inbox.next()))
            #expect(late.cause == .boundary)
            #expect(late.atMs == t0 + 30 * minute, "at_ms is the handoff, not the instant the alarm woke")
            #expect(names(late.current) == ["Ada", "Grace"])

            // Past two handoffs at once (Grace alone from 60 min, René from 90 min): one push,
            // stated at the later handoff.
            roster.harness.clock.advanceLate(to: t0 + 95 * minute)
            let skipped = try #require(onDutyEvent(try await inbox.next()))
            #expect(skipped.atMs == t0 + 90 * minute)
            #expect(names(skipped.previous) == ["Ada", "Grace"])
            #expect(names(skipped.current) == ["René"])
            await watcher.close()
        }
    }

    @Test func pushWhenAnAdminChangeAltersTheCurrentSetOnly() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty] })
            _ = try await inbox.untilSynced()

            // A future shift does not change who is on duty now: no push for it.
            try await roster.admin.addShift(roster.rene, t0 + 200 * minute, t0 + 210 * minute)
            try await roster.admin.admin(.deleteShift(.with { $0.id = roster.adaShift }))
            let event = try #require(onDutyEvent(try await inbox.next()))
            #expect(event.cause == .planChanged)
            #expect(names(event.previous) == ["Ada"] && event.current.isEmpty)
            #expect(event.revision == 8)
            #expect(event.untilMs == t0 + 30 * minute && names(event.next) == ["Grace"])
            await watcher.close()
        }
    }

    /// The admin is answered as soon as the change is durable, before its fan-out: on the
    /// admin's own connection the MutationResult comes before the push of its revision.
    @Test func theAdminsAnswerComesBeforeThePushOfItsRevision() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let inbox = Inbox(admin)
            admin.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()
            for round in 1...3 {
                let requestID = admin.post(.setMotd(.with { $0.motd = "answer first \(round)" }))
                let answer = try await inbox.next()
                #expect(answer.requestID == requestID, "round \(round): \(answer.message.type)")
                let result = try #require(
                    { if case .mutationResult(let result) = answer.message { result } else { nil } }())
                let push = try await inbox.next()
                guard case .rosterChanged(let changed) = push.message else {
                    throw TestFailure("expected RosterChanged, got \(push.message.type)")
                }
                #expect(push.requestID == 0 && changed.revision == result.revision)
            }
            await admin.close()
        }
    }

    @Test func clockJumpRecomputes() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.onDuty] })
            _ = try await inbox.untilSynced()
            roster.harness.clock.jump(to: t0 + 100 * minute)
            let event = try #require(onDutyEvent(try await inbox.next()))
            #expect(event.cause == .clockJump)
            #expect(names(event.current) == ["René"])
            await watcher.close()
        }
    }

    @Test func filteredSubscriberHearsOnlyItsTeam() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(
                .with {
                    $0.topics = [.onDuty]; $0.filter.team = "edge"
                })
            let initial = try await inbox.untilSynced()
            if case .onDutyChanged(let state) = initial[1] { #expect(state.current.isEmpty, "Ada is in Core") }

            roster.harness.clock.advance(to: t0 + 30 * minute)
            let joined = try #require(onDutyEvent(try await inbox.next()))
            #expect(names(joined.current) == ["Grace"] && joined.filter.team == "edge")

            // Ada (Core) leaving at 60m changes nothing for Edge; the next push is at 90m.
            roster.harness.clock.advance(to: t0 + 90 * minute)
            let handover = try #require(onDutyEvent(try await inbox.next()))
            #expect(handover.atMs == t0 + 90 * minute)
            #expect(names(handover.previous) == ["Grace"] && names(handover.current) == ["René"])
            await watcher.close()
        }
    }

    @Test func rosterChangesArePushedWithTheirRevision() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let watcher = try await roster.harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()
            try await roster.admin.admin(.setMotd(.with { $0.motd = "Hello" }))
            let message = try await inbox.next()
            guard case .rosterChanged(let changed) = message.message else {
                Issue.record("\(message.message.type)"); return
            }
            #expect(message.requestID == 0)
            #expect(changed.revision == 7)
            #expect(changed.changes.map(\.motdSet) == ["Hello"])
            await watcher.close()
        }
    }

    @Test func idleSubscribersGetProgressBookmarks() async throws {
        try await using(try await ServerHarness.start { $0.limits.progressInterval = .milliseconds(100) }) { harness in
            let watcher = try await harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()
            let message = try await inbox.next(includingProgress: true)
            guard case .progress(let progress) = message.message else {
                Issue.record("\(message.message.type)"); return
            }
            #expect(progress.revision == 0 && progress.epoch == watcher.welcome.epoch)
            await watcher.close()
        }
    }

    @Test func shutdownSendsGoingAway() async throws {
        let servers = ServerSlot(try await ServerHarness.start())
        try await using(servers) { servers in
            let client = try await servers.harness.connect()
            let inbox = Inbox(client)
            await servers.stop()
            // The client's own liveness ping may be answered first when the machine is slow.
            var message = try await inbox.next()
            while case .pong = message.message { message = try await inbox.next() }
            guard case .goingAway(let goingAway) = message.message else {
                Issue.record("\(message.message.type)"); return
            }
            #expect(goingAway.retryAfterMs >= 50)
            await client.closed()
        }
    }
}
