/// The override arithmetic of taking duty and undoing a take (docs/PROTOCOL.md §14.6): plain
/// values in and out, so the rules are tested without a server.
extension ScheduleDefinition {
    /// `overrides` with those in `ids` cut out of `range`: the part before keeps the id, a part
    /// after gets a new one when the part before is kept too.
    public static func cutting(
        _ overrides: [ScheduleOverride], ids: Set<String>, out range: Range<UnixMillis>,
        newID: (String) -> String
    ) -> [ScheduleOverride] {
        overrides.flatMap { override -> [ScheduleOverride] in
            guard ids.contains(override.id) else { return [override] }
            var pieces: [ScheduleOverride] = []
            if override.start < range.lowerBound {
                var head = override
                head.end = range.lowerBound
                pieces.append(head)
            }
            if override.end > range.upperBound {
                var tail = override
                tail.start = range.upperBound
                if !pieces.isEmpty { tail.id = newID("ovr") }
                pieces.append(tail)
            }
            return pieces
        }
    }

    /// Undoing a take over `range` (from now at the earliest: the caller passes what may still
    /// change): every override the person's take made is cut out of the range, so what they took
    /// before and after it stays theirs. nil when no such override meets the range.
    public func undoingTake(
        of employeeID: String, over range: Range<UnixMillis>,
        newID: (String) -> String
    ) -> (definition: ScheduleDefinition, changed: [String])? {
        let source = ScheduleOverride.takeSource(employeeID)
        let ids = Set(
            overrides.filter { $0.source == source && $0.start < range.upperBound && $0.end > range.lowerBound }.map(
                \.id))
        guard !ids.isEmpty else { return nil }
        var after = self
        after.overrides = Self.cutting(overrides, ids: ids, out: range, newID: newID)
        return (after, overrides.map(\.id).filter(ids.contains))
    }
}
