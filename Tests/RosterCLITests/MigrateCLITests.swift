import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// Issue #57's "done when", with the built binaries on the demo, as docs/MIGRATING.md walks it:
/// migrate PagerDuty's sample export with its rendered list ("0 differences over 90 days"),
/// plan, apply, and the server's own answer for each schedule over those 90 days is the list
/// PagerDuty rendered; a second run changes nothing; a file cut short or a list that differs
/// is said, with its exit code.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MigrateCLITests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples")

    struct Final: Decodable {
        struct Schedule: Decodable {
            struct FinalSchedule: Decodable {
                struct Entry: Decodable {
                    struct User: Decodable { var id: String }
                    var start: String
                    var end: String
                    var user: User
                }
                var rendered_schedule_entries: [Entry]
            }
            var id: String
            var name: String
            var final_schedule: FinalSchedule
        }
        var since: String
        var until: String
        var schedules: [Schedule]
    }

    struct OnCall: Decodable {
        struct Shift: Decodable {
            var employeeId: String
            var start: String
            var end: String
        }
        var shifts: [Shift]
    }

    /// Touching stretches of one person joined: both sides cut turns differently.
    static func joined(_ stretches: [(String, UnixMillis, UnixMillis)]) -> [String] {
        var out: [(String, UnixMillis, UnixMillis)] = []
        for stretch in stretches.sorted(by: { $0.1 < $1.1 }) {
            if let last = out.last, last.0 == stretch.0, last.2 == stretch.1 {
                out[out.count - 1].2 = stretch.2
            } else {
                out.append(stretch)
            }
        }
        return out.map { "\($0.0) \(TimeText.iso8601($0.1)) \(TimeText.iso8601($0.2))" }
    }

    /// Runs `body` beside a loopback fake of a source's API
    /// (Tests/RosterMigrationTests/Fixtures/fake_source_api.py) serving a sample export and its
    /// rendered list, with its port, a CLI and a scratch directory; all of them are removed
    /// after, also when the test fails.
    static func withFakeAPI(
        _ source: String, _ export: String, _ rendered: String, token: String,
        _ body: (_ fake: ChildProcess, _ port: Int, _ cli: CLI, _ home: URL) async throws -> Void
    ) async throws {
        let home = TestScratch.directory("migrate-\(source)-api")
        defer { TestScratch.remove(home) }
        let fake = try fakeAPI(source, export, rendered, token: token)
        try await withCleanup(fake, cleanUp: { await $0.stop(signal: SIGKILL) }) { fake in
            try #require(await eventually(20) { fake.stdout.contains("\n") }, "\(fake.output)")
            let port = try #require(Int(fake.stdout.split(separator: "\n")[0].dropFirst("PORT ".count)))
            let cli = CLI(port: 1)
            defer { TestScratch.remove(cli.home) }
            try await body(fake, port, cli, home)
        }
    }

    static func fakeAPI(_ source: String, _ export: String, _ rendered: String, token: String) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/python3",
            [
                examples.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    "Tests/RosterMigrationTests/Fixtures/fake_source_api.py"
                ).path, source,
                examples.appendingPathComponent(export).path, examples.appendingPathComponent(rendered).path, token,
            ])
    }

    /// Opsgenie's live API, faked: users page by page through a 429 (only the offset of its
    /// `paging.next` is taken, never its host), schedules with rotations, overrides,
    /// escalations, then each schedule's timeline compared.
    @Test func opsgeniesLiveAPIIsReadAndItsTimelinesCompared() async throws {
        try await Self.withFakeAPI("opsgenie", "opsgenie-export.json", "opsgenie-timeline.json", token: "og-key-1") {
            fake, port, cli, home in
            let token = home.appendingPathComponent("og.key").path
            try "og-key-1\n".write(toFile: token, atomically: false, encoding: .utf8)
            let api = try await cli.run([
                "migrate", "--offline", "--from", "opsgenie", "--api", "http://127.0.0.1:\(port)", "--api-token-file",
                token, "--verify-days", "45", "--verify-from", "2027-03-01T00:00:00Z", "-o",
                home.appendingPathComponent("og.yaml").path,
            ])
            #expect(api.status == 0, "\(api.stderr)")
            #expect(api.stdout.contains("0 differences over 45 days (11 schedules"), "\(api.stdout)")
            let requests = fake.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(
                requests.filter { $0.hasPrefix("GET /v2/users?") } == [
                    "GET /v2/users?limit=100&offset=0", "GET /v2/users?limit=100&offset=0",
                    "GET /v2/users?limit=100&offset=3", "GET /v2/users?limit=100&offset=6",
                ], "a 429 first, then pages of 3")
            #expect(requests.filter { $0.contains("/timeline?date=2027-03-01T00:00:00Z&interval=45") }.count == 11)
        }
    }

    /// GoAlert's GraphQL API, faked as GoAlert's key middleware checks a key: every request a POST
    /// of docs/examples/goalert-api.graphql (another document would be refused), connections
    /// page by page through a 429, the rotations' instant taken from GoAlert's own `Date` header,
    /// then each schedule's shifts compared; the file is the one the export file gives.
    @Test func goAlertsGraphQLAPIIsReadWithItsOwnClockAndItsShiftsCompared() async throws {
        try await Self.withFakeAPI("goalert", "goalert-export.json", "goalert-shifts.json", token: "ga-key-1") {
            fake, port, cli, home in
            let token = home.appendingPathComponent("ga.key").path
            try "ga-key-1\n".write(toFile: token, atomically: false, encoding: .utf8)
            let file = home.appendingPathComponent("ga.yaml").path
            let api = try await cli.run([
                "migrate", "--offline", "--from", "goalert", "--api", "http://127.0.0.1:\(port)", "--api-token-file",
                token, "--verify-days", "45", "--verify-from", "2027-03-01T00:00:00Z", "-o", file,
            ])
            #expect(api.status == 0, "\(api.stderr)")
            #expect(api.stdout.contains("0 differences over 45 days (12 schedules"), "\(api.stdout)")
            let requests = fake.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(requests.allSatisfy { $0.hasPrefix("POST /api/graphql Roster") }, "\(requests)")
            #expect(requests.filter { $0 == "POST /api/graphql RosterUsers" }.count == 4, "a 429, then 3 pages")
            #expect(requests.filter { $0 == "POST /api/graphql RosterRotations" }.count == 3)
            #expect(requests.filter { $0 == "POST /api/graphql RosterShifts" }.count == 12)

            let offline = try await cli.run([
                "migrate", "--offline", "--from", "goalert",
                Self.examples.appendingPathComponent("goalert-export.json").path,
            ])
            let fromAPI = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                fromAPI.split(separator: "\n").dropFirst() == offline.stdout.split(separator: "\n").dropFirst(),
                "the same definition: the rotations read at GoAlert's clock, as the export was")
        }
    }

    /// Grafana OnCall's public API, faked: its key as the whole Authorization header, every list
    /// page by page through a 429 (only the page number of `next` is taken, never its host), then
    /// each schedule's final shifts over whole days compared.
    @Test func grafanaOnCallsAPIIsReadPageByPageAndItsFinalShiftsCompared() async throws {
        try await Self.withFakeAPI(
            "grafana-oncall", "grafana-oncall-export.json", "grafana-oncall-final-shifts.json", token: "gr-key-1"
        ) { fake, port, cli, home in
            let token = home.appendingPathComponent("gr.key").path
            try "gr-key-1\n".write(toFile: token, atomically: false, encoding: .utf8)
            let file = home.appendingPathComponent("gr.yaml").path
            let api = try await cli.run([
                "migrate", "--offline", "--from", "grafana-oncall", "--api", "http://127.0.0.1:\(port)",
                "--api-token-file", token, "--verify-days", "45", "--verify-from", "2027-03-01T00:00:00Z", "-o", file,
            ])
            #expect(api.status == 0, "\(api.stderr)")
            #expect(api.stdout.contains("0 differences over 45 days (4 schedules"), "\(api.stdout)")
            let requests = fake.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(requests.allSatisfy { $0.hasPrefix("GET /api/v1/") }, "\(requests)")
            #expect(
                requests.filter { $0.hasPrefix("GET /api/v1/users/") } == [
                    "GET /api/v1/users/", "GET /api/v1/users/", "GET /api/v1/users/?page=2",
                    "GET /api/v1/users/?page=3",
                ], "a 429 first, then pages of 3")
            #expect(
                requests.filter { $0.hasSuffix("/final_shifts?start_date=2027-03-01&end_date=2027-04-15") }.count == 4)

            let offline = try await cli.run([
                "migrate", "--offline", "--from", "grafana-oncall",
                Self.examples.appendingPathComponent("grafana-oncall-export.json").path,
            ])
            let fromAPI = try String(contentsOfFile: file, encoding: .utf8)
            #expect(fromAPI.split(separator: "\n").dropFirst() == offline.stdout.split(separator: "\n").dropFirst())
        }
    }

    /// `--api` against a loopback fake of PagerDuty's API: every page read through a 429, only
    /// GETs, the same file as from the export file, the rendered list fetched and compared; a
    /// refused token, a redirect and plain http off loopback each stop it with nothing written,
    /// the token never printed.
    @Test func theLiveAPIIsReadPageByPageThroughA429() async throws {
        try await Self.withFakeAPI(
            "pagerduty", "pagerduty-export.json", "pagerduty-final.json", token: "pd-s3cret-token"
        ) { fake, port, cli, home in
            let token = home.appendingPathComponent("pd.token").path
            try "pd-s3cret-token\n".write(toFile: token, atomically: false, encoding: .utf8)
            let file = home.appendingPathComponent("api.yaml").path
            let api = try await cli.run([
                "migrate", "--offline", "--from", "pagerduty", "--api", "http://127.0.0.1:\(port)",
                "--api-token-file", token, "--verify-days", "90", "--verify-from", "2027-01-04T00:00:00Z", "-o", file,
            ])
            #expect(api.status == 0, "\(api.stderr)")
            #expect(api.stdout.contains("0 differences over 90 days (3 schedules"), "\(api.stdout)")
            let requests = fake.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(requests.allSatisfy { $0.hasPrefix("GET ") }, "\(requests)")
            #expect(requests.filter { $0.hasPrefix("GET /users?") }.count == 4, "one 429, then 8 users in pages of 3")
            #expect(requests.contains("GET /users?limit=100&offset=6"))
            #expect(requests.contains { $0.hasPrefix("GET /schedules/PCHK003?since=2027-01-04T00:00:00Z&until=") })

            let offline = try await cli.run([
                "migrate", "--offline", "--from", "pagerduty",
                Self.examples.appendingPathComponent("pagerduty-export.json").path,
            ])
            let fromAPI = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                fromAPI.split(separator: "\n").dropFirst() == offline.stdout.split(separator: "\n").dropFirst(),
                "the same definition but for the comment naming the source")

            let wrong = home.appendingPathComponent("wrong.token").path
            try "not-the-token\n".write(toFile: wrong, atomically: false, encoding: .utf8)
            let fresh = home.appendingPathComponent("fresh.yaml").path
            for (base, tokenFile, said) in [
                ("http://127.0.0.1:\(port)", wrong, "the API refused the token"),
                ("http://127.0.0.1:\(port)/moved", token, "redirected (302); not followed"),
                ("http://pagerduty.invalid", token, "in the clear; use https"),
            ] {
                let refused = try await cli.run([
                    "migrate", "--offline", "--from", "pagerduty", "--api", base, "--api-token-file", tokenFile, "-o",
                    fresh,
                ])
                #expect(refused.status == 1 && refused.stderr.contains(said), "\(refused.stderr)")
                #expect(refused.stderr.contains("Nothing was written."))
                #expect(
                    !(refused.stdout + refused.stderr).contains("s3cret") && !refused.stderr.contains("not-the-token"))
            }
            #expect(!FileManager.default.fileExists(atPath: fresh))
            // The source's token has its own flag: Roster's --token-file is never taken for it.
            let asked = fake.stdout.count
            let mixed = try await cli.run([
                "migrate", "--offline", "--from", "pagerduty", "--api", "http://127.0.0.1:\(port)", "--token-file",
                token, "-o", fresh,
            ])
            #expect(
                mixed.status == 64 && mixed.stderr.contains("--token-file is Roster's own token"), "\(mixed.stderr)")
            #expect(fake.stdout.count == asked, "nothing was asked of the API")
        }
    }

    @Test func pagerDutysSampleMigratesAppliesAndTheServerAgreesForNinetyDays() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let export = Self.examples.appendingPathComponent("pagerduty-export.json").path
            let finalPath = Self.examples.appendingPathComponent("pagerduty-final.json").path
            let file = admin.home.appendingPathComponent("roster.yaml").path

            let migrate = try await admin.run([
                "migrate", "--from", "pagerduty", export, "--verify-against", finalPath, "-o", file,
            ])
            #expect(migrate.status == 0, "\(migrate.stderr)")
            #expect(migrate.stdout.contains("Wrote \(file): 8 people, 3 schedules, 2 escalation policies, 2 services"))
            #expect(migrate.stdout.contains("0 differences over 90 days (3 schedules"), "\(migrate.stdout)")
            // Two of the export's people are the demo's (by e-mail): written as the demo has them.
            let written = try String(contentsOfFile: file, encoding: .utf8)
            #expect(written.contains("- id: demo-6\n") && written.contains("- id: demo-7\n"))
            #expect(migrate.stdout.contains("is Margaret Hamilton (demo-6) already in Roster"))

            let plan = try await admin.run(["plan", "-f", file])
            #expect(plan.status == 2 && plan.stdout.contains("+ schedule Checkout primary"), "\(plan.stdout)")
            let apply = try await admin.run(["apply", "-f", file, "--yes"])
            #expect(apply.status == 0, "\(apply.stderr)")

            // The server's answer over the window, schedule by schedule, is PagerDuty's list.
            let final = try JSONDecoder().decode(Final.self, from: Data(contentsOf: URL(fileURLWithPath: finalPath)))
            let people = ["PMH7MLT": "demo-6", "PKT8HMP": "demo-7"]
            for schedule in final.schedules {
                let answer = try await admin.run([
                    "oncall", "--schedule", schedule.name, "--from", final.since, "--to", final.until, "--json",
                ])
                #expect(answer.status == 0, "\(answer.stderr)")
                let shifts = try JSONDecoder().decode(OnCall.self, from: Data(answer.stdout.utf8)).shifts
                let ours = Self.joined(
                    shifts.map { ($0.employeeId, TimeText.parseISO8601($0.start)!, TimeText.parseISO8601($0.end)!) })
                let theirs = Self.joined(
                    schedule.final_schedule.rendered_schedule_entries.map {
                        (
                            people[$0.user.id] ?? "pagerduty-\($0.user.id)", TimeText.parseISO8601($0.start)!,
                            TimeText.parseISO8601($0.end)!
                        )
                    })
                #expect(ours == theirs, "\(schedule.name)")
                #expect(ours.count > 10, "\(schedule.name) has \(ours.count) stretches")
            }

            // A second run finds what the first made: nothing to do.
            let again = try await admin.run(["migrate", "--from", "pagerduty", export, "-o", file])
            #expect(again.status == 0 && again.stdout.contains("Not verified"), "\(again.stderr)")
            let replan = try await admin.run(["plan", "-f", file])
            #expect(replan.status == 0 && replan.stdout.contains("Nothing to do"), "\(replan.stdout)")

            // A list that differs: exit 12 with the stretch; an export cut short: exit 9, no file.
            var changed = try String(contentsOfFile: finalPath, encoding: .utf8)
            let entry = try #require(changed.range(of: "\"PXPGF42\""))
            changed.replaceSubrange(entry, with: "\"PJB0RG1\"")
            let changedPath = admin.home.appendingPathComponent("changed.json").path
            try changed.write(toFile: changedPath, atomically: false, encoding: .utf8)
            let differs = try await admin.run([
                "migrate", "--from", "pagerduty", export, "--verify-against", changedPath, "-o", file,
            ])
            #expect(differs.status == 12, "\(differs.stderr)")
            #expect(differs.stdout.contains("source has Jonas Berg, Roster has Lin Chen"), "\(differs.stdout)")
            #expect(differs.stdout.contains("1 difference over 90 days"), "\(differs.stdout)")

            let exportText = try String(contentsOfFile: export, encoding: .utf8)
            let cut = admin.home.appendingPathComponent("cut.json").path
            try String(exportText.prefix(exportText.count / 2)).write(toFile: cut, atomically: false, encoding: .utf8)
            let fresh = admin.home.appendingPathComponent("fresh.yaml").path
            let refused = try await admin.run(["migrate", "--from", "pagerduty", cut, "-o", fresh])
            #expect(refused.status == 9 && refused.stderr.contains("is not JSON"), "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was written"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh))
        }
    }
}
