import Foundation

/// A wall-clock date and time in a schedule's zone, as people write handoffs: 2026-11-30T09:00.
public struct LocalDateTime: Sendable, Hashable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute) = (year, month, day, hour, minute)
    }

    /// "YYYY-MM-DDTHH:MM" (a space may stand for the T); nil for anything else, including a day
    /// the month does not have (2026-02-30) and a field not written at its width (T9:00).
    public init?(parsing text: String) {
        guard let parsed = Self.parse(text, allowingSeconds: false, allowingDateOnly: false) else { return nil }
        self = parsed.local
    }

    /// The one reader of local date-times: "YYYY-MM-DD", then "T" or a space and "HH:MM", then
    /// ":SS" — each field in ASCII digits at its exact width, a month of 1 to 12, a day its month
    /// has, hours 0 to 23, minutes and seconds 0 to 59. Nothing is moved to the next valid date.
    public static func parse(_ text: String, allowingSeconds: Bool = true, allowingDateOnly: Bool = true)
        -> (local: LocalDateTime, second: Int)?
    {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...WallClock.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        if bytes.count == 10 {
            return allowingDateOnly ? (LocalDateTime(year: year, month: month, day: day), 0) : nil
        }
        guard bytes.count == 16 || (allowingSeconds && bytes.count == 19),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), let hour = number(11..<13), let minute = number(14..<16),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var second = 0
        if bytes.count == 19 {
            guard bytes[16] == UInt8(ascii: ":"), let value = number(17..<19), (0...59).contains(value) else {
                return nil
            }
            second = value
        }
        return (LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute), second)
    }

    public var description: String { String(format: "%04d-%02d-%02dT%02d:%02d", year, month, day, hour, minute) }
    var minuteOfDay: Int { hour * 60 + minute }
}

/// How often a rotation hands off. Hours, days, weeks and months follow the wall clock of the
/// schedule's zone (a daily 09:00 handoff stays at 09:00 across DST); `minutes` is a fixed
/// length of real time.
public enum Cadence: Sendable, Hashable, Codable {
    case hours(Int), days(Int), weeks(Int), months(Int), minutes(Int)
}

/// When a rotation's people may be on duty: on these weekdays (1 = Sunday … 7 = Saturday, as
/// Foundation's Calendar counts), from `start` to `end` minutes after local midnight. An end at
/// or before the start runs into the next day.
public struct RestrictionWindow: Sendable, Hashable, Codable {
    public var weekdays: Set<Int>
    public var start: Int
    public var end: Int
    /// A tenant holiday calendar's name: the window does not open on its days.
    public var exceptHolidays: String
    /// Instead of `weekdays`: the days of the month it opens on (`MonthlyDays`).
    public var monthly: MonthlyDays?

    public init(
        weekdays: Set<Int> = Set(1...7), start: Int, end: Int, exceptHolidays: String = "", monthly: MonthlyDays? = nil
    ) {
        (self.weekdays, self.start, self.end) = (weekdays, start, end)
        (self.exceptHolidays, self.monthly) = (exceptHolidays, monthly)
    }

    /// Minutes after midnight of "HH:MM" (seconds, as in "09:00:00", are ignored); "24:00" is
    /// 1440. nil for anything else.
    public static func minuteOfDay(_ text: String) -> Int? {
        // Exactly "HH:MM" (or "HH:MM:00", as imports write it): "9:00" or "09:00:30" is refused.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            parts.count == 2 || parts[2] == "00",
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...24).contains(hour),
            (0...59).contains(minute)
        else { return nil }
        let total = hour * 60 + minute
        return total <= 1440 ? total : nil
    }

    /// "HH:MM" of a minute of the day, as `minuteOfDay` reads it.
    public static func clockText(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }
}

/// The day of a month a restriction window opens on, every `everyMonths` months counted from
/// the rotation's first handoff's month: the nth `weekday` ("first Monday", "last Friday"), or
/// with `weekday` nil the nth day ("day 15"; `nth` -1: the last day).
public struct MonthlyDays: Sendable, Hashable, Codable {
    /// 1 to 5, or -1 for the last.
    public var nth: Int
    /// 1 = Sunday … 7 = Saturday; nil: the nth day of the month.
    public var weekday: Int?
    public var everyMonths: Int

    public init(nth: Int, weekday: Int?, everyMonths: Int = 1) {
        (self.nth, self.weekday, self.everyMonths) = (nth, weekday, everyMonths)
    }

    /// Whether `day` (whose weekday is `weekday`) is one of them, counting months from `anchor`.
    func contains(_ day: WallClock.Day, weekday dayWeekday: Int, anchor: LocalDateTime) -> Bool {
        let months = (day.year - anchor.year) * 12 + (day.month - anchor.month)
        guard everyMonths >= 1, ((months % everyMonths) + everyMonths) % everyMonths == 0 else { return false }
        let length = WallClock.daysInMonth(year: day.year, month: day.month)
        guard let weekday else { return nth == -1 ? day.day == length : day.day == nth }
        guard dayWeekday == weekday else { return false }
        return nth == -1 ? day.day + 7 > length : (day.day - 1) / 7 + 1 == nth
    }
}

/// Turns of ordered slots. Turn k starts at the k-th handoff after the anchor; its slot is the
/// k-th (calendar) or the one after as many slots as there were active turns before it (the
/// default: a turn hidden entirely by the restrictions is not counted, so nobody loses a turn).
public struct Rotation: Sendable, Hashable, Codable {
    public enum Advance: String, Sendable, Hashable, Codable { case activeTurns = "active-turns", calendar }
    /// What a turn does when its person has time off: `flag` keeps them on duty and shows a
    /// conflict (the default: nothing changes without someone deciding); `skip` hands each
    /// stretch they are off to the next person in the rotation's order who is free for all of it.
    public enum TimeOffPolicy: String, Sendable, Hashable, Codable { case flag, skip }

    public var id: String
    /// Each slot is the people on duty together in a turn; an empty slot is a turn for nobody.
    public var slots: [[String]]
    public var cadence: Cadence
    public var handoff: LocalDateTime
    public var end: UnixMillis?
    /// Empty: always.
    public var restrictions: [RestrictionWindow]
    public var advance: Advance
    /// Edits are versioned: an edited rotation is a new version that starts (`since`) where the
    /// previous one ends, so the past is never rewritten. Turns before `since` are not on duty.
    public var since: UnixMillis?
    public var version: Int
    /// Added to every turn's slot index, so that a new version continues with the person the
    /// previous one would have had (see `Rotation.successor`).
    public var slotOffset: Int
    public var onTimeOff: TimeOffPolicy

    public init(
        id: String, slots: [[String]], cadence: Cadence, handoff: LocalDateTime, end: UnixMillis? = nil,
        restrictions: [RestrictionWindow] = [], advance: Advance = .activeTurns, since: UnixMillis? = nil,
        version: Int = 1, slotOffset: Int = 0, onTimeOff: TimeOffPolicy = .flag
    ) {
        (self.id, self.slots, self.cadence, self.handoff, self.end) = (id, slots, cadence, handoff, end)
        (self.restrictions, self.advance) = (restrictions, advance)
        (self.since, self.version, self.slotOffset) = (since, version, slotOffset)
        self.onTimeOff = onTimeOff
    }
}

/// Rotations at one level. Where levels overlap, the highest level with anyone on duty wins;
/// rotations in one level add up (follow-the-sun).
public struct ScheduleLayer: Sendable, Hashable, Codable {
    public var level: Int
    public var rotations: [Rotation]

    public init(level: Int, rotations: [Rotation]) {
        self.level = level
        self.rotations = rotations
    }
}

/// A change to who is on duty for a window, applied after layers and one-off shifts.
public struct ScheduleOverride: Sendable, Hashable, Codable {
    public enum Kind: Sendable, Hashable, Codable {
        /// `employee` takes over wherever `replacing` would be on duty in the window.
        case replace(replacing: String, with: String)
        case add(String)
        case remove(String)
    }

    public var id: String
    public var kind: Kind
    public var start: UnixMillis
    public var end: UnixMillis
    public var author: String
    public var reason: String
    /// Self-service: "request:ID" (a cover request taken) or "take:EMPLOYEE_ID"; a half of a
    /// swap: "swap:ID" (the other half's override id); empty: an admin's override.
    public var source: String

    /// The source of one half of a swap whose other half is `otherID`.
    public static func swapSource(_ otherID: String) -> String { "swap:" + otherID }

    public init(
        id: String, kind: Kind, start: UnixMillis, end: UnixMillis, author: String = "", reason: String = "",
        source: String = ""
    ) {
        (self.id, self.kind, self.start, self.end, self.author, self.reason) = (id, kind, start, end, author, reason)
        self.source = source
    }
}

/// GoAlert's temporary schedule: inside [start, end) only these fixed shifts count; the
/// layers, one-off shifts and overrides are set aside there (and apply again after it).
public struct TemporarySchedule: Sendable, Hashable, Codable {
    public struct Shift: Sendable, Hashable, Codable {
        public var employeeID: String
        public var start: UnixMillis
        public var end: UnixMillis
        public init(employeeID: String, start: UnixMillis, end: UnixMillis) {
            (self.employeeID, self.start, self.end) = (employeeID, start, end)
        }
    }

    public var id: String
    public var start: UnixMillis
    public var end: UnixMillis
    /// By start, each inside [start, end).
    public var shifts: [Shift]
    public var author: String

    public init(id: String, start: UnixMillis, end: UnixMillis, shifts: [Shift], author: String = "") {
        (self.id, self.start, self.end, self.shifts, self.author) = (id, start, end, shifts, author)
    }

    /// The most spans a schedule keeps, and shifts a span holds.
    public static let maxSpans = 100
    public static let maxShifts = 1_000
}

/// A schedule's definitions: what the resolver turns into shifts.
public struct ScheduleDefinition: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    /// An IANA zone: handoffs and restrictions are wall-clock times there.
    public var zone: String
    public var team: String
    public var description: String
    public var layers: [ScheduleLayer]
    /// One-off shifts, on top of the layers. In a `RosterState` they live in `state.shifts`
    /// (by `Shift.scheduleID`); `RosterState.definition(of:)` puts them here.
    public var shifts: [Shift]
    public var overrides: [ScheduleOverride]
    /// The setting that lets readers whose token names them add an override putting themselves
    /// on duty here (to cover a gap, or take someone's turn); admins can always.
    public var readersMayVolunteer: Bool
    /// Self-service (taking duty, cover requests) is off: only admins change who is on duty.
    public var selfServiceOff: Bool
    /// Cover requests, oldest first. The resolver never reads them: a taken one acts through
    /// its override.
    public var requests: [CoverRequest]
    /// Temporary schedules, by start, never overlapping (`TemporarySchedule`).
    public var temporary: [TemporarySchedule]
    /// The time off of the people of rotations that skip it (`Rotation.onTimeOff`). Like
    /// `shifts`, not stored with the schedule: `RosterState.definition(of:)` puts it here.
    public var timeOff: [TimeOff]
    /// The days of the holiday calendars its restrictions name (`RestrictionWindow.exceptHolidays`),
    /// by name; put here like `timeOff`.
    public var holidays: [String: Set<WallClock.Day>] = [:]

    /// The holiday calendars its restrictions name.
    public var holidayNames: Set<String> {
        Set(layers.flatMap { $0.rotations.flatMap { $0.restrictions.map(\.exceptHolidays) } }.filter { !$0.isEmpty })
    }

    public init(
        id: String, name: String, zone: String, team: String = "", description: String = "",
        layers: [ScheduleLayer] = [], shifts: [Shift] = [], overrides: [ScheduleOverride] = [],
        readersMayVolunteer: Bool = false, selfServiceOff: Bool = false, requests: [CoverRequest] = [],
        temporary: [TemporarySchedule] = [], timeOff: [TimeOff] = []
    ) {
        (self.id, self.name, self.zone, self.team, self.description) = (id, name, zone, team, description)
        (self.layers, self.shifts, self.overrides) = (layers, shifts, overrides)
        self.readersMayVolunteer = readersMayVolunteer
        (self.selfServiceOff, self.requests) = (selfServiceOff, requests)
        (self.temporary, self.timeOff) = (temporary, timeOff)
    }

    /// Whether a rotation hands stretches on when its person is off.
    public var skipsTimeOff: Bool { layers.contains { $0.rotations.contains { $0.onTimeOff == .skip } } }

    /// The cover request with this id.
    public func request(id: String) -> CoverRequest? { requests.first { $0.id == id } }

    /// The schedule every tenant has: the shifts made before schedules existed live here, and an
    /// old client's on-duty queries and subscriptions follow it.
    public static let defaultID = "default"

    public static func makeDefault() -> ScheduleDefinition {
        ScheduleDefinition(id: defaultID, name: "Default", zone: "UTC")
    }

    /// Layers and overrides only: what a one-off shift list alone cannot express.
    public var hasRules: Bool { !overrides.isEmpty || !temporary.isEmpty || layers.contains { !$0.rotations.isEmpty } }

    /// Every employee the definition names (slots and overrides; not one-off shifts).
    public var mentionedEmployees: Set<String> {
        var ids = Set<String>()
        for layer in layers { for rotation in layer.rotations { for slot in rotation.slots { ids.formUnion(slot) } } }
        for override in overrides {
            switch override.kind {
            case .replace(let a, let b): ids.insert(a); ids.insert(b)
            case .add(let a), .remove(let a): ids.insert(a)
            }
        }
        for span in temporary { for shift in span.shifts { ids.insert(shift.employeeID) } }
        return ids
    }

    /// Whether any rotation slot, override or one-off shift names this employee: a schedule that
    /// does not can never put them on duty.
    public func names(_ employeeID: String) -> Bool {
        mentionedEmployees.contains(employeeID) || shifts.contains { $0.employeeID == employeeID }
    }

    /// The rotation with this id (its newest version), and where it is.
    public func rotation(id: String) -> (layer: Int, index: Int, rotation: Rotation)? {
        var found: (Int, Int, Rotation)?
        for (l, layer) in layers.enumerated() {
            for (r, rotation) in layer.rotations.enumerated() where rotation.id == id {
                if found == nil || rotation.version > found!.2.version { found = (l, r, rotation) }
            }
        }
        return found
    }
}
