import Foundation
import RosterDomain
import Testing

/// A policy's quality (issue #56): a step covers while a schedule it names (or one of a team it
/// names) has someone on duty, and always when it names a person; the stretches no step covers,
/// split into nights (22:00-08:00) and weekends in the policy's zone; a step naming one person
/// only.
@Suite(.timeLimit(.minutes(10)))
struct PolicyQualityReportTests {
    static let hour: UnixMillis = 3_600_000

    @Test func stepsGapsAndTheUncoveredNightsAndWeekend() throws {
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: EscalationTests.people,
            schedules: [
                ScheduleDefinition(id: "days", name: "Days", zone: "UTC"),
                ScheduleDefinition(id: "evenings", name: "Evenings", zone: "UTC", team: "Ops"),
            ])
        // Monday 30 November 2026 00:00 UTC to Monday 7 December: a week.
        let from = try #require(TimeText.parseISO8601("2026-11-30T00:00:00Z")), to = from + 7 * 24 * Self.hour
        var stretches: [RecordedStretch] = []
        for day in 0..<5 {  // Monday to Friday
            let midnight = from + UnixMillis(day) * 24 * Self.hour
            stretches.append(
                RecordedStretch(
                    scheduleID: "days", employeeID: "ada", start: midnight + 9 * Self.hour,
                    end: midnight + 17 * Self.hour, kind: .rotation))
            stretches.append(
                RecordedStretch(
                    scheduleID: "evenings", employeeID: "grace", start: midnight + 17 * Self.hour,
                    end: midnight + 23 * Self.hour, kind: .rotation))
        }
        let policy = EscalationPolicy(
            id: "p", name: "Support",
            steps: [
                EscalationStep(delayMinutes: 15, targets: [.schedule("days")]),
                EscalationStep(delayMinutes: 15, targets: [.team("Ops")]),
            ])
        let options = try HoursReportOptions.parse(
            zone: "UTC", businessHours: "", workdays: "", night: "22:00-08:00", holidays: [])
        let timeline = CategoryTimeline(
            from: from, to: to, options: options, clock: try #require(WallClock(zone: "UTC")))
        let report = PolicyQualityReport.compute(
            policy, state: state, stretches: stretches, from: from, to: to, timeline: timeline)
        #expect(report.steps.map(\.covered) == [40 * Self.hour, 30 * Self.hour])
        #expect(report.steps[0].gaps.count == 6 && report.steps[0].gaps.first == from..<(from + 9 * Self.hour))
        #expect(report.steps.allSatisfy { $0.onlyPerson == nil })
        // Covered 09:00-23:00 on weekdays: 10 hours a weekday night and the weekend uncovered.
        let uncovered = report.uncovered.map { $0.upperBound - $0.lowerBound }.reduce(0, +)
        #expect(uncovered == 7 * 24 * Self.hour - 5 * 14 * Self.hour)
        #expect(report.uncoveredHours.weekend == 48 * Self.hour)
        // Each weekday 00:00-08:00 and 23:00-24:00 is night; 08:00-09:00 is outside business
        // hours; Saturday and Sunday are weekend whatever the hour.
        #expect(report.uncoveredHours.night == 5 * 8 * Self.hour + 5 * 1 * Self.hour)
        #expect(report.uncoveredHours.outsideBusinessHours + report.uncoveredHours.business == 5 * 1 * Self.hour)

        // A step that names a person covers always, and is flagged when that person is its only target.
        let named = EscalationPolicy(
            id: "q", name: "Named",
            steps: [
                EscalationStep(delayMinutes: 15, targets: [.schedule("days")]),
                EscalationStep(delayMinutes: 5, targets: [.person("linus")]),
            ])
        let covered = PolicyQualityReport.compute(
            named, state: state, stretches: stretches, from: from, to: to, timeline: timeline)
        #expect(covered.uncovered.isEmpty && covered.uncoveredHours == CategoryHours())
        #expect(covered.steps.map(\.onlyPerson) == [nil, "linus"])
        #expect(covered.steps[1].covered == to - from && covered.steps[1].gaps.isEmpty)
    }
}
