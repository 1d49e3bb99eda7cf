/// A person asks for someone to cover a stretch of their duty: a request with a life of its own
/// (`open -> taken | cancelled | expired`), kept in its schedule's definition so that taking it
/// and the override it creates are one revision (the first taker wins, on any node).
public struct CoverRequest: Sendable, Hashable, Codable {
    /// What is stored. `expired` is never stored: an open request whose stretch has begun is
    /// expired from that instant, for every reader alike (`state(at:)`).
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case open, taken, cancelled, expired
    }

    public var id: String
    public var requester: String
    public var start: UnixMillis
    public var end: UnixMillis
    /// Employee ids; empty: everyone the schedule names.
    public var addressedTo: [String]
    public var note: String
    public var stored: State
    public var taker: String?
    /// The override that puts the taker on duty, while taken.
    public var overrideID: String?
    public var declinedBy: [String]
    public var opened: UnixMillis
    public var changed: UnixMillis
    /// The token that opened it.
    public var author: String

    public init(
        id: String, requester: String, start: UnixMillis, end: UnixMillis, addressedTo: [String] = [],
        note: String = "",
        stored: State = .open, taker: String? = nil, overrideID: String? = nil, declinedBy: [String] = [],
        opened: UnixMillis, changed: UnixMillis? = nil, author: String = ""
    ) {
        (self.id, self.requester, self.start, self.end) = (id, requester, start, end)
        (self.addressedTo, self.note, self.stored, self.taker, self.overrideID) = (
            addressedTo, note, stored, taker, overrideID
        )
        (self.declinedBy, self.opened, self.changed, self.author) = (declinedBy, opened, changed ?? opened, author)
    }

    /// The state at `instant`: an open request whose stretch has begun has expired.
    public func state(at instant: UnixMillis) -> State {
        stored == .open && instant >= start ? .expired : stored
    }

    /// The override source of the override a taken request creates.
    public var source: String { "request:\(id)" }

    /// Whether `person` may take it: someone other than the requester, among those it is
    /// addressed to (everyone the schedule names when it names nobody).
    public func isOffered(to person: String, in schedule: ScheduleDefinition) -> Bool {
        person != requester && (addressedTo.isEmpty ? schedule.names(person) : addressedTo.contains(person))
    }

    /// Closed requests are kept this long after their stretch ends, then dropped from the
    /// schedule with its next self-service change.
    public static let keptAfterEnd: UnixMillis = 30 * 86_400_000

    /// The most open requests one schedule holds; opening one more is refused.
    public static let maxOpen = 200
    /// The most closed (and taken) requests one schedule keeps: past it the least recently
    /// changed go first.
    public static let maxKept = 200
    /// What a stored schedule may hold.
    public static var maxPerSchedule: Int { maxOpen + maxKept }

    /// Whether it is still kept at `now`.
    public func isKept(at now: UnixMillis) -> Bool {
        state(at: now) == .open || stored == .taken && end > now || end + Self.keptAfterEnd > now
    }

    /// `requests` without those no longer kept at `now`, and with at most `maxKept` that are
    /// not open (the most recently changed), in their order.
    public static func pruned(_ requests: [CoverRequest], at now: UnixMillis) -> [CoverRequest] {
        let kept = requests.filter { $0.isKept(at: now) }
        let closed = kept.filter { $0.state(at: now) != .open }
        guard closed.count > maxKept else { return kept }
        let dropped = Set(closed.sorted { ($0.changed, $0.id) > ($1.changed, $1.id) }.dropFirst(maxKept).map(\.id))
        return kept.filter { !dropped.contains($0.id) }
    }
}

extension CoverRequest {
    /// A request as people and programs read it, in the state it is in at an instant, with
    /// names: the JSON of `GET /v1/requests` and of `roster-client requests --json`.
    public struct Summary: Encodable, Sendable {
        public var id: String
        public var schedule: String
        public var scheduleId: String
        public var state: String
        public var requester: String
        public var requesterId: String
        public var start: String
        public var end: String
        public var addressedTo: [String]
        public var note: String
        public var taker: String?
        public var takerId: String?
        public var overrideId: String?
        public var declinedBy: [String]

        public init(_ request: CoverRequest, schedule: ScheduleDefinition, state: RosterState?, at instant: UnixMillis)
        {
            let name = { (id: String) in state?.employees[id]?.fullName ?? id }
            (id, self.schedule, scheduleId) = (request.id, schedule.name, schedule.id)
            self.state = request.state(at: instant).rawValue
            (requester, requesterId) = (name(request.requester), request.requester)
            (start, end) = (TimeText.iso8601(request.start), TimeText.iso8601(request.end))
            addressedTo = request.addressedTo.map(name)
            note = request.note
            (taker, takerId, overrideId) = (request.taker.map(name), request.taker, request.overrideID)
            declinedBy = request.declinedBy.map(name)
        }
    }
}

extension ScheduleOverride {
    /// The source of an override a person made for themselves with `take`.
    public static func takeSource(_ employeeID: String) -> String { "take:\(employeeID)" }

    /// Whether it changes this person's duty (puts them on, takes them off, or replaces them).
    public func touches(_ employeeID: String) -> Bool {
        switch kind {
        case .replace(let replaced, let with): replaced == employeeID || with == employeeID
        case .add(let person), .remove(let person): person == employeeID
        }
    }
}

extension RosterState {
    /// The sources of the self-service overrides on these schedules ("request:ID",
    /// "take:EMPLOYEE_ID"), by schedule id and override id: looked up once for an answer rather
    /// than by searching a schedule's overrides for each of its stretches.
    public func overrideSources(on scheduleIDs: some Sequence<String>) -> [String: [String: String]] {
        var found: [String: [String: String]] = [:]
        for id in Set(scheduleIDs) {
            guard let schedule = schedules[id] else { continue }
            for override in schedule.overrides where !override.source.isEmpty {
                found[id, default: [:]][override.id] = override.source
            }
        }
        return found
    }
}
