import ArgumentParser
import RosterBench

struct Escalation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "escalation",
        abstract:
            "Whom a page reaches, on a big tenant: oncall --service now and a timeline through 3 repeats (p50/p99, server side)."
    )
    @Option(help: "People in the tenant.") var people = 1_000
    @Option(help: "Schedules of ten people each.") var schedules = 1_000
    @Option(help: "Escalation policies of three steps, each with a service.") var policies = 300
    @Option(help: "Answers timed.") var runs = 2_000

    func run() throws {
        let result = try EscalationBenchmark(people: people, schedules: schedules, policies: policies, runs: runs).run()
        print(
            "escalation: \(people) people, \(schedules) schedules, \(policies) policies of 3 steps (GetEscalation in process)"
        )
        print("  now        \(result.now)")
        print("  simulate   \(result.simulate)  (\(result.steps) steps)")
    }
}
