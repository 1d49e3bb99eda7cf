import Foundation

/// One change to one schedule as someone asks for it (EditSchedule in docs/PROTOCOL.md), free of
/// the wire: what `ScheduleEdit` and `SelfService` plan from. The protocol door converts it.
public struct ScheduleChangeRequest: Sendable, Hashable {
    /// The schedule's id or name; empty: the default schedule.
    public var schedule: String
    public var edit: Edit?
    /// For the audit log (an override keeps its own reason).
    public var reason: String

    public init(schedule: String = "", edit: Edit?, reason: String = "") {
        self.schedule = schedule
        self.edit = edit
        self.reason = reason
    }

    public enum Edit: Sendable, Hashable {
        /// Create (empty id) or change a schedule's name, zone, team, description and switches.
        case upsertSchedule(ScheduleDefinition)
        case deleteSchedule
        /// Add a rotation (empty or unknown id) at `level`, or change one from `effective` (nil: now).
        case upsertRotation(Rotation, level: Int, effective: UnixMillis?, startSlot: Int?)
        case endRotation(id: String, effective: UnixMillis?)
        /// Its people by id or full name; an empty id is assigned.
        case addOverride(ScheduleOverride)
        case deleteOverride(id: String)
        case swap(Swap)
        case takeDuty(TakeDuty)
        case cover(CoverEdit)
        case timeOff(TimeOffEdit)
        case temporary(TemporaryEdit)
        /// A conflict's first proposal replaces its person there.
        case takeSuggestion(conflictID: String)
        case holidays(HolidaysEdit)
    }

    /// Two people trade turns: each takes the other's stretch.
    public struct Swap: Sendable, Hashable {
        public var first: String, firstFrom: UnixMillis, firstTo: UnixMillis
        public var second: String, secondFrom: UnixMillis, secondTo: UnixMillis
        public var reason: String

        public init(
            first: String, firstFrom: UnixMillis, firstTo: UnixMillis, second: String, secondFrom: UnixMillis,
            secondTo: UnixMillis, reason: String = ""
        ) {
            (self.first, self.firstFrom, self.firstTo) = (first, firstFrom, firstTo)
            (self.second, self.secondFrom, self.secondTo) = (second, secondFrom, secondTo)
            self.reason = reason
        }
    }

    /// A person takes duty for [start, end), or (`undo`) gives back what they took there.
    public struct TakeDuty: Sendable, Hashable {
        /// An id or full name; empty: the caller's person.
        public var person: String
        public var start: UnixMillis, end: UnixMillis
        public var reason: String
        public var undo: Bool

        public init(person: String = "", start: UnixMillis, end: UnixMillis, reason: String = "", undo: Bool = false) {
            (self.person, self.start, self.end, self.reason, self.undo) = (person, start, end, reason, undo)
        }
    }

    /// One step of a cover request (docs/PROTOCOL.md §14.6).
    public struct CoverEdit: Sendable, Hashable {
        public enum Action: Sendable, Hashable { case open, take, decline, cancel, backOut }
        /// nil: none named (refused).
        public var action: Action?
        /// Every action but `open`.
        public var requestID: String
        /// Who acts (id or full name; admins only); empty: the caller's person.
        public var person: String
        /// `open`: the stretch, the people asked (empty: everyone) and a note.
        public var start: UnixMillis, end: UnixMillis
        public var addressedTo: [String]
        public var note: String

        public init(
            action: Action?, requestID: String = "", person: String = "", start: UnixMillis = 0, end: UnixMillis = 0,
            addressedTo: [String] = [], note: String = ""
        ) {
            (self.action, self.requestID, self.person) = (action, requestID, person)
            (self.start, self.end, self.addressedTo, self.note) = (start, end, addressedTo, note)
        }
    }

    /// A person's time off (docs/TIME-OFF.md).
    public struct TimeOffEdit: Sendable, Hashable {
        public enum Action: Sendable, Hashable { case add, delete, importCalendar }
        public var action: Action?
        /// An id or full name; empty: the caller's person.
        public var person: String
        public var start: UnixMillis, end: UnixMillis
        public var reason: String
        /// `delete`: the entry's id.
        public var id: String
        /// `importCalendar`: an iCalendar file, and the zone of its all-day and floating times.
        public var calendar: Data
        public var zone: String

        public init(
            action: Action?, person: String = "", start: UnixMillis = 0, end: UnixMillis = 0, reason: String = "",
            id: String = "", calendar: Data = Data(), zone: String = ""
        ) {
            (self.action, self.person, self.start, self.end, self.reason) = (action, person, start, end, reason)
            (self.id, self.calendar, self.zone) = (id, calendar, zone)
        }
    }

    /// A temporary schedule set (these shifts, people by id or full name) or cleared over a span.
    public struct TemporaryEdit: Sendable, Hashable {
        public enum Action: Sendable, Hashable { case set, clear }
        public var action: Action?
        public var start: UnixMillis, end: UnixMillis
        public var shifts: [TemporarySchedule.Shift]
        public var allowGaps: Bool

        public init(
            action: Action?, start: UnixMillis, end: UnixMillis, shifts: [TemporarySchedule.Shift] = [],
            allowGaps: Bool = false
        ) {
            (self.action, self.start, self.end, self.shifts, self.allowGaps) = (action, start, end, shifts, allowGaps)
        }
    }

    /// A tenant holiday calendar set (from `days`, plus the all-day events of `calendar`) or deleted.
    public struct HolidaysEdit: Sendable, Hashable {
        public enum Action: Sendable, Hashable { case set, delete }
        public var action: Action?
        public var name: String
        public var days: [String]
        public var calendar: Data

        public init(action: Action?, name: String, days: [String] = [], calendar: Data = Data()) {
            (self.action, self.name, self.days, self.calendar) = (action, name, days, calendar)
        }
    }

    /// The id of the schedule it changes (as named when there is none such); nil for what belongs
    /// to no one schedule (time off, holidays).
    public func scheduleID(in state: RosterState) -> String? {
        switch edit {
        case .timeOff, .holidays: return nil
        default:
            let name = schedule.isEmpty ? ScheduleDefinition.defaultID : schedule
            return state.schedule(idOrName: name)?.id ?? name
        }
    }

    /// Whether this is a self-service edit (`SelfService` plans it).
    public var isSelfService: Bool {
        switch edit {
        case .takeDuty, .cover: true
        default: false
        }
    }
}
