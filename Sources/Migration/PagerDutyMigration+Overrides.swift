import RosterDomain

extension MigrationBuilder {
    /// PagerDuty's overrides: one user alone on the schedule from start to end, whoever the
    /// layers have. Roster's overrides say whom they replace, so each becomes the overrides that
    /// give the same duty over the layers as migrated: "replace X with U" for each stretch X has,
    /// "add U" where nobody is on duty. Two that overlap: the first is kept, the other reported.
    mutating func pagerDutyOverrides(_ node: SourceJSON, on schedule: ScheduleDefinition) -> [ScheduleOverride] {
        var written: [ScheduleOverride] = []
        var taken: [(start: UnixMillis, end: UnixMillis, path: String)] = []
        for entry in reading.objects(reading.list(node, "overrides", optional: true)) {
            let before = reading.problems.count
            let overrideID = reading.text(entry, "id") ?? ""
            let start = reading.instant(entry, "start"), end = reading.instant(entry, "end")
            let userID = entry["user"]?["id"]?.string ?? ""
            if userID.isEmpty { reading.refuse(entry, "user.id", "is missing") }
            guard reading.problems.count == before, let start, let end else { continue }
            guard let person = personIDs[userID] else {
                reading.refuse(entry, "user.id", "\"\(userID)\" is not one of the export's users")
                continue
            }
            guard start < end else {
                reading.refuse(entry, "end", "is not after start")
                continue
            }
            guard start % 60_000 == 0, end % 60_000 == 0 else {
                reading.refuse(entry, start % 60_000 == 0 ? "end" : "start", "is not a whole minute")
                continue
            }
            if let other = taken.first(where: { $0.start < end && start < $0.end }) {
                reading.report.add(
                    .notMapped, entry.path,
                    "overlaps the override at \(other.path): Roster keeps one override over a stretch, so this "
                        + "one is left out (set it again in Roster after the apply if it still holds)")
                continue
            }
            taken.append((start, end, entry.path))
            let pieces = Self.overridesGiving(
                person, alone: start..<end, over: schedule, id: id(overrideID),
                reason: "PagerDuty override \(overrideID)")
            written += pieces
            let said = pieces.map { piece -> String in
                switch piece.kind {
                case .replace(let replaced, _): "replace \(name(replaced))"
                case .add: "add"
                case .remove(let removed): "remove \(name(removed))"
                }
            }
            reading.report.add(
                .changed, entry.path,
                "\(name(person)) alone from \(TimeText.iso8601(start)) to \(TimeText.iso8601(end)): written as "
                    + (said.isEmpty
                        ? "nothing (they are on duty alone then already)"
                        : "\(pieces.count) override\(pieces.count == 1 ? "" : "s") (\(said.joined(separator: ", ")))")
                    + "; a Roster override names whom it replaces, so a later change to the layers does not carry it")
        }
        return written
    }

    /// The overrides that put `person` alone on duty over `window`, given the schedule's duty
    /// without them, stretch by stretch.
    static func overridesGiving(
        _ person: String, alone window: Range<UnixMillis>, over schedule: ScheduleDefinition, id: String,
        reason: String
    ) -> [ScheduleOverride] {
        overridesGiving([person], together: window, over: schedule, id: id, reason: reason)
    }

    /// The overrides that put `people` (and nobody else) on duty over `window`, stretch by
    /// stretch: each who leaves is replaced by one who comes while both remain, then the rest
    /// are removed or added.
    static func overridesGiving(
        _ people: Set<String>, together window: Range<UnixMillis>, over schedule: ScheduleDefinition, id: String,
        reason: String
    ) -> [ScheduleOverride] {
        var plain = schedule
        plain.overrides = []
        let shifts = (try? ScheduleResolver.resolve(plain, from: window.lowerBound, to: window.upperBound)) ?? []
        let segments = DutySegment.segments(
            shifts.map { ($0.employeeID, $0.start, $0.end) }, from: window.lowerBound, to: window.upperBound)
        var pieces: [ScheduleOverride] = []
        for segment in segments {
            let leaving = segment.people.subtracting(people).sorted(),
                coming = people.subtracting(segment.people).sorted()
            let paired = min(leaving.count, coming.count)
            let kinds: [ScheduleOverride.Kind] =
                zip(leaving, coming).map { .replace(replacing: $0, with: $1) }
                + leaving.dropFirst(paired).map { .remove($0) } + coming.dropFirst(paired).map { .add($0) }
            for kind in kinds {
                // A stretch that continues the previous one's override extends it.
                if let index = pieces.lastIndex(where: { $0.kind == kind && $0.end == segment.start }) {
                    pieces[index].end = segment.end
                } else {
                    pieces.append(
                        ScheduleOverride(
                            id: pieces.isEmpty ? id : "\(id)-\(pieces.count + 1)", kind: kind, start: segment.start,
                            end: segment.end, reason: reason))
                }
            }
        }
        return pieces
    }
}
