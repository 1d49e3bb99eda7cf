import Foundation
import PropertyBased
@testable import RosterDomain
import Testing

/// Weeks kept per version: an answer from them is the answer resolving gives, at the same cost
/// in budget units, and what they hold stays under their bound.
@Suite(.timeLimit(.minutes(10))) struct ResolvedWeeksTests {
    static let day: UnixMillis = 86_400_000

    /// Two overlapping windows that start at different instants (as "a year from now" asked
    /// twice): the second is answered partly from weeks the first kept, and both answers and
    /// the units they spend equal resolving without any.
    @Test func keptWeeksGiveTheAnswerAndTheCostOfResolving() async throws {
        await propertyCheck(count: 150, input: zip(ScheduleOracleTests.caseGen, Gen.int(in: 0...(7 * 24 - 1)))) {
            example, hours in
            let same = try await offThePool { () throws -> Bool in
                let first = (example.from - 30 * Self.day, example.to + 30 * Self.day)
                let second = (first.0 + UnixMillis(hours) * 3_600_000 + 7 * Self.day, first.1 + 9 * Self.day)
                let weeks = ResolvedWeeks()
                let scope = weeks.scope(.init(tenant: "t", epoch: 1, revision: 1))
                for (from, to) in [first, second] {
                    var plain = FinalScheduleResolution([example.schedule], from: from, to: to, limit: 100_000)
                    var kept = FinalScheduleResolution(
                        [example.schedule], from: from, to: to, limit: 100_000, kept: scope)
                    try plain.advance()
                    try kept.advance()
                    guard plain.answer.shifts.map(\.shift) == kept.answer.shifts.map(\.shift),
                        plain.answer.truncated == kept.answer.truncated, plain.budget.spent == kept.budget.spent
                    else { return false }
                }
                // The second window covers at least three whole weeks of the first.
                return weeks.hits >= 3
            }
            #expect(same)
        }
    }

    /// A request refused for its budget is refused the same with the weeks kept, and a week is
    /// kept only for its version: a new revision starts empty.
    @Test func refusalsAreKeptAndANewRevisionSeesNothingOld() throws {
        let fast = ScheduleDefinition(
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
        let weeks = ResolvedWeeks(maxShifts: 1_000_000)
        let first = weeks.scope(.init(tenant: "t", epoch: 1, revision: 1))
        func spent(_ scope: ResolvedWeeks.Scope?, budget: Int) -> Result<Int, RosterError> {
            var resolution = FinalScheduleResolution(
                [fast], from: start, to: start + 35 * Self.day, limit: 1_000_000,
                budget: ResolutionBudget(limit: budget), kept: scope)
            do throws(RosterError) {
                try resolution.advance()
                return .success(resolution.budget.spent)
            } catch {
                return .failure(error)
            }
        }
        guard case .success(let cost) = spent(nil, budget: .max) else {
            Issue.record("a plain resolution failed"); return
        }
        #expect(try spent(first, budget: .max).get() == cost)
        #expect(weeks.hits == 0 && weeks.keptShifts > 0)
        // One unit short of the cost: refused, with and without what was kept.
        #expect((try? spent(nil, budget: cost - 1).get()) == nil)
        #expect((try? spent(first, budget: cost - 1).get()) == nil)
        #expect(weeks.hits > 0)
        let hits = weeks.hits
        let second = weeks.scope(.init(tenant: "t", epoch: 1, revision: 2))
        #expect(try spent(second, budget: .max).get() == cost)
        #expect(weeks.hits == hits)
    }

    /// What is kept stays under `maxShifts`: the oldest weeks go first, a week of more than a
    /// sixteenth of the bound is not kept, and one tenant's new revision drops its old weeks.
    @Test func whatIsKeptStaysUnderItsBound() {
        let weeks = ResolvedWeeks(maxShifts: 1_600)
        func week(_ count: Int) -> ResolvedWeeks.Week {
            ResolvedWeeks.Week(
                shifts: (0..<count).map {
                    ResolvedShift(
                        id: "s\($0)", employeeID: "a", start: UnixMillis($0), end: UnixMillis($0) + 1,
                        source: .shift(id: "o"))
                }, units: count)
        }
        let a1 = ResolvedWeeks.Version(tenant: "a", epoch: 1, revision: 1),
            b1 = ResolvedWeeks.Version(tenant: "b", epoch: 1, revision: 1)
        for index in 0..<30 {
            weeks.keep(
                week(100), index.isMultiple(of: 2) ? a1 : b1, schedule: "s",
                start: UnixMillis(index) * FinalScheduleResolution.week)
            #expect(weeks.keptShifts <= 1_600)
        }
        #expect(weeks.keptShifts == 1_600)
        // The oldest went first: week 0 is gone, week 29 is there.
        #expect(weeks.week(a1, schedule: "s", start: 0) == nil)
        #expect(weeks.week(b1, schedule: "s", start: 29 * FinalScheduleResolution.week) != nil)
        weeks.keep(week(101), a1, schedule: "s", start: 100 * FinalScheduleResolution.week)
        #expect(weeks.week(a1, schedule: "s", start: 100 * FinalScheduleResolution.week) == nil)
        // Tenant a moves on: its eight weeks go at once, b's stay.
        let a2 = ResolvedWeeks.Version(tenant: "a", epoch: 1, revision: 2)
        weeks.keep(week(10), a2, schedule: "s", start: 0)
        #expect(weeks.keptShifts == 800 + 10)
        #expect(weeks.week(a1, schedule: "s", start: 28 * FinalScheduleResolution.week) == nil)
        // An older view's week is not kept over the newer revision's.
        weeks.keep(week(10), a1, schedule: "s", start: FinalScheduleResolution.week)
        #expect(weeks.week(a2, schedule: "s", start: 0) != nil && weeks.keptShifts == 810)
    }

    @Test func theGridStartsWeeksAtTheSameInstantsForAnyWindow() {
        let week = FinalScheduleResolution.week
        #expect(FinalScheduleResolution.weekStart(containing: 0) == 0)
        #expect(FinalScheduleResolution.weekStart(containing: week - 1) == 0)
        #expect(FinalScheduleResolution.weekStart(containing: -1) == -week)
        #expect(FinalScheduleResolution.weekStart(containing: 1_796_025_600_000) % week == 0)
    }
}
