import Foundation
import PropertyBased
import RosterDomain
import Testing

/// The resolver against a brute-force oracle that evaluates the rules at every instant of a
/// 15-minute grid (every boundary in these schedules is on it, DST transitions included), on
/// random schedules with layers, restrictions, one-off shifts, overrides, time off (rotations
/// that skip it and rotations that flag it) and temporary schedules, in zones with midnight and
/// half-hour transitions, in windows across a transition.
@Suite(.timeLimit(.minutes(10))) struct ScheduleOracleTests {
    static let quarter: UnixMillis = 15 * 60_000
    static let people = ["a", "b", "c", "d"]
    /// Zones and an instant (UTC) near one of their 2027 transitions.
    static let zones: [(String, UnixMillis)] = [
        ("UTC", 1_805_000_400_000), ("America/Chicago", 1_804_838_400_000), ("America/Chicago", 1_825_401_600_000),
        ("Europe/Berlin", 1_806_109_200_000), ("Australia/Lord_Howe", 1_806_678_000_000),
        ("Australia/Lord_Howe", 1_806_678_000_000 - 15_552_000_000),
        ("America/Santiago", 1_820_030_400_000), ("Asia/Beirut", 1_824_930_000_000),
    ]

    struct Case: CustomStringConvertible {
        var schedule: ScheduleDefinition
        var from: UnixMillis
        var to: UnixMillis
        var description: String { "\(schedule) [\(from), \(to))" }
    }

    static let rotationGen = zip(
        Gen.int(in: 0...3).array(of: 1...4),  // slots: person indexes, 3 means an empty slot
        Gen.int(in: 0...4), Gen.int(in: 1...3),  // cadence kind and multiplier
        Gen.int(in: -3...0), Gen.int(in: 0...95),  // anchor day offset and quarter of the day
        Gen.int(in: 0...2),  // restrictions: none, one, two
        zip(Gen.int(in: 0...127), Gen.int(in: 0...47), Gen.int(in: 0...47)),
        zip(Gen.bool, Gen.bool, Gen.bool)  // calendar advance; skip time off; except holidays
    )

    static let caseGen = zip(
        Gen.int(in: 0...(zones.count - 1)),
        rotationGen.array(of: 1...3), Gen.int(in: 1...2).array(of: 1...3),
        zip(Gen.int(in: 0...3), Gen.int(in: 0...191), Gen.int(in: 1...32)).array(of: 0...2),
        zip(Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...191), Gen.int(in: 1...48))
            .array(of: 0...3),
        zip(Gen.int(in: 0...3), Gen.int(in: -40...191), Gen.int(in: 1...96)).array(of: 0...4),
        zip(
            Gen.int(in: 0...191), Gen.int(in: 1...64),
            zip(Gen.int(in: 0...3), Gen.int(in: 0...63), Gen.int(in: 1...32)).array(of: 0...3)
        )
        .array(of: 0...2),
        Gen.int(in: -3...3).array(of: 0...3)  // holidays: days from the window's first
    ).map { zoneIndex, rotations, levels, oneOffs, overrides, away, spans, holidayOffsets -> Case in
        let (zone, near) = zones[zoneIndex]
        let from = (near / 86_400_000) * 86_400_000 - 86_400_000 / 2
        let to = from + 2 * 86_400_000
        let clock = WallClock(zone: zone)!
        let startDay = clock.day(of: from).day
        var layers: [Int: [Rotation]] = [:]
        for (index, spec) in rotations.enumerated() {
            let (slots, cadenceKind, multiplier, dayOffset, quarterOfDay, restrictionCount, window, policies) = spec
            let (calendarAdvance, skips, exceptHolidays) = policies
            let cadence: Cadence = [
                .hours(multiplier), .days(1), .weeks(1), .minutes(multiplier * 45), .hours(multiplier * 2),
            ][cadenceKind]
            let day = clock.day(startDay, adding: dayOffset)
            let (weekdayBits, startQuarter, endQuarter) = window
            let restriction = RestrictionWindow(
                weekdays: Set((1...7).filter { weekdayBits & (1 << ($0 - 1)) != 0 || weekdayBits == 0 }),
                start: startQuarter * 30, end: endQuarter * 30, exceptHolidays: exceptHolidays ? "h" : "")
            let rotation = Rotation(
                id: "r\(index)", slots: slots.map { $0 == 3 ? [] : [people[$0]] }, cadence: cadence,
                handoff: LocalDateTime(
                    year: day.year, month: day.month, day: day.day, hour: quarterOfDay / 4,
                    minute: quarterOfDay % 4 * 15),
                restrictions: Array(repeating: restriction, count: restrictionCount)
                    .enumerated().map { offset, window in
                        offset == 0
                            ? window
                            : RestrictionWindow(
                                weekdays: window.weekdays, start: window.end, end: (window.end + 180) % 1440)
                    },
                advance: calendarAdvance ? .calendar : .activeTurns, onTimeOff: skips ? .skip : .flag)
            layers[levels[index % levels.count], default: []].append(rotation)
        }
        let shifts = oneOffs.enumerated().map { index, spec in
            Shift(
                id: "s\(index)", employeeID: people[spec.0], start: from + UnixMillis(spec.1) * quarter,
                end: from + UnixMillis(spec.1 + spec.2) * quarter)
        }
        let changes = overrides.enumerated().map { index, spec -> ScheduleOverride in
            let kind: ScheduleOverride.Kind =
                switch spec.0 {
                case 0: .replace(replacing: people[spec.1], with: people[spec.2])
                case 1: .add(people[spec.1])
                default: .remove(people[spec.1])
                }
            return ScheduleOverride(
                id: "o\(index)", kind: kind, start: from + UnixMillis(spec.3) * quarter,
                end: from + UnixMillis(spec.3 + spec.4) * quarter)
        }
        let timeOff = away.enumerated().map { index, spec in
            TimeOff(
                id: "t\(index)", employeeID: people[spec.0], start: from + UnixMillis(spec.1) * quarter,
                end: from + UnixMillis(spec.1 + spec.2) * quarter)
        }
        // Spans in order, not overlapping: each starts after the one before ends.
        var temporary: [TemporarySchedule] = []
        var cursor: UnixMillis = from - 8 * quarter
        for (index, spec) in spans.enumerated() {
            let start = cursor + UnixMillis(spec.0) * quarter, end = start + UnixMillis(spec.1) * quarter
            let shifts = spec.2.compactMap { shift -> TemporarySchedule.Shift? in
                let s = start + UnixMillis(shift.1) * quarter, e = min(end, s + UnixMillis(shift.2) * quarter)
                return s < e ? TemporarySchedule.Shift(employeeID: people[shift.0], start: s, end: e) : nil
            }
            temporary.append(TemporarySchedule(id: "p\(index)", start: start, end: end, shifts: shifts))
            cursor = end
        }
        var schedule = ScheduleDefinition(
            id: "s", name: "S", zone: zone, layers: layers.map { ScheduleLayer(level: $0.key, rotations: $0.value) },
            shifts: shifts, overrides: changes, temporary: temporary, timeOff: timeOff)
        schedule.holidays = ["h": Set(holidayOffsets.map { clock.day(startDay, adding: $0) })]
        return Case(schedule: schedule, from: from, to: to)
    }

    /// Rotations open on days of the month (the nth weekday or day, every N months, counted from
    /// the handoff's month), over 80 days in zones with DST changes in them.
    static let monthlyGen = zip(
        Gen.int(in: 0...(zones.count - 1)),
        zip(Gen.int(in: -1...5), Gen.int(in: 0...7), Gen.int(in: 1...3), Gen.int(in: 0...47), Gen.int(in: 1...16))
            .array(of: 1...2),
        Gen.int(in: 0...2), Gen.int(in: -40...0), Gen.bool
    ).map { zoneIndex, windows, cadenceKind, anchorOffset, calendarAdvance -> Case in
        let (zone, near) = zones[zoneIndex]
        let from = (near / 86_400_000) * 86_400_000 - 60 * 86_400_000
        let to = from + 80 * 86_400_000
        let clock = WallClock(zone: zone)!
        let anchor = clock.day(clock.day(of: from).day, adding: anchorOffset)
        let restrictions = windows.map { nth, weekday, every, startHalf, hours in
            RestrictionWindow(
                start: startHalf * 30, end: (startHalf * 30 + hours * 60) % 1440,
                monthly: MonthlyDays(nth: nth == 0 ? 1 : nth, weekday: weekday == 0 ? nil : weekday, everyMonths: every)
            )
        }
        let rotation = Rotation(
            id: "m", slots: [["a"], ["b"], ["c"]], cadence: [.days(1), .weeks(1), .months(1)][cadenceKind],
            handoff: LocalDateTime(year: anchor.year, month: anchor.month, day: anchor.day, hour: 9),
            restrictions: restrictions, advance: calendarAdvance ? .calendar : .activeTurns)
        return Case(
            schedule: ScheduleDefinition(
                id: "s", name: "S", zone: zone, layers: [ScheduleLayer(level: 0, rotations: [rotation])]),
            from: from, to: to)
    }

    @Test func daysOfTheMonthAgreeWithTheOracle() async throws {
        await propertyCheck(count: 20, input: Self.monthlyGen) { example in
            let mismatch = try await offThePool { () throws -> String? in
                let resolved = try ScheduleResolver.resolve(example.schedule, from: example.from, to: example.to)
                let oracle = Oracle(example.schedule, until: example.to)
                // Who the resolver has in each quarter (80 days of them: no filtering per quarter).
                var byQuarter: [Int: Set<String>] = [:]
                for shift in resolved {
                    for q in Int(
                        (shift.start - example.from) / Self.quarter)..<Int((shift.end - example.from) / Self.quarter)
                    {
                        byQuarter[q, default: []].insert(shift.employeeID)
                    }
                }
                var t = example.from
                while t < example.to {
                    let got = byQuarter[Int((t - example.from) / Self.quarter)] ?? []
                    let expected = oracle.onDuty(at: t)
                    if got != expected {
                        return "at \(t) in \(example.schedule.zone): \(got.sorted()), the oracle \(expected.sorted())"
                    }
                    t += Self.quarter
                }
                return nil
            }
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test func theResolverAgreesWithTheOracleAtEveryInstant() async throws {
        await propertyCheck(count: 1000, input: Self.caseGen) { example in
            let mismatch = try await offThePool { () throws -> String? in
                let resolved = try ScheduleResolver.resolve(example.schedule, from: example.from, to: example.to)
                let oracle = Oracle(example.schedule, until: example.to)
                var t = example.from
                while t < example.to {
                    let got = Set(resolved.filter { $0.start <= t && t < $0.end }.map(\.employeeID))
                    let expected = oracle.onDuty(at: t)
                    if got != expected {
                        return "at \(t) in \(example.schedule.zone): \(got.sorted()), the oracle \(expected.sorted())"
                    }
                    t += Self.quarter
                }
                // The shifts tile without overlaps per person.
                for person in Self.people {
                    let mine = resolved.filter { $0.employeeID == person }.sorted { $0.start < $1.start }
                    if !zip(mine, mine.dropFirst()).allSatisfy({ $0.end <= $1.start }) {
                        return "\(person)'s shifts overlap"
                    }
                }
                return nil
            }
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }
}

/// The rules, one instant at a time, with nothing shared with the resolver but the wall-clock
/// conversion (which the table-driven tests check on its own).
struct Oracle {
    let schedule: ScheduleDefinition
    let clock: WallClock
    /// Per rotation: its handoff instants up to past `until`, and which turns are active.
    let turns: [String: (handoffs: [UnixMillis], active: [Bool])]

    init(_ schedule: ScheduleDefinition, until: UnixMillis) {
        self.schedule = schedule
        let clock = WallClock(zone: schedule.zone)!
        self.clock = clock
        var turns: [String: ([UnixMillis], [Bool])] = [:]
        for rotation in schedule.layers.flatMap(\.rotations) {
            var handoffs: [UnixMillis] = []
            var k = 0
            while handoffs.last.map({ $0 <= until }) ?? true {
                handoffs.append(Self.handoff(rotation, k, clock))
                k += 1
            }
            var active: [Bool] = []
            for (start, end) in zip(handoffs, handoffs.dropFirst()) {
                var t = start, any = false
                while t < end && !any {
                    any = Self.allowed(rotation, at: t, clock, holidays: schedule.holidays)
                    t += ScheduleOracleTests.quarter
                }
                active.append(any)
            }
            turns[rotation.id] = (handoffs, active)
        }
        self.turns = turns
    }

    static func handoff(_ rotation: Rotation, _ k: Int, _ clock: WallClock) -> UnixMillis {
        let day = WallClock.Day(year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day)
        let minute = rotation.handoff.hour * 60 + rotation.handoff.minute
        switch rotation.cadence {
        case .days(let n): return clock.instant(clock.day(day, adding: n * k), minuteOfDay: minute)
        case .weeks(let n): return clock.instant(clock.day(day, adding: 7 * n * k), minuteOfDay: minute)
        case .months(let n): return clock.instant(clock.day(day, months: n * k), minuteOfDay: minute)
        case .hours(let n):
            let wallMinutes = minute + n * 60 * k
            return clock.instant(clock.day(day, adding: wallMinutes / 1440), minuteOfDay: wallMinutes % 1440)
        case .minutes(let n): return clock.instant(day, minuteOfDay: minute) + UnixMillis(n * k) * 60_000
        }
    }

    /// Whether a window opens on `day`: the nth weekday counted by walking the month's days, the
    /// months counted from the handoff's.
    static func opens(
        _ window: RestrictionWindow, on day: WallClock.Day, _ rotation: Rotation, _ clock: WallClock,
        holidays: [String: Set<WallClock.Day>]
    ) -> Bool {
        if !window.exceptHolidays.isEmpty, holidays[window.exceptHolidays]?.contains(day) == true { return false }
        guard let monthly = window.monthly else { return window.weekdays.contains(clock.weekday(of: day)) }
        let months = (day.year - rotation.handoff.year) * 12 + day.month - rotation.handoff.month
        guard months % monthly.everyMonths == 0 else { return false }
        let length = WallClock.daysInMonth(year: day.year, month: day.month)
        let sameWeekday = (1...length).filter {
            clock.weekday(of: WallClock.Day(year: day.year, month: day.month, day: $0)) == clock.weekday(of: day)
        }
        switch (monthly.weekday, monthly.nth) {
        case (nil, -1): return day.day == length
        case (nil, let n): return day.day == n
        case (let weekday?, -1): return clock.weekday(of: day) == weekday && sameWeekday.last == day.day
        case (let weekday?, let n):
            return clock.weekday(of: day) == weekday && sameWeekday.firstIndex(of: day.day) == n - 1
        }
    }

    static func allowed(
        _ rotation: Rotation, at t: UnixMillis, _ clock: WallClock, holidays: [String: Set<WallClock.Day>] = [:]
    ) -> Bool {
        guard !rotation.restrictions.isEmpty else { return true }
        let today = clock.day(of: t).day
        for day in [clock.day(today, adding: -1), today] {
            for window in rotation.restrictions where opens(window, on: day, rotation, clock, holidays: holidays) {
                let opens = clock.instant(day, minuteOfDay: window.start)
                let closes = clock.instant(
                    day, minuteOfDay: window.end > window.start ? window.end : window.end + 1440,
                    lastOccurrence: true)
                if opens <= t && t < closes { return true }
            }
        }
        return false
    }

    func away(_ person: String, at t: UnixMillis) -> Bool {
        schedule.timeOff.contains { $0.employeeID == person && $0.start <= t && t < $0.end }
    }

    /// Who has `person`'s duty at t in turn k of a rotation that skips time off: the first
    /// person after their slot, in order, who is off at no quarter of the run of quarters around
    /// t in which the turn is on duty and `person` is off; nobody free: `person`.
    func taker(of person: String, in rotation: Rotation, turn k: Int, index: Int, at t: UnixMillis) -> String {
        let (handoffs, _) = turns[rotation.id]!
        let q = ScheduleOracleTests.quarter
        func inRun(_ u: UnixMillis) -> Bool {
            handoffs[k] <= u && u < handoffs[k + 1] && Self.allowed(rotation, at: u, clock, holidays: schedule.holidays)
                && away(person, at: u)
        }
        var start = t, end = t + q
        while inRun(start - q) { start -= q }
        while inRun(end) { end += q }
        let slot = rotation.slots[index % rotation.slots.count]
        for step in 1..<max(1, rotation.slots.count) {
            for candidate in rotation.slots[(index + step) % rotation.slots.count] where !slot.contains(candidate) {
                if !stride(from: start, to: end, by: Int(q)).contains(where: { away(candidate, at: $0) }) {
                    return candidate
                }
            }
        }
        return person
    }

    func onDuty(at t: UnixMillis) -> Set<String> {
        if let span = schedule.temporary.first(where: { $0.start <= t && t < $0.end }) {
            return Set(span.shifts.filter { $0.start <= t && t < $0.end }.map(\.employeeID))
        }
        var byLevel: [Int: Set<String>] = [:]
        for layer in schedule.layers {
            for rotation in layer.rotations where !rotation.slots.isEmpty {
                let (handoffs, active) = turns[rotation.id]!
                guard let k = handoffs.lastIndex(where: { $0 <= t }), k < active.count,
                    Self.allowed(rotation, at: t, clock, holidays: schedule.holidays)
                else { continue }
                let index = rotation.advance == .calendar ? k : active[..<k].filter { $0 }.count
                for person in rotation.slots[index % rotation.slots.count] {
                    let skipped = rotation.onTimeOff == .skip && away(person, at: t)
                    byLevel[layer.level, default: []].insert(
                        skipped ? taker(of: person, in: rotation, turn: k, index: index, at: t) : person)
                }
            }
        }
        var people = byLevel.filter { !$0.value.isEmpty }.max { $0.key < $1.key }?.value ?? []
        for shift in schedule.shifts where shift.start <= t && t < shift.end { people.insert(shift.employeeID) }
        for override in schedule.overrides.sorted(by: { ($0.start, $0.id) < ($1.start, $1.id) })
        where override.start <= t && t < override.end {
            switch override.kind {
            case .replace(let replaced, let replacement):
                if people.remove(replaced) != nil { people.insert(replacement) }
            case .add(let person): people.insert(person)
            case .remove(let person): people.remove(person)
            }
        }
        return people
    }
}
