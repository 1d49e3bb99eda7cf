import Foundation
import RosterProtocol
import RosterTestSupport
import Testing

/// `escalation.changed` webhooks (issue #56) from a real server on a manual clock to a real
/// receiver: Secondary's handoff at 12:30 changes step 2 only (planned, sent when due, once); an
/// override from now changes step 1 (with the change); a policy edit says so even where its
/// people stay; a deleted policy is sent as removed.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EscalationWebhookTests {
    static func escalations(_ receiver: WebhookReceiver) -> [[String: Any]] {
        receiver.requests.filter { $0.eventType == "escalation.changed" }.map(\.json)
    }

    static func data(_ event: [String: Any]) -> [String: Any] { event["data"] as? [String: Any] ?? [:] }

    /// Each step's people's ids, by level.
    static func people(_ event: [String: Any]) -> [String] {
        ((data(event)["steps"] as? [[String: Any]]) ?? []).map { step in
            ((step["people"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.joined(separator: ",")
        }
    }

    @Test func aHandoffAnOverrideAPolicyEditAndADeletionEachSayWhatChanged() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await HTTPTests.withHTTPServer(now: EscalationServerTests.now, configure: WebhookTests.configure) {
                harness, _ in
                try await DefinitionApplyTests.withClient(harness) { client in
                    #expect(try await DefinitionApplyTests.apply(client, EscalationServerTests.definition).committed)
                    let admin = try await harness.connect()
                    try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                        _ = try await WebhookTests.addWebhook(admin, url: receiver.url, events: ["escalation.changed"])
                        #expect(await harness.outboxSettled())
                        #expect(Self.escalations(receiver).isEmpty, "nothing changes before 12:30")

                        // 12:30: Secondary hands Grace → Linus; step 2 only.
                        try await WebhookTests.advance(
                            harness, by: 5 * 60_000, until: { !Self.escalations(receiver).isEmpty },
                            what: "the handoff's escalation.changed")
                        let handoff = try #require(Self.escalations(receiver).first)
                        #expect(handoff["about_ms"] as? Int64 == EscalationServerTests.now + 30 * 60_000)
                        #expect(Self.data(handoff)["cause"] as? String == "handoff")
                        #expect(Self.data(handoff)["changed_levels"] as? [Int] == [2])
                        #expect(Self.people(handoff) == ["ada", "linus", "ada"])
                        let services = Self.data(handoff)["services"] as? [[String: Any]]
                        #expect(services?.map { $0["name"] as? String } == ["Payments API"])
                        #expect((Self.data(handoff)["policy"] as? [String: Any])?["name"] as? String == "Payments")

                        // An override from now on Primary: Grace instead of Ada, step 1 only.
                        let now = harness.clock.now()
                        _ = try await admin.admin(
                            .editSchedule(
                                .with {
                                    $0.schedule = "Primary"
                                    $0.addOverride = .with {
                                        $0.kind = .replace; $0.replacedEmployeeID = "ada"; $0.employeeID = "grace"
                                        $0.startMs = now; $0.endMs = now + WebhookTests.hour
                                    }
                                }))
                        try await WebhookTests.advance(
                            harness, by: 1_000, until: { Self.escalations(receiver).count >= 2 },
                            what: "the override's escalation.changed")
                        let override = Self.escalations(receiver)[1]
                        #expect(Self.data(override)["cause"] as? String == "plan-changed")
                        #expect(Self.data(override)["changed_levels"] as? [Int] == [1])
                        #expect(Self.people(override) == ["grace", "linus", "ada"])

                        // The policy's third step names Alan instead of Ada.
                        let edited = EscalationServerTests.definition.replacingOccurrences(
                            of: "targets: [{person: Ada Lovelace}]", with: "targets: [{person: Alan Turing}]")
                        #expect(try await DefinitionApplyTests.apply(client, edited).committed)
                        try await WebhookTests.advance(
                            harness, by: 1_000, until: { Self.escalations(receiver).count >= 3 },
                            what: "the policy edit's escalation.changed")
                        let edit = Self.escalations(receiver)[2]
                        #expect(Self.data(edit)["cause"] as? String == "policy-changed")
                        #expect(Self.data(edit)["changed_levels"] as? [Int] == [3])
                        #expect(Self.people(edit) == ["grace", "linus", "alan"])

                        // Without the service and the policy: removed.
                        let start = try #require(edited.range(of: "\nescalationPolicies:")).lowerBound
                        let removed = String(edited[..<start]) + "\nescalationPolicies: []\nservices: []\n"
                        #expect(try await DefinitionApplyTests.apply(client, removed, prune: true).committed)
                        try await WebhookTests.advance(
                            harness, by: 1_000, until: { Self.escalations(receiver).count >= 4 },
                            what: "the deletion's escalation.changed")
                        let deletion = Self.escalations(receiver)[3]
                        #expect(Self.data(deletion)["removed"] as? Bool == true)

                        // Hours later: nothing more (the removed policy's handoffs were withdrawn),
                        // and no event twice.
                        harness.clock.advance(by: 3 * WebhookTests.hour)
                        #expect(await harness.outboxSettled())
                        let ids = Self.escalations(receiver).compactMap { $0["id"] as? String }
                        #expect(ids.count == 4 && Set(ids).count == 4, "\(Self.escalations(receiver))")
                    }
                }
            }
        }
    }
}
