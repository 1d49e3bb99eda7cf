import Foundation
import RosterDomain
import Testing

/// The resolver on the cases people write down: the acceptance schedule, and handoffs across
/// clock changes in zones with midnight and half-hour transitions.
@Suite(.timeLimit(.minutes(10))) struct ScheduleResolverTests {
    static func utc(_ text: String) -> UnixMillis {
        UnixMillis(try! Date(text, strategy: .iso8601).timeIntervalSince1970 * 1000)
    }

    static func iso(_ millis: UnixMillis) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }

    @Test func aWeeklyRotationWithAReplaceOverrideSplitsTheWeekInThree() throws {
        let rotation = Rotation(
            id: "primary", slots: [["ada"], ["alan"], ["grace"], ["linus"]], cadence: .weeks(1),
            handoff: try #require(LocalDateTime(parsing: "2026-11-30T09:00")))
        let override = ScheduleOverride(
            id: "o1", kind: .replace(replacing: "ada", with: "alan"),
            start: Self.utc("2026-12-02T00:00:00Z"), end: Self.utc("2026-12-03T00:00:00Z"))
        let schedule = ScheduleDefinition(
            id: "p", name: "Platform primary", zone: "Europe/Berlin",
            layers: [ScheduleLayer(level: 1, rotations: [rotation])], overrides: [override])
        let shifts = try ScheduleResolver.resolve(
            schedule, from: Self.utc("2026-11-30T00:00:00Z"), to: Self.utc("2027-01-04T00:00:00Z"))
        let lines = shifts.map { "\($0.employeeID) \(Self.iso($0.start)) \(Self.iso($0.end)) \($0.source)" }
        #expect(
            lines == [
                "ada 2026-11-30T08:00:00Z 2026-12-02T00:00:00Z layer 1, rotation primary, turn 0",
                "alan 2026-12-02T00:00:00Z 2026-12-03T00:00:00Z override o1",
                "ada 2026-12-03T00:00:00Z 2026-12-07T08:00:00Z layer 1, rotation primary, turn 0",
                "alan 2026-12-07T08:00:00Z 2026-12-14T08:00:00Z layer 1, rotation primary, turn 1",
                "grace 2026-12-14T08:00:00Z 2026-12-21T08:00:00Z layer 1, rotation primary, turn 2",
                "linus 2026-12-21T08:00:00Z 2026-12-28T08:00:00Z layer 1, rotation primary, turn 3",
                "ada 2026-12-28T08:00:00Z 2027-01-04T00:00:00Z layer 1, rotation primary, turn 4",
            ])
        #expect(Set(shifts.map(\.id)).count == shifts.count, "ids are unique")
        #expect(
            try ScheduleResolver.resolve(
                schedule, from: Self.utc("2026-11-30T00:00:00Z"), to: Self.utc("2027-01-04T00:00:00Z")
            )
            .map(\.id) == shifts.map(\.id), "and stable")
    }

    /// Daily handoffs whose wall time does not exist (spring forward) or happens twice (fall back).
    @Test(arguments: [
        ("America/Chicago", "2027-03-10T02:30", "2027-03-14T00:00:00Z", "2027-03-15T00:00:00Z", "2027-03-14T08:00:00Z"),
        ("America/Chicago", "2027-11-01T01:30", "2027-11-07T00:00:00Z", "2027-11-08T00:00:00Z", "2027-11-07T06:30:00Z"),
        ("Europe/Berlin", "2027-03-20T02:30", "2027-03-28T00:00:00Z", "2027-03-29T00:00:00Z", "2027-03-28T01:00:00Z"),
        ("Europe/Berlin", "2027-10-20T02:30", "2027-10-31T00:00:00Z", "2027-11-01T00:00:00Z", "2027-10-31T00:30:00Z"),
        // Santiago springs forward at midnight (00:00 does not exist on 2027-09-05): 01:00 local.
        (
            "America/Santiago", "2027-09-01T00:00", "2027-09-05T00:00:00Z", "2027-09-06T00:00:00Z",
            "2027-09-05T04:00:00Z"
        ),
        // Lord Howe moves by 30 minutes: 02:15 does not exist on 2027-10-03, so 02:30 local (+11).
        (
            "Australia/Lord_Howe", "2027-10-01T02:15", "2027-10-02T00:00:00Z", "2027-10-03T00:00:00Z",
            "2027-10-02T15:30:00Z"
        ),
        // and 01:45 happens twice on 2027-04-04 (02:00 +11 → 01:30 +10:30): the first, 14:45Z.
        (
            "Australia/Lord_Howe", "2027-04-01T01:45", "2027-04-03T12:00:00Z", "2027-04-04T12:00:00Z",
            "2027-04-03T14:45:00Z"
        ),
        // Beirut falls back at midnight (00:00 → 23:00): 23:30 on 2027-10-30 happens twice; the first is 20:30Z.
        ("Asia/Beirut", "2027-10-20T23:30", "2027-10-30T12:00:00Z", "2027-10-31T12:00:00Z", "2027-10-30T20:30:00Z"),
    ])
    func dailyHandoffsAcrossClockChanges(zone: String, handoff: String, from: String, to: String, expected: String)
        throws
    {
        let rotation = Rotation(
            id: "daily", slots: [["a"], ["b"]], cadence: .days(1),
            handoff: try #require(LocalDateTime(parsing: handoff)))
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: zone, layers: [ScheduleLayer(level: 1, rotations: [rotation])])
        let shifts = try ScheduleResolver.resolve(schedule, from: Self.utc(from), to: Self.utc(to))
        let handoffs = zip(shifts, shifts.dropFirst()).filter { $0.employeeID != $1.employeeID }.map {
            Self.iso($1.start)
        }
        #expect(handoffs == [expected], "\(shifts.map { "\($0.employeeID) \(Self.iso($0.start))" })")
    }

    @Test func hourlyHandoffsStayOnTheWallClockAndAreNeverDoubled() throws {
        // Chicago, 2027-03-14: 02:00 → 03:00. Handoffs at :30 every wall hour.
        let rotation = Rotation(
            id: "h", slots: [["a"], ["b"], ["c"]], cadence: .hours(1),
            handoff: try #require(LocalDateTime(parsing: "2027-03-13T22:30")))
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "America/Chicago", layers: [ScheduleLayer(level: 1, rotations: [rotation])])
        let shifts = try ScheduleResolver.resolve(
            schedule, from: Self.utc("2027-03-14T06:00:00Z"), to: Self.utc("2027-03-14T10:00:00Z"))
        // Local 00:00 CST = 06:00Z; 01:30 CST = 07:30Z; 02:30 does not exist → 03:00 CDT = 08:00Z; 03:30 CDT = 08:30Z.
        #expect(
            shifts.map { Self.iso($0.start) } == [
                "2027-03-14T06:00:00Z", "2027-03-14T06:30:00Z", "2027-03-14T07:30:00Z",
                "2027-03-14T08:00:00Z", "2027-03-14T08:30:00Z", "2027-03-14T09:30:00Z",
            ])
        #expect(Set(zip(shifts, shifts.dropFirst()).map { $0.end == $1.start }) == [true], "no gap, no overlap")
    }

    @Test func restrictionsHideTurnsAndActiveTurnsSkipNobody() throws {
        // Daily turns, on duty 09:00-17:00 on weekdays only. 2026-11-28 is a Saturday.
        let restrictions = [RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 9 * 60, end: 17 * 60)]
        let handoff = try #require(LocalDateTime(parsing: "2026-11-27T00:00"))  // a Friday
        func people(_ advance: Rotation.Advance) throws -> [String] {
            let rotation = Rotation(
                id: "r", slots: [["a"], ["b"], ["c"]], cadence: .days(1), handoff: handoff,
                restrictions: restrictions, advance: advance)
            let schedule = ScheduleDefinition(
                id: "s", name: "S", zone: "UTC", layers: [ScheduleLayer(level: 1, rotations: [rotation])])
            return try ScheduleResolver.resolve(
                schedule, from: Self.utc("2026-11-27T00:00:00Z"), to: Self.utc("2026-12-02T00:00:00Z")
            )
            .map(\.employeeID)
        }
        // Fri a, (Sat, Sun hidden), Mon b, Tue c: nobody loses a turn to the weekend.
        #expect(try people(.activeTurns) == ["a", "b", "c"])
        // The calendar cadence counts the hidden days: Sat b and Sun c are lost, Mon is a again.
        #expect(try people(.calendar) == ["a", "a", "b"])
    }

    @Test func theHighestLevelWithAnyoneWinsAndOneOffsAdd() throws {
        let base = try #require(LocalDateTime(parsing: "2026-01-01T00:00"))
        let low = Rotation(id: "low", slots: [["lo"]], cadence: .days(1), handoff: base)
        let high = Rotation(
            id: "high", slots: [["hi"]], cadence: .days(1), handoff: base,
            restrictions: [RestrictionWindow(start: 9 * 60, end: 17 * 60)])
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC",
            layers: [ScheduleLayer(level: 1, rotations: [low]), ScheduleLayer(level: 2, rotations: [high])],
            shifts: [
                Shift(
                    id: "x", employeeID: "extra", start: Self.utc("2026-01-01T08:00:00Z"),
                    end: Self.utc("2026-01-01T10:00:00Z"))
            ],
            overrides: [
                ScheduleOverride(
                    id: "rm", kind: .remove("hi"), start: Self.utc("2026-01-01T12:00:00Z"),
                    end: Self.utc("2026-01-01T13:00:00Z"))
            ])
        let shifts = try ScheduleResolver.resolve(
            schedule, from: Self.utc("2026-01-01T00:00:00Z"), to: Self.utc("2026-01-02T00:00:00Z"))
        let lines = shifts.map {
            "\($0.employeeID) \(Self.iso($0.start).dropFirst(11).prefix(5))-\(Self.iso($0.end).dropFirst(11).prefix(5))"
        }
        #expect(
            lines == ["lo 00:00-09:00", "extra 08:00-10:00", "hi 09:00-12:00", "hi 13:00-17:00", "lo 17:00-00:00"],
            "removing the top level's person leaves a gap: overrides come last")
    }

    @Test func anUnknownZoneIsRefused() {
        let schedule = ScheduleDefinition(id: "s", name: "S", zone: "Mars/Olympus")
        #expect(throws: ScheduleResolver.Problem.unknownZone("Mars/Olympus")) {
            try ScheduleResolver.resolve(schedule, from: 0, to: 1)
        }
    }
}
