/// People change their own duty without an admin (docs/PROTOCOL.md, "Self-service"): take duty
/// for a stretch, ask for cover, take, decline, cancel or back out of a request. Each is an
/// EditSchedule: one new definition of one schedule, one revision, so that taking a request and
/// the override it creates are one commit and the first taker wins on any node. Admins act for
/// anyone (`person`); the audit reason says for whom. Refusals: `denied` for the wrong person,
/// `notNow` for the right person at the wrong moment (§14.6).
public enum SelfService {
    /// The longest stretch one take or cover request may span.
    public static let maxStretch: UnixMillis = 90 * 86_400_000

    public struct Planned: Sendable, Hashable {
        public var before: ScheduleDefinition
        public var after: ScheduleDefinition
        public var created: [String]
        /// What the audit log keeps as the reason: who acted for whom, and their words.
        public var auditReason: String
    }

    /// The new definition of the one schedule `request` changes, or why not.
    public static func plan(
        _ request: ScheduleChangeRequest, actor: Caller, state: RosterState, now: UnixMillis,
        newID: (String) -> String
    ) throws(RosterError) -> Planned {
        switch request.edit {
        case .takeDuty(let take):
            let schedule = try schedule(named: request.schedule, state: state)
            let person = try acting(take.person, actor: actor, schedule: schedule, state: state)
            return try self.take(take, by: person, in: schedule, actor: actor, state: state, now: now, newID: newID)
        case .cover(let edit):
            let schedule: ScheduleDefinition
            if request.schedule.isEmpty, edit.action != .open {
                guard let found = state.sortedSchedules.first(where: { $0.request(id: edit.requestID) != nil }) else {
                    throw .missing(
                        "cover request \"\(edit.requestID)\" not found (`roster-client requests` lists them)")
                }
                schedule = found
            } else {
                schedule = try self.schedule(named: request.schedule, state: state)
            }
            let person = try acting(edit.person, actor: actor, schedule: schedule, state: state)
            return try cover(edit, by: person, in: schedule, actor: actor, state: state, now: now, newID: newID)
        default:
            throw .invalid([RosterViolation(field: "edit", message: "is not a self-service edit")])
        }
    }

    // MARK: Who, where

    private static func schedule(named name: String, state: RosterState) throws(RosterError) -> ScheduleDefinition {
        let name = name.isEmpty ? ScheduleDefinition.defaultID : name
        guard let found = state.schedule(idOrName: name) else {
            throw .notFound("schedule \"\(name)\"", suggestions: state.sortedSchedules.map(\.name))
        }
        return found
    }

    /// The person who acts: the one the token names, or (admins only) the one asked for. A
    /// person acts only where they take part, and only where self-service is on; admins anywhere.
    private static func acting(
        _ named: String, actor: Caller, schedule: ScheduleDefinition,
        state: RosterState
    ) throws(RosterError) -> Employee {
        let denied = { (why: String) in RosterError.denied(why) }
        let person: Employee
        if !named.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let found = state.employee(idOrName: named) else {
                throw .notFound("employee \"\(named)\"", suggestions: state.suggestions(for: named))
            }
            guard actor.isAdmin || found.id == actor.employeeID else {
                throw denied(
                    "only an admin acts for someone else (--for); this token acts for "
                        + (actor.employeeID.flatMap { state.employees[$0]?.fullName } ?? "nobody"))
            }
            person = found
        } else {
            guard let me = actor.employeeID, let found = state.employees[me] else {
                throw denied(
                    actor.isAdmin
                        ? "an admin token names no person: say for whom (--for NAME; over HTTP, ?for=NAME)"
                        : "this needs a token bound to a person (roster-server token create --employee NAME); this one names nobody"
                )
            }
            person = found
        }
        guard !actor.isAdmin else { return person }
        guard !schedule.selfServiceOff else {
            throw denied("self-service is off on schedule \"\(schedule.name)\": ask an admin")
        }
        guard takesPart(person.id, in: schedule, state: state) || schedule.readersMayVolunteer else {
            throw denied("\(person.fullName) does not take part in schedule \"\(schedule.name)\"")
        }
        return person
    }

    /// Named in a rotation slot, an override or a one-off shift of the schedule.
    public static func takesPart(_ employeeID: String, in schedule: ScheduleDefinition, state: RosterState) -> Bool {
        schedule.mentionedEmployees.contains(employeeID)
            || state.shifts.all(schedule: schedule.id).contains { $0.employeeID == employeeID }
    }

    static func stretch(_ start: UnixMillis, _ end: UnixMillis) throws(RosterError) {
        func invalid(_ field: String, _ message: String) -> RosterError {
            .invalid([RosterViolation(field: field, message: message)])
        }
        guard TimeRange.supported.contains(start), TimeRange.supported.contains(end) else {
            throw invalid("start_ms", TimeRange.message)
        }
        guard start < end else { throw invalid("end_ms", "the start is not before the end") }
        guard end - start <= maxStretch else { throw invalid("end_ms", "a stretch spans at most 90 days") }
    }

    /// The schedule resolved over [from, to), as it is now.
    static func resolved(
        _ schedule: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
        state: RosterState
    ) throws(RosterError) -> [ResolvedShift] {
        guard let definition = state.definition(of: schedule.id, from: from, to: to) else { return [] }
        return try resolved(definition, from: from, to: to)
    }

    /// `definition` (with its one-off shifts) resolved over [from, to).
    static func resolved(_ definition: ScheduleDefinition, from: UnixMillis, to: UnixMillis) throws(RosterError)
        -> [ResolvedShift]
    {
        do {
            return try ScheduleResolver.resolve(definition, from: from, to: to)
        } catch {
            throw .overBudget(error.description)
        }
    }

    // MARK: Take

    /// The person becomes the one on duty from `start` (now, for a stretch under way) to `end`.
    private static func take(
        _ take: ScheduleChangeRequest.TakeDuty, by person: Employee, in schedule: ScheduleDefinition,
        actor: Caller, state: RosterState, now: UnixMillis, newID: (String) -> String
    ) throws(RosterError) -> Planned {
        try stretch(take.start, take.end)
        guard take.end > now else {
            throw .notNow("that stretch is over; a take starts now at the earliest")
        }
        let start = max(take.start, now), end = take.end
        if take.undo {
            return try undo(take, by: person, in: schedule, actor: actor, from: start, to: end, newID: newID)
        }
        // The person is added throughout the stretch (also where nobody is). Overrides that
        // touch them there, and those through which someone else is on duty there, are cut out
        // of the stretch (what lies outside it stays); everyone still on duty then steps aside,
        // one REMOVE per stretch of theirs. So no override is left overlapping one of the take's
        // on a person both change, which the rules refuse.
        guard var probe = state.definition(of: schedule.id, from: start, to: end) else {
            throw .notFound("schedule \"\(schedule.name)\"", suggestions: [])
        }
        let before = try resolved(probe, from: start, to: end)
        let mine = before.filter { $0.employeeID == person.id }.map { $0.start..<$0.end }
        if !before.contains(where: { $0.employeeID != person.id }), covers(mine, start..<end) {
            throw .notNow("\(person.fullName) is already the only one on duty on \"\(schedule.name)\" then")
        }
        var cut = Set<String>()
        for override in schedule.overrides
        where override.start < end && override.end > start && override.touches(person.id) {
            cut.insert(override.id)
        }
        for shift in before where shift.employeeID != person.id {
            if case .override(let id) = shift.source { cut.insert(id) }
        }
        var overrides = ScheduleDefinition.cutting(schedule.overrides, ids: cut, out: start..<end, newID: newID)
        probe.overrides = overrides
        let source = ScheduleOverride.takeSource(person.id)
        var created: [String] = []
        func add(_ kind: ScheduleOverride.Kind, _ range: Range<UnixMillis>) {
            let id = newID("ovr")
            created.append(id)
            overrides.append(
                ScheduleOverride(
                    id: id, kind: kind, start: range.lowerBound, end: range.upperBound,
                    author: actor.author, reason: take.reason, source: source))
        }
        add(.add(person.id), start..<end)
        var others: [String: [Range<UnixMillis>]] = [:]
        for shift in try resolved(probe, from: start, to: end) where shift.employeeID != person.id {
            others[shift.employeeID, default: []].append(max(shift.start, start)..<min(shift.end, end))
        }
        for (other, ranges) in others.sorted(by: { $0.key < $1.key }) {
            for range in Self.merged(ranges) { add(.remove(other), range) }
        }
        var after = schedule
        after.overrides = overrides
        return Planned(
            before: schedule, after: after, created: created,
            auditReason: reason(actor: actor, person: person, "takes duty", take.reason))
    }

    /// Ranges joined where they touch or overlap, in order.
    public static func merged(_ ranges: [Range<UnixMillis>]) -> [Range<UnixMillis>] {
        var joined: [Range<UnixMillis>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = joined.last, range.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }

    /// Undoing (part of) a take: the person's take overrides are cut out of [from, to); what
    /// they took before and after it stays, and the past stays as it was.
    private static func undo(
        _ take: ScheduleChangeRequest.TakeDuty, by person: Employee, in schedule: ScheduleDefinition,
        actor: Caller, from: UnixMillis, to: UnixMillis, newID: (String) -> String
    ) throws(RosterError) -> Planned {
        guard let (after, changed) = schedule.undoingTake(of: person.id, over: from..<to, newID: newID) else {
            throw .missing(
                "\(person.fullName) took no duty on \"\(schedule.name)\" that is still to come in that stretch")
        }
        return Planned(
            before: schedule, after: after, created: changed,
            auditReason: reason(actor: actor, person: person, "undoes their take", take.reason))
    }

    /// Whether `ranges` cover `span` without a hole.
    static func covers(_ ranges: [Range<UnixMillis>], _ span: Range<UnixMillis>) -> Bool {
        var reached = span.lowerBound
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > reached { return false }
            reached = max(reached, range.upperBound)
            if reached >= span.upperBound { return true }
        }
        return reached >= span.upperBound
    }

    /// "Grace Hopper asks for cover (req_x): dentist", with "for NAME, by an admin" when an
    /// admin acted for someone.
    static func reason(actor: Caller, person: Employee, _ what: String, _ words: String) -> String {
        let who =
            actor.employeeID == person.id
            ? person.fullName : "\(person.fullName) (by \(actor.name.isEmpty ? "an admin" : actor.name), for them)"
        return "\(who) \(what)" + (words.isEmpty ? "" : ": \(words)")
    }
}
