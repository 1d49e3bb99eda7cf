import Foundation

/// A wall-clock date and time in a schedule's zone, as people write handoffs: 2026-11-30T09:00.
public struct LocalDateTime: Sendable, Hashable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute) = (year, month, day, hour, minute)
    }

    /// "YYYY-MM-DDTHH:MM" (a space may stand for the T); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard date.count == 3, time.count == 2, (1...12).contains(date[1]), (1...31).contains(date[2]),
              (0...23).contains(time[0]), (0...59).contains(time[1]) else { return nil }
        self.init(year: date[0], month: date[1], day: date[2], hour: time[0], minute: time[1])
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

    public init(weekdays: Set<Int> = Set(1...7), start: Int, end: Int) {
        (self.weekdays, self.start, self.end) = (weekdays, start, end)
    }

    /// Minutes after midnight of "HH:MM" (seconds, as in "09:00:00", are ignored); "24:00" is
    /// 1440. nil for anything else.
    public static func minuteOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1], (0...24).contains(hour),
              (0...59).contains(minute) else { return nil }
        let total = hour * 60 + minute
        return total <= 1440 ? total : nil
    }

    /// "HH:MM" of a minute of the day, as `minuteOfDay` reads it.
    public static func clockText(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }
}

/// Turns of ordered slots. Turn k starts at the k-th handoff after the anchor; its slot is the
/// k-th (calendar) or the one after as many slots as there were active turns before it (the
/// default: a turn hidden entirely by the restrictions is not counted, so nobody loses a turn).
public struct Rotation: Sendable, Hashable, Codable {
    public enum Advance: String, Sendable, Hashable, Codable { case activeTurns = "active-turns", calendar }

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

    public init(id: String, slots: [[String]], cadence: Cadence, handoff: LocalDateTime, end: UnixMillis? = nil,
                restrictions: [RestrictionWindow] = [], advance: Advance = .activeTurns, since: UnixMillis? = nil,
                version: Int = 1, slotOffset: Int = 0) {
        (self.id, self.slots, self.cadence, self.handoff, self.end) = (id, slots, cadence, handoff, end)
        (self.restrictions, self.advance) = (restrictions, advance)
        (self.since, self.version, self.slotOffset) = (since, version, slotOffset)
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

    public init(id: String, kind: Kind, start: UnixMillis, end: UnixMillis, author: String = "", reason: String = "") {
        (self.id, self.kind, self.start, self.end, self.author, self.reason) = (id, kind, start, end, author, reason)
    }
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

    public init(id: String, name: String, zone: String, team: String = "", description: String = "",
                layers: [ScheduleLayer] = [], shifts: [Shift] = [], overrides: [ScheduleOverride] = [],
                readersMayVolunteer: Bool = false) {
        (self.id, self.name, self.zone, self.team, self.description) = (id, name, zone, team, description)
        (self.layers, self.shifts, self.overrides) = (layers, shifts, overrides)
        self.readersMayVolunteer = readersMayVolunteer
    }

    /// The schedule every tenant has: the shifts made before schedules existed live here, and an
    /// old client's on-duty queries and subscriptions follow it.
    public static let defaultID = "default"

    public static func makeDefault() -> ScheduleDefinition {
        ScheduleDefinition(id: defaultID, name: "Default", zone: "UTC")
    }

    /// Layers and overrides only: what a one-off shift list alone cannot express.
    public var hasRules: Bool { !overrides.isEmpty || layers.contains { !$0.rotations.isEmpty } }

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
        return ids
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
