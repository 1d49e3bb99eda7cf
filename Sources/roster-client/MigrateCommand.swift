import ArgumentParser
import Foundation
import RosterCommandLine
import RosterDomain
import RosterMigration

extension MigrationSource: ExpressibleByArgument {}

/// `roster-client migrate --from pagerduty EXPORT`: another system's schedules as a definition file.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Turn another on-call system's export into a definition file (docs/MIGRATING.md).",
        discussion: """
            Reads EXPORT (the JSON of the source's API, as docs/MIGRATING.md describes for each \
            source) and writes a definition file (docs/AS-CODE.md) with its people, schedules, \
            escalation policies and services, and a report of what was mapped exactly, what \
            differs and what was left out. People are matched by e-mail to the tenant's directory \
            (the server is asked; --offline does not ask). With --verify-against the source's own \
            rendered on-call list is compared, stretch by stretch, with what Roster resolves from \
            the file; exit 12 when they differ. Nothing is sent to the server: review the file, \
            then `plan -f` and `apply -f` it.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(help: "The system the export comes from: pagerduty, opsgenie, goalert, grafana-oncall.") var from:
        MigrationSource
    @Argument(help: "The export file (JSON).") var export: String
    @Option(help: "The source's rendered on-call list for a window, to compare with.") var verifyAgainst: String?
    @Option(name: .shortAndLong, help: "Write the definition file here (default: standard output).") var output: String?
    @Option(help: "Write the report here (default: printed).") var report: String?
    @Flag(help: "Do not ask the server for its people: everyone is written as new.") var offline = false

    func run() async throws {
        let run = MigrateRun(
            source: from, export: export, verifyAgainst: verifyAgainst, output: output, report: report)
        if offline {
            try await run.run(directory: RosterState(tenant: Tenant(id: "", name: ""))).exit()
        } else {
            try await options.runner().migrate(run).exit()
        }
    }
}
