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
        case .rotation(_, let rotation, let version, let turn): "r:\(rotation)\(version > 1 ? ".v\(version)" : ""):\(turn)"
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
    public static func resolve(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis) throws(Problem) -> [ResolvedShift] {
        var budget = ResolutionBudget.standard
        return try resolve(schedule, from: from, to: to, budget: &budget)
    }

    /// `resolve`, spending from `budget` (throws `overBudget` when it runs out).
    public static func resolve(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
                               budget: inout ResolutionBudget) throws(Problem) -> [ResolvedShift] {
        guard let clock = WallClock(zone: schedule.zone) else { throw .unknownZone(schedule.zone) }
        guard from < to else { return [] }
        var pieces: [(level: Int?, piece: Piece)] = []
        let away = schedule.skipsTimeOff ? TimeOffIntervals(schedule.timeOff) : TimeOffIntervals([])
        for layer in schedule.layers {
            for rotation in layer.rotations {
                let turns = RotationTurns(rotation, level: layer.level, clock: clock, away: rotation.onTimeOff == .skip ? away : nil,
                                          holidays: schedule.holidays)
                for piece in try turns.pieces(from: from, to: to, budget: &budget) {
                    pieces.append((layer.level, piece))
                }
            }
        }
        // Temporary schedules: their shifts are the only pieces inside their spans (marked by
        // `temporary`, so the sweep below tells them from what they set aside).
        let spans = schedule.temporary.filter { $0.start < to && $0.end > from && $0.start < $0.end }.sorted { $0.start < $1.start }
        var temporaryPieces = Set<Int>()
        for span in spans {
            for shift in span.shifts where shift.start < min(to, span.end) && shift.end > max(from, span.start) {
                try budget.spend()
                temporaryPieces.insert(pieces.count)
                pieces.append((nil, Piece(employeeID: shift.employeeID, start: max(shift.start, from, span.start),
                                          end: min(shift.end, to, span.end), source: .temporary(id: span.id))))
            }
        }
        for shift in schedule.shifts where shift.start < to && shift.end > from && shift.start < shift.end {
            try budget.spend()
            pieces.append((nil, Piece(employeeID: shift.employeeID, start: max(shift.start, from), end: min(shift.end, to),
                                      source: .shift(id: shift.id))))
        }
        let overrides = schedule.overrides.filter { $0.start < to && $0.end > from && $0.start < $0.end }
            .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        try budget.spend(overrides.count)

        // Elementary intervals between every boundary; in each, one set of people. A sweep keeps
        // the pieces and overrides that cover the current interval, so the work is the number of
        // boundaries times the few that are active, not times all of them.
        var boundaries = Set([from, to])
        for (_, piece) in pieces { boundaries.insert(piece.start); boundaries.insert(piece.end) }
        for override in overrides { boundaries.insert(max(override.start, from)); boundaries.insert(min(override.end, to)) }
        for span in spans { boundaries.insert(max(span.start, from)); boundaries.insert(min(span.end, to)) }
        var nextSpan = 0
        let instants = boundaries.sorted()
        let byStart = pieces.indices.sorted { pieces[$0].piece.start < pieces[$1].piece.start }
        let overridesByStart = overrides.indices.sorted { (overrides[$0].start, overrides[$0].id) < (overrides[$1].start, overrides[$1].id) }
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
                if overrides[overridesByStart[nextOverride]].end > start { activeOverrides.append(overridesByStart[nextOverride]) }
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
                if !onDuty.contains(where: { $0.0 == piece.employeeID }) { onDuty.append((piece.employeeID, piece.source)) }
            }
            for override in activeOverrides.sorted().map({ overrides[$0] }) where !inSpan {
                switch override.kind {
                case .replace(let replaced, let replacement):
                    guard let index = onDuty.firstIndex(where: { $0.0 == replaced }) else { continue }
                    onDuty.remove(at: index)
                    if !onDuty.contains(where: { $0.0 == replacement }) { onDuty.append((replacement, .override(id: override.id))) }
                case .add(let person):
                    if !onDuty.contains(where: { $0.0 == person }) { onDuty.append((person, .override(id: override.id))) }
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
                    still[key] = ResolvedShift(id: "\(source.key):\(person)@\(start)", employeeID: person, start: start, end: end,
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
    public static func resolve(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
                               limit: Int) throws(Problem) -> (shifts: [ResolvedShift], truncated: Bool) {
        var budget = ResolutionBudget.standard
        return try resolve(schedule, from: from, to: to, limit: limit, budget: &budget)
    }

    /// The first `limit` shifts (of `employeeID` alone when given: the limit counts theirs, so a
    /// person's turns on a dense schedule are not lost behind everyone else's), spending from
    /// `budget` across every chunk.
    public static func resolve(_ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis, limit: Int,
                               employeeID: String? = nil,
                               budget: inout ResolutionBudget) throws(Problem) -> (shifts: [ResolvedShift], truncated: Bool) {
        var result: [ResolvedShift] = []
        var start = from
        var chunk: UnixMillis = 86_400_000
        while start < to {
            let end = min(to, start + chunk)
            for shift in try resolve(schedule, from: start, to: end, budget: &budget)
                where employeeID == nil || shift.employeeID == employeeID
            {
                // Join the piece the previous chunk cut at `start` (same person and source).
                if shift.start == start, let index = result.lastIndex(where: {
                    $0.end == start && $0.employeeID == shift.employeeID && $0.source == shift.source
                }) {
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

/// The turns of one rotation: handoff instants, restriction windows, and who has each turn.
struct RotationTurns {
    let rotation: Rotation
    let level: Int
    let clock: WallClock
    /// The time off of the rotation's people when it skips it (`Rotation.onTimeOff`).
    let away: TimeOffIntervals?
    /// The days of the holiday calendars its restrictions name.
    let holidays: [String: Set<WallClock.Day>]
    private let anchorDay: WallClock.Day

    /// A fixed-length (minutes) cadence's first handoff and step, so that `handoff` is plain
    /// arithmetic for it (no zone lookup per turn).
    private let fixed: (first: UnixMillis, step: UnixMillis)?

    init(_ rotation: Rotation, level: Int, clock: WallClock, away: TimeOffIntervals? = nil, holidays: [String: Set<WallClock.Day>] = [:]) {
        self.rotation = rotation
        self.level = level
        self.clock = clock
        self.away = away
        self.holidays = holidays
        anchorDay = WallClock.Day(year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day)
        if case .minutes(let n) = rotation.cadence {
            fixed = (clock.instant(anchorDay, minuteOfDay: rotation.handoff.minuteOfDay), UnixMillis(n) * 60_000)
        } else {
            fixed = nil
        }
    }

    /// The instant turn `k` starts (k ≥ 0).
    func handoff(_ k: Int) -> UnixMillis {
        let minute = rotation.handoff.minuteOfDay
        switch rotation.cadence {
        case .days(let n): return clock.instant(clock.day(anchorDay, adding: k * n), minuteOfDay: minute)
        case .weeks(let n): return clock.instant(clock.day(anchorDay, adding: k * n * 7), minuteOfDay: minute)
        case .months(let n): return clock.instant(clock.day(anchorDay, months: k * n), minuteOfDay: minute)
        case .hours(let n):
            // Aligned to the wall clock: the k-th handoff is k·n wall hours after the anchor.
            let total = minute + k * n * 60
            let days = total >= 0 ? total / 1440 : (total - 1439) / 1440
            return clock.instant(clock.day(anchorDay, adding: days), minuteOfDay: total - days * 1440)
        case .minutes:
            return fixed!.first + UnixMillis(k) * fixed!.step
        }
    }

    /// [start, end) of turn k clipped to the restrictions: the stretches its slot is on duty.
    func onDutyStretches(start: UnixMillis, end: UnixMillis) -> [(UnixMillis, UnixMillis)] {
        guard start < end else { return [] }
        guard !rotation.restrictions.isEmpty else { return [(start, end)] }
        var stretches: [(UnixMillis, UnixMillis)] = []
        var day = clock.day(clock.day(of: start).day, adding: -1)
        let last = clock.day(of: end).day
        while day <= last {
            for window in windows(on: day) {
                let opens = clock.instant(day, minuteOfDay: window.start)
                let closes = clock.instant(day, minuteOfDay: window.end > window.start ? window.end : window.end + 1440,
                                           lastOccurrence: true)
                let s = max(opens, start), e = min(closes, end)
                if s < e { stretches.append((s, e)) }
            }
            day = clock.day(day, adding: 1)
        }
        // Merge overlapping or touching stretches.
        var merged: [(UnixMillis, UnixMillis)] = []
        for stretch in stretches.sorted(by: { $0.0 < $1.0 }) {
            if let lastStretch = merged.last, stretch.0 <= lastStretch.1 {
                merged[merged.count - 1].1 = max(lastStretch.1, stretch.1)
            } else {
                merged.append(stretch)
            }
        }
        return merged
    }

    /// The restriction windows that open on a local day: by weekday or by day of the month, and
    /// not on a day of the holiday calendar a window names (a window running past midnight
    /// belongs to the day it opens on).
    func windows(on day: WallClock.Day) -> [RestrictionWindow] {
        let weekday = clock.weekday(of: day)
        return rotation.restrictions.filter { window in
            if let monthly = window.monthly {
                guard monthly.contains(day, weekday: weekday, anchor: rotation.handoff) else { return false }
            } else if !window.weekdays.contains(weekday) {
                return false
            }
            return window.exceptHolidays.isEmpty || !(holidays[window.exceptHolidays]?.contains(day) ?? false)
        }
    }

    /// Every on-duty stretch of every turn that overlaps [from, to), per person in the turn's slot.
    ///
    /// Cost: O(turns in the window) plus a unit per stretch made, spent from `budget`; the first
    /// turn is found by binary search over the handoffs. With restrictions and active-turn
    /// advance, the active turns before the window are counted by `ActiveTurnCounter` (a sweep
    /// remembered between calls), not turn by turn here.
    func pieces(from: UnixMillis, to: UnixMillis, budget: inout ResolutionBudget) throws(ScheduleResolver.Problem)
        -> [ScheduleResolver.Piece]
    {
        guard !rotation.slots.isEmpty else { return [] }
        let from = max(from, rotation.since ?? .min)
        let stop = min(to, rotation.end ?? .max)
        guard from < stop else { return [] }
        var pieces: [ScheduleResolver.Piece] = []
        // Turns before the one holding `from` end by `from`: they make no stretch.
        var k = max(0, lastTurn(startingAtOrBefore: from))
        var activeTurns = rotation.advance == .calendar || everyTurnIsActive ? k : ActiveTurnCounter.count(self, before: k)
        var start = handoff(k)
        let (lower, upper) = (rotation.since ?? .min, rotation.end ?? .max)
        while start < stop {
            try budget.spend()
            let end = handoff(k + 1)
            let turn = onDutyStretches(start: start, end: end)
            let index = (rotation.advance == .calendar ? k : activeTurns) + rotation.slotOffset
            let slot = rotation.slots[index % rotation.slots.count]
            if end > from {
                let source = ShiftSource.rotation(level: level, rotation: rotation.id, version: rotation.version, turn: k)
                for (s, e) in turn {
                    guard max(s, lower, from) < min(e, upper, to) else { continue }
                    try budget.spend(slot.count)
                    for person in slot {
                        // Decided on the whole stretch, then cut to the window: the same hand-on
                        // whatever window is asked.
                        for (who, ps, pe) in handOn(person, s, e, slot: slot, index: index) {
                            let (ps, pe) = (max(ps, lower, from), min(pe, upper, to))
                            if ps < pe { pieces.append(.init(employeeID: who, start: ps, end: pe, source: source)) }
                        }
                    }
                }
            }
            if !turn.isEmpty { activeTurns += 1 }
            k += 1
            start = end
        }
        return pieces
    }

    /// Who has [start, end) of `person`'s stretch in the turn whose slot index is `index`: the
    /// person, except where they are off and the rotation skips time off. Each maximal stretch
    /// they are off goes to the first person after their slot, in the rotation's order (slot by
    /// slot, people in a slot in order, wrapping round, their own slot left out), who is off at
    /// no instant of it; nobody free: it stays theirs (and shows as a conflict). The turns after
    /// are unchanged: the order resumes as if nothing had happened.
    func handOn(_ person: String, _ start: UnixMillis, _ end: UnixMillis, slot: [String], index: Int)
        -> [(String, UnixMillis, UnixMillis)]
    {
        guard let away else { return [(person, start, end)] }
        let off = away.clipped(person, start, end)
        guard !off.isEmpty else { return [(person, start, end)] }
        var result: [(String, UnixMillis, UnixMillis)] = []
        var cursor = start
        for (os, oe) in off {
            if cursor < os { result.append((person, cursor, os)) }
            var taker = person
            search: for step in 1..<max(1, rotation.slots.count) {
                for candidate in rotation.slots[(index + step) % rotation.slots.count] where !slot.contains(candidate) {
                    if away.clipped(candidate, os, oe).isEmpty { taker = candidate; break search }
                }
            }
            result.append((taker, os, oe))
            cursor = oe
        }
        if cursor < end { result.append((person, cursor, end)) }
        return result
    }

    /// Whether no turn can be hidden entirely, so that active turns are calendar turns and the
    /// turn holding an instant is found by search instead of by counting from the anchor: true
    /// without restrictions (unless an hourly turn can fall into a spring-forward gap), and for
    /// weekly or monthly turns, which span every local weekday and so hold the start of every
    /// restriction window. (Not exact for a rotation whose only window lies wholly inside a
    /// spring-forward gap, which has no on-duty time that week: such a turn still counts.)
    var everyTurnIsActive: Bool {
        if rotation.restrictions.isEmpty { return !rotation.cadence.mayHaveEmptyTurns }
        // Holidays and monthly days can hide every window of a week.
        guard rotation.restrictions.allSatisfy({ !$0.weekdays.isEmpty && $0.exceptHolidays.isEmpty && $0.monthly == nil }) else { return false }
        switch rotation.cadence {
        case .weeks(let n), .months(let n): return n >= 1
        default: return false
        }
    }

    /// The largest k with handoff(k) <= instant (-1 when the first handoff is later):
    /// handoffs increase with k, so an exponential then binary search finds it in O(log k).
    func lastTurn(startingAtOrBefore instant: UnixMillis) -> Int {
        guard handoff(0) <= instant else { return -1 }
        var low = 0, high = 1
        // 2^33 one-minute turns span 16,000 years: more than any instant in `TimeRange` needs,
        // and a bound that keeps the handoff arithmetic from overflowing.
        while high < 1 << 33, handoff(high) <= instant { low = high; high *= 2 }
        while high - low > 1 {
            let mid = (low + high) / 2
            if handoff(mid) <= instant { low = mid } else { high = mid }
        }
        return low
    }

    /// The slot index turn-taking would give the turn holding `instant` (for continuing a
    /// rotation's order in its next version); nil before the first turn.
    func slotIndex(at instant: UnixMillis) -> Int? {
        guard !rotation.slots.isEmpty else { return nil }
        let target = lastTurn(startingAtOrBefore: instant)
        guard target >= 0 else { return nil }
        if rotation.advance == .calendar { return (target + rotation.slotOffset) % rotation.slots.count }
        let activeTurns = everyTurnIsActive ? target : ActiveTurnCounter.count(self, before: target)
        return (activeTurns + rotation.slotOffset) % rotation.slots.count
    }
}

extension Cadence {
    /// Hourly handoffs inside a spring-forward gap fall on the same instant: a turn of no length.
    var mayHaveEmptyTurns: Bool { if case .hours = self { true } else { false } }
}

/// People's time off as merged intervals, for the resolver's skip policy.
struct TimeOffIntervals {
    private let byPerson: [String: [(start: UnixMillis, end: UnixMillis)]]

    init(_ entries: [TimeOff]) {
        byPerson = Dictionary(grouping: entries, by: \.employeeID).mapValues { IntervalUnion.of($0.map { ($0.start, $0.end) }) }
    }

    /// The person's time off inside [start, end), merged, in order.
    func clipped(_ person: String, _ start: UnixMillis, _ end: UnixMillis) -> [(UnixMillis, UnixMillis)] {
        guard let intervals = byPerson[person] else { return [] }
        return intervals.compactMap { interval in
            let (s, e) = (max(interval.start, start), min(interval.end, end))
            return s < e ? (s, e) : nil
        }
    }
}
