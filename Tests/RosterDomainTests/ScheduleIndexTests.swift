import Foundation
import PropertyBased
@testable import RosterDomain
import Testing

/// The on-duty index and the chunked resolver give the oracle's answers: what the server pushes
/// and what a client resolves offline are the final schedule, not an approximation of it.
@Suite(.timeLimit(.minutes(10))) struct ScheduleIndexTests {
    @Test func theIndexAgreesWithTheOracleAndItsUntilIsTheNextChange() async throws {
        await propertyCheck(count: 300, input: ScheduleOracleTests.caseGen) { example in
            let mismatch = try await offThePool { () -> String? in
                let oracle = Oracle(example.schedule, until: example.to + 86_400_000)
                // One index, as the server keeps it; a lookup in another week builds that week's.
                let index = ScheduleOnDutyIndex(example.schedule, employees: [:], around: example.from)
                var t = example.from
                while t < example.to {
                    let lookup = index.lookup(at: t)
                    let now = oracle.onDuty(at: t)
                    if Set(lookup.currentEmployeeIDs) != now { return "at \(t) in \(example.schedule.zone)" }
                    if let until = lookup.until, until < example.to {
                        if oracle.onDuty(at: until) == now { return "until \(until) is no change" }
                        var u = t + ScheduleOracleTests.quarter
                        while u < until {
                            if oracle.onDuty(at: u) != now { return "a change at \(u) before until \(until)" }
                            u += ScheduleOracleTests.quarter
                        }
                    }
                    t += 4 * ScheduleOracleTests.quarter
                }
                return nil
            }
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test func aOneShotLookupAnswersWhatTheIndexAnswers() async throws {
        let counts = Counts()
        await propertyCheck(count: 150, input: ScheduleOracleTests.caseGen) { example in
            let mismatch = try await offThePool { () -> String? in
                // The example under a quarter-hourly rotation with a gap (a schedule without
                // such a rotation is answered by its index alone).
                let day = try #require(WallClock(zone: example.schedule.zone)).day(of: example.from).day
                var fast = example.schedule
                fast.layers.append(
                    ScheduleLayer(
                        level: 9,
                        rotations: [
                            Rotation(
                                id: "fast", slots: [["a"], [], ["b"]], cadence: .minutes(15),
                                handoff: LocalDateTime(year: day.year, month: day.month, day: day.day, hour: 7))
                        ]))
                var rules = fast
                rules.shifts = []
                let source = ScheduleShiftSource(list: fast.shifts)
                var index = ScheduleOnDutyIndex(fast, employees: [:], around: example.from)
                var t = example.from, settled = 0, lookups = 0
                while t < example.to {
                    if !index.validFor.contains(t) { index = ScheduleOnDutyIndex(fast, employees: [:], around: t) }
                    lookups += 1
                    if let short = ScheduleOnDutyIndex.shortLookup(rules, source: source, employees: [:], at: t) {
                        settled += 1
                        if short != index.lookup(at: t) {
                            return "at \(t): \(short) but the index says \(index.lookup(at: t))"
                        }
                    }
                    t += 23 * 60_000
                }
                counts.add(settled: settled, lookups: lookups)
                return nil
            }
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
        // The short window settles most lookups overall (not all in every example: a stretch
        // of a lower layer that runs through the window is cut by it, and goes to the index).
        let (settled, lookups) = counts.totals
        #expect(settled * 2 > lookups, "only \(settled) of \(lookups) lookups were settled in the short window")
    }

    /// Lookups counted across the examples of a property check, which may run concurrently.
    final class Counts: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var settled = 0, lookups = 0
        func add(settled: Int, lookups: Int) {
            lock.withLock {
                self.settled += settled; self.lookups += lookups
            }
        }
        var totals: (Int, Int) { lock.withLock { (settled, lookups) } }
    }

    @Test func resolvingInChunksGivesTheSameShiftsAsOneWindow() async throws {
        await propertyCheck(count: 300, input: ScheduleOracleTests.caseGen) { example in
            let same = try await offThePool { () throws -> Bool in
                let whole = try ScheduleResolver.resolve(
                    example.schedule, from: example.from - 86_400_000, to: example.to + 86_400_000)
                let chunked = try ScheduleResolver.resolve(
                    example.schedule, from: example.from - 86_400_000,
                    to: example.to + 86_400_000, limit: 100_000)
                return chunked.shifts == whole && !chunked.truncated
            }
            #expect(same)
        }
    }

    /// A final schedule resolved a few budget units at a time, as the server does between turns
    /// of its work pool, is the one resolution of the whole window, and stops between slices.
    @Test func resolvingInSlicesGivesTheSameAnswerAsOneWindow() async throws {
        await propertyCheck(count: 200, input: ScheduleOracleTests.caseGen) { example in
            let same = try await offThePool { () throws -> Bool in
                let from = example.from - 20 * 86_400_000, to = example.to + 20 * 86_400_000
                let whole = try ScheduleResolver.resolve(example.schedule, from: from, to: to)
                var sliced = FinalScheduleResolution([example.schedule], from: from, to: to, limit: 100_000)
                var rounds = 0
                while !(try sliced.advance(units: 1)) { rounds += 1 }
                return sliced.answer.shifts.map(\.shift) == whole && !sliced.answer.truncated
                    && (whole.isEmpty || rounds > 0)
            }
            #expect(same)
        }
    }

    @Test func aFastRotationIsCutAtTheLimitAndSaysSo() throws {
        let schedule = ScheduleDefinition(
            id: "fast", name: "Fast", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "m", slots: [["a"], ["b"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    ])
            ])
        let start: UnixMillis = 1_767_225_600_000
        let answer = try FinalSchedule.resolve([schedule], from: start, to: start + 366 * 86_400_000)
        #expect(answer.truncated && answer.shifts.count == FinalSchedule.maxShifts)
        #expect(answer.shifts.last?.shift.start == start + UnixMillis(FinalSchedule.maxShifts - 1) * 60_000)
        let next = try #require(try NextDuty.first(of: "b", on: schedule, from: start + 30 * 86_400_000 + 1))
        #expect(next.start == start + 30 * 86_400_000 + 60_000 && next.end == next.start + 60_000)
    }
}

/// Versioned rotation edits and what a preview reports.
@Suite(.timeLimit(.minutes(10))) struct ScheduleEditingTests {
    static let day: UnixMillis = 86_400_000
    /// Monday 2026-11-30 09:00 in Berlin is 08:00 UTC.
    static let firstHandoff: UnixMillis = 1_796_025_600_000
    static let weekly = ScheduleDefinition(
        id: "p", name: "Platform", zone: "Europe/Berlin",
        layers: [
            ScheduleLayer(
                level: 0,
                rotations: [
                    Rotation(
                        id: "w", slots: [["ada"], ["alan"], ["grace"], ["linus"]], cadence: .weeks(1),
                        handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
                ])
        ])

    func people(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis) throws -> [String] {
        try ScheduleResolver.resolve(schedule, from: from, to: to).map(\.employeeID)
    }

    @Test func anEditKeepsThePastAndContinuesWithWhoeverHadTheTurn() throws {
        // Mid-way through Grace's turn (third week), the rotation becomes daily with a new order.
        let effective = Self.firstHandoff + 17 * Self.day
        var replacement = Self.weekly.layers[0].rotations[0]
        replacement.cadence = .days(1)
        replacement.slots = [["linus"], ["grace"], ["ada"]]
        replacement.handoff = LocalDateTime(year: 2026, month: 12, day: 17, hour: 9)
        let edited = try #require(Self.weekly.editingRotation("w", to: replacement, effective: effective))
        #expect(
            try people(edited, from: Self.firstHandoff, to: effective) == ["ada", "alan", "grace"],
            "the past is unchanged")
        let after = try ScheduleResolver.resolve(edited, from: effective, to: effective + 4 * Self.day)
        #expect(
            after.map(\.employeeID) == ["grace", "ada", "linus", "grace"], "Grace keeps her turn, then the new order")
        #expect(after[0].start == effective && after[0].id.hasPrefix("r:w.v2:"))
        #expect(edited.violations().isEmpty)
    }

    @Test func anEditCanNameWhoStartsAndAnUnstartedRotationIsReplaced() throws {
        let effective = Self.firstHandoff + 3 * Self.day
        var replacement = Self.weekly.layers[0].rotations[0]
        replacement.slots = [["linus"], ["ada"]]
        let edited = try #require(Self.weekly.editingRotation("w", to: replacement, effective: effective, startSlot: 1))
        #expect(try people(edited, from: effective, to: effective + 1) == ["ada"])
        #expect(
            try people(edited, from: Self.firstHandoff + 7 * Self.day, to: Self.firstHandoff + 7 * Self.day + 1) == [
                "linus"
            ])

        let early = try #require(
            Self.weekly.editingRotation("w", to: replacement, effective: Self.firstHandoff - Self.day))
        #expect(
            early.layers[0].rotations.count == 1 && early.layers[0].rotations[0].slots == [["linus"], ["ada"]],
            "before its first turn there is no past to keep")
    }

    @Test func endingARotationKeepsItsPast() throws {
        let ended = try #require(Self.weekly.endingRotation("w", effective: Self.firstHandoff + 10 * Self.day))
        #expect(try people(ended, from: Self.firstHandoff, to: Self.firstHandoff + 30 * Self.day) == ["ada", "alan"])
        let removed = try #require(Self.weekly.endingRotation("w", effective: Self.firstHandoff))
        #expect(removed.layers.isEmpty)
        #expect(Self.weekly.endingRotation("nope", effective: 0) == nil)
    }

    @Test func dutyDeltasSayWhoGainsAndLosesWhat() throws {
        let swapped = Self.weekly.swapping(
            "ada", Self.firstHandoff..<(Self.firstHandoff + 7 * Self.day), with: "grace",
            (Self.firstHandoff + 14 * Self.day)..<(Self.firstHandoff + 21 * Self.day),
            ids: ("o1", "o2"), author: "tok", reason: "holiday")
        let window = (Self.firstHandoff - Self.day, Self.firstHandoff + 28 * Self.day)
        let deltas = DutyDelta.between(
            try ScheduleResolver.resolve(Self.weekly, from: window.0, to: window.1),
            try ScheduleResolver.resolve(swapped, from: window.0, to: window.1))
        #expect(
            deltas.map { "\($0.employeeID)\($0.gained ? "+" : "-")\(($0.start - Self.firstHandoff) / Self.day)" }
                == ["ada-0", "grace+0", "grace-14", "ada+14"])
        #expect(deltas.allSatisfy { $0.end - $0.start == 7 * Self.day })
        #expect(
            swapped.violations().isEmpty
                && swapped.overrides.allSatisfy { $0.author == "tok" && $0.reason == "holiday" })
    }
}

/// The library never traps on an instant an app passes in, however far out.
@Suite(.timeLimit(.minutes(10))) struct ScheduleEdgeOfTimeTests {
    @Test func instantsAtTheEdgesOfTimeAnswerNobodyInsteadOfTrapping() throws {
        let schedule = ScheduleEditingTests.weekly
        for instant in [UnixMillis.min, .min + 1, -62_135_596_800_001, 253_402_300_800_000, .max - 1, .max] {
            let lookup = ScheduleOnDutyIndex(schedule, employees: [:], around: instant).lookup(at: instant)
            #expect(lookup.current.isEmpty && lookup.until == nil, "at \(instant)")
            #expect(try NextDuty.first(of: "ada", on: schedule, from: instant) == nil)
        }
        #expect(
            try FinalSchedule.resolve([schedule], from: .min, to: .max).truncated,
            "a window over all of time is cut, not trapped")
        let index = ScheduleOnDutyIndex(schedule, employees: [:], around: 0)
        #expect(index.lookup(at: .max).current.isEmpty)
    }

    /// One person's stretches on a dense schedule: the cap counts theirs, not everyone's, so a
    /// turn 80 days into a 30-minute rotation of two people (over 2,000 stretches of both) is
    /// found (issue #31: `admin swap` said "Linus Torvalds is not on duty" although he was).
    @Test func aPersonsStretchesAreCappedAmongTheirOwn() throws {
        let schedule = ScheduleDefinition(
            id: "dense", name: "Dense", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["frances"], ["linus"]], cadence: .minutes(30),
                            handoff: LocalDateTime(year: 2026, month: 12, day: 15, hour: 7))
                    ])
            ])
        let start: UnixMillis = 1_797_318_000_000  // 2026-12-15T07:00:00Z
        let asked = start + 81 * 86_400_000 + 30 * 60_000  // inside one of Linus's turns
        let near = try FinalSchedule.resolve(
            [schedule], from: asked - 62 * 86_400_000, to: asked + 62 * 86_400_000, employeeID: "linus")
        #expect(
            near.shifts.contains { $0.shift.start <= asked && asked < $0.shift.end }, "his turn at the instant asked")
        #expect(near.truncated, "124 days hold 2,976 of his turns: cut at 2,000 of his, and said")
        #expect(
            near.shifts.count == FinalSchedule.maxShifts && near.shifts.allSatisfy { $0.shift.employeeID == "linus" })
    }
}
