import Foundation
import RosterDomain
import RosterMigration
import Testing

/// Grafana OnCall's rolling-users shifts read into rotations and checked against Grafana's own
/// expected results: every case of its CUSTOM_SHIFT_TEST_CASES
/// (engine/apps/schedules/tests/custom_shift_test_cases.py: groups of users, a start date, the
/// days of `by_day`, a frequency and an interval, and who is on call on each day), each
/// transcribed as a shift from 09:00 for 8 hours and compared over its window.
@Suite(.timeLimit(.minutes(10))) struct GrafanaOnCallMigrationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var groups: [Int]
        var start: String
        var days: [String]?
        var totalDays: Int
        var frequency: String
        var interval: Int
        var expected: [String: String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "Original", groups: [1, 1, 1], start: "2024-08-01", days: ["FR"], totalDays: 21, frequency: "daily",
            interval: 1, expected: ["2024-08-02": "A", "2024-08-09": "B", "2024-08-16": "C"]),
        Case(
            name: "Weekdays Start Monday Daily", groups: [1, 1, 1, 1, 1], start: "2024-08-05",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "daily", interval: 1,
            expected: [
                "2024-08-05": "A", "2024-08-06": "B", "2024-08-07": "C", "2024-08-08": "D", "2024-08-09": "E",
                "2024-08-12": "A", "2024-08-13": "B", "2024-08-14": "C", "2024-08-15": "D", "2024-08-16": "E",
            ]),
        Case(
            name: "Weekdays Start Monday Daily Interval 2", groups: [1, 1, 1, 1], start: "2024-08-05",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "daily", interval: 2,
            expected: [
                "2024-08-05": "A", "2024-08-06": "A", "2024-08-07": "B", "2024-08-08": "B", "2024-08-09": "C",
                "2024-08-12": "C", "2024-08-13": "D", "2024-08-14": "D", "2024-08-15": "A", "2024-08-16": "A",
            ]),
        Case(
            name: "Weekdays Start Monday Weekly", groups: [1, 1, 1, 1, 1], start: "2024-08-05",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "weekly", interval: 1,
            expected: [
                "2024-08-05": "A", "2024-08-06": "A", "2024-08-07": "A", "2024-08-08": "A", "2024-08-09": "A",
                "2024-08-12": "B", "2024-08-13": "B", "2024-08-14": "B", "2024-08-15": "B", "2024-08-16": "B",
            ]),
        Case(
            name: "Weekdays Start Monday Monthly", groups: [1, 1, 1, 1, 1], start: "2024-08-26",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "monthly", interval: 1,
            expected: [
                "2024-08-26": "A", "2024-08-27": "A", "2024-08-28": "A", "2024-08-29": "A", "2024-08-30": "A",
                "2024-09-02": "B", "2024-09-03": "B", "2024-09-04": "B", "2024-09-05": "B", "2024-09-06": "B",
            ]),
        Case(
            name: "Weekdays Start Thursday Daily", groups: [1, 1, 1, 1, 1], start: "2024-08-08",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "daily", interval: 1,
            expected: [
                "2024-08-08": "A", "2024-08-09": "B", "2024-08-12": "C", "2024-08-13": "D", "2024-08-14": "E",
                "2024-08-15": "A", "2024-08-16": "B", "2024-08-19": "C", "2024-08-20": "D", "2024-08-21": "E",
            ]),
        Case(
            name: "Weekdays Start Thursday Weekly", groups: [1, 1, 1, 1, 1], start: "2024-08-08",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "weekly", interval: 1,
            expected: [
                "2024-08-08": "A", "2024-08-09": "A", "2024-08-12": "B", "2024-08-13": "B", "2024-08-14": "B",
                "2024-08-15": "B", "2024-08-16": "B", "2024-08-19": "C", "2024-08-20": "C", "2024-08-21": "C",
            ]),
        Case(
            name: "Weekdays Start Thursday Monthly", groups: [1, 1, 1, 1, 1], start: "2024-08-29",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 14, frequency: "monthly", interval: 1,
            expected: [
                "2024-08-29": "A", "2024-08-30": "A", "2024-09-02": "B", "2024-09-03": "B", "2024-09-04": "B",
                "2024-09-05": "B", "2024-09-06": "B", "2024-09-09": "B", "2024-09-10": "B", "2024-09-11": "B",
            ]),
        Case(
            name: "All Days uneven groups", groups: [2, 1], start: "2024-08-14", days: nil, totalDays: 9,
            frequency: "daily", interval: 1,
            expected: [
                "2024-08-14": "AB", "2024-08-15": "C", "2024-08-16": "AB", "2024-08-17": "C", "2024-08-18": "AB",
                "2024-08-19": "C", "2024-08-20": "AB", "2024-08-21": "C", "2024-08-22": "AB",
            ]),
        Case(
            name: "Weekends Start Saturday", groups: [1, 1, 1], start: "2024-08-03", days: ["SA", "SU"],
            totalDays: 15, frequency: "daily", interval: 1,
            expected: ["2024-08-03": "A", "2024-08-04": "B", "2024-08-10": "C", "2024-08-11": "A", "2024-08-17": "B"]),
        Case(
            name: "Weekends Start Saturday Users > Shifts", groups: [1, 1, 1, 1, 1], start: "2024-08-03",
            days: ["SA", "SU"], totalDays: 14, frequency: "daily", interval: 1,
            expected: ["2024-08-03": "A", "2024-08-04": "B", "2024-08-10": "C", "2024-08-11": "D"]),
        Case(
            name: "Weekends Start Thursday (one group)", groups: [1], start: "2024-08-01", days: ["SA", "SU"],
            totalDays: 5, frequency: "daily", interval: 1, expected: ["2024-08-03": "A", "2024-08-04": "A"]),
        Case(
            name: "Weekends Start Thursday", groups: [1, 1, 1], start: "2024-08-01", days: ["SA", "SU"],
            totalDays: 17, frequency: "daily", interval: 1,
            expected: ["2024-08-03": "A", "2024-08-04": "B", "2024-08-10": "C", "2024-08-11": "A", "2024-08-17": "B"]),
        Case(
            name: "Weekends Start Thursday Users > Shifts", groups: [1, 1, 1, 1, 1, 1], start: "2024-08-01",
            days: ["SA", "SU"], totalDays: 17, frequency: "daily", interval: 1,
            expected: ["2024-08-03": "A", "2024-08-04": "B", "2024-08-10": "C", "2024-08-11": "D", "2024-08-17": "E"]),
        Case(
            name: "Weekends Start Thursday Interval 2", groups: [1, 1, 1], start: "2024-08-01", days: ["SA", "SU"],
            totalDays: 17, frequency: "daily", interval: 2,
            expected: ["2024-08-03": "A", "2024-08-04": "A", "2024-08-10": "B", "2024-08-11": "B", "2024-08-17": "C"]),
        Case(
            name: "Weekends Start Saturday Weekly", groups: [1, 1, 1], start: "2024-08-01", days: ["SA", "SU"],
            totalDays: 18, frequency: "weekly", interval: 1,
            expected: [
                "2024-08-03": "A", "2024-08-04": "A", "2024-08-10": "B", "2024-08-11": "B", "2024-08-17": "C",
                "2024-08-18": "C",
            ]),
        Case(
            name: "Weekends Start Saturday Weekly Interval 2", groups: [1, 1, 1], start: "2024-08-01",
            days: ["SA", "SU"], totalDays: 18, frequency: "weekly", interval: 2,
            expected: ["2024-08-03": "A", "2024-08-04": "A", "2024-08-17": "B", "2024-08-18": "B"]),
        Case(
            name: "Weekends Start Thursday Monthly", groups: [1, 1, 1], start: "2024-08-29", days: ["SA", "SU"],
            totalDays: 18, frequency: "monthly", interval: 1,
            expected: [
                "2024-08-31": "A", "2024-09-01": "B", "2024-09-07": "B", "2024-09-08": "B", "2024-09-14": "B",
                "2024-09-15": "B",
            ]),
    ]

    /// The case as an export (users A, B, C… in groups; a shift from 09:00 for 8 hours) and as
    /// Grafana's final shifts (each expected day 09:00–17:00 for each of its users).
    static func files(_ c: Case) -> (export: Data, rendered: Data) {
        var letter = Character("A").asciiValue!
        var groups: [[String]] = []
        for size in c.groups {
            groups.append(
                (0..<size).map { _ in
                    defer { letter += 1 }
                    return String(UnicodeScalar(letter))
                })
        }
        let users = groups.flatMap { $0 }.map {
            #"{"id": "\#($0)", "email": "\#($0.lowercased())@grafana.example", "username": "\#($0)"}"#
        }
        let rolling = groups.map { "[" + $0.map { #""\#($0)""# }.joined(separator: ", ") + "]" }.joined(separator: ", ")
        let byDay = c.days.map { "[" + $0.map { #""\#($0)""# }.joined(separator: ", ") + "]" } ?? "null"
        let export = #"""
            {"users": [\#(users.joined(separator: ", "))],
             "schedules": [{"id": "S1", "name": "Case", "type": "web", "time_zone": "UTC", "shifts": ["O1"]}],
             "on_call_shifts": [{"id": "O1", "name": "case", "type": "rolling_users", "level": 0,
                                 "start": "\#(c.start)T09:00:00", "rotation_start": "\#(c.start)T09:00:00",
                                 "duration": 28800, "frequency": "\#(c.frequency)", "interval": \#(c.interval),
                                 "week_start": "MO", "by_day": \#(byDay), "rolling_users": [\#(rolling)]}]}
            """#
        let begin = TimeText.parseISO8601(c.start + "T00:00:00Z")!
        let shifts = c.expected.sorted { $0.key < $1.key }.flatMap { day, who in
            who.map { #"{"user_pk": "\#($0)", "shift_start": "\#(day)T09:00:00Z", "shift_end": "\#(day)T17:00:00Z"}"# }
        }
        let rendered = #"""
            {"since": "\#(c.start)T00:00:00Z", "until": "\#(TimeText.iso8601(begin + UnixMillis(c.totalDays) * 86_400_000))",
             "schedules": [{"id": "S1", "final_shifts": [\#(shifts.joined(separator: ", "))]}]}
            """#
        return (Data(export.utf8), Data(rendered.utf8))
    }

    @Test(arguments: cases)
    func grafanasOwnShiftCases(_ c: Case) throws {
        let (export, rendered) = Self.files(c)
        let verification = try MigrationFixtures.verify(export, rendered, from: .grafanaOnCall)
        #expect(verification.differences.isEmpty, "\(verification.text)")
    }

    /// docs/examples/grafana-oncall-export.json against its final shifts, rendered by
    /// Fixtures/grafana_oncall_render.py (the rules above, written separately): a daily
    /// weekday rotation by two active days with an override, a whole-week rotation under a
    /// fortnightly weekend layer with an override of two users together, overnight pairs, a
    /// monthly lead from its second group.
    @Test func theDocumentedSampleAgreesWithItsRendering() throws {
        let export = try Data(
            contentsOf: MigrationFixtures.examples.appendingPathComponent("grafana-oncall-export.json"))
        let verification = try MigrationFixtures.verify(
            export,
            Data(contentsOf: MigrationFixtures.examples.appendingPathComponent("grafana-oncall-final-shifts.json")),
            from: .grafanaOnCall)
        #expect(verification.schedules.count == 4)
        #expect(verification.differences.isEmpty, "\(verification.text)")
        // The two-user override: one replaces whoever is on duty, the other is added.
        let migration = try MigrationFixtures.migrate(export, from: .grafanaOnCall)
        let kinds = migration.state.schedules["grafana-oncall-GS2"]?.overrides.map(\.kind) ?? []
        #expect(kinds.contains { if case .replace(_, "grafana-oncall-U7") = $0 { true } else { false } }, "\(kinds)")
        #expect(kinds.contains(.add("grafana-oncall-U8")), "\(kinds)")
    }

    /// A chain's steps in position order: a wait is the step before it's delay, persons in
    /// turn are round robin, a repeat is a repeat, a webhook is reported.
    @Test func anEscalationChainBecomesAPolicy() throws {
        var text = String(decoding: Self.files(Self.cases[0]).export, as: UTF8.self)
        text.removeLast()
        text += #"""
            , "escalation_chains": [{"id": "F1", "name": "Primary"}],
              "escalation_policies": [
                {"id": "E5", "escalation_chain_id": "F1", "position": 4, "type": "repeat_escalation"},
                {"id": "E1", "escalation_chain_id": "F1", "position": 0, "type": "notify_on_call_from_schedule", "notify_on_call_from_schedule": "S1"},
                {"id": "E2", "escalation_chain_id": "F1", "position": 1, "type": "wait", "duration": 600},
                {"id": "E3", "escalation_chain_id": "F1", "position": 2, "type": "notify_persons", "persons_to_notify": ["A"]},
                {"id": "E4", "escalation_chain_id": "F1", "position": 3, "type": "notify_person_next_each_time", "persons_to_notify_next_each_time": ["B", "C"]},
                {"id": "E6", "escalation_chain_id": "F1", "position": 5, "type": "trigger_webhook"}]}
            """#
        let migration = try MigrationFixtures.migrate(Data(text.utf8), from: .grafanaOnCall)
        let policy = try #require(migration.state.escalation.policies["grafana-oncall-F1"])
        #expect(policy.steps.map(\.delayMinutes) == [10, 1, 1] && policy.repeatCount == 1)
        #expect(policy.steps[0].targets == [.schedule("grafana-oncall-S1")])
        #expect(policy.steps[2].strategy == .roundRobin && policy.steps[2].targets.count == 2)
        #expect(migration.report.entries.contains { $0.kind == .notMapped && $0.message.contains("trigger_webhook") })
    }

    /// Fixtures/grafana-oncall: eleven schedules over the spring changes of four hemispheres' zones
    /// (New York, Chicago, London, Berlin, Sydney, Santiago; Tokyo has none), rendered by
    /// Fixtures/grafana_oncall_render.py: rotations from 2017, 2018, 2019 and 2020, weekday
    /// restrictions, overnight turns, two levels, intervals of active days, weeks and months,
    /// pairs, a start from the third group, and overrides of one user and of two together.
    @Test func elevenSchedulesAgreeWithTheIndependentRenderingAcrossDaylightSaving() throws {
        let folder = MigrationFixtures.folder.appendingPathComponent("grafana-oncall")
        let verification = try MigrationFixtures.verify(
            Data(contentsOf: folder.appendingPathComponent("export.json")),
            Data(contentsOf: folder.appendingPathComponent("final-shifts.json")), from: .grafanaOnCall)
        #expect(verification.schedules.count == 11)
        #expect(verification.differences.isEmpty, "\(verification.text)")
    }

    /// A monthly rotation with an interval, as Grafana's get_rotation_date and event_interval
    /// make it (and its test_rolling_users_event_with_interval_monthly checks): the next group
    /// `interval` months later, the months between for nobody.
    @Test func aMonthlyRotationWithAnIntervalLeavesTheMonthsBetweenEmpty() throws {
        var expected: [String: String] = [:]
        for (month, days, who) in [("08", 26...30, "A"), ("10", 1...31, "B")] {
            for day in days {
                let date = "2024-\(month)-\(day < 10 ? "0" : "")\(day)"
                let instant = TimeText.parseISO8601(date + "T12:00:00Z")!
                // 2024-08-26 was a Monday: weekdays are those 0...4 days on from a Monday.
                let weekday = Int((instant - TimeText.parseISO8601("2024-08-26T12:00:00Z")!) / 86_400_000) % 7
                if weekday < 5 { expected[date] = who }
            }
        }
        let c = Case(
            name: "Weekdays Monthly Interval 2", groups: [1, 1], start: "2024-08-26",
            days: ["MO", "TU", "WE", "TH", "FR"], totalDays: 97, frequency: "monthly", interval: 2, expected: expected)
        let (export, rendered) = Self.files(c)
        let verification = try MigrationFixtures.verify(export, rendered, from: .grafanaOnCall)
        #expect(verification.differences.isEmpty, "\(verification.text)")
        #expect(expected.count == 5 + 23)
    }

    /// What Roster's rotations do not read is reported and left out, never approximated.
    @Test func unmappedShiftsAreReported() throws {
        var c = Self.cases[0]
        c.frequency = "hourly"
        let migration = try MigrationFixtures.migrate(Self.files(c).export, from: .grafanaOnCall)
        #expect(migration.report.entries.contains { $0.kind == .notMapped && $0.path == "on_call_shifts[0]" })
        #expect(migration.state.schedules["grafana-oncall-S1"]?.layers.isEmpty == true)
        let text = String(decoding: Self.files(Self.cases[0]).export, as: UTF8.self)
        #expect(
            MigrationFixtures.problems(text.replacingOccurrences(of: #""FR""#, with: #""FRI""#), from: .grafanaOnCall)
                == ["on_call_shifts[0].by_day: is not a list of days such as MO, TU"])
    }
}
