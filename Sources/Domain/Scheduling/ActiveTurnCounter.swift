import Foundation

/// How many turns of a restricted rotation were active (had some on-duty time) before turn `n`:
/// the slot of turn n is that count plus the offset, modulo the slots. Looking at each turn's
/// restriction windows one by one cost O(turns since the anchor × days per turn) on every
/// resolve, which grows as time passes (a minutely rotation gains half a million turns a year).
///
/// Here the windows become one sorted list of instants, made a day at a time, and the turns are
/// swept against it: a turn is active when its [start, end) meets a window. Each turn then costs
/// its handoff and a comparison, each day its windows' instants. The sweep leaves a checkpoint
/// every `checkpointEvery` turns, remembered per rotation rule (zone, anchor, cadence,
/// restrictions) for the life of the process, so a later count resumes from the nearest one
/// instead of from the anchor. The answer is the same as counting turn by turn
/// (`RotationTurns.countActiveTurnsOneByOne`, which the tests compare it with).
enum ActiveTurnCounter {
    static let checkpointEvery = 1_024
    /// Rotation rules remembered at most; past it the memory starts again (a rule is cheap to
    /// sweep again once).
    static let rememberedRules = 256

    /// What decides which turns are active: the rest of a rotation (slots, versions, offsets)
    /// does not.
    struct Rule: Hashable {
        var zone: String
        var handoff: LocalDateTime
        var cadence: Cadence
        var restrictions: [RestrictionWindow]
        /// The days of the holiday calendars the restrictions name.
        var holidays: [String: Set<WallClock.Day>]
    }

    private final class Memory: @unchecked Sendable {  // guarded by `lock`
        let lock = NSLock()
        /// Per rule, the active count at every multiple of `checkpointEvery` swept so far.
        var checkpoints: [Rule: [Int]] = [:]
    }

    private static let memory = Memory()

    static func count(_ turns: RotationTurns, before n: Int) -> Int {
        guard n > 0 else { return 0 }
        let rule = Rule(
            zone: turns.clock.zoneIdentifier, handoff: turns.rotation.handoff, cadence: turns.rotation.cadence,
            restrictions: turns.rotation.restrictions,
            holidays: turns.holidays.filter { name, _ in
                turns.rotation.restrictions.contains { $0.exceptHolidays == name }
            })
        let known = memory.lock.withLock { memory.checkpoints[rule] ?? [0] }
        // Resume from the nearest checkpoint at or before n.
        let resumeIndex = min(known.count - 1, n / checkpointEvery)
        var sweep = Sweep(turns: turns, from: resumeIndex * checkpointEvery, active: known[resumeIndex])
        var learned: [Int] = []
        while sweep.k < n {
            let target = min(n, (sweep.k / checkpointEvery + 1) * checkpointEvery)
            sweep.advance(to: target)
            if target % checkpointEvery == 0, target / checkpointEvery >= known.count { learned.append(sweep.active) }
        }
        if !learned.isEmpty {
            memory.lock.withLock {
                var current = memory.checkpoints[rule] ?? [0]
                // Only extend a list that still ends where this sweep's knowledge began.
                if current.count == known.count {
                    current += learned
                    if memory.checkpoints.count >= rememberedRules, memory.checkpoints[rule] == nil {
                        memory.checkpoints.removeAll()
                    }
                    memory.checkpoints[rule] = current
                }
            }
        }
        return sweep.active
    }

    /// Turns swept in order against the restriction windows' instants.
    struct Sweep {
        let turns: RotationTurns
        /// The next turn to classify, and the active turns among the earlier ones.
        private(set) var k: Int
        private(set) var active: Int
        /// The windows' on-duty instants as disjoint [start, end) stretches in order, from
        /// `head` on (earlier ones ended before the turns being swept).
        private var stretches: [(UnixMillis, UnixMillis)] = []
        private var head = 0
        /// The first local day whose windows are not in `stretches` yet, and its first instant
        /// (every window of a later day opens at or after it).
        private var nextDay: WallClock.Day
        private var nextDayStarts: UnixMillis

        init(turns: RotationTurns, from k: Int, active: Int) {
            self.turns = turns
            self.k = k
            self.active = active
            // A window of a day closes by the second midnight after it: days from two before the
            // first turn's day on are all that can meet it.
            nextDay = turns.clock.day(turns.clock.day(of: turns.handoff(k)).day, adding: -2)
            nextDayStarts = turns.clock.instant(nextDay, minuteOfDay: 0)
        }

        mutating func advance(to n: Int) {
            let clock = turns.clock
            let unrestricted = turns.rotation.restrictions.isEmpty
            var start = turns.handoff(k)
            while k < n {
                let end = turns.handoff(k + 1)
                if start < end {
                    if unrestricted {
                        active += 1
                    } else {
                        // Every window that opens before `end` is known once the next day to add starts at or after it.
                        while nextDayStarts < end {
                            addWindows(of: nextDay)
                            nextDay = clock.day(nextDay, adding: 1)
                            nextDayStarts = clock.instant(nextDay, minuteOfDay: 0)
                        }
                        while head < stretches.count, stretches[head].1 <= start { head += 1 }
                        if head < stretches.count, stretches[head].0 < end { active += 1 }
                    }
                }
                k += 1
                start = end
            }
            if head > 4_096 {
                stretches.removeFirst(head)
                head = 0
            }
        }

        /// The day's windows as instants (the same instants `RotationTurns.onDutyStretches`
        /// uses), merged into `stretches`.
        private mutating func addWindows(of day: WallClock.Day) {
            let clock = turns.clock
            var found: [(UnixMillis, UnixMillis)] = []
            for window in turns.windows(on: day) {
                let opens = clock.instant(day, minuteOfDay: window.start)
                let closes = clock.instant(
                    day, minuteOfDay: window.end > window.start ? window.end : window.end + 1440,
                    lastOccurrence: true)
                if opens < closes { found.append((opens, closes)) }
            }
            // A day's windows open at or after the earlier days' (at its midnight or later).
            for stretch in found.sorted(by: { $0.0 < $1.0 }) {
                if head < stretches.count, stretch.0 <= stretches[stretches.count - 1].1 {
                    stretches[stretches.count - 1].1 = max(stretches[stretches.count - 1].1, stretch.1)
                } else {
                    stretches.append(stretch)
                }
            }
        }
    }
}

extension RotationTurns {
    /// The active turns before turn `n`, each turn's windows looked at one by one: what
    /// `ActiveTurnCounter` must equal (O(n × days per turn); tests only).
    func countActiveTurnsOneByOne(before n: Int) -> Int {
        var active = 0
        for k in 0..<max(0, n) where !onDutyStretches(start: handoff(k), end: handoff(k + 1)).isEmpty { active += 1 }
        return active
    }
}
