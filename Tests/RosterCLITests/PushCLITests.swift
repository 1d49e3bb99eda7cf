import Foundation
import RosterTestSupport
import Testing

/// Issue #55's whole path through the built binaries, on the demo: the person whose turn on the
/// default schedule comes next registers an endpoint with `roster-client push add` (as a
/// UnifiedPush distributor hands one out), `push list` shows it, and at the handoff the message
/// reaches the loopback push service, which checks and decrypts it. The service keeps that first
/// request unanswered and the server is killed with SIGKILL; restarted on the same data
/// directory, it sends the message again with the same id, which the device drops
/// (docs/PUSH.md, "Once on the device"). `push remove` leaves nothing to send to.
@Suite(.timeLimit(.minutes(10))) struct PushCLITests {
    @Test func theNextOnDutyHearsTheirHandoffOnceAcrossAKilledServer() async throws {
        let service = try await PushService.start()
        try await withCleanup(service, cleanUp: { await $0.stop() }) { service in
            let scratch = TestScratch.directory("roster-push-cli")
            defer { TestScratch.remove(scratch) }
            let arguments = ["--demo", "--webhook-retry-base-ms", "200", "--push-contact", "mailto:oncall@example.com"]
            let first = try await ServerProcess.start(dataDirectory: scratch.path, arguments: arguments)
            let (handoff, subscriptionID, token) = try await withCleanup(first, cleanUp: { await $0.kill9() }) {
                server in
                let admin = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(admin.home) }
                let (person, handoff) = try await Self.nextTurnOnTheDefaultSchedule(admin)
                let created = try await admin.server([
                    "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", server.dataDirectory,
                    "--employee", person,
                ])
                try #require(created.status == 0, "\(created.stderr)")
                let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let cli = CLI(port: server.port, token: token)
                defer { TestScratch.remove(cli.home) }
                let accepted = await eventually(10) { (try? await cli.run(["push", "list"]))?.status == 0 }
                try #require(accepted, "the server picks the new token up")

                let phone = try await service.subscribe("phone")
                try await service.answer("phone", with: [0])
                let added = try await cli.run([
                    "push", "add", "--endpoint", phone.endpoint, "--p256dh", phone.p256dh, "--auth", phone.auth,
                    "--label", "Pixel 8",
                ])
                try #require(added.status == 0, "\(added.stderr)")
                // "Push subscription ID added."
                let id = try #require(added.stdout.split(separator: " ").dropFirst(2).first.map(String.init))
                let listed = try await cli.run(["push", "list"])
                #expect(
                    listed.stdout.contains(id) && listed.stdout.contains(service.base)
                        && listed.stdout.contains("Pixel 8") && !listed.stdout.contains(phone.endpoint),
                    "the origin, never the whole endpoint: \(listed.stdout)")

                // At the handoff: the message, held by the push service, and the server killed.
                let untilHandoff = Double(handoff) / 1000 - Date().timeIntervalSince1970
                let held = try await service.received("phone", count: 1, within: untilHandoff + 60)
                try #require(held.count == 1, "nothing reached the push service: \(server.child.output)")
                await server.kill9()
                let message = held[0]
                #expect(message.problems.isEmpty, "\(message.problems)")
                let payload = try #require(message.payload)
                #expect(payload["at"] as? Int64 == handoff, "\(payload)")
                #expect(payload["type"] as? String == "on-duty.changed" && payload["kind"] as? String == "on-duty")
                #expect(payload["title"] as? String == "You are on call now")
                #expect(payload["url"] as? String == "/schedules/Default")
                #expect(payload["urgency"] as? String == "high" && message.urgency == "high")
                #expect(message.vapid?["sub"] as? String == "mailto:oncall@example.com")
                if let at = message.receivedAt {
                    print("push: handoff to the push service in \(Int(at * 1000) - Int(handoff)) ms")
                }
                return (handoff, id, token)
            }

            let again = try await ServerProcess.start(dataDirectory: scratch.path, arguments: arguments)
            try await withCleanup(again, cleanUp: { await $0.terminate() }) { server in
                let received = try await service.received("phone", count: 2, within: 60)
                try #require(received.count >= 2, "not sent again after the restart: \(server.child.output)")
                // Every copy is of the one event, with its id: the device shows it once.
                let ids = Set(received.compactMap { $0.payload?["id"] as? String })
                #expect(ids.count == 1 && ids.first?.hasPrefix("evt_") == true, "\(ids)")
                #expect(received.allSatisfy { $0.payload?["at"] as? Int64 == handoff && $0.problems.isEmpty })
                #expect(received.last?.status == 201)

                let cli = CLI(port: server.port, token: token)
                defer { TestScratch.remove(cli.home) }
                let removed = try await cli.run(["push", "remove", subscriptionID])
                #expect(removed.status == 0 && removed.stdout.contains("removed"), "\(removed.stderr)")
                let empty = try await cli.run(["push", "list"])
                #expect(empty.stdout.contains("No push subscriptions."), "\(empty.stdout)")
            }
        }
    }

    /// The person and instant (Unix ms) of the next handoff on the demo's default schedule far
    /// enough ahead to subscribe first, where that person starts nothing else at the instant.
    /// Six minutes are asked for: the demo's fast rotation has six of the default's people, and
    /// for a few minutes at a time the two hand to the same person (and `oncall` itself can take
    /// half a minute on two busy cores).
    static func nextTurnOnTheDefaultSchedule(_ admin: CLI) async throws -> (String, Int64) {
        let format = ISO8601DateFormatter()
        let oncall = try await admin.run([
            "oncall", "--from", "now", "--to", format.string(from: Date().addingTimeInterval(360)), "--json",
        ])
        let shifts = (oncall.object["shifts"] as? [[String: Any]]) ?? []
        let earliest = Date().addingTimeInterval(25)
        for shift in shifts where shift["scheduleId"] as? String == "default" {
            guard let person = shift["employee"] as? String, let text = shift["start"] as? String,
                let start = format.date(from: text), start > earliest
            else { continue }
            let alsoStarting = shifts.contains {
                $0["employee"] as? String == person && $0["start"] as? String == text
                    && $0["scheduleId"] as? String != "default"
            }
            if !alsoStarting { return (person, Int64(start.timeIntervalSince1970 * 1000)) }
        }
        throw TestFailure("no handoff on the default schedule in the next six minutes: \(oncall.stdout)")
    }
}
