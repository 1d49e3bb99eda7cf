import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// ESCALATION pushes (issue #56): the answer for now at subscribe, a push at a handoff that
/// changes only step 2 (at the handoff, never before, with the step named), one when the
/// policy is edited, none for a handoff the policy does not name, and the refusals; a
/// subscriber following the policy and one following the service both get them.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EscalationPushTests {
    static let now = EscalationServerTests.now
    static let minute = EscalationServerTests.minute

    static func people(_ event: Roster_V1_EscalationChanged) -> [String] {
        event.steps.map { $0.people.map(\.employee.id).joined(separator: ",") }
    }

    static func escalation(_ message: InboundMessage) -> Roster_V1_EscalationChanged? {
        if case .escalationChanged(let event) = message.message { return event }
        return nil
    }

    @Test func aHandoffThatChangesStepTwoIsPushedWithItsStep() async throws {
        try await withServer(now: Self.now) { harness in
            try await DefinitionApplyTests.withClient(harness) { client in
                let applied = try await DefinitionApplyTests.apply(client, EscalationServerTests.definition)
                #expect(applied.committed)
                let byService = try await harness.connect()
                let serviceInbox = Inbox(byService)
                byService.subscribe(
                    .with {
                        $0.topics = [.escalation]; $0.services = ["payments api"]
                    })
                let initial = try await serviceInbox.untilSynced()
                #expect(initial.map(\.type) == [.subscribed, .escalationChanged, .synced])
                guard case .escalationChanged(let first) = initial[1] else { return }
                #expect(first.cause == .escalationInitial && first.services.map(\.id) == ["api"])
                #expect(Self.people(first) == ["ada", "grace", "ada"])

                let byPolicy = try await harness.connect()
                let policyInbox = Inbox(byPolicy)
                byPolicy.subscribe(
                    .with {
                        $0.topics = [.escalation, .onDuty]; $0.escalationPolicies = ["Payments"];
                        $0.schedules = ["Secondary"]
                    })
                _ = try await policyInbox.untilSynced()

                // Secondary hands Grace to Linus at 12:30: step 2 only, at the handoff.
                harness.clock.advance(to: Self.now + 30 * Self.minute - 1)
                try await byService.barrier()
                harness.clock.advance(to: Self.now + 30 * Self.minute)
                let pushed = try #require(Self.escalation(try await serviceInbox.next()))
                #expect(pushed.cause == .escalationHandoff && pushed.changedSteps == [1])
                #expect(Self.people(pushed) == ["ada", "linus", "ada"] && pushed.atMs == Self.now + 30 * Self.minute)
                #expect(pushed.sequence > first.sequence)
                var seen: [MessageType] = []
                var viaPolicy: Roster_V1_EscalationChanged?
                while viaPolicy == nil {
                    let message = try await policyInbox.next()
                    seen.append(message.message.type)
                    viaPolicy = Self.escalation(message)
                }
                #expect(viaPolicy?.sequence == pushed.sequence && seen.contains(.onDutyChanged))

                // An edit of the policy is pushed with its cause, even with the same people.
                let edited = EscalationServerTests.definition.replacingOccurrences(
                    of: "delayMinutes: 20", with: "delayMinutes: 25")
                #expect(try await DefinitionApplyTests.apply(client, edited).committed)
                let edit = try #require(Self.escalation(try await serviceInbox.next()))
                #expect(edit.cause == .escalationPolicyChanged && edit.policy.steps[1].delayMinutes == 25)
                #expect(edit.changedSteps.isEmpty && Self.people(edit) == ["ada", "linus", "ada"])

                // Primary's handoff is at 09:00 tomorrow; nothing else is due before it.
                try await byService.barrier()
                await byService.close()
                await byPolicy.close()
            }
        }
    }

    @Test func aScheduleJoiningTheTeamAStepNamesIsPushed() async throws {
        let byTeam = EscalationServerTests.definition
            .replacingOccurrences(of: "targets: [{schedule: Secondary}]", with: "targets: [{team: Core}]")
            .replacingOccurrences(
                of: "{id: ada, firstName: Ada, lastName: Lovelace}",
                with: "{id: ada, firstName: Ada, lastName: Lovelace, team: Core}")
        let joined = byTeam.replacingOccurrences(
            of: "    name: Secondary\n    zone: UTC\n", with: "    name: Secondary\n    zone: UTC\n    team: core\n")
        try #require(joined != byTeam)
        try await withServer(now: Self.now) { harness in
            try await DefinitionApplyTests.withClient(harness) { client in
                #expect(try await DefinitionApplyTests.apply(client, byTeam).committed)
                let watcher = try await harness.connect()
                let inbox = Inbox(watcher)
                watcher.subscribe(
                    .with {
                        $0.topics = [.escalation]; $0.services = ["api"]
                    })
                let initial = try await inbox.untilSynced()
                guard case .escalationChanged(let first) = initial[1] else { return }
                #expect(Self.people(first) == ["ada", "", "ada"], "no schedule is the team's yet")
                #expect(try await DefinitionApplyTests.apply(client, joined).committed)
                let pushed = try #require(Self.escalation(try await inbox.next()))
                #expect(pushed.cause == .escalationPlanChanged && pushed.changedSteps == [1])
                #expect(Self.people(pushed) == ["ada", "grace", "ada"])
                await watcher.close()
            }
        }
    }

    @Test func aServiceMovedToAnotherPolicyIsFollowedThere() async throws {
        let two = EscalationServerTests.definition.replacingOccurrences(
            of: "services:\n",
            with:
                "  - {id: night, name: Night, steps: [{delayMinutes: 5, targets: [{person: Linus Torvalds}]}]}\nservices:\n"
        )
        let moved = two.replacingOccurrences(of: "policy: Payments}", with: "policy: Night}")
        try #require(moved != two)
        try await withServer(now: Self.now) { harness in
            try await DefinitionApplyTests.withClient(harness) { client in
                #expect(try await DefinitionApplyTests.apply(client, two).committed)
                let watcher = try await harness.connect()
                let inbox = Inbox(watcher)
                watcher.subscribe(
                    .with {
                        $0.topics = [.escalation]; $0.services = ["Payments API"]
                    })
                _ = try await inbox.untilSynced()
                #expect(try await DefinitionApplyTests.apply(client, moved).committed)
                let pushed = try #require(Self.escalation(try await inbox.next()))
                #expect(pushed.cause == .escalationPolicyChanged && pushed.policy.id == "night")
                #expect(pushed.services.map(\.id) == ["api"] && Self.people(pushed) == ["linus"])
                await watcher.close()
            }
        }
    }

    @Test func unknownNamesAndAnEmptyFollowAreRefused() async throws {
        try await withServer(now: Self.now) { harness in
            try await DefinitionApplyTests.withClient(harness) { client in
                _ = try await DefinitionApplyTests.apply(client, EscalationServerTests.definition)
                let watcher = try await harness.connect()
                let inbox = Inbox(watcher)
                watcher.subscribe(
                    .with {
                        $0.topics = [.escalation]; $0.services = ["Ledger"]
                    })
                guard case .error(let unknown) = try await inbox.next().message else {
                    Issue.record("expected NOT_FOUND")
                    return
                }
                #expect(unknown.code == .notFound && unknown.message == "service \"Ledger\" not found")
                watcher.subscribe(.with { $0.topics = [.escalation] })
                guard case .error(let empty) = try await inbox.next().message else {
                    Issue.record("expected INVALID_ARGUMENT")
                    return
                }
                #expect(empty.code == .invalidArgument && empty.message.contains("name at least one"))
                // The connection still serves.
                watcher.subscribe(
                    .with {
                        $0.topics = [.escalation]; $0.escalationPolicies = ["payments"]
                    })
                #expect(try await inbox.untilSynced().map(\.type) == [.subscribed, .escalationChanged, .synced])
                await watcher.close()
            }
        }
    }
}
