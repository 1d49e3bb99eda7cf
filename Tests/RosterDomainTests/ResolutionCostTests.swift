import Foundation
import PropertyBased
@testable import RosterDomain
import Testing

/// Resolution is bounded: the active-turn count no longer grows turn by turn with the time since
/// the anchor (and equals the turn-by-turn count), a request that would resolve too much is
/// refused with a sentence, and definitions that would make the server's own windows too costly
/// are refused on every path that stores them.
@Suite(.timeLimit(.minutes(10))) struct ResolutionCostTests {
    static let zones = [
        "America/Santiago", "Asia/Beirut", "Australia/Lord_Howe", "America/Chicago", "Europe/Berlin", "UTC",
    ]
    let day: UnixMillis = 86_400_000
    /// 2026-01-01T00:00:00Z.
    let t0: UnixMillis = 1_767_225_600_000

    static func randomWindow<G: RandomNumberGenerator>(_ random: inout G) -> RestrictionWindow {
        let days = Set((1...7).filter { _ in Bool.random(using: &random) })
        let start = Int.random(in: 0...95, using: &random) * 15
        let end = Int.random(in: 0...96, using: &random) * 15
        return RestrictionWindow(weekdays: days.isEmpty ? [2] : days, start: start, end: end)
    }

    @Test func theSweepCountsActiveTurnsAsTurnByTurnDoes() async {
        // Cadences whose turns can be hidden by restrictions or be empty (hourly across a
        // spring-forward), in zones with midnight and half-hour transitions.
        await propertyCheck(count: 120, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SplitMix(seed: UInt64(truncatingIfNeeded: seed))
            let zone = Self.zones[Int.random(in: 0..<Self.zones.count, using: &random)]
            let cadence: Cadence =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: .minutes([15, 45, 90, 7].randomElement(using: &random)!)
                case 1: .hours(Int.random(in: 1...13, using: &random))
                default: .days(Int.random(in: 1...3, using: &random))
                }
            let windows =
                Bool.random(using: &random) && { if case .hours = cadence { true } else { false } }()
                ? [] : (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.randomWindow(&random) }
            let rotation = Rotation(
                id: "r", slots: [["a"], ["b"], ["c"]], cadence: cadence,
                handoff: LocalDateTime(
                    year: 2025, month: Int.random(in: 1...12, using: &random),
                    day: Int.random(in: 1...28, using: &random),
                    hour: Int.random(in: 0...23, using: &random)),
                restrictions: windows)
            let turns = RotationTurns(rotation, level: 0, clock: WallClock(zone: zone)!)
            // Several counts of one rule, out of order: later ones resume from remembered checkpoints.
            let ns = [
                Int.random(in: 0...3_000, using: &random), Int.random(in: 2_000...5_000, using: &random),
                Int.random(in: 0...1_500, using: &random),
            ]
            let wrong = try await offThePool {
                ns.filter { ActiveTurnCounter.count(turns, before: $0) != turns.countActiveTurnsOneByOne(before: $0) }
            }
            #expect(wrong.isEmpty, "\(zone) \(cadence) \(windows) n=\(wrong)")
        }
    }

    @Test func aMinutelyRestrictedRotationYearsOldResolvesWithoutCountingEveryTurnAgain() throws {
        // 10 years of minutely turns before the window: the first count sweeps them once, later
        // windows resume from the remembered checkpoints.
        let rotation = Rotation(
            id: "r", slots: [["a"], ["b"]], cadence: .minutes(1),
            handoff: LocalDateTime(year: 2016, month: 1, day: 4, hour: 9),
            restrictions: [RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 540, end: 1020)])
        let schedule = ScheduleDefinition(
            id: "s", name: "S", zone: "Europe/Berlin",
            layers: [ScheduleLayer(level: 0, rotations: [rotation])])
        let monday = try #require(WallClock(zone: "Europe/Berlin")).instant(
            .init(year: 2026, month: 3, day: 30), minuteOfDay: 540)
        let shifts = try ScheduleResolver.resolve(schedule, from: monday, to: monday + 3_600_000)
        #expect(shifts.count == 60)
        // Turn k's slot is the active turns before it, modulo 2: consecutive minutes alternate.
        #expect(Set(shifts.prefix(2).map(\.employeeID)) == ["a", "b"])
    }

    @Test func aRequestThatWouldResolveTooMuchIsRefusedNotCut() throws {
        // Twenty minutely rotations under a weekly one: a year of them is millions of stretches.
        var layers = (0..<20).map { level in
            ScheduleLayer(
                level: level,
                rotations: [
                    Rotation(
                        id: "m\(level)", slots: [["a"], ["b"]], cadence: .minutes(1),
                        handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                ])
        }
        layers.append(
            ScheduleLayer(
                level: 99,
                rotations: [
                    Rotation(
                        id: "w", slots: [["c"]], cadence: .weeks(1),
                        handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                ]))
        let schedule = ScheduleDefinition(id: "s", name: "S", zone: "UTC", layers: layers)
        #expect(throws: ScheduleResolver.Problem.overBudget(limit: ResolutionBudget.perRequest)) {
            _ = try ScheduleResolver.resolve(schedule, from: t0, to: t0 + 366 * day)
        }
        #expect(throws: RosterError.self) { _ = try FinalSchedule.resolve([schedule], from: t0, to: t0 + 366 * day) }
        // A short window is answered.
        #expect(
            try FinalSchedule.resolve([schedule], from: t0, to: t0 + 3_600_000).shifts.map(\.shift.employeeID) == ["c"])
        // And such a definition is refused when stored, naming the cost.
        let problems = schedule.costViolations(now: t0)
        #expect(problems.count == 1 && problems[0].message.contains("the limit is \(ResolutionBudget.perRequest)"))
    }

    @Test func onePersonsDutyIsNotChargedForSchedulesThatNeverNameThem() throws {
        // A year of a minutely rotation of a and b is over the budget; d is on another schedule.
        let minutely = ScheduleDefinition(
            id: "m", name: "M", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["a"], ["b"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    ])
            ])
        let weekly = ScheduleDefinition(
            id: "w", name: "W", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["d"]], cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    ])
            ])
        let year = t0 + 366 * day
        let ofD = try FinalSchedule.resolve([minutely, weekly], from: t0, to: year, employeeID: "d")
        #expect(!ofD.shifts.isEmpty && ofD.shifts.allSatisfy { $0.scheduleID == "w" && $0.shift.employeeID == "d" })
        // An override naming d puts the minutely schedule back into d's answer, and its cost.
        var covered = minutely
        covered.overrides = [ScheduleOverride(id: "o", kind: .add("d"), start: t0 + day, end: t0 + 2 * day)]
        #expect(throws: RosterError.self) {
            _ = try FinalSchedule.resolve([covered, weekly], from: t0, to: year, employeeID: "d")
        }
        let month = try FinalSchedule.resolve([covered, weekly], from: t0, to: t0 + 30 * day, employeeID: "d")
        #expect(month.shifts.contains { $0.scheduleID == "m" && $0.shift.start == t0 + day })
    }

    @Test func everyPathThatStoresADefinitionChecksItsCost() throws {
        var state = RosterState(tenant: Tenant(id: "t", name: "T"))
        state = try state.applyingValidated(
            [("", .employeeUpserted(Employee(id: "a", firstName: "A", lastName: "A")))], now: t0)
        let fast = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: (0..<10).map {
                        Rotation(
                            id: "m\($0)", slots: [["a"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    })
            ])
        #expect(throws: RosterError.self) {
            _ = try state.applyingValidated([("schedules[0]", .scheduleUpserted(fast))], now: t0)
        }
        // The import of a snapshot goes through the same check.
        let snapshot = RosterExport.snapshotJSON(
            RosterState(
                tenant: state.tenant, employees: Array(state.employees.values),
                schedules: [fast]))
        #expect(throws: RosterError.self) {
            _ = try RosterImport.plan(format: .snapshotJSON, data: snapshot, current: state, newID: { $0 })
        }
        // So does a restricted rotation whose active turns would be counted from too far back.
        let old = ScheduleDefinition(
            id: "o", name: "O", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["a"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 1990, month: 1, day: 1),
                            restrictions: [RestrictionWindow(weekdays: [2], start: 540, end: 600)])
                    ])
            ])
        #expect(old.costViolations(now: t0).map(\.field) == ["handoff"])
    }

    @Test func thousandsOfOverridesAreCheckedInOnePassAndAConflictNamesTheStoredOne() throws {
        let hour: UnixMillis = 3_600_000
        let many = (0..<5_000).map {
            ScheduleOverride(
                id: "o\($0)", kind: .add("p\($0 % 50)"), start: UnixMillis($0) * hour,
                end: UnixMillis($0 + 1) * hour)
        }
        let schedule = ScheduleDefinition(id: "s", name: "S", zone: "UTC", overrides: many)
        #expect(schedule.overrideConflicts(naming: { $0 }, stored: []).isEmpty)
        // 5,000 overrides of one person all overlapping: bounded output, not 12 million lines.
        let clash = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC",
            overrides: (0..<5_000).map {
                ScheduleOverride(id: "o\($0)", kind: .add("p"), start: UnixMillis($0), end: 10_000_000)
            })
        #expect(
            clash.overrideConflicts(naming: { $0 }, stored: []).count == ScheduleDefinition.maxReportedConflicts + 1)
        // A new override that starts before the stored one it overlaps: the stored one is named.
        let pair = ScheduleDefinition(
            id: "s", name: "S", zone: "UTC",
            overrides: [
                ScheduleOverride(id: "stored", kind: .add("p"), start: 5 * hour, end: 8 * hour),
                ScheduleOverride(id: "new", kind: .add("p"), start: 4 * hour, end: 6 * hour),
            ])
        #expect(
            pair.violations(stored: ["stored"]).map(\.description) == [
                "override new, window: overlaps override stored, which also changes p; change or remove that one first"
            ])
    }

    @Test func idsWithControlCharactersAndOverlongNamesAreRefused() throws {
        let state = RosterState(tenant: Tenant(id: "t", name: "T"))
        for id in ["base\u{0}x", "a\nb", String(repeating: "x", count: 129)] {
            #expect(throws: RosterError.self) {
                _ = try state.applyingValidated(
                    [("", .employeeUpserted(Employee(id: id, firstName: "A", lastName: "B")))], now: t0)
            }
        }
        #expect(throws: RosterError.self) {
            _ = try state.applyingValidated(
                [
                    (
                        "",
                        .employeeUpserted(
                            Employee(
                                id: "e", firstName: String(repeating: "A", count: 201),
                                lastName: "B"))
                    )
                ], now: t0)
        }
    }

    @Test func durationsFromOutsideCannotOverflow() {
        #expect(DurationText.parse("99999999999999999d") == nil)
        #expect(DurationText.parse("9999999999999999999") == nil)
        #expect(DurationText.parse("١٥m") == nil)  // not ASCII digits
        #expect(DurationText.parse("15m") == .seconds(900))
        #expect(DurationText.parse("2w", within: .seconds(86_400)) == nil)
        #expect(DurationText.parse("1d", within: .seconds(86_400)) == .seconds(86_400))
        #expect(DurationText.parse("101w") != nil)
        #expect(DurationText.parse("36601d") == nil)  // past 100 years
    }
}

/// A small seeded generator, so a failing case can be replayed from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
