import Foundation
import RosterDomain
import RosterMigration
import Testing

/// PagerDuty's exports read into a definition file and checked against rendered lists that
/// Roster did not make: Fixtures/pagerduty_render.py, a separate implementation of PagerDuty's
/// documented rules, wrote `final.json` from `export.json` (twelve schedules: zones in three
/// hemispheres with their daylight-saving changes inside the window, restrictions daily,
/// weekly and over midnight, two layers ranked by order and by rendering_index, a layer
/// handed over to another, overrides over people and over gaps, turns of 8 and 12 hours, two
/// weeks, rotations from 2015 and 2019); and hand-worked intervals below.
@Suite(.timeLimit(.minutes(10))) struct PagerDutyMigrationTests {
    static let fixtures = MigrationFixtures.folder
    static let docs = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/examples")
    static let nobody = MigrationFixtures.nobody

    static func migrate(_ data: Data, directory: RosterState = MigrationFixtures.nobody) throws -> Migration {
        try MigrationFixtures.migrate(data, from: .pagerDuty, directory: directory)
    }

    static func verify(_ export: Data, _ rendered: Data) throws -> MigrationVerification {
        try MigrationFixtures.verify(export, rendered, from: .pagerDuty)
    }

    @Test func twelveSchedulesAgreeWithTheIndependentRenderingToTheMinute() throws {
        let export = try Data(contentsOf: Self.fixtures.appendingPathComponent("pagerduty/export.json"))
        let rendered = try Data(contentsOf: Self.fixtures.appendingPathComponent("pagerduty/final.json"))
        let verification = try Self.verify(export, rendered)
        #expect(verification.schedules.count == 12)
        #expect(verification.days == 45)
        #expect(verification.differences.isEmpty, "\(verification.text)")
        #expect(
            verification.text.hasSuffix(
                "0 differences over 45 days (12 schedules, 2027-03-01T00:00:00Z to 2027-04-15T00:00:00Z)\n"))
    }

    @Test func theDocumentedExampleMigratesWithItsReport() throws {
        let export = try Data(contentsOf: Self.docs.appendingPathComponent("pagerduty-export.json"))
        let rendered = try Data(contentsOf: Self.docs.appendingPathComponent("pagerduty-final.json"))
        #expect(try Self.verify(export, rendered).text.contains("0 differences over 90 days"))
        let migration = try Self.migrate(export)
        #expect(migration.state.employees.count == 8)
        #expect(migration.state.escalation.policies.count == 2 && migration.state.escalation.services.count == 2)
        let policy = try #require(migration.state.escalation.policies["pagerduty-PEP0001"])
        #expect(policy.repeatCount == 1 && policy.steps.map(\.delayMinutes) == [15, 30])
        #expect(policy.steps[0].targets == [.schedule("pagerduty-PCHK001"), .schedule("pagerduty-PCHK002")])
        let report = migration.report
        #expect(
            report.entries.contains {
                $0.kind == .notMapped && $0.path == "services[2]" && $0.message.contains("PEP9999")
            })
        #expect(
            report.entries.contains { $0.kind == .ignored && $0.path == "users[*]" && $0.message.contains("color (8)") }
        )
        #expect(report.entries.contains { $0.kind == .changed && $0.path == "users[6].teams" })
        // Ken Thompson alone over a stretch that three people have: three overrides, each named.
        #expect(
            report.entries.contains {
                $0.path == "schedules[0].overrides[1]"
                    && $0.message.contains(
                        "3 overrides (replace Priya Raman, replace Margaret Hamilton, replace Mateo Silva)")
            })
    }

    /// A layer as PagerDuty's API reference shows one (turns of a day from 20:00, on call 08:00
    /// to 17:00), worked out by hand: the turn from the 4th at 20:00 is Ann's, so Ann has the 5th's
    /// hours, Ben the 6th's, Ann the 7th's.
    @Test func aRestrictedDailyLayerGivesTheHoursWorkedOutByHand() throws {
        let export = Self.export(
            layers: [
                Self.layer(
                    start: "2027-01-04T20:00:00-05:00", turn: 86_400, users: ["PA", "PB"],
                    restrictions: [
                        #"{"type": "daily_restriction", "start_time_of_day": "08:00:00", "duration_seconds": 32400}"#
                    ])
            ], zone: "America/New_York")
        let hand = Self.rendered(
            [
                ("PA", "2027-01-05T08:00:00-05:00", "2027-01-05T17:00:00-05:00"),
                ("PB", "2027-01-06T08:00:00-05:00", "2027-01-06T17:00:00-05:00"),
                ("PA", "2027-01-07T08:00:00-05:00", "2027-01-07T17:00:00-05:00"),
            ], since: "2027-01-05T00:00:00-05:00", until: "2027-01-08T00:00:00-05:00")
        #expect(try Self.verify(export, hand).differences.isEmpty)
        let text = try Self.migrate(export).definition(now: .now, file: "x")
        #expect(text.contains(#"restrictions: ["08:00-17:00"]"#) && text.contains("advance: calendar"), "\(text)")

        // Ben's hours moved by half an hour, and a day given to someone the export lacks: each
        // difference found at its minutes, with the names on both sides.
        let moved = Self.rendered(
            [
                ("PA", "2027-01-05T08:00:00-05:00", "2027-01-05T17:00:00-05:00"),
                ("PB", "2027-01-06T08:30:00-05:00", "2027-01-06T17:30:00-05:00"),
                ("PZ", "2027-01-07T08:00:00-05:00", "2027-01-07T17:00:00-05:00"),
            ], since: "2027-01-05T00:00:00-05:00", until: "2027-01-08T00:00:00-05:00")
        let found = try Self.verify(export, moved)
        #expect(found.differences.count == 3, "\(found.text)")
        #expect(
            found.text.contains("2027-01-06T13:00:00Z to 2027-01-06T13:30:00Z: source has nobody, Roster has Ben Bell"))
        #expect(
            found.text.contains("2027-01-06T22:00:00Z to 2027-01-06T22:30:00Z: source has Ben Bell, Roster has nobody"))
        #expect(found.text.contains("2027-01-07T13:00:00Z to 2027-01-07T22:00:00Z: source has PZ, Roster has Ann Ames"))
        #expect(
            found.text.hasSuffix(
                "3 differences over 3 days (1 schedule, 2027-01-05T05:00:00Z to 2027-01-08T05:00:00Z)\n"))
    }

    /// A user with the e-mail of someone in the directory is that person, as they are there; the
    /// others get ids from PagerDuty's, so a second run finds them.
    @Test func peopleAreMatchedByEmailAndKeepTheirSourceIDs() throws {
        let directory = RosterState(
            tenant: Tenant(id: "t", name: "T"),
            employees: [
                Employee(id: "e-17", firstName: "Ann", lastName: "Ames-Ford", email: "ANN@pd.example", team: "Ops")
            ])
        let export = Self.export(layers: [
            Self.layer(start: "2027-01-04T09:00:00Z", turn: 604_800, users: ["PA", "PB"])
        ])
        let migration = try Self.migrate(export, directory: directory)
        #expect(migration.personIDs == ["PA": "e-17", "PB": "pagerduty-PB"])
        #expect(migration.state.employees["e-17"]?.lastName == "Ames-Ford", "the directory's record, unchanged")
        #expect(migration.state.employees["pagerduty-PB"]?.fullName == "Ben Bell")
        #expect(
            migration.state.schedules["pagerduty-PS1"]?.layers.first?.rotations.first?.slots == [
                ["e-17"], ["pagerduty-PB"],
            ])
        #expect(migration.report.entries.contains { $0.kind == .exact && $0.message.contains("Ann Ames-Ford (e-17)") })
    }

    @Test func badExportsAreRefusedWithTheirJSONPathAndNothingWritten() throws {
        func problems(_ text: String) -> [String] { MigrationFixtures.problems(text, from: .pagerDuty) }
        let good = String(
            decoding: Self.export(layers: [Self.layer(start: "2027-01-04T09:00:00Z", turn: 604_800, users: ["PA"])]),
            as: UTF8.self)
        #expect(problems(good).isEmpty)
        #expect(problems(String(good.prefix(good.count / 2))).first?.contains("export.json: is not JSON") == true)
        #expect(
            problems(#"{"data": [{"id": "x", "name": "Opsgenie rotation"}], "took": 0.1}"#).first?.contains(
                "is not a PagerDuty export") == true)
        #expect(
            problems(good.replacingOccurrences(of: #""time_zone": "UTC""#, with: #""time_zone": "Mars/Olympus""#))
                == [#"schedules[0].time_zone: "Mars/Olympus" is not a zone in Roster's time zone database"#])
        let restricted = String(
            decoding: Self.export(layers: [
                Self.layer(
                    start: "2027-01-04T09:00:00Z", turn: 604_800, users: ["PA"],
                    restrictions: [
                        #"{"type": "monthly_restriction", "start_time_of_day": "08:00:00", "duration_seconds": 60}"#
                    ])
            ]), as: UTF8.self)
        #expect(
            problems(restricted) == [
                #"schedules[0].schedule_layers[0].restrictions[0].type: "monthly_restriction" is not daily_restriction or weekly_restriction"#
            ])
        #expect(
            problems(good.replacingOccurrences(of: #""id": "PA", "type": "user_reference""#, with: #""id": "PQ""#))
                == [#"schedules[0].schedule_layers[0].users[0].user.id: "PQ" is not one of the export's users"#])
        #expect(
            problems(good.replacingOccurrences(of: "604800", with: "604830")) == [
                "schedules[0].schedule_layers[0].rotation_turn_length_seconds: is not a whole minute: Roster's turns and handoffs are"
            ])
        #expect(
            problems(good.replacingOccurrences(of: "604800", with: "\"a week\"")) == [
                "schedules[0].schedule_layers[0].rotation_turn_length_seconds: is not a whole number from 1 to 31536000"
            ])
        // Every problem at once.
        let both = problems(
            good.replacingOccurrences(of: "604800", with: "0").replacingOccurrences(
                of: #""name": "Ann Ames""#, with: #""name": 7"#))
        #expect(both.contains("users[0].name: is not text"), "\(both)")
        #expect(
            both.contains { $0.hasPrefix("schedules[0].schedule_layers[0].rotation_turn_length_seconds:") }, "\(both)")
        let huge = Data(count: Migration.maxExportBytes + 1)
        #expect(problems(String(decoding: huge, as: UTF8.self)).first?.contains("is larger than 64 MiB") == true)
        #expect(throws: MigrationError.self) {
            try Migration.read(Data(good.utf8), from: .opsgenie, name: "x", directory: Self.nobody, now: .now)
        }
    }

    /// A user without an e-mail is migrated, and the report says they cannot be matched by one.
    @Test func aUserWithoutEmailIsReported() throws {
        let text = String(
            decoding: Self.export(layers: [Self.layer(start: "2027-01-04T09:00:00Z", turn: 604_800, users: ["PA"])]),
            as: UTF8.self
        ).replacingOccurrences(of: #", "email": "ann@pd.example""#, with: "")
        let migration = try Self.migrate(Data(text.utf8))
        #expect(migration.state.employees["pagerduty-PA"]?.email == "")
        #expect(
            migration.report.entries.contains {
                $0.kind == .changed && $0.path == "users[0]" && $0.message.contains("has no e-mail")
            })
        // One Roster would refuse is reported and left out, rather than refused at apply.
        let odd = try Self.migrate(Data(text.replacingOccurrences(of: "ben@pd.example", with: "ben at home").utf8))
        #expect(odd.state.employees["pagerduty-PB"]?.email == "")
        #expect(
            odd.report.entries.contains {
                $0.path == "users[1]" && $0.message.contains("\"ben at home\" is not an e-mail")
            })
    }

    // MARK: Building exports

    static func layer(start: String, turn: Int, users: [String], restrictions: [String] = []) -> String {
        let members = users.map { #"{"user": {"id": "\#($0)", "type": "user_reference"}}"# }.joined(separator: ", ")
        return #"""
            {"id": "L1", "start": "\#(start)", "end": null, "rotation_virtual_start": "\#(start)",
             "rotation_turn_length_seconds": \#(turn), "users": [\#(members)],
             "restrictions": [\#(restrictions.joined(separator: ", "))]}
            """#
    }

    static func export(layers: [String], zone: String = "UTC") -> Data {
        Data(
            #"""
            {"users": [{"id": "PA", "name": "Ann Ames", "email": "ann@pd.example"},
                       {"id": "PB", "name": "Ben Bell", "email": "ben@pd.example"}],
             "schedules": [{"id": "PS1", "name": "One", "time_zone": "\#(zone)",
                            "schedule_layers": [\#(layers.joined(separator: ", "))]}]}
            """#.utf8)
    }

    static func rendered(_ entries: [(String, String, String)], since: String, until: String) -> Data {
        let list = entries.map {
            #"{"start": "\#($0.1)", "end": "\#($0.2)", "user": {"id": "\#($0.0)", "summary": "\#($0.0)"}}"#
        }
        return Data(
            #"""
            {"since": "\#(since)", "until": "\#(until)",
             "schedules": [{"id": "PS1", "final_schedule": {"rendered_schedule_entries": [\#(list.joined(separator: ", "))]}}]}
            """#.utf8)
    }
}
