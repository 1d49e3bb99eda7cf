import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// Issue #36 as a new user meets it, on the demo with the built binaries: the hours of the last
/// 30 days as CSV for a spreadsheet (one row per person, categories adding up to the total), the
/// quality of "Support business hours" listing its nightly and weekend gaps, a holiday file, and
/// the errors a user makes.
@Suite(.timeLimit(.minutes(10))) struct ReportCLITests {
    @Test func hoursAsCSVAndTheSupportScheduleGaps() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let csv = try await admin.run(["report", "hours", "--from", "30d ago", "--to", "now", "--csv"])
            try #require(csv.status == 0, "\(csv.stderr)")
            // --to defaults to now, as the API's `to` does.
            let untilNow = try await admin.run(["report", "hours", "--from", "30d ago", "--csv"])
            #expect(
                untilNow.status == 0
                    && untilNow.stdout.split(separator: "\r\n").first == csv.stdout.split(separator: "\r\n").first,
                "\(untilNow.stderr)")
            let rows = csv.stdout.split(separator: "\r\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(rows.first?.prefix(3) == ["person", "employee_id", "total_hours"])
            let people = rows.dropFirst().map { $0[1] }
            #expect(people.count == Set(people).count && people.count >= 20, "one row per person: \(people)")
            for row in rows.dropFirst() {
                let total = try #require(Double(row[2])), parts = row[3...7].compactMap(Double.init)
                #expect(parts.count == 5 && abs(parts.reduce(0, +) - total) < 0.001, "\(row)")
            }
            // The Support schedule: 14:00-22:00 UTC on workdays in New York, so gaps every night and weekend.
            let quality = try await admin.run(["report", "quality", "--schedule", "Support business hours", "--json"])
            try #require(quality.status == 0, "\(quality.stderr)")
            let gaps = try #require((quality.json as? [String: Any])?["gaps"] as? [[String: Any]])
            let lengths = gaps.compactMap { ($0["hours"] as? String).flatMap(Double.init) }
            #expect(lengths.contains(16), "a night: \(lengths)")
            #expect(lengths.contains { $0 >= 64 }, "a weekend: \(lengths)")
            let table = try await admin.run(["report", "quality", "--schedule", "Support business hours"])
            #expect(table.status == 0 && table.stdout.contains("Gaps (nobody on duty)"), "\(table.stdout)")
        }
    }

    @Test func holidaysFromAFileAndMistakesAreNamed() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            // Every day of the window a holiday: all hours are holiday hours.
            let file = admin.home.path + "/holidays.ics"
            try HolidayFile.allDays(from: -3, through: 1).write(toFile: file, atomically: false, encoding: .utf8)
            let json = try await admin.run([
                "report", "hours", "--from", "2d ago", "--to", "now", "--schedule", "Platform primary",
                "--zone", "UTC", "--holidays", file, "--json",
            ])
            try #require(json.status == 0, "\(json.stderr)")
            let people = try #require((json.json as? [String: Any])?["people"] as? [[String: Any]])
            #expect(!people.isEmpty)
            for person in people {
                let categories = try #require(person["categories"] as? [String: String])
                #expect(categories["holiday"] == person["total_hours"] as? String, "\(person)")
            }
            // The table's header labels its times with their zone.
            let table = try await admin.run([
                "report", "hours", "--from", "2d ago", "--schedule", "Platform primary", "--utc",
            ])
            let head = try #require(
                table.stdout.split(separator: "\n").first { $0.hasPrefix("From ") }, "\(table.stdout)\(table.stderr)")
            #expect(
                head.range(of: #"^From \S+ \d\d:\d\d to \S+ \d\d:\d\d UTC[;.]"#, options: .regularExpression) != nil,
                "\(head)")
            let bad = try await admin.run([
                "report", "hours", "--from", "30d ago", "--to", "now", "--business-hours", "9-5",
                "--workdays", "Mon+Fri",
            ])
            #expect(bad.status == 9, "\(bad.stderr)")
            #expect(
                bad.stderr.contains("business_hours") && bad.stderr.contains("workdays"),
                "every problem at once: \(bad.stderr)")
            let long = try await admin.run(["report", "hours", "--from", "500d ago", "--to", "now"])
            #expect(long.status == 9 && long.stderr.contains("400 days"), "\(long.stderr)")
            let reader = CLI(port: server.port, token: "")
            defer { TestScratch.remove(reader.home) }
            let refused = try await reader.run(["report", "quality", "--schedule", "Platform primary"])
            #expect(refused.status == 7, "\(refused.stderr)")
        }
    }
}
