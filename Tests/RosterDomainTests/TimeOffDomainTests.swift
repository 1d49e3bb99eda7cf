import Foundation
import RosterDomain
import Testing

/// Time off read from iCalendar files, conflict ids, and temporary schedules merged and split
/// (issue #37), as pure functions.
@Suite(.timeLimit(.minutes(10))) struct TimeOffDomainTests {
    static let berlinCalendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:all-day@example.org\r
        SUMMARY:Holiday\\, Lisbon\r
        DTSTART;VALUE=DATE:20261221\r
        DTEND;VALUE=DATE:20270104\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:dentist@example.org\r
        SUMMARY:Dentist\r
        DTSTART;TZID=America/Chicago:20261202T090000\r
        DTEND;TZID=America/Chicago:20261202T1130\r
         00\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:utc@example.org\r
        DTSTART:20261203T080000Z\r
        DTEND:20261203T090000Z\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:called-off@example.org\r
        STATUS:CANCELLED\r
        DTSTART;VALUE=DATE:20261210\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:one-day@example.org\r
        DTSTART;VALUE=DATE:20270328\r
        END:VEVENT\r
        END:VCALENDAR\r
        """

    @Test func eachEventIsTimeOffInItsOwnZone() throws {
        let events = try TimeOffCalendar.events(fromICS: Self.berlinCalendar, zone: "Europe/Berlin")
        #expect(
            events.map(\.uid) == [
                "all-day@example.org", "dentist@example.org", "utc@example.org", "one-day@example.org",
            ],
            "the cancelled one is skipped")
        // All-day: whole days in Berlin (local midnight, CET).
        #expect(
            events[0].start == TimeText.parseISO8601("2026-12-20T23:00:00Z")
                && events[0].end == TimeText.parseISO8601("2027-01-03T23:00:00Z"))
        #expect(events[0].summary == "Holiday, Lisbon")
        // TZID: Chicago's 09:00 is 15:00Z; the folded DTEND reads as 11:30:00.
        #expect(
            events[1].start == TimeText.parseISO8601("2026-12-02T15:00:00Z")
                && events[1].end == TimeText.parseISO8601("2026-12-02T17:30:00Z"))
        #expect(events[2].start == TimeText.parseISO8601("2026-12-03T08:00:00Z"))
        // An all-day event without DTEND is one local day: 28 March 2027 in Berlin is 23 hours long (the clocks go forward).
        #expect(events[3].end - events[3].start == 23 * 3_600_000)
    }

    @Test func whatCannotBeReadExactlyIsRefusedByLine() {
        func problem(_ body: String) -> String? {
            do {
                _ = try TimeOffCalendar.events(
                    fromICS: "BEGIN:VCALENDAR\nBEGIN:VEVENT\n\(body)\nEND:VEVENT\nEND:VCALENDAR", zone: "UTC")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem("UID:x\nDTSTART:20261201\nRRULE:FREQ=WEEKLY")?.contains("recurring event") == true)
        #expect(problem("DTSTART:20261201")?.contains("has no UID") == true)
        #expect(problem("UID:x\nDTSTART:20261201T090000Z")?.contains("has no DTEND") == true)
        #expect(problem("UID:x\nDTSTART:20261231\nDTEND:20261201")?.contains("ends before it starts") == true)
        #expect(
            problem("UID:x\nDTSTART;TZID=Mars/Olympus:20261201T090000\nDTEND:20261202")?.contains(
                "not an IANA time zone") == true)
        #expect(problem("UID:x\nDTSTART:20260230\nDTEND:20260301")?.contains("is not a date") == true)
        #expect((try? TimeOffCalendar.events(fromICS: "hello", zone: "UTC")) == nil)
    }

    @Test func aConflictHasTheSameIDInEveryWindow() throws {
        let rotation = Rotation(
            id: "r", slots: [["ada"], ["alan"]], cadence: .days(1),
            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "Europe/Berlin", layers: [ScheduleLayer(level: 0, rotations: [rotation])])
        let off = TimeOff(
            id: "off_1", employeeID: "ada", start: TimeText.parseISO8601("2026-12-02T00:00:00Z")!,
            end: TimeText.parseISO8601("2026-12-03T00:00:00Z")!)
        func conflicts(_ from: String, _ to: String) throws -> [DutyConflict] {
            let shifts = try ScheduleResolver.resolve(
                schedule, from: TimeText.parseISO8601(from)!, to: TimeText.parseISO8601(to)!)
            return DutyConflicts.find(scheduleID: "s", shifts: shifts, timeOff: [off])
        }
        let wide = try conflicts("2026-11-30T00:00:00Z", "2026-12-10T00:00:00Z")
        let narrow = try conflicts("2026-12-02T12:00:00Z", "2026-12-02T13:00:00Z")
        #expect(wide.count == 1 && narrow.count == 1 && wide[0].id == narrow[0].id && wide[0].id.hasPrefix("off_1."))
        // Ada's turn from 2 December 09:00 Berlin (08:00Z) to the end of her time off.
        #expect(wide[0].start == TimeText.parseISO8601("2026-12-02T08:00:00Z") && wide[0].end == off.end)
    }

    @Test func temporarySpansMergeSplitAndNeverChangeThePast() throws {
        let hour: UnixMillis = 3_600_000
        let now: UnixMillis = 100 * hour
        var schedule = ScheduleDefinition(id: "s", name: "S", zone: "UTC")
        func shift(_ who: String, _ from: Int, _ to: Int) -> TemporarySchedule.Shift {
            .init(employeeID: who, start: UnixMillis(from) * hour, end: UnixMillis(to) * hour)
        }
        schedule = try schedule.settingTemporary(
            from: 110 * hour, to: 120 * hour, shifts: [shift("a", 110, 120)], allowGaps: false,
            id: "t1", author: "", now: now)
        schedule = try schedule.settingTemporary(
            from: 115 * hour, to: 130 * hour, shifts: [shift("b", 115, 130)], allowGaps: false,
            id: "t2", author: "", now: now)
        #expect(schedule.temporary.count == 1 && schedule.temporary[0].id == "t1")
        #expect(schedule.temporary[0].start == 110 * hour && schedule.temporary[0].end == 130 * hour)
        #expect(
            schedule.temporary[0].shifts == [shift("a", 110, 115), shift("b", 115, 130)],
            "the new shifts replace the old inside the range")
        schedule = try schedule.clearingTemporary(from: 118 * hour, to: 122 * hour, newID: "t3", now: now)
        #expect(schedule.temporary.map(\.id) == ["t1", "t3"])
        #expect(
            schedule.temporary.map(\.shifts) == [[shift("a", 110, 115), shift("b", 115, 118)], [shift("b", 122, 130)]])
        // From before now: taken from now.
        let late = try schedule.settingTemporary(
            from: 90 * hour, to: 105 * hour, shifts: [shift("c", 90, 105)], allowGaps: false,
            id: "t4", author: "", now: now)
        #expect(late.temporary.first?.start == now && late.temporary.first?.shifts == [shift("c", 100, 105)])
        #expect(throws: RosterError.self) {
            try schedule.settingTemporary(
                from: 90 * hour, to: 99 * hour, shifts: [shift("c", 90, 99)], allowGaps: false, id: "t5", author: "",
                now: now)
        }
        #expect(throws: RosterError.self) {
            try schedule.settingTemporary(
                from: 140 * hour, to: 150 * hour, shifts: [shift("c", 140, 145)], allowGaps: false, id: "t6",
                author: "", now: now)
        }
        #expect(throws: RosterError.self) {
            try schedule.clearingTemporary(from: 200 * hour, to: 210 * hour, newID: "t7", now: now)
        }
    }

    @Test func theLimitsAreKeptAndNamed() throws {
        let hour: UnixMillis = 3_600_000
        var state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: [Employee(id: "ada", firstName: "Ada", lastName: "Lovelace")]
        )
        let full = (0..<TimeOff.maxPerPerson).map {
            TimeOff(
                id: "off_\($0)", employeeID: "ada", start: UnixMillis($0) * 2 * hour,
                end: UnixMillis($0) * 2 * hour + hour)
        }
        state = try state.applyingValidated(full.map { ("", RosterChange.timeOffSet($0)) })
        #expect(state.timeOff(of: "ada").count == 200)
        let more = TimeOff(id: "off_more", employeeID: "ada", start: 10_000 * hour, end: 10_001 * hour)
        let refused = try #require(throws: RosterError.self) { try state.applyingValidated([("", .timeOffSet(more))]) }
        #expect(refused.description.contains("200 entries of time off"), "\(refused)")
        // Changing one in place is not one more.
        var moved = full[0]
        moved.end += 60_000
        _ = try state.applyingValidated([("", .timeOffSet(moved))])
        let long = TimeOff(id: "off_long", employeeID: "ada", start: 0, end: TimeOff.maxLength + 1)
        #expect(throws: RosterError.self) {
            try RosterState(
                tenant: Tenant(id: "t", name: "T"),
                employees: [Employee(id: "ada", firstName: "Ada", lastName: "Lovelace")]
            )
            .applyingValidated([("", .timeOffSet(long))])
        }

        // Holiday calendars: 50 a tenant, 1,000 days each, names as restrictions write them.
        var tenant = RosterState(tenant: Tenant(id: "t", name: "T"))
        tenant = try tenant.applyingValidated(
            (0..<HolidaySet.maxPerTenant).map { ("", .holidaysSet(HolidaySet(name: "c\($0)", days: ["2026-12-25"]))) })
        #expect(throws: RosterError.self) {
            try tenant.applyingValidated([("", .holidaysSet(HolidaySet(name: "one-more", days: [])))])
        }
        let tooMany = (0...HoursReportOptions.maxHolidays).map { String(format: "%04d-01-01", 2000 + $0 % 7000) }
        #expect(throws: RosterError.self) {
            try RosterState(tenant: Tenant(id: "t", name: "T")).applyingValidated([
                ("", .holidaysSet(HolidaySet(name: "big", days: tooMany)))
            ])
        }
        #expect(
            HolidaySet.nameProblem("de by") != nil && HolidaySet.nameProblem("de-by") == nil
                && HolidaySet.nameProblem(String(repeating: "x", count: 65)) != nil)
        #expect(throws: TimeOffCalendar.Invalid.self) {
            try TimeOffCalendar.events(
                fromICS: String(repeating: "x", count: TimeOffCalendar.maxBytes + 1), zone: "UTC")
        }

        // Temporary schedules: 1,000 shifts a span.
        let schedule = ScheduleDefinition(id: "s", name: "S", zone: "UTC")
        let shifts = (0...TemporarySchedule.maxShifts).map {
            TemporarySchedule.Shift(employeeID: "ada", start: UnixMillis($0) * hour, end: UnixMillis($0 + 1) * hour)
        }
        #expect(throws: RosterError.self) {
            try schedule.settingTemporary(
                from: 0, to: UnixMillis(shifts.count) * hour, shifts: shifts, allowGaps: false, id: "t", author: "",
                now: 0)
        }
    }

    /// A year of conflicts on a daily rotation: every one gets its proposals (the surroundings
    /// are resolved once, not once per conflict), each equal to a count over its own four weeks.
    @Test func everyConflictOfAYearGetsItsProposalsAndTheirHoursAreItsOwn() throws {
        let day: UnixMillis = 86_400_000
        let people = ["ada", "alan", "grace", "linus"].map {
            Employee(id: $0, firstName: $0.capitalized, lastName: "X" + $0)
        }
        let rotation = Rotation(
            id: "r", slots: people.map { [$0.id] }, cadence: .days(1),
            handoff: LocalDateTime(year: 2027, month: 1, day: 1, hour: 9))
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "Europe/Berlin", layers: [ScheduleLayer(level: 0, rotations: [rotation])])
        let start = TimeText.parseISO8601("2027-01-01T00:00:00Z")!
        // Ada is off one day a week all year; Grace is off the first half of it.
        var away: [TimeOff] = []
        for week in 0..<52 {
            let from: UnixMillis = start + UnixMillis(week * 7) * day
            away.append(TimeOff(id: "off_\(week)", employeeID: "ada", start: from, end: from + day))
        }
        away.append(TimeOff(id: "off_grace", employeeID: "grace", start: start, end: start + 180 * day))
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: people, schedules: [schedule], timeOff: away, holidays: [])
        let final = try state.finalSchedule(schedule: "S", employee: nil, from: start, to: start + 366 * day)
        let conflicts = state.conflicts(in: final.shifts)
        #expect(conflicts.count >= 20)
        #expect(conflicts.allSatisfy { !$0.proposals.isEmpty }, "every conflict has proposals")
        for conflict in [conflicts[0], conflicts[conflicts.count / 2], conflicts[conflicts.count - 1]] {
            let (low, high) = (
                conflict.start - DutyConflicts.fairnessWindow, conflict.end + DutyConflicts.fairnessWindow
            )
            let definition = try #require(state.definition(of: "s"))
            let around: [ResolvedShift] = try ScheduleResolver.resolve(definition, from: low, to: high)
            let busy = Set(around.filter { $0.start < conflict.end && conflict.start < $0.end }.map(\.employeeID))
            var expected: [(String, UnixMillis)] = []
            for person in people.map(\.id) where person != conflict.employeeID && !busy.contains(person) {
                guard state.timeOff(from: conflict.start, to: conflict.end, of: [person]).isEmpty else { continue }
                var hours: UnixMillis = 0
                for shift in around where shift.employeeID == person { hours += shift.end - shift.start }
                expected.append((person, hours))
            }
            expected.sort { ($0.1, "X" + $0.0) < ($1.1, "X" + $1.0) }
            #expect(
                conflict.proposals.map(\.employeeID) == expected.map(\.0)
                    && conflict.proposals.map(\.dutyAround) == expected.map(\.1),
                "\(conflict.id): \(conflict.proposals) against \(expected)")
        }
    }

    /// A conflict's proposals, like its id, are the same whichever window shows it: a weekly
    /// rotation of Ann, Bob and Cy with Ann off 6-12 July, asked for one day and for a month.
    @Test func aConflictsProposalsDoNotDependOnTheWindow() throws {
        let day: UnixMillis = 86_400_000
        let people = [("ann", "Ann"), ("bob", "Bob"), ("cy", "Cy")].map {
            Employee(id: $0.0, firstName: $0.1, lastName: "Z")
        }
        let rotation = Rotation(
            id: "r", slots: [["ann"], ["bob"], ["cy"]], cadence: .weeks(1),
            handoff: LocalDateTime(year: 2027, month: 7, day: 5, hour: 0))
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC", layers: [ScheduleLayer(level: 0, rotations: [rotation])])
        let july6 = TimeText.parseISO8601("2027-07-06T00:00:00Z")!
        let away = [TimeOff(id: "off_ann", employeeID: "ann", start: july6, end: july6 + 7 * day)]
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: people, schedules: [schedule], timeOff: away, holidays: [])
        func conflict(from: UnixMillis, to: UnixMillis) throws -> DutyConflict {
            let final = try state.finalSchedule(schedule: "S", employee: nil, from: from, to: to)
            return try #require(state.conflicts(in: final.shifts).first)
        }
        let oneDay = try conflict(from: july6 + 2 * day, to: july6 + 3 * day)
        let month = try conflict(
            from: TimeText.parseISO8601("2027-07-01T00:00:00Z")!, to: TimeText.parseISO8601("2027-08-01T00:00:00Z")!)
        #expect(oneDay.id == month.id && oneDay.start != month.start, "one conflict, shown in part and whole")
        #expect(!oneDay.proposals.isEmpty)
        #expect(oneDay.proposals == month.proposals, "\(oneDay.proposals) against \(month.proposals)")
        // What --suggested takes is the first of the same list.
        let byID = try #require(state.conflict(id: month.id, now: july6 - day))
        #expect(byID.proposals == month.proposals)
    }
}
