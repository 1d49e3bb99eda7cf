import Foundation

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

    init(
        _ rotation: Rotation, level: Int, clock: WallClock, away: TimeOffIntervals? = nil,
        holidays: [String: Set<WallClock.Day>] = [:]
    ) {
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
                let closes = clock.instant(
                    day, minuteOfDay: window.end > window.start ? window.end : window.end + 1440,
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
        var activeTurns =
            rotation.advance == .calendar || everyTurnIsActive ? k : ActiveTurnCounter.count(self, before: k)
        var start = handoff(k)
        let (lower, upper) = (rotation.since ?? .min, rotation.end ?? .max)
        while start < stop {
            try budget.spend()
            let end = handoff(k + 1)
            let turn = onDutyStretches(start: start, end: end)
            let index = (rotation.advance == .calendar ? k : activeTurns) + rotation.slotOffset
            let slot = rotation.slots[index % rotation.slots.count]
            if end > from {
                let source = ShiftSource.rotation(
                    level: level, rotation: rotation.id, version: rotation.version, turn: k)
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
        guard
            rotation.restrictions.allSatisfy({ !$0.weekdays.isEmpty && $0.exceptHolidays.isEmpty && $0.monthly == nil })
        else { return false }
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
        byPerson = Dictionary(grouping: entries, by: \.employeeID).mapValues {
            IntervalUnion.of($0.map { ($0.start, $0.end) })
        }
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
