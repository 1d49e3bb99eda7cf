import ArgumentParser
import RosterBench

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "roster-client migrate --verify-against on a big PagerDuty export, offline: wall time and peak memory.")
    @Option(help: "Users in the export.") var people = 500
    @Option(help: "Schedules (two layers, two overrides each).") var schedules = 100
    @Option(help: "Escalation policies, and as many services.") var policies = 100
    @Option(help: "Days of the rendered list.") var days = 90
    @Option(help: "Runs timed.") var runs = 5

    func run() throws {
        let result = try MigrationBenchmark(
            people: people, schedules: schedules, policies: policies, days: days, runs: runs,
            clientExecutable: siblingExecutable("roster-client")
        ).run()
        print(
            "migrate: \(people) people, \(schedules) schedules, \(policies) policies and services; export "
                + "\(result.exportBytes / 1024) KiB; rendered list of \(days) days, \(result.renderedEntries) entries, "
                + "\(result.renderedBytes / 1024) KiB")
        print("  migrate + verify (wall, the real binary)  \(result.wall)")
        print("  migrate alone (no --verify-against)       \(result.alone)")
        print("  peak resident memory                      \(result.peakKiB / 1024) MiB")
        print("  its last line: \(result.output.split(separator: "\n").last ?? "")")
    }
}
