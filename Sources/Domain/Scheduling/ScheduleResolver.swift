import Foundation

/// Where a resolved shift comes from.
public enum ShiftSource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Turn `turn` of a rotation (the given version of it) in a layer.
    case rotation(level: Int, rotation: String, version: Int, turn: Int)
    /// A one-off shift.
    case shift(id: String)
    case override(id: String)
    /// A fixed shift of a temporary schedule (the span's id).
    case temporary(id: String)

    public var description: String {
        switch self {
        case .rotation(let level, let rotation, let version, let turn):
            "layer \(level), rotation \(rotation)\(version > 1 ? " v\(version)" : ""), turn \(turn)"
        case .shift(let id): "shift \(id)"
        case .override(let id): "override \(id)"
        case .temporary(let id): "temporary schedule \(id)"
        }
    }

    var key: String {
        switch self {
        case .rotation(_, let rotation, let version, let turn):
            "r:\(rotation)\(version > 1 ? ".v\(version)" : ""):\(turn)"
        case .shift(let id): "s:\(id)"
        case .override(let id): "o:\(id)"
        case .temporary(let id): "t:\(id)"
        }
    }
}

/// One person on duty over [start, end), and why. The id is derived from the source, the person
/// and the start, so it is the same for everyone who resolves the same definitions.
public struct ResolvedShift: Sendable, Hashable, Codable {
    public var id: String
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var source: ShiftSource

    public init(id: String, employeeID: String, start: UnixMillis, end: UnixMillis, source: ShiftSource) {
        (self.id, self.employeeID, self.start, self.end, self.source) = (id, employeeID, start, end, source)
    }
}

/// The final schedule: definitions and a window in, resolved shifts out. Pure and deterministic,
/// shared by server and client so that an offline answer equals the server's.
public enum ScheduleResolver {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownZone(String)
        /// Resolving the window would take more work than `ResolutionBudget` allows.
        case overBudget(limit: Int)
        public var description: String {
            switch self {
            case .unknownZone(let zone): "\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin)"
            case .overBudget(let limit):
                "resolving this window takes more than \(limit) turns and stretches (the limit of one request): ask a shorter window"
            }
        }
    }

    /// Who is on duty at every instant of [from, to), as shifts clipped to the window, ordered by
    /// start, then employee.
    ///
    /// Complexity: with P the pieces (turn stretches of every rotation, one-off shifts) and O
    /// the overrides overlapping the window, B ≤ 2(P + O) boundaries, and a the pieces and
    /// overrides active at once (a few in practice): O((P + O) log(P + O) + B·a·log a). Producing
    /// the pieces is O(turns in the window × days per turn) per rotation, plus, for a restricted
    /// rotation advancing by active turns with a cadence shorter than a week, O(turns since its
    /// anchor) to count the turns before the window (`RotationTurns.pieces`).
    public static func resolve(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis) throws(Problem)
        -> [ResolvedShift]
    {
        var budget = ResolutionBudget.standard
        return try resolve(schedule, from: from, to: to, budget: &budget)
    }

    /// `resolve`, spending from `budget` (throws `overBudget` when it runs out).
    public static func resolve(
        _ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
        budget: inout ResolutionBudget
    ) throws(Problem) -> [ResolvedShift] {
        guard let clock = WallClock(zone: schedule.zone) else { throw .unknownZone(schedule.zone) }
        guard from < to else { return [] }
        var pieces: [(level: Int?, piece: Piece)] = []
        let away = schedule.skipsTimeOff ? TimeOffIntervals(schedule.timeOff) : TimeOffIntervals([])
        for layer in schedule.layers {
            for rotation in layer.rotations {
                let turns = RotationTurns(
                    rotation, level: layer.level, clock: clock, away: rotation.onTimeOff == .skip ? away : nil,
                    holidays: schedule.holidays)
                for piece in try turns.pieces(from: from, to: to, budget: &budget) {
                    pieces.append((layer.level, piece))
                }
            }
        }
        // Temporary schedules: their shifts are the only pieces inside their spans (marked by
        // `temporary`, so the sweep below tells them from what they set aside).
        let spans = schedule.temporary.filter { $0.start < to && $0.end > from && $0.start < $0.end }.sorted {
            $0.start < $1.start
        }
        var temporaryPieces = Set<Int>()
        for span in spans {
            for shift in span.shifts where shift.start < min(to, span.end) && shift.end > max(from, span.start) {
                try budget.spend()
                temporaryPieces.insert(pieces.count)
                pieces.append(
                    (
                        nil,
                        Piece(
                            employeeID: shift.employeeID, start: max(shift.start, from, span.start),
                            end: min(shift.end, to, span.end), source: .temporary(id: span.id))
                    ))
            }
        }
        for shift in schedule.shifts where shift.start < to && shift.end > from && shift.start < shift.end {
            try budget.spend()
            pieces.append(
                (
                    nil,
                    Piece(
                        employeeID: shift.employeeID, start: max(shift.start, from), end: min(shift.end, to),
                        source: .shift(id: shift.id))
                ))
        }
        let overrides = schedule.overrides.filter { $0.start < to && $0.end > from && $0.start < $0.end }
            .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        try budget.spend(overrides.count)

        // Elementary intervals between every boundary; in each, one set of people. A sweep keeps
        // the pieces and overrides that cover the current interval, so the work is the number of
        // boundaries times the few that are active, not times all of them.
        var boundaries = Set([from, to])
        for (_, piece) in pieces { boundaries.insert(piece.start); boundaries.insert(piece.end) }
        for override in overrides {
            boundaries.insert(max(override.start, from)); boundaries.insert(min(override.end, to))
        }
        for span in spans { boundaries.insert(max(span.start, from)); boundaries.insert(min(span.end, to)) }
        var nextSpan = 0
        let instants = boundaries.sorted()
        let byStart = pieces.indices.sorted { pieces[$0].piece.start < pieces[$1].piece.start }
        let overridesByStart = overrides.indices.sorted {
            (overrides[$0].start, overrides[$0].id) < (overrides[$1].start, overrides[$1].id)
        }
        var nextPiece = 0, nextOverride = 0
        var activePieces: [Int] = [], activeOverrides: [Int] = []
        var open: [String: ResolvedShift] = [:]  // person + source → the shift being extended
        var result: [ResolvedShift] = []
        for (start, end) in zip(instants, instants.dropFirst()) {
            activePieces.removeAll { pieces[$0].piece.end <= start }
            while nextPiece < byStart.count, pieces[byStart[nextPiece]].piece.start <= start {
                if pieces[byStart[nextPiece]].piece.end > start { activePieces.append(byStart[nextPiece]) }
                nextPiece += 1
            }
            activeOverrides.removeAll { overrides[$0].end <= start }
            while nextOverride < overridesByStart.count, overrides[overridesByStart[nextOverride]].start <= start {
                if overrides[overridesByStart[nextOverride]].end > start {
                    activeOverrides.append(overridesByStart[nextOverride])
                }
                nextOverride += 1
            }
            while nextSpan < spans.count, spans[nextSpan].end <= start { nextSpan += 1 }
            let inSpan = nextSpan < spans.count && spans[nextSpan].start <= start
            // In the order the pieces were made (layers, then one-off shifts), as before; inside
            // a temporary schedule's span only its shifts.
            let covering = activePieces.sorted().filter { temporaryPieces.contains($0) == inSpan }.map { pieces[$0] }
            // The highest level with anyone wins; one-off shifts add to it.
            let top = covering.compactMap(\.level).max()
            var onDuty: [(String, ShiftSource)] = []
            for (level, piece) in covering where level == nil || level == top {
                if !onDuty.contains(where: { $0.0 == piece.employeeID }) {
                    onDuty.append((piece.employeeID, piece.source))
                }
            }
            for override in activeOverrides.sorted().map({ overrides[$0] }) where !inSpan {
                switch override.kind {
                case .replace(let replaced, let replacement):
                    guard let index = onDuty.firstIndex(where: { $0.0 == replaced }) else { continue }
                    onDuty.remove(at: index)
                    if !onDuty.contains(where: { $0.0 == replacement }) {
                        onDuty.append((replacement, .override(id: override.id)))
                    }
                case .add(let person):
                    if !onDuty.contains(where: { $0.0 == person }) {
                        onDuty.append((person, .override(id: override.id)))
                    }
                case .remove(let person):
                    onDuty.removeAll { $0.0 == person }
                }
            }
            var still: [String: ResolvedShift] = [:]
            for (person, source) in onDuty {
                let key = person + "\u{1F}" + source.key
                if var running = open[key], running.end == start {
                    running.end = end
                    still[key] = running
                } else {
                    still[key] = ResolvedShift(
                        id: "\(source.key):\(person)@\(start)", employeeID: person, start: start, end: end,
                        source: source)
                }
            }
            for (key, shift) in open where still[key] == nil { result.append(shift) }
            open = still
        }
        result += open.values
        return result.sorted { ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id) }
    }

    /// The first `limit` shifts of [from, to) (by start), resolving in growing chunks so that a
    /// rotation handing off every minute does not resolve a year to answer a day. Pieces split
    /// at a chunk's edge are joined again, so the shifts equal `resolve`'s. `truncated` is true
    /// when more shifts start before `to`.
    public static func resolve(
        _ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
        limit: Int
    ) throws(Problem) -> (shifts: [ResolvedShift], truncated: Bool) {
        var budget = ResolutionBudget.standard
        return try resolve(schedule, from: from, to: to, limit: limit, budget: &budget)
    }

    /// The first `limit` shifts (of `employeeID` alone when given: the limit counts theirs, so a
    /// person's turns on a dense schedule are not lost behind everyone else's), spending from
    /// `budget` across every chunk.
    public static func resolve(
        _ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis, limit: Int,
        employeeID: String? = nil,
        budget: inout ResolutionBudget
    ) throws(Problem) -> (shifts: [ResolvedShift], truncated: Bool) {
        var result: [ResolvedShift] = []
        var start = from
        var chunk: UnixMillis = 86_400_000
        while start < to {
            let end = min(to, start + chunk)
            for shift in try resolve(schedule, from: start, to: end, budget: &budget)
            where employeeID == nil || shift.employeeID == employeeID {
                // Join the piece the previous chunk cut at `start` (same person and source).
                if shift.start == start,
                    let index = result.lastIndex(where: {
                        $0.end == start && $0.employeeID == shift.employeeID && $0.source == shift.source
                    })
                {
                    result[index].end = shift.end
                } else {
                    result.append(shift)
                }
            }
            if result.count > limit {
                result.sort { ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id) }
                return (Array(result.prefix(limit)), true)
            }
            start = end
            chunk *= 2
        }
        result.sort { ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id) }
        return (result, false)
    }

    struct Piece {
        var employeeID: String
        var start: UnixMillis
        var end: UnixMillis
        var source: ShiftSource
    }
}
