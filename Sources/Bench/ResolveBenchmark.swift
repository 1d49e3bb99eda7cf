import Foundation
import RosterDomain

/// Resolving a year of a realistic schedule: three layers (a weekly primary of 20 people; above
/// it a daily secondary of 20 for business hours on weekdays; on top a weekend follow-the-sun
/// level of three rotations of eight hours each), 50 participants, 200 overrides over the year.
package struct ResolveBenchmark {
    package var runs: Int

    package init(runs: Int = 20) { self.runs = runs }

    package static func schedule() -> ScheduleDefinition {
        let people = (0..<50).map { "p\($0)" }
        let anchor = LocalDateTime(year: 2026, month: 1, day: 5, hour: 9, minute: 0)
        let primary = Rotation(id: "primary", slots: people[0..<20].map { [$0] }, cadence: .weeks(1), handoff: anchor)
        let secondary = Rotation(
            id: "secondary", slots: people[20..<40].map { [$0] }, cadence: .days(1), handoff: anchor,
            restrictions: [RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 9 * 60, end: 17 * 60)])
        let sun = (0..<3).map { index in
            Rotation(
                id: "sun\(index)", slots: people[(40 + index * 3)..<(43 + index * 3)].map { [$0] }, cadence: .weeks(1),
                handoff: anchor,
                restrictions: [RestrictionWindow(weekdays: [1, 7], start: index * 480, end: (index + 1) * 480)])
        }
        let yearStart: UnixMillis = 1_767_225_600_000
        let overrides = (0..<200).map { index in
            ScheduleOverride(
                id: "o\(index)", kind: .replace(replacing: people[index % 20], with: people[49 - index % 10]),
                start: yearStart + UnixMillis(index) * 43 * 3_600_000,
                end: yearStart + UnixMillis(index) * 43 * 3_600_000 + 6 * 3_600_000)
        }
        return ScheduleDefinition(
            id: "s", name: "Platform", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(level: 1, rotations: [primary]), ScheduleLayer(level: 2, rotations: [secondary]),
                ScheduleLayer(level: 3, rotations: sun),
            ],
            overrides: overrides)
    }

    /// Milliseconds per resolve of 2026 (median, worst) and the number of resolved shifts.
    package func run() throws -> (median: Double, worst: Double, shifts: Int) {
        let schedule = Self.schedule()
        let from: UnixMillis = 1_767_225_600_000, to = from + 365 * 86_400_000
        var times: [Double] = []
        var count = 0
        for _ in 0..<runs {
            let start = nanos()
            count = try ScheduleResolver.resolve(schedule, from: from, to: to).count
            times.append(Double(nanos() - start) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times.last!, count)
    }
}

/// What the resolution budget costs in time: a schedule of minutely rotations (the most units
/// per hour there is) resolved over windows that spend the whole budget, and the count of active
/// turns of a restricted minutely rotation anchored years back (the sweep, first and remembered).
package struct BudgetBenchmark {
    package var runs: Int

    package init(runs: Int = 10) { self.runs = runs }

    package struct Result {
        /// Milliseconds to spend one whole `ResolutionBudget.perRequest` (median, worst).
        package var budgetMedian: Double, budgetWorst: Double
        /// Milliseconds to count the active turns of ten years of a restricted minutely rotation,
        /// the first time and from the remembered checkpoints.
        package var sweepFirst: Double, sweepAgain: Double
    }

    package func run() throws -> Result {
        let anchor = LocalDateTime(year: 2026, month: 1, day: 1)
        let fast = ScheduleDefinition(
            id: "f", name: "F", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: (0..<4).map {
                        Rotation(id: "m\($0)", slots: [["a"], ["b"]], cadence: .minutes(1), handoff: anchor)
                    })
            ])
        let from: UnixMillis = 1_767_225_600_000
        var times: [Double] = []
        for _ in 0..<runs {
            // Just under the budget: 4 rotations × 2 units a minute.
            var budget = ResolutionBudget()
            let minutes = UnixMillis(ResolutionBudget.perRequest / 8 - 100)
            let start = nanos()
            _ = try ScheduleResolver.resolve(fast, from: from, to: from + minutes * 60_000, budget: &budget)
            times.append(Double(nanos() - start) / 1e6)
        }
        times.sort()
        let old = ScheduleDefinition(
            id: "o", name: "O", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["a"], ["b"], ["c"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 2016, month: 11, day: 1),
                            restrictions: [RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 540, end: 1020)])
                    ])
            ])
        let now: UnixMillis = 1_795_000_000_000
        var start = nanos()
        _ = try ScheduleResolver.resolve(old, from: now, to: now + 3_600_000)
        let first = Double(nanos() - start) / 1e6
        start = nanos()
        _ = try ScheduleResolver.resolve(old, from: now + 86_400_000, to: now + 86_400_000 + 3_600_000)
        let again = Double(nanos() - start) / 1e6
        return Result(
            budgetMedian: times[times.count / 2], budgetWorst: times.last!, sweepFirst: first, sweepAgain: again)
    }
}
