import Foundation
import RosterDomain
import Testing

/// Schedule definitions are checked before they are stored; conflicting overrides are refused
/// with the conflict named, never resolved silently.
@Suite(.timeLimit(.minutes(10))) struct ScheduleValidationTests {
    let hour: UnixMillis = 3_600_000
    let anchor = LocalDateTime(year: 2027, month: 1, day: 4, hour: 9)

    @Test func aValidScheduleHasNoViolations() {
        let schedule = ScheduleDefinition(
            id: "s", name: "Primary", zone: "America/Chicago",
            layers: [
                ScheduleLayer(
                    level: 1,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["a"], ["b"]], cadence: .weeks(1), handoff: anchor,
                            restrictions: [RestrictionWindow(weekdays: [2, 3], start: 540, end: 1020)])
                    ])
            ],
            overrides: [
                ScheduleOverride(id: "o1", kind: .replace(replacing: "a", with: "c"), start: 0, end: hour),
                // overlaps, but touches nobody in common
                ScheduleOverride(id: "o2", kind: .add("d"), start: 0, end: hour),
                ScheduleOverride(id: "o3", kind: .remove("a"), start: hour, end: 2 * hour),
            ])  // touches a, right after
        #expect(schedule.violations().isEmpty)
    }

    @Test func overlappingOverridesOnTheSamePersonAreRefusedNamingTheOther() {
        let schedule = ScheduleDefinition(
            id: "s", name: "Primary", zone: "UTC",
            overrides: [
                ScheduleOverride(
                    id: "swap-1", kind: .replace(replacing: "ada", with: "alan"), start: 0, end: 10 * hour),
                ScheduleOverride(id: "cover", kind: .add("alan"), start: 5 * hour, end: 6 * hour),
            ])
        #expect(
            schedule.violations().map(\.description) == [
                "override cover, window: overlaps override swap-1, which also changes alan; change or remove that one first"
            ])
    }

    @Test func everyMistakeIsNamed() {
        let schedule = ScheduleDefinition(
            id: "s", name: " ", zone: "Mars/Olympus",
            layers: [
                ScheduleLayer(
                    level: 1,
                    rotations: [
                        Rotation(
                            id: "r", slots: [], cadence: .days(0), handoff: anchor,
                            restrictions: [RestrictionWindow(weekdays: [0], start: -1, end: 1441)]),
                        Rotation(id: "r", slots: [["a"]], cadence: .days(1), handoff: anchor),
                    ])
            ],
            overrides: [ScheduleOverride(id: "o", kind: .replace(replacing: "a", with: "a"), start: hour, end: hour)])
        let fields = schedule.violations().map { "\($0.location) \($0.field)" }
        #expect(
            fields == [
                "schedule s name", "schedule s zone", "rotation r slots", "rotation r cadence",
                "rotation r restrictions",
                "rotation r restrictions", "rotation r id", "override o end", "override o with",
            ])
    }
}
