import Foundation
import NIOEmbedded
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

/// Escalation answers on a big tenant (issue #56): 1,000 people, 1,000 schedules (a weekly
/// rotation of ten, every other one with a business-hours layer above it, in three zones) and
/// 300 policies of three steps (a schedule, another schedule and a team's schedules, a person).
/// Times the server's own path in process: `Queries.answer(.getEscalation)` on a view of the
/// tenant, as the work pool runs it, for "now" and for a page's timeline through three repeats.
package struct EscalationBenchmark {
    package var people: Int
    package var schedules: Int
    package var policies: Int
    package var runs: Int

    package init(people: Int, schedules: Int, policies: Int, runs: Int) {
        (self.people, self.schedules, self.policies, self.runs) = (people, schedules, policies, runs)
    }

    package struct Result {
        package var now: LatencySummary
        package var simulate: LatencySummary
        package var steps: Int
    }

    func state() throws -> RosterState {
        let state = ReportBenchmark(people: people, schedules: schedules, runs: 0).state()
        var changes: [RosterChange] = []
        for index in 0..<schedules {
            var schedule = state.schedules["s\(index)"]!
            schedule.team = "Team \(index % 50)"
            changes.append(.scheduleUpserted(schedule))
        }
        for index in 0..<policies {
            changes.append(
                .escalationPolicySet(
                    EscalationPolicy(
                        id: "p\(index)", name: "Policy \(index)", repeatCount: 3,
                        steps: [
                            EscalationStep(delayMinutes: 5, targets: [.schedule("s\(index % schedules)")]),
                            EscalationStep(
                                delayMinutes: 10,
                                targets: [.schedule("s\((index * 7 + 1) % schedules)"), .team("Team \(index % 50)")]),
                            EscalationStep(delayMinutes: 15, targets: [.person("e\(index % people)")]),
                        ])))
            changes.append(.serviceSet(PagingService(id: "v\(index)", name: "Service \(index)", policyID: "p\(index)")))
        }
        return try state.applyingValidated(changes.map { ("", $0) }, now: .now)
    }

    package func run() throws -> Result {
        let state = try state()
        let now = TimeText.parseISO8601("2026-07-01T10:00:00Z")!
        let tenant = TenantRuntime(
            stored: StoredTenant(state: state, epoch: 1, revision: 1, history: []), clock: ManualClock(now: now),
            historyLimit: 10, loops: [EmbeddedEventLoop()])
        let view = tenant.view
        func time(simulate: Bool) -> ([UInt64], Int) {
            var samples: [UInt64] = [], steps = 0
            for run in 0..<runs {
                let query = RosterMessage.getEscalation(
                    .with {
                        $0.service = "Service \(run * 37 % policies)"
                        $0.simulate = simulate
                    })
                let start = DispatchTime.now().uptimeNanoseconds
                // Within the hour the on-duty indexes were built around: on a server the tracker
                // keeps them current as time passes.
                let answer = Queries.answer(query, view: view, now: now + UnixMillis(run % 60) * 60_000)
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
                if case .success(.escalation(let escalation)) = answer { steps = escalation.steps.count }
            }
            return (samples, steps)
        }
        let (nowSamples, _) = time(simulate: false)
        let (simulated, steps) = time(simulate: true)
        return Result(now: LatencySummary(nowSamples), simulate: LatencySummary(simulated), steps: steps)
    }
}
