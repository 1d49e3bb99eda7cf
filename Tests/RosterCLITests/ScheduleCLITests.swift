import Foundation
import RosterTestSupport
import Testing

/// Schedules through the built roster-client against a real roster-server, as a new user would.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ScheduleCLITests {
    /// These tests' dates were written for the weeks from Monday 30 November 2026. A server
    /// process reads the real clock (an override in the past is no longer listed as coming, nor a
    /// turn beyond "the next 4 weeks"), so they move on by whole weeks until they are ahead.
    static let weeks: Int = {
        let written = ISO8601DateFormatter().date(from: "2026-11-30T00:00:00Z")!
        return max(0, Int((Date().timeIntervalSince(written) / (7 * 86_400) + 1 / 7).rounded(.up)))
    }()

    /// A date or a local time as written ("2026-11-30T09:00", "2026-12-14 09:00"), moved on by `weeks`.
    static func day(_ written: String) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let date = ISO8601DateFormatter().date(from: String(written.prefix(10)) + "T00:00:00Z")!
        let moved = ISO8601DateFormatter().string(from: utc.date(byAdding: .day, value: 7 * weeks, to: date)!)
        return String(moved.prefix(10)) + written.dropFirst(10)
    }

    /// An instant written in UTC ("2026-12-02T00:00:00Z", or "2026-12-02 00:00" as shown with
    /// --utc) moved on by `weeks` at the same Berlin wall time, as the schedule's handoffs move:
    /// an hour earlier in UTC if the weeks reach summer time.
    static func at(_ written: String) -> String {
        let iso = ISO8601DateFormatter()
        let shown = !written.hasSuffix("Z")
        let instant = iso.date(from: shown ? written.replacingOccurrences(of: " ", with: "T") + ":00Z" : written)!
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let moved = iso.string(from: berlin.date(byAdding: .day, value: 7 * weeks, to: instant)!)
        return shown ? String(moved.prefix(16)).replacingOccurrences(of: "T", with: " ") : moved
    }

    static let window = ["--from", "\(Self.at("2026-11-30T00:00:00Z"))", "--to", "\(Self.at("2027-01-04T00:00:00Z"))"]

    /// The issue's acceptance sequence, word for word.
    func platformPrimary(_ cli: CLI) async throws {
        for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper"), ("Linus", "Torvalds")] {
            let added = try await cli.run(["admin", "employee", "add", "--first", first, "--last", last])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let schedule = try await cli.run(["admin", "schedule", "add", "Platform primary", "--zone", "Europe/Berlin"])
        #expect(schedule.status == 0, "\(schedule.stderr)")
        let rotation = try await cli.run([
            "admin", "rotation", "add", "--schedule", "Platform primary", "--every", "1w",
            "--handoff", "\(Self.day("2026-11-30T09:00"))", "--people",
            "Ada Lovelace,Alan Turing,Grace Hopper,Linus Torvalds",
        ])
        #expect(rotation.status == 0, "\(rotation.stderr)")
        let override = try await cli.run([
            "admin", "override", "add", "--schedule", "Platform primary", "--replace", "Ada Lovelace",
            "--with", "Alan Turing", "--from", "\(Self.at("2026-12-02T00:00:00Z"))", "--to",
            "\(Self.at("2026-12-03T00:00:00Z"))",
        ])
        #expect(override.status == 0, "\(override.stderr)")
        // The id it made, which `override remove` takes.
        #expect(
            override.stdout.split(separator: "\n").contains { $0.hasPrefix("  override: ") && $0.count > 14 },
            "\(override.stdout)")
    }

    @Test func theAcceptanceScenarioThenTheSameAnswerOffline() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await platformPrimary(cli)
            let online = try await cli.run(["oncall", "--schedule", "Platform primary"] + Self.window + ["--json"])
            #expect(online.status == 0, "\(online.stderr)")
            let answer = try #require(online.json as? [String: Any])
            #expect(answer["truncated"] as? Bool == false)
            let shifts = try #require(answer["shifts"] as? [[String: Any]])
            #expect(
                shifts.map { "\($0["employee"]!) \($0["start"]!) \($0["end"]!)" } == [
                    "Ada Lovelace \(Self.at("2026-11-30T08:00:00Z")) \(Self.at("2026-12-02T00:00:00Z"))",
                    "Alan Turing \(Self.at("2026-12-02T00:00:00Z")) \(Self.at("2026-12-03T00:00:00Z"))",
                    "Ada Lovelace \(Self.at("2026-12-03T00:00:00Z")) \(Self.at("2026-12-07T08:00:00Z"))",
                    "Alan Turing \(Self.at("2026-12-07T08:00:00Z")) \(Self.at("2026-12-14T08:00:00Z"))",
                    "Grace Hopper \(Self.at("2026-12-14T08:00:00Z")) \(Self.at("2026-12-21T08:00:00Z"))",
                    "Linus Torvalds \(Self.at("2026-12-21T08:00:00Z")) \(Self.at("2026-12-28T08:00:00Z"))",
                    "Ada Lovelace \(Self.at("2026-12-28T08:00:00Z")) \(Self.at("2027-01-04T00:00:00Z"))",
                ])
            #expect(
                shifts[1]["source"] as? String == "override"
                    && (shifts[1]["sourceId"] as? String)?.hasPrefix("ovr_") == true
                    && (shifts[1]["sourceText"] as? String)?.hasPrefix("override ovr_") == true, "\(shifts[1])")
            #expect(
                shifts.allSatisfy {
                    $0["id"] is String && $0["employeeId"] is String && $0["schedule"] as? String == "Platform primary"
                })

            // The same answer from the cache, offline, and with the server gone.
            let offline = try await cli.run(
                ["oncall", "--schedule", "Platform primary"] + Self.window + ["--json", "--offline"])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stdout == online.stdout)
            await server.terminate()
            // Refused from now on, not taken by another test's listener.
            let gone = try RefusingPort(holding: server.port)
            defer { withExtendedLifetime(gone) {} }
            let unreachable = try await cli.run(
                ["oncall", "--schedule", "Platform primary"] + Self.window + ["--json"])
            #expect(unreachable.status == 3, "answered from the cache: \(unreachable.stderr)")
            #expect(unreachable.stdout == online.stdout)
        }
    }

    /// `show PERSON` lists their duty from rotation turns and overrides too, not only one-off
    /// shifts (the rotation's four-week cycle puts everyone on duty in any four weeks).
    @Test func showAPersonListsTheirDutyFromEverySource() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await platformPrimary(cli)
            let shown = try await cli.run(["show", "Grace Hopper"])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("No upcoming shifts."), "she has no one-off shift: \(shown.stdout)")
            #expect(
                shown.stdout.contains("On duty in the next 4 weeks") && shown.stdout.contains("Platform primary"),
                "\(shown.stdout)")
            let json = try await cli.run(["show", "Grace Hopper", "--json"])
            let duty = try #require((json.json as? [String: Any])?["duty"] as? [[String: Any]])
            #expect(!duty.isEmpty && duty.allSatisfy { $0["source"] as? String == "rotation" }, "\(duty)")
            // Each is a whole weekly turn (an hour more or less across a change of the clocks),
            // not cut where the four weeks shown begin or end.
            let lengths = duty.compactMap { entry -> Double? in
                guard let start = (entry["start"] as? String).flatMap(ISO8601DateFormatter().date(from:)),
                    let end = (entry["end"] as? String).flatMap(ISO8601DateFormatter().date(from:))
                else { return nil }
                return end.timeIntervalSince(start) / 3600
            }
            #expect(lengths.count == duty.count && lengths.allSatisfy { (167...169).contains($0) }, "\(duty)")
            // With the server gone, from the cache: the same duty.
            await server.terminate()
            let offline = try await cli.run(["show", "Grace Hopper", "--json"])
            #expect(offline.status == 3, "answered from the cache: \(offline.stderr)")
            #expect(
                ((offline.json as? [String: Any])?["duty"] as? [[String: Any]])?.count == duty.count,
                "\(offline.stderr) \(offline.stdout)")
        }
    }

    /// Removals say what went by name; `remove` is the verb everywhere (`delete` still works).
    @Test func removalsNameWhatTheyRemoved() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await platformPrimary(cli)
            let shown = try await cli.run(["schedule", "show", "Platform primary"])
            let overrideID = try #require(
                shown.stdout.split(separator: "\n").first { $0.contains("override ") }?
                    .split(separator: " ").first { $0.hasSuffix(":") && !$0.hasPrefix("override") }.map {
                        String($0.dropLast())
                    }, "\(shown.stdout) \(shown.stderr)")
            // --json lists the same override, with its people and window, not only a count.
            let json = try #require(
                try await cli.run(["schedule", "show", "Platform primary", "--json"]).json as? [String: Any])
            let listed = try #require((json["overrides"] as? [[String: Any]])?.first, "\(json)")
            #expect(
                listed["id"] as? String == overrideID && listed["kind"] as? String == "replace"
                    && listed["employee"] as? String == "Alan Turing"
                    && listed["replacing"] as? String == "Ada Lovelace"
                    && listed["start"] as? String == "\(Self.at("2026-12-02T00:00:00Z"))", "\(listed)")
            let override = try await cli.run([
                "admin", "override", "delete", overrideID, "--schedule", "Platform primary",
            ])
            #expect(override.status == 0, "\(override.stderr)")
            #expect(
                override.stdout.hasPrefix(
                    "Removed override \(overrideID) from Platform primary: Alan Turing replaces Ada Lovelace, "
                        + "\(Self.day("2026-12-02 01:00")) – \(Self.day("2026-12-03 01:00")) Europe/Berlin"),
                "\(override.stdout)")

            #expect(
                try await cli.run([
                    "admin", "shift", "add", "--employee", "Grace Hopper", "--start",
                    "\(Self.at("2026-12-24T09:00:00Z"))",
                    "--end", "\(Self.at("2026-12-24T17:00:00Z"))",
                ]).status == 0)
            let shifts = try #require(try await cli.run(["shifts", "--json", "--utc"]).json as? [[String: Any]])
            let shiftID = try #require(shifts.first?["id"] as? String)
            let shift = try await cli.run(["admin", "shift", "remove", shiftID, "--utc"])
            #expect(
                shift.stdout.hasPrefix(
                    "Removed shift \(shiftID): Grace Hopper, \(Self.at("2026-12-24 09:00")) – \(Self.at("2026-12-24 17:00")) UTC"
                ),
                "\(shift.stdout)")

            #expect(
                try await cli.run(["admin", "employee", "add", "--first", "Barbara", "--last", "Liskov"]).status == 0)
            let barbara = try #require(try await cli.run(["show", "Barbara Liskov", "--json"]).json as? [String: Any])
            let barbaraID = try #require((barbara["employee"] as? [String: Any])?["id"] as? String)
            let employee = try await cli.run(["admin", "employee", "remove", barbaraID])
            #expect(
                employee.stdout.hasPrefix("Removed Barbara Liskov (\(barbaraID))"),
                "\(employee.stdout) \(employee.stderr)")

            let schedule = try await cli.run(["admin", "schedule", "remove", "platform PRIMARY"])
            #expect(schedule.status == 0, "\(schedule.stderr)")
            #expect(schedule.stdout.hasPrefix("Removed schedule Platform primary ("), "\(schedule.stdout)")
        }
    }

    @Test func scheduleShowSwapAndPreview() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await platformPrimary(cli)

            let shown = try await cli.run(["schedule", "show", "Platform primary", "--days", "40", "--utc"])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(
                shown.stdout.contains(
                    "every 1w from \(Self.day("2026-11-30T09:00")): Ada Lovelace, Alan Turing, Grace Hopper, Linus Torvalds"
                ))
            let handoffs = shown.stdout.split(separator: "\n").filter { $0.hasPrefix("  \(Self.day("2026-12-14"))") }
            #expect(
                handoffs.count == 1
                    && handoffs[0].contains(
                        "\(Self.day("2026-12-14 09:00"))  \(Self.at("2026-12-14 08:00"))  Grace Hopper"),
                "Berlin and UTC side by side:\n\(shown.stdout)")

            let swap = [
                "admin", "swap", "--schedule", "Platform primary", "Alan Turing", "--at",
                "\(Self.at("2026-12-08T12:00:00Z"))",
                "Grace Hopper", "--at", "\(Self.at("2026-12-15T12:00:00Z"))", "--utc",
            ]
            let preview = try await cli.run(swap + ["--preview"])
            #expect(preview.status == 0, "\(preview.stderr)")
            #expect(preview.stdout.contains("Preview (nothing was changed)"))
            #expect(
                preview.stdout.contains(
                    "Alan Turing loses \(Self.at("2026-12-07 08:00")) – \(Self.at("2026-12-14 08:00")) UTC"),
                "\(preview.stdout)")
            #expect(
                preview.stdout.contains(
                    "Grace Hopper gains \(Self.at("2026-12-07 08:00")) – \(Self.at("2026-12-14 08:00"))"))
            let unchanged = try await cli.run([
                "oncall", "--schedule", "Platform primary", "--from", "\(Self.at("2026-12-08T00:00:00Z"))",
                "--to", "\(Self.at("2026-12-09T00:00:00Z"))", "--json",
            ])
            #expect(
                ((unchanged.json as? [String: Any])?["shifts"] as? [[String: Any]])?.first?["employee"] as? String
                    == "Alan Turing")

            let swapped = try await cli.run(swap)
            #expect(swapped.status == 0, "\(swapped.stderr)")
            let after = try await cli.run([
                "oncall", "--schedule", "Platform primary", "--from", "\(Self.at("2026-12-07T08:00:00Z"))",
                "--to", "\(Self.at("2026-12-21T08:00:00Z"))", "--json",
            ])
            let people = ((after.json as? [String: Any])?["shifts"] as? [[String: Any]])?.map {
                "\($0["employee"]!) \($0["source"]!)"
            }
            #expect(people == ["Grace Hopper override", "Alan Turing override"])

            let next = try await cli.run(["next", "Linus Torvalds", "--utc"])
            #expect(
                next.stdout.contains(
                    "Linus Torvalds on Platform primary: next on duty \(Self.at("2026-12-21 08:00")) – \(Self.at("2026-12-28 08:00")) UTC"
                ),
                "\(next.stdout)\(next.stderr)")
            // A person is named as `show` names them: a search that matches one person is that person.
            let partial = try await cli.run(["next", "Linus Torvald", "--utc"])
            #expect(partial.status == 0 && partial.stdout == next.stdout, "\(partial.stdout)\(partial.stderr)")
            let shownPartial = try await cli.run(["show", "Linus Torvald", "--json"])
            #expect(shownPartial.status == 0, "\(shownPartial.stderr)")
        }
    }

    /// Issue #31: on a 30-minute rotation `oncall` was cut at 2,000 stretches with nothing said,
    /// and `admin swap` found "Linus Torvalds is not on duty" although he was: the output cap
    /// bounded an internal lookup.
    @Test func aCutAnswerSaysSoAndASwapOnADenseScheduleFindsTheTurn() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            for (first, last) in [("Frances", "Allen"), ("Linus", "Torvalds")] {
                let added = try await cli.run(["admin", "employee", "add", "--first", first, "--last", last])
                #expect(added.status == 0, "\(added.stderr)")
            }
            #expect(try await cli.run(["admin", "schedule", "add", "S", "--zone", "UTC"]).status == 0)
            let rotation = try await cli.run([
                "admin", "rotation", "add", "--schedule", "S", "--every", "30m",
                "--handoff", "\(Self.day("2026-12-15T07:00"))", "--people", "Frances Allen,Linus Torvalds",
            ])
            #expect(rotation.status == 0, "\(rotation.stderr)")

            let window = [
                "oncall", "--schedule", "S", "--from", "\(Self.day("2026-12-15T07:00:00Z"))", "--to",
                "\(Self.day("2027-03-15T00:00:00Z"))",
            ]
            let cut = try await cli.run(window + ["--json"])
            #expect(cut.status == 0, "\(cut.stderr)")
            let answer = try #require(cut.json as? [String: Any])
            #expect(answer["truncated"] as? Bool == true && (answer["shifts"] as? [Any])?.count == 2_000)
            #expect(cut.stderr.contains("Only the first 2000 stretches are shown"), "\(cut.stderr)")
            let table = try await cli.run(window + ["--offline"])
            #expect(
                table.stderr.contains("Only the first 2000 stretches are shown"),
                "the cache's answer says it too: \(table.stderr)")

            let swap = try await cli.run([
                "admin", "swap", "--schedule", "S", "Linus Torvalds", "--at", "\(Self.day("2027-03-06T17:53:00Z"))",
                "Frances Allen", "--at", "\(Self.day("2027-03-05T23:00:00Z"))", "--preview", "--utc",
            ])
            #expect(swap.status == 0, "\(swap.stdout)\(swap.stderr)")
            #expect(
                swap.stdout.contains(
                    "Linus Torvalds loses \(Self.day("2027-03-06 17:30")) – \(Self.day("2027-03-06 18:00"))"),
                "\(swap.stdout)")
        }
    }

    @Test func badDefinitionsAreRefusedWithWhatToDo() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await platformPrimary(cli)
            let cadence = try await cli.run([
                "admin", "rotation", "add", "--schedule", "Platform primary", "--every", "1x",
                "--handoff", "\(Self.day("2026-11-30T09:00"))", "--people", "Ada Lovelace",
            ])
            #expect(
                cadence.status == 64 && cadence.stderr.contains("the unit must be m, h, d, w or mo"),
                "\(cadence.stderr)")
            let handoff = try await cli.run([
                "admin", "rotation", "add", "--schedule", "Platform primary", "--every", "1d",
                "--handoff", "Monday 9am", "--people", "Ada Lovelace",
            ])
            #expect(handoff.status == 64 && handoff.stderr.contains("YYYY-MM-DDTHH:MM"), "\(handoff.stderr)")
            let zone = try await cli.run(["admin", "schedule", "add", "Mars", "--zone", "Mars/Olympus"])
            #expect(zone.status == 64 && zone.stderr.contains("IANA"), "\(zone.stderr)")
            let conflict = try await cli.run([
                "admin", "override", "add", "--schedule", "Platform primary", "--add", "Ada Lovelace",
                "--from", "\(Self.at("2026-12-02T12:00:00Z"))", "--to", "\(Self.at("2026-12-04T00:00:00Z"))",
            ])
            #expect(conflict.status == 9, "\(conflict.stderr)")
            #expect(
                conflict.stderr.contains("overlaps override ovr_") && conflict.stderr.contains("Ada Lovelace"),
                "\(conflict.stderr)")
            let unknown = try await cli.run(["oncall", "--schedule", "Nope"])
            #expect(
                unknown.status == 8 && unknown.stderr.contains("Platform primary"),
                "suggests the schedules: \(unknown.stderr)")
        }
    }
}
