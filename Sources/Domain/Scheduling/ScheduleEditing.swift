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
        guard let (layerIndex, rotationIndex, current) = rotation(id: id), let clock = WallClock(zone: zone) else {
            return nil
        }
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
                let base =
                    RotationTurns(next, level: level, clock: clock).slotIndex(at: max(effective, firstInstant)) ?? 0
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
                wanted =
                    next.slots.firstIndex { Set($0) == Set(oldSlot) }
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

    /// Each rotation's current version that has not ended by `now`, by level then place: what a
    /// definition file (docs/AS-CODE.md) holds of the schedule's rotations.
    public func currentRotations(now: UnixMillis) -> [(level: Int, rotation: Rotation)] {
        var found: [(level: Int, rotation: Rotation)] = []
        for layer in layers.sorted(by: { $0.level < $1.level }) {
            for rotation in layer.rotations
            where self.rotation(id: rotation.id)?.rotation == rotation && (rotation.end ?? .max) > now {
                found.append((layer.level, rotation))
            }
        }
        return found
    }

    /// The overrides a definition file holds: not ended by `now`, and made by an admin (not
    /// self-service or a swap, which people manage themselves).
    public func standingOverrides(now: UnixMillis) -> [ScheduleOverride] {
        overrides.filter { $0.source.isEmpty && $0.end > now }
    }

    /// Ends a rotation at `effective` (removes it if it has not started by then). nil when there
    /// is no such rotation.
    public func endingRotation(_ id: String, effective: UnixMillis) -> ScheduleDefinition? {
        guard let (layerIndex, rotationIndex, current) = rotation(id: id), let clock = WallClock(zone: zone) else {
            return nil
        }
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
    public func swapping(
        _ first: String, _ firstWindow: Range<UnixMillis>, with second: String,
        _ secondWindow: Range<UnixMillis>, ids: (String, String), author: String, reason: String
    )
        -> ScheduleDefinition
    {
        var copy = self
        // Each half names the other ("swap:ID"), so that the duty record and reports can tell a
        // swap from an override.
        copy.overrides.append(
            ScheduleOverride(
                id: ids.0, kind: .replace(replacing: first, with: second),
                start: firstWindow.lowerBound, end: firstWindow.upperBound,
                author: author, reason: reason, source: ScheduleOverride.swapSource(ids.1)))
        copy.overrides.append(
            ScheduleOverride(
                id: ids.1, kind: .replace(replacing: second, with: first),
                start: secondWindow.lowerBound, end: secondWindow.upperBound,
                author: author, reason: reason, source: ScheduleOverride.swapSource(ids.0)))
        return copy
    }

    static func modulo(_ value: Int, _ count: Int) -> Int { ((value % count) + count) % count }

    /// The most turns a restricted rotation advancing over active turns may lie between its
    /// anchor and a year from now: they are swept to count the active ones (`ActiveTurnCounter`,
    /// once per process and rotation rule). A minutely turn's handoff is arithmetic (about 10 ns);
    /// an hourly or daily one's is a wall-clock conversion, counted as `wallClockTurnCost` of them.
    public static let maxCountedTurns = 10_000_000
    public static let wallClockTurnCost = 50

    /// What makes these definitions too costly to resolve, each naming where and what to do;
    /// empty when they may be stored. Checked on every path that stores a definition, with the
    /// bounds of `ScheduleLimits` and `ResolutionBudget`: the windows the server resolves by
    /// itself must fit one budget whenever they fall (an upper bound, so a rotation that starts
    /// next year is sized now), and counting active turns must stay small for a year.
    public func costViolations(now: UnixMillis) -> [RosterViolation] {
        var found: [RosterViolation] = []
        let location = "schedule \(id)"
        let rotations = layers.flatMap(\.rotations)
        if layers.count > ScheduleLimits.maxLayers {
            found.append(
                RosterViolation(location: location, field: "layers", message: "are at most \(ScheduleLimits.maxLayers)")
            )
        }
        if rotations.count > ScheduleLimits.maxRotations {
            found.append(
                RosterViolation(
                    location: location, field: "rotations",
                    message:
                        "are at most \(ScheduleLimits.maxRotations), every version counted; end old ones or start a new schedule"
                ))
        }
        if overrides.count > ScheduleLimits.maxOverrides {
            found.append(
                RosterViolation(
                    location: location, field: "overrides",
                    message: "are at most \(ScheduleLimits.maxOverrides); delete past ones first"))
        }
        guard let clock = WallClock(zone: zone) else { return found }  // `violations` names the zone
        let horizon = now + 366 * 86_400_000
        for layer in layers {
            for rotation in layer.rotations {
                if rotation.slots.contains(where: { $0.count > ScheduleLimits.maxSlotPeople }) {
                    found.append(
                        RosterViolation(
                            location: "rotation \(rotation.id)", field: "slots",
                            message: "hold at most \(ScheduleLimits.maxSlotPeople) people each"))
                }
                let turns = RotationTurns(rotation, level: layer.level, clock: clock)
                guard rotation.advance == .activeTurns, !turns.everyTurnIsActive else { continue }
                let cost = { if case .minutes = rotation.cadence { 1 } else { Self.wallClockTurnCost } }()
                let limit = Self.maxCountedTurns / cost
                guard turns.lastTurn(startingAtOrBefore: horizon) > limit else { continue }
                found.append(
                    RosterViolation(
                        location: "rotation \(rotation.id)", field: "handoff",
                        message:
                            "is more than \(limit) turns back within a year; its active turns are counted from it: "
                            + "choose a later handoff (or calendar advance)"))
            }
        }
        let units = resolutionUnitsBound(over: checkedWindow)
        if units > ResolutionBudget.perRequest {
            found.append(
                RosterViolation(
                    location: location, field: "rotations",
                    message:
                        "would take up to \(units) turns and stretches to resolve \(checkedWindow / 86_400_000) days "
                        + "(the limit is \(ResolutionBudget.perRequest)): use fewer rotations, slower cadences or smaller slots"
                ))
        }
        return found
    }

    /// The longest window the server resolves by itself for this schedule: its on-duty index's
    /// horizon (12 weeks, or 9 days with a sub-hourly rotation) or a preview's 35 days.
    var checkedWindow: UnixMillis {
        handsOffWithinTheHour ? ScheduleLimits.checkedWindow : max(ScheduleLimits.checkedWindow, 12 * 7 * 86_400_000)
    }

    /// An upper bound of the budget units a window of `length` costs, wherever it falls: per
    /// rotation, its turns (each looked at) plus its stretches (each ends at a handoff or at a
    /// restriction window's end, so they are at most turns plus window occurrences) times the
    /// largest slot; plus the overrides.
    func resolutionUnitsBound(over length: UnixMillis) -> Int {
        let day: UnixMillis = 86_400_000
        var units = overrides.count
        for layer in layers {
            for rotation in layer.rotations {
                // The shortest a turn can be (a DST day is 23 hours; an hourly turn can be empty at
                // a spring-forward, at most once per transition, hence the slack).
                let shortest: UnixMillis =
                    switch rotation.cadence {
                    case .minutes(let n): UnixMillis(max(1, n)) * 60_000
                    case .hours(let n): UnixMillis(max(1, n)) * 3_600_000
                    case .days(let n): UnixMillis(max(1, n)) * 23 * 3_600_000
                    case .weeks(let n): UnixMillis(max(1, n)) * 7 * 23 * 3_600_000
                    case .months(let n): UnixMillis(max(1, n)) * 28 * 23 * 3_600_000
                    }
                let turns = Int(length / shortest) + 4
                let occurrences =
                    rotation.restrictions.isEmpty
                    ? 0
                    : (Int(length / day) + 3) * rotation.restrictions.reduce(0) { $0 + $1.weekdays.count } / 7
                        + rotation.restrictions.count * 3
                let people = rotation.slots.map(\.count).max() ?? 0
                let (product, overflow) = (turns + occurrences).multipliedReportingOverflow(by: people)
                units += turns + (overflow ? Int.max / 4 : product)
                if units > Int.max / 4 { return Int.max / 4 }
            }
        }
        return units
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
        return deltas.sorted {
            ($0.start, $0.gained ? 1 : 0, $0.employeeID) < ($1.start, $1.gained ? 1 : 0, $1.employeeID)
        }
    }

    /// Sorted disjoint intervals `a` minus sorted disjoint intervals `b`.
    static func subtract(_ a: [(UnixMillis, UnixMillis)], _ b: [(UnixMillis, UnixMillis)]) -> [(UnixMillis, UnixMillis)]
    {
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
