import Foundation
import RosterTestSupport
import Testing

/// Issue #37's "done when", as a new user tries it on the demo with the built binaries: Ada
/// records two weeks off over her Platform primary week; `oncall` marks the conflict, a webhook
/// receiver gets `coverage.conflict` at once, the proposal names the free people with the fewest
/// hours, `--suggested` makes the override; a temporary schedule over 24–26 December replaces
/// the rotation there and nowhere else.
@Suite(.timeLimit(.minutes(10))) struct TimeOffCLITests {
    static let day: TimeInterval = 86_400

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// Who is on duty on Platform primary at `date`, from `oncall --json`.
    static func onDuty(_ admin: CLI, at date: Date) async throws -> [String] {
        let answer = try await admin.run([
            "oncall", "--schedule", "Platform primary", "--from", iso(date), "--to", iso(date + 60), "--json",
        ])
        return (answer.object["shifts"] as? [[String: Any]] ?? []).compactMap { $0["employee"] as? String }.sorted()
    }

    @Test func adasTwoWeeksOffAreFlaggedAnnouncedAndCoveredAndChristmasIsTemporary() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServerProcess(arguments: ["--demo"]) { server in
                let admin = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(admin.home) }
                let hook = try await admin.run([
                    "admin", "webhook", "add", receiver.url, "--events", "coverage.conflict",
                ])
                try #require(hook.status == 0, "\(hook.stderr)")

                // Ada's next Platform primary week.
                let hers = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--person", "Ada Lovelace", "--from", "now",
                    "--to", "+40d", "--json",
                ])
                let week = try #require(
                    (hers.object["shifts"] as? [[String: Any]])?.first { $0["source"] as? String == "rotation" },
                    "\(hers.stdout)")
                let start = try #require(ISO8601DateFormatter().date(from: week["start"] as? String ?? ""))
                let end = try #require(ISO8601DateFormatter().date(from: week["end"] as? String ?? ""))

                // Two weeks off across it.
                let off = try await admin.run([
                    "admin", "timeoff", "add", "Ada Lovelace", "--from", Self.iso(start - 3 * Self.day),
                    "--to", Self.iso(start + 11 * Self.day), "--reason", "two weeks in Lisbon",
                ])
                try #require(off.status == 0, "\(off.stderr)")
                // It says at once what it collides with, and how to cover it.
                #expect(
                    off.stdout.contains("Conflicts (on duty during time off):")
                        && off.stdout.contains("Ada Lovelace on Platform primary")
                        && off.stdout.contains("--suggested"), "\(off.stdout)")
                let listed = try await admin.run(["admin", "timeoff", "list", "Ada Lovelace"])
                #expect(listed.stdout.contains("two weeks in Lisbon"), "\(listed.stdout)")

                let oncall = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--from", Self.iso(start - Self.day),
                    "--to", Self.iso(end + Self.day), "--json",
                ])
                let conflicts = try #require(oncall.object["conflicts"] as? [[String: Any]], "\(oncall.stdout)")
                #expect(conflicts.count == 1)
                let conflict = try #require(conflicts.first)
                #expect(conflict["employee"] as? String == "Ada Lovelace")
                let proposals = try #require(conflict["proposals"] as? [[String: Any]])
                let hours = proposals.compactMap { $0["hoursAround"] as? Double }
                #expect(
                    proposals.count == 4 && hours == hours.sorted(), "free people, fewest hours first: \(proposals)")
                let first = try #require(proposals.first?["employee"] as? String)
                let table = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--from", Self.iso(start), "--to", Self.iso(end),
                ])
                #expect(
                    table.stdout.contains("Conflicts (on duty during time off):")
                        && table.stdout.contains("--suggested"), "\(table.stdout)")

                // The webhook heard it with the change.
                try await receiver.wait("coverage.conflict") { $0.contains { $0.eventType == "coverage.conflict" } }
                let data = try #require(
                    receiver.requests.first { $0.eventType == "coverage.conflict" }?.json["data"] as? [String: Any])
                #expect(data["conflict"] as? String == conflict["id"] as? String)

                // Or, in one step, a cover request asking the free people.
                let id = try #require(conflict["id"] as? String)
                let asked = try await admin.run(["request", "cover", "--suggested", id, "--json"])
                #expect(asked.status == 0, "\(asked.stdout)\(asked.stderr)")
                let requests = try await admin.run(["requests", "--state", "open", "--json"])
                #expect(
                    requests.stdout.contains("Ada Lovelace") && requests.stdout.contains(first), "\(requests.stdout)")
                if let request = asked.object["id"] as? String {
                    _ = try await admin.run(["request", "cancel", request, "--for", "Ada Lovelace"])
                }

                // Taking the proposal makes the override.
                let taken = try await admin.run(["admin", "override", "add", "--suggested", id])
                #expect(taken.status == 0 && taken.stdout.contains("\(first) gains"), "\(taken.stdout)\(taken.stderr)")
                #expect(try await Self.onDuty(admin, at: start + Self.day) == [first])
                let cleared = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--from", Self.iso(start), "--to", Self.iso(end),
                    "--json",
                ])
                #expect((cleared.object["conflicts"] as? [Any])?.isEmpty == true, "\(cleared.stdout)")

                // 24–26 December: a temporary schedule, and the rotation everywhere else.
                let year = Calendar(identifier: .gregorian).component(.year, from: Date() + 30 * Self.day)
                func date(_ day: Int, _ hour: Int = 0) -> Date {
                    var parts = DateComponents(
                        timeZone: TimeZone(identifier: "UTC"), year: year, month: 12, day: day, hour: hour)
                    parts.calendar = Calendar(identifier: .gregorian)
                    return parts.date!
                }
                let before = (
                    try await Self.onDuty(admin, at: date(23, 12)), try await Self.onDuty(admin, at: date(27, 12))
                )
                let set = try await admin.run([
                    "admin", "temporary", "add", "--schedule", "Platform primary",
                    "--from", Self.iso(date(24)), "--to", Self.iso(date(27)),
                    "--shift", "Grace Hopper \(Self.iso(date(24))) \(Self.iso(date(25, 12)))",
                    "--shift", "Alan Turing \(Self.iso(date(25, 12))) \(Self.iso(date(27)))",
                ])
                #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
                #expect(try await Self.onDuty(admin, at: date(24, 10)) == ["Grace Hopper"])
                #expect(try await Self.onDuty(admin, at: date(26, 10)) == ["Alan Turing"])
                let after = (
                    try await Self.onDuty(admin, at: date(23, 12)), try await Self.onDuty(admin, at: date(27, 12))
                )
                #expect(after == before, "the rotation holds outside the span")
                let gaps = try await admin.run([
                    "admin", "temporary", "add", "--schedule", "Platform primary", "--from", Self.iso(date(28)),
                    "--to", Self.iso(date(29)), "--shift",
                    "Grace Hopper \(Self.iso(date(28))) \(Self.iso(date(28, 12)))",
                ])
                #expect(gaps.status == 9 && gaps.stderr.contains("--allow-gaps"), "\(gaps.stderr)")
                let spans = try await admin.run(["admin", "temporary", "list", "--schedule", "Platform primary"])
                #expect(
                    spans.stdout.contains("Grace Hopper") && spans.stdout.contains("Alan Turing"), "\(spans.stdout)")
                // Times without a zone are the schedule's (Europe/Berlin, UTC+1 in December), as --handoff is.
                let local = try await admin.run([
                    "admin", "temporary", "add", "--schedule", "Platform primary",
                    "--from", "\(year)-12-30T00:00", "--to", "\(year)-12-31T00:00",
                    "--shift", "Grace Hopper \(year)-12-30T00:00 \(year)-12-31T00:00",
                ])
                #expect(local.status == 0, "\(local.stdout)\(local.stderr)")
                let listedSpans = try await admin.run([
                    "admin", "temporary", "list", "--schedule", "Platform primary", "--json",
                ])
                let berlin = (listedSpans.json as? [[String: Any]] ?? []).first {
                    ($0["start"] as? String)?.hasPrefix("\(year)-12-29") == true
                }
                #expect(
                    berlin?["start"] as? String == "\(year)-12-29T23:00:00Z"
                        && berlin?["end"] as? String == "\(year)-12-30T23:00:00Z",
                    "\(listedSpans.stdout)")
                // A span without shifts is the server's to refuse, naming the gap: input refused.
                let empty = try await admin.run([
                    "admin", "temporary", "add", "--schedule", "Platform primary",
                    "--from", "\(year + 1)-01-05T00:00", "--to", "\(year + 1)-01-06T00:00",
                ])
                #expect(empty.status == 9 && empty.stderr.contains("nobody is on duty"), "\(empty.stderr)")

                // An exported calendar as time off; importing it again changes nothing.
                let file = admin.home.appendingPathComponent("grace.ics")
                try
                    "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:conf-\(year)@example.org\nSUMMARY:Conference\nDTSTART;VALUE=DATE:\(year + 1)0301\nDTEND;VALUE=DATE:\(year + 1)0304\nEND:VEVENT\nEND:VCALENDAR\n"
                    .write(to: file, atomically: false, encoding: .utf8)
                let imported = try await admin.run([
                    "admin", "timeoff", "import", "Grace Hopper", file.path, "--zone", "Europe/Berlin",
                ])
                #expect(imported.status == 0, "\(imported.stderr)")
                let again = try await admin.run([
                    "admin", "timeoff", "import", "Grace Hopper", file.path, "--zone", "Europe/Berlin", "--json",
                ])
                #expect(
                    again.status == 0 && (again.object["changes"] as? [Any])?.isEmpty == true,
                    "\(again.stdout)\(again.stderr)")
                let graces = try await admin.run(["admin", "timeoff", "list", "Grace Hopper", "--json"])
                let entries = graces.json as? [[String: Any]] ?? []
                // 1 March at midnight in Berlin: the evening of 28 February in UTC, or of the 29th in a leap year.
                var berlinCalendar = Calendar(identifier: .gregorian)
                berlinCalendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
                let march = try #require(berlinCalendar.date(from: DateComponents(year: year + 1, month: 3, day: 1)))
                #expect(
                    entries.count == 1 && entries.first?["reason"] as? String == "Conference"
                        && entries.first?["start"] as? String == ISO8601DateFormatter().string(from: march),
                    "\(graces.stdout)")
            }
        }
    }

    /// A tenant holiday calendar: imported once, named by a restriction ("except holidays:NAME")
    /// and by the hours report, and kept while a restriction names it.
    @Test func aHolidayCalendarIsSkippedByRestrictionsAndCountedByTheReport() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            // The last three days and the next 40: every day a holiday.
            let file = admin.home.path + "/holidays.ics"
            try HolidayFile.allDays(from: -3, through: 40).write(toFile: file, atomically: false, encoding: .utf8)
            let imported = try await admin.run(["admin", "holidays", "import", "all-days", file])
            try #require(imported.status == 0, "\(imported.stderr)")
            let listed = try await admin.run(["admin", "holidays", "list"])
            #expect(listed.stdout.hasPrefix("all-days: 44 days"), "\(listed.stdout)")

            // A weekday rotation that skips them is on duty nowhere in the next weeks; without, it is.
            for (name, restrict) in [
                ("Office", "Mon-Fri 00:00-24:00 except holidays:all-days"), ("Plain office", "Mon-Fri 00:00-24:00"),
            ] {
                try #require(try await admin.run(["admin", "schedule", "add", name, "--zone", "UTC"]).status == 0)
                let rotation = try await admin.run([
                    "admin", "rotation", "add", "--schedule", name, "--every", "1d", "--handoff", "2026-01-01T00:00",
                    "--people", "Ada Lovelace,Alan Turing", "--restrict", restrict,
                ])
                try #require(rotation.status == 0, "\(rotation.stderr)")
            }
            let skipped = try await admin.run([
                "oncall", "--schedule", "Office", "--from", "now", "--to", "+30d", "--json",
            ])
            #expect((skipped.object["shifts"] as? [Any])?.isEmpty == true, "\(skipped.stdout)")
            let plain = try await admin.run([
                "oncall", "--schedule", "Plain office", "--from", "now", "--to", "+30d", "--json",
            ])
            #expect((plain.object["shifts"] as? [Any])?.isEmpty == false, "\(plain.stdout)")
            let shown = try await admin.run(["schedule", "show", "Office"])
            #expect(shown.stdout.contains("except holidays:all-days"), "\(shown.stdout)")

            // Kept while named; the report counts its days as holiday time.
            let delete = try await admin.run(["admin", "holidays", "delete", "all-days"])
            #expect(delete.status == 9 && delete.stderr.contains("Office"), "\(delete.stderr)")
            let report = try await admin.run([
                "report", "hours", "--from", "2d ago", "--to", "now", "--schedule", "Platform primary",
                "--zone", "UTC", "--holidays", "all-days", "--json",
            ])
            try #require(report.status == 0, "\(report.stderr)")
            let people = try #require((report.json as? [String: Any])?["people"] as? [[String: Any]])
            #expect(!people.isEmpty)
            for person in people {
                #expect(
                    (person["categories"] as? [String: String])?["holiday"] == person["total_hours"] as? String,
                    "\(person)")
            }
            let unknown = try await admin.run([
                "report", "hours", "--from", "2d ago", "--to", "now", "--holidays", "nowhere",
            ])
            #expect(
                unknown.status != 0 && unknown.stderr.contains("neither a file nor a holiday calendar"),
                "\(unknown.stderr)")
        }
    }
}
