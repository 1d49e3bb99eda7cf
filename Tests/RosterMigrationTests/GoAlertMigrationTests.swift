import Foundation
import RosterDomain
import RosterMigration
import Testing

/// GoAlert's exports read into a definition file and checked against lists Roster did not
/// make: GoAlert's own rotation tests' handoffs (schedule/rotation/rotation_test.go, their
/// documented results, across daylight-saving changes), and docs/examples/goalert-shifts.json,
/// rendered from goalert-export.json by Fixtures/goalert_render.py, a separate implementation of
/// GoAlert's rotation and rule code (twelve schedules: weekly, daily and hourly rotations from 2017, rules over midnight, whole
/// days from noon, several rules on one target, a user and a rotation on one schedule, a rule
/// starting in the hour skipped in spring, zones in three hemispheres, a rotation handing off
/// on another zone's clock, add, remove and replace overrides).
@Suite(.timeLimit(.minutes(10))) struct GoAlertMigrationTests {
    static let fixtures = MigrationFixtures.folder.appendingPathComponent("goalert")

    static func migrate(_ data: Data) throws -> Migration { try MigrationFixtures.migrate(data, from: .goAlert) }

    static func verify(_ export: Data, _ rendered: Data) throws -> MigrationVerification {
        try MigrationFixtures.verify(export, rendered, from: .goAlert)
    }

    @Test func twelveSchedulesAgreeWithTheIndependentRenderingToTheMinute() throws {
        let verification = try Self.verify(
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("goalert-export.json")),
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("goalert-shifts.json")))
        #expect(verification.schedules.count == 12)
        #expect(verification.differences.isEmpty, "\(verification.text)")
        #expect(verification.text.contains("0 differences over 45 days"))
    }

    /// GoAlert's TestRotation_EndTime_DST rotation (hourly from 1 January 2017, 01:00 Chicago):
    /// the handoff due in the skipped hour is made at 03:00 and the next person follows.
    @Test func anHourlyRotationThroughTheSpringChangeKeepsItsOrder() throws {
        let verification = try Self.verify(
            Data(contentsOf: Self.fixtures.appendingPathComponent("spring-gap-export.json")),
            Data(contentsOf: Self.fixtures.appendingPathComponent("spring-gap-shifts.json")))
        #expect(verification.differences.isEmpty, "\(verification.text)")
    }

    /// GoAlert's own test cases (rotation_test.go, TestRotation_EndTime), in Chicago: the first
    /// shift ends where GoAlert's tests say, whatever the change of offset in between.
    @Test(arguments: [
        ("weekly", 1, "2017-03-10T08:00:00-06:00", "2017-03-17T08:00:00-05:00"),  // 7 days less an hour
        ("weekly", 1, "2017-11-04T08:00:00-05:00", "2017-11-11T08:00:00-06:00"),  // 7 days and an hour
        ("weekly", 2, "2017-06-10T08:00:00-05:00", "2017-06-24T08:00:00-05:00"),
        ("daily", 1, "2017-03-11T08:00:00-06:00", "2017-03-12T08:00:00-05:00"),  // 23 hours
        ("daily", 1, "2017-11-04T08:00:00-05:00", "2017-11-05T08:00:00-06:00"),  // 25 hours
        ("daily", 2, "2017-06-10T08:00:00-05:00", "2017-06-12T08:00:00-05:00"),
        ("hourly", 3, "2017-03-12T00:00:00-06:00", "2017-03-12T03:00:00-05:00"),  // 2 hours
        ("hourly", 3, "2017-11-05T00:00:00-05:00", "2017-11-05T03:00:00-06:00"),  // 4 hours
        ("hourly", 2, "2017-06-10T08:00:00-05:00", "2017-06-10T10:00:00-05:00"),
    ])
    func goAlertsOwnHandoffs(type: String, length: Int, start: String, end: String) throws {
        let export = Data(
            #"""
            {"exportedAt": "\#(start)",
             "users": [{"id": "A", "name": "Ann Ames", "email": "a@x.example"}, {"id": "B", "name": "Ben Bell", "email": "b@x.example"}],
             "rotations": [{"id": "R", "name": "R", "type": "\#(type)", "timeZone": "America/Chicago", "start": "\#(start)",
                            "shiftLength": \#(length), "userIDs": ["A", "B"], "activeUserIndex": 0}],
             "schedules": [{"id": "S", "name": "S", "timeZone": "America/Chicago",
                            "targets": [{"target": {"id": "R", "type": "rotation"},
                                         "rules": [{"start": "00:00", "end": "00:00", "weekdayFilter": [true, true, true, true, true, true, true]}]}]}]}
            """#.utf8)
        let ends = try #require(TimeText.parseISO8601(end))
        let rendered = Data(
            #"""
            {"since": "\#(start)", "until": "\#(TimeText.iso8601(ends + 3_600_000))",
             "schedules": [{"id": "S", "shifts": [{"userID": "A", "start": "\#(start)", "end": "\#(end)"},
                                                  {"userID": "B", "start": "\#(end)", "end": "\#(TimeText.iso8601(ends + 3_600_000))"}]}]}
            """#.utf8)
        let verification = try Self.verify(export, rendered)
        #expect(verification.differences.isEmpty, "\(verification.text)")
    }

    @Test func overridesPoliciesAndWhatIsNotMappedAreReported() throws {
        let migration = try Self.migrate(
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("goalert-export.json")))
        let overrides = try #require(migration.state.schedules["goalert-S08"]).overrides
        #expect(
            overrides.map(\.kind) == [
                .add("goalert-G8"), .remove("goalert-G4"), .replace(replacing: "goalert-G5", with: "goalert-G1"),
            ])
        let policy = try #require(migration.state.escalation.policies["goalert-E1"])
        #expect(policy.repeatCount == 2 && policy.steps.map(\.delayMinutes) == [5, 30])
        #expect(migration.state.escalation.services["goalert-V1"]?.policyID == "goalert-E1")
        let report = migration.report.entries
        #expect(report.contains { $0.kind == .notMapped && $0.path == "schedules[2].temporarySchedules[0]" })
        #expect(report.contains { $0.kind == .notMapped && $0.path == "escalationPolicies[0].steps[1].targets[0]" })
        // Two targets of one schedule add up: one layer, two rotations.
        #expect(migration.state.schedules["goalert-S05"]?.layers.map(\.rotations.count) == [2])
    }

    @Test func badExportsAreRefusedWithTheirJSONPath() throws {
        let good = try String(
            contentsOf: MigrationFixtures.examples.appendingPathComponent("goalert-export.json"), encoding: .utf8)
        func problems(_ text: String) -> [String] { MigrationFixtures.problems(text, from: .goAlert) }
        #expect(problems(good).isEmpty)
        #expect(
            problems(good.replacingOccurrences(of: #""type": "daily""#, with: #""type": "monthly""#)).first
                == #"rotations[1].type: "monthly" is not weekly, daily or hourly"#)
        #expect(
            problems(
                good.replacingOccurrences(
                    of: #""start": "09:00","#, with: #""start": "9am","#)
            ).first == #"schedules[1].targets[0].rules[0].start: "9am" is not a time such as 09:00"#)
        #expect(
            problems(
                good.replacingOccurrences(of: #""timeZone": "Australia/Sydney","#, with: #""timeZone": "Moon/Base","#)
            )
            .contains(#"schedules[5].timeZone: "Moon/Base" is not a zone in Roster's time zone database"#))
        // The rotation renamed (its first mention), the schedule's target left naming it.
        var renamed = good
        renamed.replaceSubrange(try #require(renamed.range(of: #""R8""#)), with: #""R9""#)
        #expect(
            problems(renamed).first == #"schedules[8].targets[0].target.id: "R8" is not one of the export's rotations"#)
        let pagerDuty = try Data(
            contentsOf: MigrationFixtures.folder.appendingPathComponent("pagerduty/export.json"))
        #expect(problems(String(decoding: pagerDuty, as: UTF8.self)).first?.contains("is not a GoAlert export") == true)
    }
}
