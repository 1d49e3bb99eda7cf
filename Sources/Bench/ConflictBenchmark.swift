import Foundation
import RosterDomain

/// The cost of conflicts (issue #37) on the hours report's big tenant: 1,000 people, 100
/// schedules in three zones, every `awayEvery`-th person with two weeks off in the next 90 days. Times the
/// final schedule of every schedule over `days`, then `RosterState.conflicts(in:)` on it (the
/// conflicts and their proposals, as GetFinalSchedule adds them on the work pool).
package struct ConflictBenchmark {
    package var people: Int
    package var schedules: Int
    package var runs: Int
    package var days: Int
    package var awayEvery: Int

    package init(people: Int, schedules: Int, runs: Int, days: Int, awayEvery: Int) {
        (self.people, self.schedules, self.runs, self.days, self.awayEvery) = (
            people, schedules, runs, days, max(1, awayEvery)
        )
    }

    package struct Result {
        package var shifts: Int
        package var truncated: Bool
        package var conflicts: Int
        package var withProposals: Int
        package var timeOff: Int
        package var resolve: LatencySummary
        package var conflictsTime: LatencySummary
    }

    package func run() throws -> Result {
        let day: UnixMillis = 86_400_000
        let now = TimeText.parseISO8601("2026-07-01T00:00:00Z")!
        var state = ReportBenchmark(people: people, schedules: schedules, runs: runs).state()
        // Every `awayEvery`-th person: two weeks off, starting on a day of the next 90 that moves with them.
        let away = stride(from: 0, to: people, by: awayEvery).map { person -> TimeOff in
            let start = now + UnixMillis(person / awayEvery % 76) * day
            return TimeOff(id: "off_\(person)", employeeID: "e\(person)", start: start, end: start + 14 * day)
        }
        state = RosterState(
            tenant: state.tenant, employees: Array(state.employees.values), schedules: Array(state.schedules.values),
            timeOff: away)
        var resolves: [UInt64] = [], conflictTimes: [UInt64] = []
        var shifts = 0, truncated = false, found: [DutyConflict] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let final = try state.finalSchedule(
                schedule: nil, employee: nil, from: now, to: now + UnixMillis(days) * day)
            let resolved = DispatchTime.now().uptimeNanoseconds
            found = state.conflicts(in: final.shifts)
            let done = DispatchTime.now().uptimeNanoseconds
            (shifts, truncated) = (final.shifts.count, final.truncated)
            resolves.append(resolved - start)
            conflictTimes.append(done - resolved)
        }
        return Result(
            shifts: shifts, truncated: truncated, conflicts: found.count,
            withProposals: found.filter { !$0.proposals.isEmpty }.count, timeOff: away.count,
            resolve: LatencySummary(resolves), conflictsTime: LatencySummary(conflictTimes))
    }
}
