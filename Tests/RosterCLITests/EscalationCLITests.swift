import Foundation
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// Issue #56's "done when", with the built binaries on the demo, as a new user tries it: the
/// page's timeline for Payments API, each step at its own instant; the policy as written;
/// its round trip through export, plan and apply; the same answer offline; and an unknown
/// service refused with what there is.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EscalationCLITests {
    @Test func paymentsAPIsPageStepByStepAndItsPolicyRoundTrips() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }

            let page = try await admin.run(["oncall", "--service", "Payments API", "--simulate"])
            #expect(page.status == 0, "\(page.stderr)")
            let rows = page.stdout.split(separator: "\n").dropFirst(2).map(String.init)
            #expect(rows.count == 6, "three steps, twice through: \(page.stdout)")
            #expect(rows.filter { $0.contains("Platform primary") }.count == 2, "\(page.stdout)")
            #expect(rows.filter { $0.contains("Grace Hopper") && $0.contains("named") }.count == 2, "\(page.stdout)")
            #expect(rows.filter { $0.contains("Demo fast rotation") }.count == 2, "\(page.stdout)")

            // Each step at its own instant: 5, 10 and 15 minutes apart, then again.
            let json = try await admin.run(["oncall", "--service", "Payments API", "--simulate", "--json"])
            let answer = try JSONDecoder().decode(EscalationJSON.Answer.self, from: Data(json.stdout.utf8))
            let instants = answer.steps.map { TimeText.parseISO8601($0.at)! }
            #expect(zip(instants, instants.dropFirst()).map { ($1 - $0) / 60_000 } == [5, 10, 15, 5, 10])
            #expect(answer.service?.name == "Payments API" && answer.escalationPolicy.repeatCount == 1)

            let show = try await admin.run(["escalation", "show", "payments api"])
            #expect(show.status == 0 && show.stdout.contains("Escalation policy Payments (team Platform)"))
            #expect(show.stdout.contains("schedule Platform primary") && show.stdout.contains("Runbook: https://"))

            // The policy round-trips through export and apply: a longer wait before step 3.
            let file = admin.home.appendingPathComponent("roster.yaml").path
            let export = try await admin.run(["export", "--format", "yaml"])
            let step2 = "      - delayMinutes: 10\n        targets:\n          - schedule: Platform primary\n"
            try #require(export.stdout.contains(step2), "\(export.stdout)")
            try export.stdout.replacingOccurrences(of: step2, with: step2.replacingOccurrences(of: "10", with: "12"))
                .write(toFile: file, atomically: false, encoding: .utf8)
            let plan = try await admin.run(["plan", "-f", file])
            #expect(plan.status == 2 && plan.stdout.contains("~ escalation policy Payments"), "\(plan.stdout)")
            // A watcher of the service sees the answer at once, then the edit pushed with its cause,
            // and SIGTERM ends it.
            let watch = try ChildProcess(
                CLI.binary.path, ["watch", "--service", "Payments API", "--json"], environment: admin.environment)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                #expect(await eventually(30) { watch.stdout.contains(#""cause":"now""#) }, "\(watch.output)")
                let apply = try await admin.run(["apply", "-f", file, "--yes"])
                #expect(apply.status == 0, "\(apply.stderr)")
                #expect(
                    await eventually(30) { watch.stdout.contains(#""cause":"policy changed""#) }, "\(watch.output)")
                #expect(await watch.stop(signal: SIGTERM) == 0, "SIGTERM ends the watch: \(watch.output)")
            }
            let again = try await admin.run(["plan", "-f", file])
            #expect(again.status == 0 && again.stdout.contains("Nothing to do"), "\(again.stdout)")
            let longer = try await admin.run(["oncall", "--service", "Payments API", "--simulate", "--json"])
            let steps = try JSONDecoder().decode(EscalationJSON.Answer.self, from: Data(longer.stdout.utf8)).steps
            #expect(steps.map(\.delayMinutes) == [5, 12, 15, 5, 12, 15])

            // Offline, from the cache the commands above filled: the same steps.
            let offline = try await admin.run(["oncall", "--policy", "Payments", "--offline", "--json"])
            #expect(offline.status == 0 && offline.stderr.contains("Offline"), "\(offline.stderr)")
            let cached = try JSONDecoder().decode(EscalationJSON.Answer.self, from: Data(offline.stdout.utf8))
            #expect(cached.steps.map(\.delayMinutes) == [5, 12, 15])

            let unknown = try await admin.run(["oncall", "--service", "Payments"])
            #expect(unknown.status == 8 && unknown.stderr.contains("Payments API"), "\(unknown.stderr)")
            let mixed = try await admin.run(["oncall", "--service", "Payments API", "--person", "Ada Lovelace"])
            #expect(mixed.status != 0 && mixed.stderr.contains("not with --service"), "\(mixed.stderr)")

            // The quality report of a policy: the demo's support schedule keeps business hours,
            // so its step pages nobody at night, and the Operations team's step covers.
            let quality = try await admin.run(["report", "quality", "--policy", "Customer support", "--to", "+7d"])
            #expect(quality.status == 0, "\(quality.stderr)")
            #expect(
                quality.stdout.contains("Escalation policy Customer support:")
                    && quality.stdout.contains("Step 1 pages nobody (the page still waits its delay):"),
                "\(quality.stdout)")
            let both = try await admin.run(["report", "quality", "--policy", "Payments", "--schedule", "Default"])
            #expect(both.status != 0 && both.stderr.contains("name a --schedule or a --policy"), "\(both.stderr)")
        }
    }
}
