import Foundation
import RosterDomain
import RosterMigration

/// `roster-client migrate --from pagerduty --verify-against` (issue #57) on an export of a big
/// organisation: `people` users, `schedules` schedules in three zones (a weekly layer of five and
/// a weekend layer of three, two overrides each), `policies` escalation policies and as many
/// services, with a rendered list of `days` days. The real binary, offline; wall time and its
/// peak resident memory. The rendered list is made from Roster's own resolution: this measures
/// the work, the proof is the tests'.
package struct MigrationBenchmark {
    package var people: Int
    package var schedules: Int
    package var policies: Int
    package var days: Int
    package var runs: Int
    package var clientExecutable: URL

    package init(people: Int, schedules: Int, policies: Int, days: Int, runs: Int, clientExecutable: URL) {
        (self.people, self.schedules, self.policies, self.days, self.runs) = (people, schedules, policies, days, runs)
        self.clientExecutable = clientExecutable
    }

    package struct Result {
        package var exportBytes: Int
        package var renderedBytes: Int
        package var renderedEntries: Int
        package var wall: LatencySummary
        /// The same without --verify-against: reading the export and writing the file.
        package var alone: LatencySummary
        package var peakKiB: Int
        package var output: String
    }

    static let since = "2027-01-04T00:00:00Z"

    package func run() throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-migrate-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try JSONSerialization.data(withJSONObject: exportObject(), options: [.sortedKeys])
        let (rendered, entries) = try renderedList(export)
        let exportFile = directory.appendingPathComponent("export.json")
        let renderedFile = directory.appendingPathComponent("final.json")
        try export.write(to: exportFile)
        try rendered.write(to: renderedFile)
        var walls: [UInt64] = [], alone: [UInt64] = []
        var output = ""
        for run in 0..<(2 * max(1, runs)) {
            let verify = run % 2 == 0
            let process = Process()
            process.executableURL = clientExecutable
            process.arguments =
                [
                    "migrate", "--offline", "--from", "pagerduty", exportFile.path,
                    "-o", directory.appendingPathComponent("roster.yaml").path, "--report",
                    directory.appendingPathComponent("report.txt").path,
                ] + (verify ? ["--verify-against", renderedFile.path] : [])
            let pipe = Pipe()
            process.standardOutput = pipe
            let began = nanos()
            try process.run()
            let text = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if verify { walls.append(nanos() - began) } else { alone.append(nanos() - began) }
            if verify { output = String(decoding: text, as: UTF8.self) }
            guard process.terminationStatus == 0 else {
                throw BenchError(
                    "migrate exited \(process.terminationStatus): \(String(decoding: text, as: UTF8.self))")
            }
        }
        // The largest resident set of any child waited for: every run is the same work.
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Result(
            exportBytes: export.count, renderedBytes: rendered.count, renderedEntries: entries,
            wall: LatencySummary(walls), alone: LatencySummary(alone), peakKiB: Int(usage.ru_maxrss), output: output)
    }

    func exportObject() -> [String: Any] {
        func reference(_ id: String, _ type: String) -> [String: Any] { ["id": id, "type": type] }
        let users: [[String: Any]] = (0..<people).map { index in
            [
                "id": "PU\(index)", "type": "user", "name": "Person\(index) Surname\(index % 37)",
                "email": "person\(index)@bench.example", "job_title": "Engineer", "time_zone": "UTC", "color": "red",
            ]
        }
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]
        let schedulesList: [[String: Any]] = (0..<schedules).map { index in
            let member = { (offset: Int) in
                ["user": reference("PU\((index * 5 + offset) % max(1, people))", "user_reference")]
            }
            return [
                "id": "PS\(index)", "type": "schedule", "name": "Schedule \(index)", "time_zone": zones[index % 3],
                "schedule_layers": [
                    [
                        "id": "PL\(index)a", "start": "2022-01-03T08:00:00Z",
                        "rotation_virtual_start": "2022-01-03T08:00:00Z",
                        "rotation_turn_length_seconds": 604_800, "users": (0..<5).map(member), "restrictions": [],
                    ],
                    [
                        "id": "PL\(index)b", "start": "2024-06-01T08:00:00Z",
                        "rotation_virtual_start": "2024-06-01T08:00:00Z",
                        "rotation_turn_length_seconds": 86_400, "users": (5..<8).map(member),
                        "restrictions": [
                            [
                                "type": "weekly_restriction", "start_day_of_week": 6, "start_time_of_day": "08:00:00",
                                "duration_seconds": 172_800,
                            ]
                        ],
                    ],
                ],
                "overrides": [
                    [
                        "id": "PO\(index)a", "start": "2027-01-20T10:00:00Z", "end": "2027-01-21T10:00:00Z",
                        "user": reference("PU\((index * 5 + 9) % max(1, people))", "user_reference"),
                    ],
                    [
                        "id": "PO\(index)b", "start": "2027-02-27T00:00:00Z", "end": "2027-03-01T12:00:00Z",
                        "user": reference("PU\((index * 5 + 11) % max(1, people))", "user_reference"),
                    ],
                ],
            ]
        }
        let policyList: [[String: Any]] = (0..<policies).map { index in
            [
                "id": "PE\(index)", "type": "escalation_policy", "name": "Policy \(index)", "num_loops": 1,
                "escalation_rules": [
                    [
                        "escalation_delay_in_minutes": 15,
                        "targets": [reference("PS\(index % max(1, schedules))", "schedule_reference")],
                    ],
                    [
                        "escalation_delay_in_minutes": 30,
                        "targets": [reference("PU\(index % max(1, people))", "user_reference")],
                    ],
                ],
            ]
        }
        let services: [[String: Any]] = (0..<policies).map { index in
            [
                "id": "PV\(index)", "type": "service", "name": "Service \(index)",
                "escalation_policy": reference("PE\(index)", "escalation_policy_reference"),
            ]
        }
        return [
            "users": users, "teams": [], "schedules": schedulesList, "escalation_policies": policyList,
            "services": services,
        ]
    }

    /// PagerDuty's rendered list shape, from the migrated schedules resolved over the window.
    func renderedList(_ export: Data) throws -> (Data, Int) {
        let from = TimeText.parseISO8601(Self.since)!, to = from + UnixMillis(days) * 86_400_000
        let migration = try Migration.read(
            export, from: .pagerDuty, name: "export.json",
            directory: RosterState(tenant: Tenant(id: "bench", name: "Bench")), now: from)
        let sourceOf = Dictionary(migration.personIDs.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var count = 0
        var list: [[String: Any]] = []
        for (sourceID, scheduleID) in migration.scheduleIDs.sorted(by: { $0.key < $1.key }) {
            guard let definition = migration.state.definition(of: scheduleID) else { continue }
            var budget = ResolutionBudget(limit: 4 * ResolutionBudget.perRequest)
            let shifts = try ScheduleResolver.resolve(definition, from: from, to: to, budget: &budget)
            count += shifts.count
            list.append([
                "id": sourceID,
                "final_schedule": [
                    "rendered_schedule_entries": shifts.map {
                        [
                            "start": TimeText.iso8601($0.start), "end": TimeText.iso8601($0.end),
                            "user": ["id": sourceOf[$0.employeeID] ?? $0.employeeID],
                        ]
                    }
                ],
            ])
        }
        let object: [String: Any] = ["since": Self.since, "until": TimeText.iso8601(to), "schedules": list]
        return (try JSONSerialization.data(withJSONObject: object), count)
    }
}
