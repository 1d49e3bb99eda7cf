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
            the file; exit 12 when they differ. With --api the export is fetched from the source's \
            API instead (read-only, every page, waiting out 429s), and --verify-days N fetches and \
            compares its own rendered list. Nothing is sent to the Roster server: review the file, \
            then `plan -f` and `apply -f` it.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(help: "The system the export comes from: pagerduty, opsgenie, goalert, grafana-oncall.") var from:
        MigrationSource
    @Argument(help: "The export file (JSON); not with --api.") var export: String?
    @Option(help: "The source's rendered on-call list for a window, to compare with.") var verifyAgainst: String?
    @Option(help: "Fetch the export from the source's API at this base URL (https://api.pagerduty.com).") var api:
        String?
    @Option(help: "The file holding the source API's token (its first line); never printed.") var apiTokenFile: String?
    @Option(help: "With --api: trust the CAs in this PEM file for the API.") var apiCaFile: String?
    @Option(help: "With --api: fetch the source's rendered list for this many days (1 to 366) and compare.")
    var verifyDays: Int?
    @Option(help: "With --verify-days: the window's start (ISO 8601; default now).") var verifyFrom: String?
    @Option(help: "With --api: also write the fetched export to this file.") var saveExport: String?
    @Option(name: .shortAndLong, help: "Write the definition file here (default: standard output).") var output: String?
    @Option(help: "Write the report here (default: printed).") var report: String?
    @Flag(help: "Do not ask the server for its people: everyone is written as new.") var offline = false

    func validate() throws {
        guard (export == nil) != (api == nil) else { throw ValidationError("give an export file or --api URL (one)") }
        if api != nil, apiTokenFile == nil {
            throw ValidationError(
                "--api needs --api-token-file FILE, the source's token (--token-file is Roster's own token, which "
                    + "migrate sends only to the Roster server)")
        }
        if api == nil, verifyDays != nil || saveExport != nil || apiCaFile != nil || apiTokenFile != nil {
            throw ValidationError("--verify-days, --save-export, --api-ca-file and --api-token-file go with --api")
        }
        if let verifyDays, !(1...MigrateRun.maxVerifyDays).contains(verifyDays) {
            throw ValidationError("--verify-days is 1 to \(MigrateRun.maxVerifyDays)")
        }
        if verifyDays != nil, verifyAgainst != nil {
            throw ValidationError("--verify-days or --verify-against, not both")
        }
        if verifyFrom != nil, verifyDays == nil { throw ValidationError("--verify-from goes with --verify-days") }
    }

    func run() async throws {
        var start: UnixMillis?
        if let verifyFrom {
            guard let instant = TimeText.parseISO8601(verifyFrom) else {
                throw ValidationError("--verify-from: \"\(verifyFrom)\" is not an instant such as 2027-01-04T00:00:00Z")
            }
            start = instant
        }
        let input: MigrateRun.Input =
            if let api, let apiTokenFile {
                .api(
                    url: api, tokenFile: apiTokenFile, caFile: apiCaFile, verifyFrom: start, verifyDays: verifyDays,
                    save: saveExport)
            } else {
                .file(export ?? "")
            }
        let run = MigrateRun(
            source: from, export: input, verifyAgainst: verifyAgainst, output: output, report: report)
        if offline {
            try await run.run(directory: RosterState(tenant: Tenant(id: "", name: ""))).exit()
        } else {
            try await options.runner().migrate(run).exit()
        }
    }
}
