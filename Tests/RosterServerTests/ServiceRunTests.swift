import Foundation
import RosterClient
import RosterProtocol
import RosterServer
import RosterTestSupport
import Testing

/// The server's run as a Service: its periodic work runs as child tasks on the server clock and
/// ends with the service group.
@Suite(.timeLimit(.minutes(2))) struct ServiceRunTests {
    /// Who is on duty at `instant` (now when nil), asked until `condition` holds: the run's
    /// child tasks are asynchronous.
    private func onDuty(_ harness: ServerHarness, at instant: Int64? = nil,
                        until condition: ([String]) -> Bool) async throws -> [String] {
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
            #expect(rolled.count == 1,
                    "ten minutes on the server clock later, the plan reaches two hours ahead again")
        }
    }

    @Test func aDemoServerRestartedAfterItsPlanEndedExtendsItAtOnce() async throws {
        let directory = TestScratch.directory("roster-demo-restart").appendingPathComponent("data").path
        let first = try await ServerHarness.start(now: t0, dataDirectory: directory) { $0.demo = true }
        let before = try await withCleanup(first, cleanUp: { await $0.stop() }) { harness in try await onDuty(harness) { !$0.isEmpty } }
        #expect(before.count == 1)
        // Down for a day: the stored plan ended long ago.
        let later = try await ServerHarness.start(now: t0 + 24 * 60 * minute, dataDirectory: directory) { $0.demo = true }
        let after = try await withCleanup(later, cleanUp: { await $0.stop() }) { harness in try await onDuty(harness) { !$0.isEmpty } }
        #expect(after.count == 1, "the restarted demo has someone on duty without waiting ten minutes")
    }
}
