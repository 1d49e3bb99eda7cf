import Foundation
import PropertyBased
import RosterDomain
import Testing

/// The hours and quality reports (issue #36) against a plain count: who is on duty at every
/// quarter hour (the scheduling oracle) and what kind of time that quarter is, counted one
/// quarter at a time, over the oracle's random schedules in zones with DST changes.
@Suite(.timeLimit(.minutes(10))) struct HoursReportTests {
    static let quarter = ScheduleOracleTests.quarter
    static let hour: UnixMillis = 3_600_000

    /// Random options: business hours on the quarter grid, any workdays, an optional night
    /// (wrapping or not), and holidays among the window's local days.
    static let optionsGen = zip(
        Gen.int(in: 0...80), Gen.int(in: 1...15), Gen.int(in: 0...127), Gen.bool,
        Gen.int(in: 0...95), Gen.int(in: 1...95), Gen.int(in: 0...7))

    static func options(zone: String, from: UnixMillis, _ spec: (Int, Int, Int, Bool, Int, Int, Int))
        -> HoursReportOptions
    {
        var options = HoursReportOptions(zone: zone)
        options.business = DayWindow(start: spec.0 * 15, end: spec.0 * 15 + spec.1 * 60)
        options.workdays = Set((1...7).filter { spec.2 & (1 << ($0 - 1)) != 0 })
        if spec.3 { options.night = DayWindow(start: spec.4 * 15, end: (spec.4 * 15 + spec.5 * 15) % 1440) }
        let clock = WallClock(zone: zone)!
        let first = clock.day(of: from).day
        for offset in 0..<3 where spec.6 & (1 << offset) != 0 {
            options.holidays.insert(clock.day(first, adding: offset))
        }
        return options
    }

    /// The kind of the quarter at `t`, written out from the rules in docs/REPORTS.md.
    static func kind(at t: UnixMillis, _ options: HoursReportOptions, _ clock: WallClock) -> DutyCategory {
        let local = clock.local(t)
        let day = WallClock.Day(year: local.year, month: local.month, day: local.day)
        let minute = local.hour * 60 + local.minute
        func inside(_ start: Int, _ end: Int) -> Bool {
            start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
        }
        if options.holidays.contains(day) { return .holiday }
        if !options.workdays.contains(clock.weekday(of: day)) { return .weekend }
        if let night = options.night, inside(night.start, night.end) { return .night }
        return inside(options.business.start, options.business.end) ? .business : .outsideBusinessHours
    }

    /// Everything the report says about each person, counted one quarter at a time.
    static func counted(_ example: ScheduleOracleTests.Case, _ options: HoursReportOptions) -> [String: PersonHours] {
        let oracle = Oracle(example.schedule, until: example.to)
        let clock = WallClock(zone: options.zone)!
        var result: [String: PersonHours] = [:]
        var previous: (onDuty: Set<String>, outOfHours: Bool)?
        var runStart: [String: UnixMillis] = [:], lastEnd: [String: UnixMillis] = [:]
        var t = example.from
        while t < example.to {
            let onDuty = oracle.onDuty(at: t)
            let kind = kind(at: t, options, clock)
            for person in onDuty {
                var hours = result[person] ?? PersonHours(employeeID: person)
                hours.total += quarter
                hours.bySchedule["s", default: 0] += quarter
                hours.categories[kind] += quarter
                let wasOn = previous?.onDuty.contains(person) ?? false
                if kind != .business && !(wasOn && previous?.outOfHours == true) { hours.outOfHoursPeriods += 1 }
                if !wasOn {
                    hours.stretches += 1
                    if let end = lastEnd[person] { hours.shortestRest = min(hours.shortestRest ?? .max, t - end) }
                    runStart[person] = t
                }
                hours.longestStretch = max(hours.longestStretch, t + quarter - runStart[person]!)
                lastEnd[person] = t + quarter
                result[person] = hours
            }
            previous = (onDuty, kind != .business)
            t += quarter
        }
        return result
    }

    @Test func hoursAgreeWithAQuarterByQuarterCount() async throws {
        await propertyCheck(count: 300, input: zip(ScheduleOracleTests.caseGen, Self.optionsGen)) { example, spec in
            let mismatch = try await offThePool { () throws -> String? in
                let options = Self.options(zone: example.schedule.zone, from: example.from, spec)
                var budget = ResolutionBudget.standard
                let stretches = try DutyRecord.stretches(
                    of: example.schedule, from: example.from, to: example.to, budget: &budget)
                let timeline = CategoryTimeline(
                    from: example.from, to: example.to, options: options,
                    clock: WallClock(zone: options.zone)!)
                var report = HoursReport.compute(stretches, from: example.from, to: example.to, timeline: timeline)
                // The oracle knows nothing of overrides' kinds: compare those separately.
                for key in report.keys {
                    report[key]!.fromOverrides = 0
                    report[key]!.coverTaken = 0
                    report[key]!.coverGiven = 0
                }
                report = report.filter { $0.value.total > 0 }
                for (person, hours) in report where hours.categories.total != hours.total {
                    return "\(person)'s categories add up to \(hours.categories.total), not \(hours.total)"
                }
                let expected = Self.counted(example, options)
                if report != expected {
                    return
                        "in \(example.schedule.zone) with \(options):\n report \(report.sorted { $0.key < $1.key })\n count  \(expected.sorted { $0.key < $1.key })"
                }
                return nil
            }
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    /// Monday 2026-11-30 00:00 UTC.
    static let monday = TimeText.parseISO8601("2026-11-30T00:00:00Z")!

    /// The week Grafana OnCall's coverage called gap-free: Monday morning covered twice, nobody
    /// from Saturday 00:00 to 12:00. Adding durations gives a full week; the union shows the gap.
    @Test func anEmptySaturdayMorningIsAGapEvenWhenMondayIsDoublyCovered() {
        let day: UnixMillis = 86_400_000
        var shifts = [
            Shift(id: "mon-b", employeeID: "b", start: Self.monday, end: Self.monday + day / 2, scheduleID: "s")
        ]
        for (index, start) in stride(from: Self.monday, to: Self.monday + 5 * day, by: Int(day)).enumerated() {
            shifts.append(Shift(id: "w\(index)", employeeID: "a", start: start, end: start + day, scheduleID: "s"))
        }
        shifts.append(
            Shift(
                id: "sat", employeeID: "a", start: Self.monday + 5 * day + day / 2, end: Self.monday + 7 * day,
                scheduleID: "s"))
        let week = ScheduleDefinition(id: "s", name: "Support", zone: "UTC", layers: [], shifts: shifts)
        var budget = ResolutionBudget.standard
        let stretches = try! DutyRecord.stretches(
            of: week, from: Self.monday, to: Self.monday + 7 * day, budget: &budget)
        let summed = stretches.reduce(0) { $0 + $1.end - $1.start }
        #expect(summed == 7 * day, "adding durations fills the week")
        let quality = QualityReport.compute(
            scheduleID: "s", stretches: stretches, from: Self.monday, to: Self.monday + 7 * day,
            participants: ["a", "b"])
        #expect(quality.gaps == [Self.monday + 5 * day..<Self.monday + 5 * day + day / 2])
        #expect(quality.covered == 7 * day - day / 2)
        #expect(abs(quality.coverage - 100 * 6.5 / 7) < 1e-9)
        #expect(quality.hours == ["a": 6 * day + day / 2, "b": day / 2])
        #expect(quality.aboveMean.map(\.employeeID) == ["a"])
        // Balance: one pair, min/max; equity: 100 - 100·σ/μ.
        #expect(abs(quality.balance - 100 * 0.5 / 6.5) < 1e-9)
        let mean = 3.5 * Double(day), sigma = 3.0 * Double(day)
        #expect(abs(quality.equity - max(0, 100 - 100 * sigma / mean)) < 1e-9)
    }

    /// A person on duty through the whole local day of a DST change gets the day's 23 or 25
    /// hours, not 24; the day is a weekend day, so all of it is weekend.
    @Test(arguments: [("2026-03-29", 23), ("2026-10-25", 25)])
    func daysOfTwentyThreeAndTwentyFiveHoursCountAsThey(date: String, hours: Int) throws {
        let clock = WallClock(zone: "Europe/Berlin")!
        let day = try #require(LocalDateTime.parseDate(date))
        let (start, end) = (
            clock.instant(day, minuteOfDay: 0), clock.instant(clock.day(day, adding: 1), minuteOfDay: 0)
        )
        let options = HoursReportOptions(zone: "Europe/Berlin")
        let stretch = RecordedStretch(
            scheduleID: "s", employeeID: "a", start: start - Self.hour, end: end + Self.hour, kind: .rotation)
        let report = HoursReport.compute(
            [stretch], from: start, to: end,
            timeline: CategoryTimeline(from: start, to: end, options: options, clock: clock))
        #expect(report["a"]?.total == UnixMillis(hours) * Self.hour)
        #expect(report["a"]?.categories.weekend == UnixMillis(hours) * Self.hour)
    }

    /// Across schedules a person's overlapping stretches count once in the total and fully on
    /// each schedule; cover taken and given, and override hours, come from the stretches' kinds.
    @Test func overlapsCountOnceAndCoverIsAttributed() {
        let h = Self.hour, t = Self.monday + 9 * h  // Monday 09:00 UTC
        let stretches = [
            RecordedStretch(scheduleID: "p", employeeID: "a", start: t, end: t + 4 * h, kind: .rotation),
            RecordedStretch(scheduleID: "q", employeeID: "a", start: t + 2 * h, end: t + 6 * h, kind: .override),
            RecordedStretch(
                scheduleID: "p", employeeID: "b", start: t + 4 * h, end: t + 7 * h, kind: .cover, replacing: "a"),
        ]
        let options = HoursReportOptions(zone: "UTC")
        let report = HoursReport.compute(
            stretches, from: Self.monday, to: Self.monday + 86_400_000,
            timeline: CategoryTimeline(
                from: Self.monday, to: Self.monday + 86_400_000, options: options,
                clock: WallClock(zone: "UTC")!))
        #expect(report["a"]?.total == 6 * h)
        #expect(report["a"]?.bySchedule == ["p": 4 * h, "q": 4 * h])
        #expect(report["a"]?.fromOverrides == 4 * h)
        #expect(report["a"]?.coverGiven == 3 * h)
        #expect(report["b"]?.coverTaken == 3 * h)
        // 09:00-18:00 business: b's 13:00-16:00 all business; a's 09:00-15:00 too.
        #expect(report["b"]?.categories.business == 3 * h)
        #expect(report["a"]?.outOfHoursPeriods == 0)
    }

    /// The record says why each stretch was on duty: a swap's halves are `swap` and name whom
    /// they cover; a cover request taken is `cover`; an admin's override is `override`.
    @Test func theRecordTellsSwapsCoverAndOverridesApart() throws {
        let h = Self.hour, t = Self.monday + 9 * h
        let rotation = Rotation(
            id: "r", slots: [["a"], ["b"]], cadence: .days(1),
            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9),
            restrictions: [], advance: .calendar)
        var schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC", layers: [ScheduleLayer(level: 1, rotations: [rotation])])
        schedule = schedule.swapping(
            "a", t..<t + 2 * h, with: "b", t + 24 * h..<t + 26 * h, ids: ("o1", "o2"), author: "", reason: "")
        schedule.overrides.append(
            ScheduleOverride(
                id: "o3", kind: .replace(replacing: "a", with: "c"), start: t + 4 * h, end: t + 5 * h,
                source: "request:req_1"))
        schedule.overrides.append(ScheduleOverride(id: "o4", kind: .add("d"), start: t + 6 * h, end: t + 7 * h))
        var budget = ResolutionBudget.standard
        let stretches = try DutyRecord.stretches(of: schedule, from: t, to: t + 48 * h, budget: &budget)
        func kind(_ person: String, at instant: UnixMillis) -> (RecordedStretch.Kind, String)? {
            stretches.first { $0.employeeID == person && $0.start <= instant && instant < $0.end }.map {
                ($0.kind, $0.replacing)
            }
        }
        #expect(kind("b", at: t)! == (.swap, "a"))
        #expect(kind("a", at: t + 24 * h)! == (.swap, "b"))
        #expect(kind("c", at: t + 4 * h)! == (.cover, "a"))
        #expect(kind("d", at: t + 6 * h)! == (.override, ""))
        #expect(kind("a", at: t + 3 * h)! == (.rotation, ""))
    }

    @Test func holidaysAreReadFromAllDayEventsAndRecurringOnesAreRefused() throws {
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            SUMMARY:Christmas\r
            DTSTART;VALUE=DATE:20261224\r
            DTEND;VALUE=DATE:20261227\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            SUMMARY:New Year\r
            DTSTART;VALUE=DATE:20270101\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            SUMMARY:Company day\r
            DTSTART:20270302T080000Z\r
            DTEND:20270302T170000Z\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        #expect(
            try HolidayCalendar.dates(fromICS: ics) == [
                "2026-12-24", "2026-12-25", "2026-12-26", "2027-01-01", "2027-03-02",
            ])
        let recurring = ics.replacingOccurrences(
            of: "SUMMARY:New Year\r\n", with: "SUMMARY:New Year\r\nRRULE:FREQ=YEARLY\r\n")
        #expect(throws: HolidayCalendar.Invalid.self) { try HolidayCalendar.dates(fromICS: recurring) }
        #expect(throws: HolidayCalendar.Invalid.self) {
            try HolidayCalendar.dates(fromICS: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2026-12-24\nEND:VEVENT\n")
        }
        #expect(throws: HolidayCalendar.Invalid.self) { try HolidayCalendar.dates(fromICS: "not a calendar") }
    }

    @Test func optionsAreCheckedFieldByFieldAndEveryProblemIsNamed() {
        do {
            _ = try HoursReportOptions.parse(
                zone: "Mars/Olympus", businessHours: "18:00-09:00", workdays: "Mon+Tue", night: "22:00",
                holidays: ["2026-02-30"])
            Issue.record("expected a refusal")
        } catch {
            guard case .invalid(let problems) = error else { Issue.record("\(error)"); return }
            #expect(problems.map(\.field) == ["zone", "business_hours", "workdays", "night", "holidays"])
        }
        let parsed = try? HoursReportOptions.parse(
            zone: "Europe/Berlin", businessHours: "08:00-17:00", workdays: "Sun-Thu",
            night: "22:00-06:00", holidays: ["2026-12-25"])
        #expect(parsed?.workdays == [1, 2, 3, 4, 5])
        #expect(parsed?.night == DayWindow(start: 1320, end: 360))
    }
}
