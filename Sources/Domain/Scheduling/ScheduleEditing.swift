/// Edits of a schedule's definitions, as the admin commands make them. Each returns the whole
/// new definition: the server validates it and commits it as one revision.
extension ScheduleDefinition {
    /// Adds `rotation` to the layer at `level` (making the layer if needed).
    public func addingRotation(_ rotation: Rotation, level: Int) -> ScheduleDefinition {
        var copy = self
        if let index = copy.layers.firstIndex(where: { $0.level == level }) {
            copy.layers[index].rotations.append(rotation)
        } else {
            copy.layers.append(ScheduleLayer(level: level, rotations: [rotation]))
            copy.layers.sort { $0.level < $1.level }
        }
        return copy
    }

    /// Changes a rotation from `effective` on. The past is kept: the current version ends at
    /// `effective` and the new one starts there, continuing with the slot the old version
    /// would have had at that instant (the same people, found in the new slots), or with
    /// `startSlot` when given. A rotation that has not started by `effective` is replaced.
    /// nil when there is no such rotation.
    public func editingRotation(_ id: String, to replacement: Rotation, effective: UnixMillis, startSlot: Int? = nil)
        -> ScheduleDefinition?
    {
        guard let (layerIndex, rotationIndex, current) = rotation(id: id), let clock = WallClock(zone: zone) else { return nil }
        let level = layers[layerIndex].level
        var copy = self
        let currentTurns = RotationTurns(current, level: level, clock: clock)
        var next = replacement
        next.id = id
        let firstInstant = max(currentTurns.handoff(0), current.since ?? .min)
        if effective <= firstInstant {
            next.version = current.version
            next.since = current.since
            next.slotOffset = 0
            if let startSlot, !next.slots.isEmpty {
                let base = RotationTurns(next, level: level, clock: clock).slotIndex(at: max(effective, firstInstant)) ?? 0
                next.slotOffset = Self.modulo(startSlot - base, next.slots.count)
            }
            copy.layers[layerIndex].rotations[rotationIndex] = next
            return copy
        }
        next.version = current.version + 1
        next.since = effective
        next.slotOffset = 0
        if !next.slots.isEmpty {
            let base = RotationTurns(next, level: level, clock: clock).slotIndex(at: effective) ?? 0
            var wanted = startSlot
            if wanted == nil, let oldSlot = currentTurns.slotIndex(at: effective).map({ current.slots[$0] }) {
                wanted = next.slots.firstIndex { Set($0) == Set(oldSlot) }
                    ?? next.slots.firstIndex { !Set($0).isDisjoint(with: oldSlot) }
            }
            next.slotOffset = Self.modulo((wanted ?? base) - base, next.slots.count)
        }
        var ended = current
        ended.end = min(current.end ?? .max, effective)
        copy.layers[layerIndex].rotations[rotationIndex] = ended
        copy.layers[layerIndex].rotations.append(next)
        return copy
    }

    /// Ends a rotation at `effective` (removes it if it has not started by then). nil when there
    /// is no such rotation.
    public func endingRotation(_ id: String, effective: UnixMillis) -> ScheduleDefinition? {
        guard let (layerIndex, rotationIndex, current) = rotation(id: id), let clock = WallClock(zone: zone) else { return nil }
        var copy = self
        let first = max(RotationTurns(current, level: 0, clock: clock).handoff(0), current.since ?? .min)
        if effective <= first {
            copy.layers[layerIndex].rotations.remove(at: rotationIndex)
            if copy.layers[layerIndex].rotations.isEmpty { copy.layers.remove(at: layerIndex) }
        } else {
            copy.layers[layerIndex].rotations[rotationIndex].end = min(current.end ?? .max, effective)
        }
        return copy
    }

    /// A swap: `first` takes `second`'s duty in `secondWindow` and `second` takes `first`'s in
    /// `firstWindow`, as two replace overrides in one revision.
    public func swapping(_ first: String, _ firstWindow: Range<UnixMillis>, with second: String,
                         _ secondWindow: Range<UnixMillis>, ids: (String, String), author: String, reason: String)
        -> ScheduleDefinition
    {
        var copy = self
        copy.overrides.append(ScheduleOverride(id: ids.0, kind: .replace(replacing: first, with: second),
                                               start: firstWindow.lowerBound, end: firstWindow.upperBound,
                                               author: author, reason: reason))
        copy.overrides.append(ScheduleOverride(id: ids.1, kind: .replace(replacing: second, with: first),
                                               start: secondWindow.lowerBound, end: secondWindow.upperBound,
                                               author: author, reason: reason))
        return copy
    }

    static func modulo(_ value: Int, _ count: Int) -> Int { ((value % count) + count) % count }

    /// The most turns a restricted rotation advancing over active turns may lie between its
    /// anchor and now: each is examined to count the active ones, on every resolve.
    public static let maxCountedTurns = 100_000

    /// Rotations whose anchor is so far back that counting their active turns up to `now` would
    /// stall the server (`maxCountedTurns`), with a sentence saying what to do.
    public func slowRotations(now: UnixMillis) -> [RosterViolation] {
        guard let clock = WallClock(zone: zone) else { return [] }
        var found: [RosterViolation] = []
        for layer in layers {
            for rotation in layer.rotations where rotation.advance == .activeTurns {
                let turns = RotationTurns(rotation, level: layer.level, clock: clock)
                guard !turns.everyTurnIsActive, turns.lastTurn(startingAtOrBefore: now) > Self.maxCountedTurns else { continue }
                found.append(RosterViolation(location: "rotation \(rotation.id)", field: "handoff",
                    message: "is more than \(Self.maxCountedTurns) turns back; with restrictions every turn since it is counted: "
                        + "choose a later handoff (or calendar advance)"))
            }
        }
        return found
    }
}

/// Who gains or loses duty by a definition change, over a window: what `--preview` shows.
public struct DutyDelta: Sendable, Hashable, Codable {
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    /// true: on duty after the change and not before; false: the other way round.
    public var gained: Bool

    public init(employeeID: String, start: UnixMillis, end: UnixMillis, gained: Bool) {
        (self.employeeID, self.start, self.end, self.gained) = (employeeID, start, end, gained)
    }

    /// The stretches each person gains and loses between two resolutions of a schedule, by start.
    public static func between(_ before: [ResolvedShift], _ after: [ResolvedShift]) -> [DutyDelta] {
        func coverage(_ shifts: [ResolvedShift]) -> [String: [(UnixMillis, UnixMillis)]] {
            var byPerson: [String: [(UnixMillis, UnixMillis)]] = [:]
            for shift in shifts.sorted(by: { $0.start < $1.start }) {
                var list = byPerson[shift.employeeID, default: []]
                if let last = list.last, shift.start <= last.1 {
                    list[list.count - 1].1 = max(last.1, shift.end)
                } else {
                    list.append((shift.start, shift.end))
                }
                byPerson[shift.employeeID] = list
            }
            return byPerson
        }
        let old = coverage(before), new = coverage(after)
        var deltas: [DutyDelta] = []
        for person in Set(old.keys).union(new.keys) {
            let had = old[person] ?? [], has = new[person] ?? []
            deltas += subtract(has, had).map { DutyDelta(employeeID: person, start: $0.0, end: $0.1, gained: true) }
            deltas += subtract(had, has).map { DutyDelta(employeeID: person, start: $0.0, end: $0.1, gained: false) }
        }
        // By start; at one instant who loses before who gains (the handoff reads left to right).
        return deltas.sorted { ($0.start, $0.gained ? 1 : 0, $0.employeeID) < ($1.start, $1.gained ? 1 : 0, $1.employeeID) }
    }

    /// Sorted disjoint intervals `a` minus sorted disjoint intervals `b`.
    static func subtract(_ a: [(UnixMillis, UnixMillis)], _ b: [(UnixMillis, UnixMillis)]) -> [(UnixMillis, UnixMillis)] {
        var result: [(UnixMillis, UnixMillis)] = []
        var j = 0
        for (start, end) in a {
            var cursor = start
            while j < b.count, b[j].1 <= cursor { j += 1 }
            var k = j
            while k < b.count, b[k].0 < end {
                if b[k].0 > cursor { result.append((cursor, b[k].0)) }
                cursor = max(cursor, b[k].1)
                k += 1
            }
            if cursor < end { result.append((cursor, end)) }
        }
        return result
    }
}
