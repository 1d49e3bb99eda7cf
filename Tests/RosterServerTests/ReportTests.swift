import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// Reports on a real server (issue #36): the duty record keeps the past as it was when a later
/// change would rewrite it, hours and quality come over the protocol and over HTTP with the
/// same numbers, and who may ask is checked.
@Suite(.timeLimit(.minutes(10))) struct ReportTests {
    static let hour: Int64 = 3_600_000
    /// Monday 2026-11-30 12:00 UTC; a daily rotation of Ada, Alan, Grace, Linus from 09:00 that day.
    static let now = SelfServiceTests.now
    static let mondayNine = TimeText.parseISO8601("2026-11-30T09:00:00Z")!

    static func hours(_ connection: RosterConnection, from: UnixMillis, to: UnixMillis, person: String = "")
        async throws
        -> [String: Roster_V1_PersonHours]
    {
        guard
            case .report(let report) = try await connection.request(
                .getReport(
                    .with {
                        $0.kind = .hours
                        $0.fromMs = from
                        $0.toMs = to
                        $0.person = person
                    }))
        else { throw TestFailure("expected Report") }
        return Dictionary(uniqueKeysWithValues: report.people.map { ($0.name, $0) })
    }

    /// Linus covers Ada on Monday 13:00-15:00 by an override; on Wednesday the override is
    /// deleted. The past is what happened: Linus keeps his two hours, recorded by the deleting
    /// commit itself (no recording round ran in between) — and a later round changes nothing.
    @Test func aLaterEditNeverRewritesThePast() async throws {
        try await withServer(now: Self.now) { harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            let added = try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .replace
                            $0.replacedEmployeeID = team.ada
                            $0.employeeID = team.linus
                            $0.startMs = Self.now + Self.hour
                            $0.endMs = Self.now + 3 * Self.hour
                        }
                    }))
            harness.clock.advance(to: Self.now + 48 * Self.hour)  // Wednesday 12:00
            let window = (Self.mondayNine, Self.mondayNine + 48 * Self.hour)
            let before = try await Self.hours(team.admin, from: window.0, to: window.1)
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.deleteOverride = added.ids.first { $0.hasPrefix("ovr_") } ?? ""
                    }))
            let after = try await Self.hours(team.admin, from: window.0, to: window.1)
            #expect(after["Linus Torvalds"]?.totalMs == 2 * Self.hour)
            #expect(after["Linus Torvalds"]?.overrideMs == 2 * Self.hour)
            #expect(after["Ada Lovelace"]?.totalMs == 22 * Self.hour)
            #expect(after["Alan Turing"]?.totalMs == 24 * Self.hour)
            #expect(after == before, "the deletion changed the past")
            await harness.server.recordDuty()
            #expect(try await Self.hours(team.admin, from: window.0, to: window.1) == after)
            // The future follows the definitions: Ada's next turn (Tuesday next week) is whole.
            let adaNext = Self.mondayNine + 8 * 24 * Self.hour
            #expect(
                try await Self.hours(team.admin, from: adaNext, to: adaNext + 24 * Self.hour)["Ada Lovelace"]?.totalMs
                    == 24 * Self.hour)
        }
    }

    /// A schedule deleted today keeps its recorded hours in reports of every schedule.
    @Test func aDeletedScheduleKeepsItsRecordedHours() async throws {
        try await withServer(now: Self.now) { harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            harness.clock.advance(to: Self.now + 24 * Self.hour)
            await harness.server.recordDuty()
            harness.clock.advance(to: Self.now + 30 * Self.hour)
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.deleteSchedule = true
                    }))
            guard
                case .report(let report) = try await team.admin.request(
                    .getReport(
                        .with {
                            $0.kind = .hours
                            $0.fromMs = Self.now
                            $0.toMs = Self.now + 30 * Self.hour
                        }))
            else { throw TestFailure("expected Report") }
            let byName = Dictionary(uniqueKeysWithValues: report.people.map { ($0.name, $0) })
            // Ada until Tuesday 09:00 (21 h from Monday 12:00), then Alan (9 h to 18:00).
            #expect(byName["Ada Lovelace"]?.totalMs == 21 * Self.hour)
            #expect(byName["Alan Turing"]?.totalMs == 9 * Self.hour)
            #expect(byName["Alan Turing"]?.schedules.first?.scheduleName.hasSuffix("(deleted)") == true)
        }
    }

    /// A person's token reads its own hours and nobody else's; quality is for admins; a window
    /// over 400 days is refused; the server keeps answering everyone.
    @Test func whoMayAskIsChecked() async throws {
        try await SelfServiceTests.withPeople { people, harness, _ in
            let window = (from: Self.mondayNine, to: Self.mondayNine + 7 * 24 * Self.hour)
            let own = try await Self.hours(people.grace, from: window.from, to: window.to)
            #expect(Array(own.keys) == ["Grace Hopper"])
            #expect(own["Grace Hopper"]?.totalMs == 48 * Self.hour)  // Wednesday and next Sunday
            let others = try await ScheduleServerTests.refusal(
                people.grace,
                .getReport(
                    .with {
                        $0.kind = .hours
                        $0.fromMs = window.from
                        $0.toMs = window.to
                        $0.person = "Ada Lovelace"
                    }))
            #expect(others.code == .invalidArgument)
            let quality = try await ScheduleServerTests.refusal(
                people.grace,
                .getReport(
                    .with {
                        $0.kind = .quality
                        $0.fromMs = window.from
                        $0.toMs = window.to
                        $0.schedule = "Platform primary"
                    }))
            #expect(quality.code == .permissionDenied)
            let nobody = try await ScheduleServerTests.refusal(
                people.nobody,
                .getReport(
                    .with {
                        $0.kind = .hours
                        $0.fromMs = window.from
                        $0.toMs = window.to
                    }))
            #expect(nobody.code == .permissionDenied)
            let tooLong = try await ScheduleServerTests.refusal(
                people.team.admin,
                .getReport(
                    .with {
                        $0.kind = .hours
                        $0.fromMs = window.from
                        $0.toMs = window.from + 401 * 24 * Self.hour
                    }))
            #expect(tooLong.code == .invalidArgument)
            let badOptions = try await ScheduleServerTests.refusal(
                people.team.admin,
                .getReport(
                    .with {
                        $0.kind = .hours
                        $0.fromMs = window.from
                        $0.toMs = window.to
                        $0.businessHours = "9-5"
                        $0.holidays = ["2026-02-30"]
                    }))
            #expect(badOptions.code == .invalidArgument)
            #expect(badOptions.violations.map(\.field) == ["business_hours", "holidays"])
            // Everyone else is still served.
            guard case .onDuty = try await people.ada.request(.getOnDuty(.init())) else {
                throw TestFailure("expected OnDuty")
            }
            _ = harness
        }
    }

    /// A year of a minutely rotation is more than one request may resolve: the report is refused
    /// with RESOURCE_EXHAUSTED, naming the way out, while another client is answered meanwhile.
    @Test func aReportTooCostlyIsRefusedWhileOthersAreServed() async throws {
        try await withServer(now: Self.now) { harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .minutes; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            let healthy = try await harness.connect(token: harness.adminToken)
            try await withCleanup(healthy, cleanUp: { await $0.close() }) { healthy in
                async let refused = ScheduleServerTests.refusal(
                    team.admin,
                    .getReport(
                        .with {
                            $0.kind = .hours
                            $0.fromMs = Self.mondayNine
                            $0.toMs = Self.mondayNine + 365 * 24 * Self.hour
                        }))
                async let answered = healthy.request(.getOnDuty(.with { $0.schedule = "Platform primary" }))
                let (error, onDuty) = try await (refused, answered)
                #expect(error.code == .resourceExhausted)
                #expect(error.message.contains("shorter window"), "\(error.message)")
                guard case .onDuty(let now) = onDuty else { throw TestFailure("expected OnDuty") }
                #expect(now.current.count == 1)
                // A day of it is fine.
                let day = try await Self.hours(team.admin, from: Self.mondayNine, to: Self.mondayNine + 24 * Self.hour)
                #expect(day.values.reduce(0) { $0 + $1.totalMs } == 24 * Self.hour)
            }
        }
    }

    /// Over HTTP the same numbers: CSV with one row per person whose categories add up, JSON
    /// with the quality report's gaps; errors as problems.
    @Test func httpServesTheSameReportAsCSVAndJSON() async throws {
        try await withServer(now: Self.now, configure: { $0.httpListen = HostPort(host: "127.0.0.1", port: 0) }) {
            harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            let base = "http://127.0.0.1:\(harness.server.httpPort ?? 0)"
            let from = "2026-11-30T09:00:00Z", to = "2026-12-07T09:00:00Z"
            let csv = try await HTTPGet.request(
                base + "/v1/reports/hours?from=\(from)&to=\(to)&format=csv&night=22:00-06:00",
                token: harness.adminToken)
            #expect(csv.status == 200)
            #expect(csv.headers.contains("text/csv"))
            let rows = csv.body.split(separator: "\r\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(rows.count == 5)  // the header and four people
            for row in rows.dropFirst() {
                let total = Double(row[2])!, parts = row[3...7].map { Double($0)! }
                #expect(abs(parts.reduce(0, +) - total) < 0.001, "\(row)")
            }
            let protocolHours = try await Self.hours(
                team.admin, from: TimeText.parseISO8601(from)!, to: TimeText.parseISO8601(to)!)
            let csvTotals = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], $0[2]) })
            #expect(csvTotals == protocolHours.mapValues { ReportFormats.hours($0.totalMs) })
            let quality = try await HTTPGet.request(
                base + "/v1/reports/quality?from=\(from)&to=\(to)&schedule=Platform%20primary",
                token: harness.adminToken)
            #expect(quality.status == 200)
            // Monday 09:00 to the next: covered throughout, four people of 42 h mean.
            #expect(quality.json["coverage_percent"] as? Double == 100)
            #expect((quality.json["gaps"] as? [Any])?.isEmpty == true)
            let refused = try await HTTPGet.request(
                base + "/v1/reports/hours?from=\(from)&workdays=Someday", token: harness.adminToken)
            #expect(refused.status == 400)
            #expect(refused.body.contains("workdays"))
            let anonymous = try await HTTPGet.request(base + "/v1/reports/hours?from=\(from)")
            #expect(anonymous.status == 401)
        }
    }

    /// The web app's chart and the /metrics gauges show the report's numbers: each person's
    /// total on the page is the protocol's, and the coverage gauge (the last 28 days, measured by
    /// the scrape) is `report quality`'s over that window, part of it from the duty record.
    @Test func theWebChartAndTheGaugesShowTheSameNumbers() async throws {
        try await withServer(now: Self.now, configure: { $0.httpListen = HostPort(host: "127.0.0.1", port: 0) }) {
            harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            harness.clock.advance(to: Self.now + 3 * 24 * Self.hour)
            await harness.server.recordDuty()
            let now = harness.clock.now(), from = now - 28 * 24 * Self.hour
            let base = "http://127.0.0.1:\(harness.server.httpPort ?? 0)"
            let page = try await HTTPGet.request(
                base + "/schedules/Platform%20primary/hours", token: harness.adminToken)
            #expect(page.status == 200)
            let hours = try await Self.hours(team.admin, from: from, to: now)
            #expect(hours.count == 4)
            // Each person's row has every column `report hours` prints, in its order.
            #expect(
                page.body.contains(
                    "<tr>" + (["Person"] + ReportFormats.personColumns).map { "<th>\($0)</th>" }.joined() + "</tr>"))
            for (name, person) in hours {
                let row = ([name] + ReportFormats.personRow(person)).map { "<td>\($0)</td>" }.joined()
                #expect(
                    page.body.contains(row)
                        && ReportFormats.personRow(person).count == ReportFormats.personColumns.count, "\(name)")
            }
            // The legend's entries do not run into each other: each starts past the one before's label.
            let legend = try #require(page.body.components(separatedBy: "class=\"c-business\" x=\"").last)
            let entries = legend.components(separatedBy: "<text x=\"").dropFirst().compactMap {
                part -> (x: Int, label: String)? in
                let x = Int(part.prefix { $0.isNumber }) ?? -1
                guard let label = part.split(separator: ">").dropFirst().first?.split(separator: "<").first else {
                    return nil
                }
                return (x, String(label))
            }
            #expect(entries.count == 5, "\(entries)")
            for (before, after) in zip(entries, entries.dropFirst()) where after.x > before.x {
                #expect(after.x - before.x >= before.label.count * 7 + 16, "\(before) runs into \(after)")
            }
            guard
                case .report(let quality) = try await team.admin.request(
                    .getReport(
                        .with {
                            $0.kind = .quality
                            $0.fromMs = from
                            $0.toMs = now
                            $0.schedule = "Platform primary"
                        }))
            else { throw TestFailure("expected Report") }
            // The first scrape starts the measurement; a later one shows it (the clock stands still).
            var line: Substring?
            let measured = await eventually(20) {
                let metrics = try? await HTTPGet.request(base + "/metrics", token: harness.adminToken)
                line = metrics?.body.split(separator: "\n").first {
                    $0.hasPrefix("roster_schedule_coverage_percent{tenant=\"demo\",schedule=\"Platform primary\"}")
                }
                return line != nil
            }
            #expect(measured)
            let gauge = line.flatMap { Double($0.split(separator: " ").last ?? "") }
            #expect(
                gauge.map { abs($0 - quality.quality.coveragePercent) < 1e-6 } == true, "\(String(describing: line))")
            // Readers are refused the page, as over the protocol.
            let reader = try await HTTPGet.request(base + "/schedules/Platform%20primary/hours")
            #expect(reader.status == 403 || reader.status == 401 || reader.status == 303)
        }
    }
}
