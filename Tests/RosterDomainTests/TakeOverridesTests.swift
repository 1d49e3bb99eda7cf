import RosterDomain
import Testing

/// Undoing a take (docs/PROTOCOL.md §14.6) as plain values: the take's overrides are cut out of
/// the stretch given, so undoing part of a take leaves the rest of it.
@Suite(.timeLimit(.minutes(10))) struct TakeOverridesTests {
    let hour: UnixMillis = 3_600_000
    let now: UnixMillis = 1_796_025_600_000

    /// Grace took [now+10h, now+20h) from Ada: an ADD for her and a REMOVE for Ada; an admin's
    /// override of Linus and another person's take are not hers to undo.
    func schedule() -> ScheduleDefinition {
        let take = ScheduleOverride.takeSource("grace")
        return ScheduleDefinition(
            id: "p", name: "Platform", zone: "UTC",
            overrides: [
                ScheduleOverride(
                    id: "add", kind: .add("grace"), start: now + 10 * hour, end: now + 20 * hour, source: take),
                ScheduleOverride(
                    id: "remove", kind: .remove("ada"), start: now + 10 * hour, end: now + 20 * hour, source: take),
                ScheduleOverride(id: "linus", kind: .add("linus"), start: now + 12 * hour, end: now + 14 * hour),
                ScheduleOverride(
                    id: "alans", kind: .add("alan"), start: now + 12 * hour, end: now + 14 * hour,
                    source: ScheduleOverride.takeSource("alan")),
            ])
    }

    func ranges(_ definition: ScheduleDefinition) -> [String: [Range<UnixMillis>]] {
        Dictionary(grouping: definition.overrides, by: { $0.source.isEmpty ? $0.id : $0.source }).mapValues { list in
            list.map { ($0.start - now) / hour..<($0.end - now) / hour }.sorted { $0.lowerBound < $1.lowerBound }
        }
    }

    @Test func undoingTheMiddleOfATakeKeepsItsEnds() throws {
        var counter = 0
        let undone = try #require(
            schedule().undoingTake(of: "grace", over: now + 14 * hour..<now + 16 * hour) { prefix in
                counter += 1
                return "\(prefix)_\(counter)"
            })
        #expect(Set(undone.changed) == ["add", "remove"])
        let after = ranges(undone.definition)
        #expect(after["take:grace"] == [10..<14, 10..<14, 16..<20, 16..<20], "\(after)")
        #expect(after["linus"] == [12..<14] && after["take:alan"] == [12..<14], "others' overrides stay")
        #expect(
            Set(undone.definition.overrides.map(\.id)).count == undone.definition.overrides.count,
            "every piece has an id of its own")
    }

    @Test func undoingTheLaterPartOfATakeThatHasNotStartedCutsItBack() throws {
        let undone = try #require(
            schedule().undoingTake(of: "grace", over: now + 15 * hour..<now + 30 * hour) { _ in "new" })
        #expect(ranges(undone.definition)["take:grace"] == [10..<15, 10..<15])
    }

    @Test func undoingTheWholeStretchRemovesTheTakeAndNothingLeftIsNotFound() throws {
        let undone = try #require(schedule().undoingTake(of: "grace", over: now..<now + 90 * 24 * hour) { _ in "new" })
        #expect(ranges(undone.definition)["take:grace"] == nil)
        #expect(undone.definition.undoingTake(of: "grace", over: now..<now + 90 * 24 * hour) { _ in "new" } == nil)
        #expect(
            schedule().undoingTake(of: "grace", over: now + 20 * hour..<now + 30 * hour) { _ in "new" } == nil,
            "a stretch that only touches the take's end has nothing to undo")
    }
}
