import Foundation
import RosterClient
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The server's run as a Service: its periodic work runs as child tasks on the server clock and
/// ends with the service group.
@Suite(.timeLimit(.minutes(10))) struct ServiceRunTests {
    /// Who is on duty at `instant` (now when nil), asked until `condition` holds: the run's
    /// child tasks are asynchronous.
    private func onDuty(
        _ harness: ServerHarness, at instant: Int64? = nil,
        until condition: ([String]) -> Bool
    ) async throws -> [String] {
        try await withCleanup(try await harness.connect(token: ""), cleanUp: { await $0.close() }) { client in
            var people: [String] = []
            for _ in 0..<250 {
                let answer = try await client.request(.getOnDuty(.with { if let instant { $0.atMs = instant } }))
                guard case .onDuty(let found) = answer else { throw TestFailure("not OnDuty: \(answer)") }
                people = found.current.map(\.employee.id)
                if condition(people) { return people }
                try await Task.sleep(for: .milliseconds(20))
            }
            return people
        }
    }

    @Test func theDemoPlanRollsForwardOnTheServerClock() async throws {
        try await withServer(configure: { $0.demo = true }) { harness in
            let atStart = try await onDuty(harness) { !$0.isEmpty }
            #expect(atStart.count == 1, "one person on duty at start")
            // Two hours of one-minute shifts are planned at start; nobody yet 125 minutes ahead.
            let ahead = t0 + 125 * minute
            let beyondThePlan = try await onDuty(harness, at: ahead) { _ in true }
            #expect(beyondThePlan.isEmpty)
            harness.clock.advance(to: t0 + 10 * minute)
            let rolled = try await onDuty(harness, at: ahead) { !$0.isEmpty }
            #expect(
                rolled.count == 1,
                "ten minutes on the server clock later, the plan reaches two hours ahead again")
        }
    }

    @Test func aDemoServerRestartedAfterItsPlanEndedExtendsItAtOnce() async throws {
        let directory = TestScratch.directory("roster-demo-restart").appendingPathComponent("data").path
        let first = try await ServerHarness.start(now: t0, dataDirectory: directory) { $0.demo = true }
        let before = try await withCleanup(first, cleanUp: { await $0.stop() }) { harness in
            try await onDuty(harness) { !$0.isEmpty }
        }
        #expect(before.count == 1)
        // Down for a day: the stored plan ended long ago.
        let later = try await ServerHarness.start(now: t0 + 24 * 60 * minute, dataDirectory: directory) {
            $0.demo = true
        }
        let after = try await withCleanup(later, cleanUp: { await $0.stop() }) { harness in
            try await onDuty(harness) { !$0.isEmpty }
        }
        #expect(after.count == 1, "the restarted demo has someone on duty without waiting ten minutes")
    }

    @Test func theDemoHasACompanysSchedulesAndAFastRotationThatPushesEveryMinute() async throws {
        try await withServer(configure: { $0.demo = true }) { harness in
            let watcher = try await harness.connect(token: "")
            let inbox = Inbox(watcher)
            // The demo seeds its schedules on the run's first turn: wait for them.
            var names: [String] = []
            for _ in 0..<250 where names.count < 5 {
                guard case .schedules(let listed) = try await watcher.request(.listSchedules(.init())) else { break }
                names = listed.schedules.map(\.name)
                if names.count < 5 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(
                names == [
                    "Default", "Demo fast rotation", "Operations secondary", "Platform primary",
                    "Support business hours",
                ])
            let reply = try await watcher.request(.listSchedules(.init()))
            guard case .schedules(let listed) = reply else { throw TestFailure("listSchedules answered \(reply)") }
            let operations = try #require(listed.schedules.first { $0.name == "Operations secondary" })
            #expect(operations.layers.map(\.rotations.count) == [1, 3], "a daily layer under a follow-the-sun layer")
            #expect(listed.schedules.contains { !$0.overrides.isEmpty })
            #expect(
                listed.schedules.contains { $0.layers.contains { $0.rotations.contains { !$0.restrictions.isEmpty } } })

            watcher.subscribe(
                .with {
                    $0.topics = [.onDuty]; $0.schedules = ["Demo fast rotation"]
                })
            _ = try await inbox.untilSynced()
            harness.clock.advance(to: t0 + minute)
            let event = try #require(onDutyEvent(try await inbox.next()))
            #expect(event.scheduleName == "Demo fast rotation" && event.cause == .boundary && event.atMs == t0 + minute)
            await watcher.close()
        }
    }
}
