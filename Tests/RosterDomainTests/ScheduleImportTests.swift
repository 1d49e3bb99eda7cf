import Foundation
import RosterDomain
import Testing

/// Schedule definitions through the snapshot JSON (export, then import) and PagerDuty's JSON.
@Suite(.timeLimit(.minutes(10))) struct ScheduleImportTests {
    func importing(_ format: ImportFormat, _ data: Data, into base: RosterState, updateExisting: Bool = false)
        throws(RosterError) -> RosterState
    {
        var counter = 0
        let plan = try RosterImport.plan(
            format: format, data: data, options: ImportOptions(updateExisting: updateExisting),
            current: base
        ) { prefix in
            counter += 1
            return "\(prefix)\(counter)"
        }
        return try base.applyingValidated(plan.changes)
    }

    static let people = [
        Employee(id: "ada", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com"),
        Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
        Employee(id: "grace", firstName: "Grace", lastName: "Hopper"),
    ]

    @Test func anExportedScheduleImportsBackTheSame() throws {
        let schedule = ScheduleDefinition(
            id: "platform", name: "Platform primary", zone: "Europe/Berlin", team: "Core", description: "weekly",
            layers: [
                ScheduleLayer(
                    level: 1,
                    rotations: [
                        Rotation(
                            id: "w", slots: [["ada"], ["alan", "grace"], []], cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9), end: 1_800_000_000_000,
                            restrictions: [RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 540, end: 1020)]),
                        Rotation(
                            id: "w", slots: [["grace"]], cadence: .days(2),
                            handoff: LocalDateTime(year: 2027, month: 1, day: 1),
                            advance: .calendar, since: 1_800_000_000_000, version: 2, slotOffset: 1),
                    ])
            ],
            overrides: [
                ScheduleOverride(
                    id: "o1", kind: .replace(replacing: "ada", with: "alan"), start: 1_796_169_600_000,
                    end: 1_796_256_000_000, author: "tok_1", reason: "conference")
            ])
        let source = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: Self.people,
            shifts: [
                Shift(
                    id: "s1", employeeID: "ada", start: 1_796_169_600_000, end: 1_796_173_200_000,
                    role: "extra", scheduleID: "platform")
            ],
            schedules: [schedule])
        let exported = RosterExport.snapshotJSON(source)
        let imported = try importing(.snapshotJSON, exported, into: RosterState(tenant: Tenant(id: "t", name: "T")))
        #expect(imported.schedules["platform"] == schedule)
        #expect(imported.shifts["s1"]?.scheduleID == "platform")
        #expect(imported.definition(of: "platform") == source.definition(of: "platform"))

        // The same file again changes nothing; a changed definition needs --update-existing.
        let again = try RosterImport.plan(format: .snapshotJSON, data: exported, current: imported, newID: { $0 })
        #expect(again.changes.isEmpty && again.rows.contains { $0.kind == "schedule" && $0.action == .unchanged })
        var renamed = imported
        renamed.apply(
            .scheduleUpserted(
                {
                    var copy = schedule; copy.description = "changed"; return copy
                }()))
        #expect(throws: RosterError.self) { try importing(.snapshotJSON, exported, into: renamed) }
        #expect(
            try importing(.snapshotJSON, exported, into: renamed, updateExisting: true).schedules["platform"]
                == schedule)
    }

    @Test func badScheduleRecordsAreReportedWhereTheyAre() {
        let text = """
            {"employees": [{"id": "ada", "firstName": "Ada", "lastName": "Lovelace"}],
             "schedules": [{"name": "S", "zone": "Mars/Olympus", "layers": [{"level": 0, "rotations": [
                 {"slots": [["Nobody Here"]], "cadence": {"unit": "fortnights", "count": 1}, "handoff": "2026-11-30T09:00"},
                 {"slots": [["Ada Lovelace"]], "cadence": {"unit": "weeks", "count": 1}, "handoff": "soon"}]}]}]}
            """
        do {
            _ = try importing(.snapshotJSON, Data(text.utf8), into: RosterState(tenant: Tenant(id: "t", name: "T")))
            Issue.record("expected violations")
        } catch {
            guard case .invalid(let found) = error else { Issue.record("\(error)"); return }
            let messages = found.map(\.description)
            #expect(messages.contains { $0.hasPrefix("schedules[0].layers[0].rotations[0], cadence:") }, "\(messages)")
            #expect(messages.contains { $0.hasPrefix("schedules[0].layers[0].rotations[1], handoff:") }, "\(messages)")
        }
    }

    /// A PagerDuty schedule with a weekly layer and a weekday business-hours layer above it.
    static let pagerDuty = """
        {"schedule": {"id": "PX1", "name": "Platform (from PagerDuty)", "time_zone": "Europe/Berlin", "description": "moved over",
          "schedule_layers": [
            {"id": "PL1", "name": "Layer 1", "start": "2026-11-30T09:00:00+01:00", "end": null,
             "rotation_virtual_start": "2026-11-30T09:00:00+01:00", "rotation_turn_length_seconds": 604800,
             "users": [{"user": {"id": "PU1", "summary": "Ada Lovelace", "type": "user_reference"}},
                       {"user": {"id": "PU2", "summary": "Alan Turing", "type": "user_reference"}}],
             "restrictions": []},
            {"id": "PL2", "name": "Layer 2", "start": "2026-11-30T00:00:00+01:00", "end": null,
             "rotation_virtual_start": "2026-11-30T00:00:00+01:00", "rotation_turn_length_seconds": 86400,
             "users": [{"user": {"id": "PU3", "summary": "Grace Hopper", "email": "grace@example.com"}}],
             "restrictions": [{"type": "weekly_restriction", "start_day_of_week": 1, "start_time_of_day": "09:00:00",
                               "duration_seconds": 32400},
                              {"type": "weekly_restriction", "start_day_of_week": 5, "start_time_of_day": "22:00:00",
                               "duration_seconds": 14400}]}
          ]}}
        """

    @Test func aPagerDutyScheduleImportsAsLayersAndResolvesAsItDid() throws {
        let base = RosterState(tenant: Tenant(id: "t", name: "T"), employees: Self.people)
        let state = try importing(.pagerDutyJSON, Data(Self.pagerDuty.utf8), into: base)
        let schedule = try #require(state.schedule(idOrName: "Platform (from PagerDuty)"))
        #expect(schedule.zone == "Europe/Berlin" && schedule.layers.map(\.level) == [0, 1])
        let weekly = schedule.layers[0].rotations[0]
        #expect(weekly.cadence == .weeks(1) && weekly.handoff == LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
        #expect(weekly.advance == .calendar && weekly.slots == [["ada"], ["alan"]])
        // Friday 22:00 for four hours runs past midnight: cut into Friday and Saturday windows.
        #expect(
            schedule.layers[1].rotations[0].restrictions == [
                RestrictionWindow(weekdays: [2], start: 540, end: 1080),
                RestrictionWindow(weekdays: [6], start: 1320, end: 1440),
                RestrictionWindow(weekdays: [7], start: 0, end: 120),
            ])

        // Monday 2026-11-30 in Berlin: Ada from 09:00, Grace over her from 09:00 to 18:00.
        let day = try ScheduleResolver.resolve(
            state.definition(of: schedule.id)!, from: 1_796_025_600_000 - 3_600_000,
            to: 1_796_025_600_000 + 23 * 3_600_000)
        #expect(day.map { "\($0.employeeID)@\(($0.start - 1_796_025_600_000) / 3_600_000)" } == ["grace@0", "ada@9"])
        // The Friday-night window crosses midnight without a gap (Grace 22:00-02:00 over Ada; her
        // daily turn changes at midnight, so two shifts that touch).
        let friday: UnixMillis = 1_796_025_600_000 + 4 * 86_400_000 + 13 * 3_600_000  // Fri 22:00 Berlin
        let night = try ScheduleResolver.resolve(
            state.definition(of: schedule.id)!, from: friday, to: friday + 4 * 3_600_000)
        #expect(
            night.map(\.employeeID) == ["grace", "grace"] && night[0].end == night[1].start
                && night[0].end == friday + 2 * 3_600_000 && night[1].end == friday + 4 * 3_600_000)
    }

    @Test func aPagerDutyUserWhoIsNotHereIsNamed() {
        let text = Self.pagerDuty.replacingOccurrences(of: "Alan Turing", with: "Alan Kay")
        do {
            _ = try importing(
                .pagerDutyJSON, Data(text.utf8),
                into: RosterState(tenant: Tenant(id: "t", name: "T"), employees: Self.people))
            Issue.record("expected a violation")
        } catch {
            #expect("\(error)".contains("schedule_layers[0].users[1], user: unknown employee \"Alan Kay\""), "\(error)")
        }
    }
}
