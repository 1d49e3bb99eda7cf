import Foundation
import RosterDomain
import RosterMigration
import Testing

/// Opsgenie's exports read into a definition file and checked against timelines Roster did not
/// make: Fixtures/opsgenie_render.py, a separate implementation of Opsgenie's documented
/// schedule rules, wrote docs/examples/opsgenie-timeline.json from opsgenie-export.json (eleven schedules: weekly, daily and
/// hourly rotations, time-of-day restrictions over midnight, weekday ranges over the weekend,
/// two rotations on call at once, a `none` turn, a rotation that ends and one that follows,
/// overrides of every rotation and of a named one, half-hour handoffs, zones in three
/// hemispheres with the spring changes inside the window).
@Suite(.timeLimit(.minutes(10))) struct OpsgenieMigrationTests {
    @Test func elevenSchedulesAgreeWithTheIndependentRenderingToTheMinute() throws {
        let verification = try MigrationFixtures.verify(
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("opsgenie-export.json")),
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("opsgenie-timeline.json")),
            from: .opsgenie)
        #expect(verification.schedules.count == 11)
        #expect(verification.differences.isEmpty, "\(verification.text)")
    }

    /// Rules fire at their delay from the alert; Roster's steps wait before the next. Rules of
    /// 0 and 15 minutes make two steps, the first waiting 15 minutes, the last the repeat's
    /// wait; `next` and a team's routing are reported, not mapped.
    @Test func escalationRulesBecomeStepsAndTheRestIsReported() throws {
        let migration = try MigrationFixtures.migrate(
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("opsgenie-export.json")), from: .opsgenie
        )
        let policy = try #require(migration.state.escalation.policies["opsgenie-OE1"])
        #expect(policy.steps.map(\.delayMinutes) == [15, 10] && policy.repeatCount == 2)
        #expect(policy.steps.map(\.targets) == [[.schedule("opsgenie-OS01")], [.person("opsgenie-O2")]])
        let report = migration.report.entries
        #expect(
            report.contains {
                $0.kind == .notMapped && $0.path == "escalations[0].rules[1]" && $0.message.contains("next")
            })
        #expect(report.contains { $0.kind == .notMapped && $0.path == "escalations[0].rules[3]" })
        #expect(
            migration.state.schedules["opsgenie-OS08"]?.layers.first?.rotations.first?.slots == [
                ["opsgenie-O5"], [], ["opsgenie-O6"],
            ])
    }

    @Test func badExportsAreRefusedWithTheirJSONPath() throws {
        let good = try String(
            contentsOf: MigrationFixtures.examples.appendingPathComponent("opsgenie-export.json"), encoding: .utf8)
        func problems(_ text: String) -> [String] { MigrationFixtures.problems(text, from: .opsgenie) }
        #expect(problems(good).isEmpty)
        #expect(
            problems(good.replacingOccurrences(of: #""type": "time-of-day""#, with: #""type": "monthly""#)).first
                == #"schedules[1].rotations[0].timeRestriction.type: "monthly" is not time-of-day or weekday-and-time-of-day"#
        )
        #expect(
            problems(good.replacingOccurrences(of: #""startDay": "friday""#, with: #""startDay": "fri""#)).first
                == #"schedules[3].rotations[0].timeRestriction.restrictions[0].startDay: is not a day such as monday"#)
        #expect(
            problems(good.replacingOccurrences(of: #""type": "hourly""#, with: #""type": "monthly""#)).first
                == #"schedules[5].rotations[0].type: "monthly" is not hourly, daily or weekly"#)
        // A team as a participant: its turn is for nobody, and the report says so.
        let team = good.replacingOccurrences(
            of: #""type": "none""#, with: #""type": "team", "id": "T1", "name": "Platform""#)
        let migration = try MigrationFixtures.migrate(Data(team.utf8), from: .opsgenie)
        #expect(
            migration.report.entries.contains {
                $0.kind == .notMapped && $0.path == "schedules[7].rotations[0].participants[1]"
            })
        for other in ["pagerduty-export.json", "goalert-export.json"] {
            let text = try String(contentsOf: MigrationFixtures.examples.appendingPathComponent(other), encoding: .utf8)
            #expect(problems(text).first?.contains("is not an Opsgenie export") == true, "\(other)")
        }
    }
}
