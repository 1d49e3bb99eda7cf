/// Turns a schedule change request into the one change it commits (the schedule's new
/// definition, or its deletion) and the duty it moves, for `--preview` and the admin's answer.
/// Self-service edits are planned by `SelfService` and finished here.
public struct ScheduleEdit: Sendable {
    public var changes: [RosterImport.Located]
    public var scheduleID: String
    /// What the edit made: a rotation's or override's id (the swap's two overrides).
    public var createdIDs: [String] = []
    /// Who gains or loses duty in the preview window.
    public var deltas: [DutyDelta]
    /// The same on further schedules, for a change outside any one schedule's definition (time
    /// off, holidays), which can move duty on several.
    public var otherDeltas: [(scheduleID: String, delta: DutyDelta)] = []

    /// Why a reader may not make this edit; nil when they may: an override that puts themselves
    /// on duty (added, or replacing someone) on a schedule whose `readersMayVolunteer` is set.
    public static func refusal(of request: ScheduleChangeRequest, by actor: Caller, state: RosterState) -> RosterError?
    {
        let denied = { (why: String) in RosterError.denied(why) }
        if case .timeOff = request.edit {
            return isOwnTimeOff(request, actor: actor, state: state)
                ? nil
                : denied("a reader may only record their own time off (an admin records anyone's)")
        }
        guard let me = actor.employeeID, let person = state.employees[me] else {
            return denied(
                "changing schedules needs an admin token; this connection has "
                    + (actor.tokenID.map { "a reader token (\($0)) that names no person" }
                        ?? "no token (anonymous reader on loopback)"))
        }
        let volunteer: String
        switch request.edit {
        case .addOverride(let override):
            switch override.kind {
            case .add(let person), .replace(replacing: _, with: let person): volunteer = person
            case .remove: return denied("a reader may only add an override that puts themselves on duty")
            }
        default: return denied("a reader may only add an override that puts themselves on duty")
        }
        guard state.employee(idOrName: volunteer)?.id == me else {
            return denied("a reader may only put themselves (\(person.fullName)) on duty")
        }
        let name = request.schedule.isEmpty ? ScheduleDefinition.defaultID : request.schedule
        guard let schedule = state.schedule(idOrName: name) else { return nil }  // NOT_FOUND comes from `plan`
        guard schedule.readersMayVolunteer else {
            return denied(
                "schedule \"\(schedule.name)\" does not let readers put themselves on duty (an admin can allow it)")
        }
        return nil
    }

    /// The most stretches a MutationResult lists.
    public static let maxListedDeltas = 500

    /// How far ahead a preview looks.
    public static let previewWindow: UnixMillis = 35 * 86_400_000

    public static func plan(
        _ request: ScheduleChangeRequest, state: RosterState, actor: Caller, now: UnixMillis,
        newID: (String) -> String
    ) throws(RosterError) -> ScheduleEdit {
        let author = actor.author
        func schedule() throws(RosterError) -> ScheduleDefinition {
            let name = request.schedule.isEmpty ? ScheduleDefinition.defaultID : request.schedule
            guard let found = state.schedule(idOrName: name) else {
                throw .notFound("schedule \"\(request.schedule)\"", suggestions: state.sortedSchedules.map(\.name))
            }
            return found
        }
        func employee(_ reference: String, field: String) throws(RosterError) -> String {
            guard let found = state.employee(idOrName: reference) else {
                throw .invalid([
                    RosterViolation(
                        field: field,
                        message: "unknown employee \"\(reference)\""
                            + (state.suggestions(for: reference).first.map { "; did you mean \($0)?" } ?? ""))
                ])
            }
            return found.id
        }
        let before: ScheduleDefinition?
        let after: ScheduleDefinition?
        var created: [String] = []
        switch request.edit {
        case .upsertSchedule(var incoming):
            if incoming.id.isEmpty {
                // Creating: a name that exists is refused, never a twin nor a silent change.
                if let existing = state.schedule(idOrName: incoming.name) {
                    throw .alreadyExists([
                        RosterViolation(
                            field: "name",
                            message: "schedule \"\(existing.name)\" exists already (\(existing.id)); "
                                + "change it with its id (`admin schedule edit`)")
                    ])
                }
                incoming.id = newID("sch")
            }
            before = state.schedules[incoming.id]
            var merged = before ?? incoming
            // Name, zone, team and description; layers and overrides have their own edits.
            merged.name = incoming.name.isEmpty ? merged.name : incoming.name
            merged.zone = incoming.zone.isEmpty ? (before == nil ? "UTC" : merged.zone) : incoming.zone
            merged.team = incoming.team
            merged.description = incoming.description
            merged.readersMayVolunteer = incoming.readersMayVolunteer
            merged.selfServiceOff = incoming.selfServiceOff
            after = merged
        case .deleteSchedule:
            before = try schedule()
            after = nil
        case .upsertRotation(var rotation, let level, let effective, let startSlot):
            if let effective, !TimeRange.supported.contains(effective) {
                throw .invalid([RosterViolation(field: "effective_ms", message: TimeRange.message)])
            }
            let current = try schedule()
            before = current
            rotation.slots = try rotation.slots.map { slot throws(RosterError) in
                try slot.map { person throws(RosterError) in try employee(person, field: "slots") }
            }
            // Checked alone before a new version is derived from it (which computes turns); the id
            // may still be empty here (assigned below).
            var probe = rotation
            if probe.id.isEmpty { probe.id = "new" }
            let alone = ScheduleDefinition(
                id: current.id, name: current.name, zone: current.zone,
                layers: [ScheduleLayer(level: 0, rotations: [probe])]
            ).violations()
            if !alone.isEmpty { throw .invalid(alone) }
            if !rotation.id.isEmpty, current.rotation(id: rotation.id) != nil {
                after = current.editingRotation(
                    rotation.id, to: rotation, effective: effective ?? now, startSlot: startSlot)
            } else {
                if rotation.id.isEmpty { rotation.id = newID("rot") }
                created = [rotation.id]
                rotation.version = 1
                rotation.slotOffset = 0
                after = current.addingRotation(rotation, level: level)
            }
        case .endRotation(let rotationID, let effective):
            if let effective, !TimeRange.supported.contains(effective) {
                throw .invalid([RosterViolation(field: "effective_ms", message: TimeRange.message)])
            }
            let current = try schedule()
            before = current
            guard let ended = current.endingRotation(rotationID, effective: effective ?? now) else {
                throw .notFound("rotation \"\(rotationID)\" in schedule \"\(current.name)\"", suggestions: [])
            }
            after = ended
        case .addOverride(var override):
            let current = try schedule()
            before = current
            override.kind =
                switch override.kind {
                case .replace(let replaced, let with):
                    .replace(
                        replacing: try employee(replaced, field: "replace"), with: try employee(with, field: "with"))
                case .add(let person): .add(try employee(person, field: "add"))
                case .remove(let person): .remove(try employee(person, field: "remove"))
                }
            if override.id.isEmpty { override.id = newID("ovr") }
            if current.overrides.contains(where: { $0.id == override.id }) {
                throw .alreadyExists([RosterViolation(field: "id", message: "override \(override.id) already exists")])
            }
            override.author = author
            created = [override.id]
            var next = current
            next.overrides.append(override)
            after = next
        case .deleteOverride(let id):
            let current = try schedule()
            before = current
            guard current.overrides.contains(where: { $0.id == id }) else {
                throw .notFound(
                    "override \"\(id)\" in schedule \"\(current.name)\"", suggestions: current.overrides.map(\.id))
            }
            var next = current
            next.overrides.removeAll { $0.id == id }
            after = next
        case .swap(let swap):
            let current = try schedule()
            before = current
            let first = try employee(swap.first, field: "first"), second = try employee(swap.second, field: "second")
            guard swap.firstFrom < swap.firstTo, swap.secondFrom < swap.secondTo else {
                throw .invalid([RosterViolation(field: "window", message: "each turn's start must be before its end")])
            }
            let ids = (newID("ovr"), newID("ovr"))
            created = [ids.0, ids.1]
            after = current.swapping(
                first, swap.firstFrom..<swap.firstTo, with: second, swap.secondFrom..<swap.secondTo,
                ids: ids, author: author, reason: swap.reason)
        case .timeOff(let edit):
            return try planTimeOff(edit, state: state, actor: actor, now: now, newID: newID)
        case .holidays(let edit):
            return try planHolidays(edit, state: state, now: now)
        case .temporary(let edit):
            let current = try schedule()
            before = current
            after = try temporary(edit, on: current, state: state, author: author, now: now, newID: newID)
        case .takeSuggestion(let conflictID):
            let (current, override) = try suggestion(
                conflictID, state: state, author: author, reason: request.reason, now: now, newID: newID)
            before = current
            created = [override.id]
            var next = current
            next.overrides.append(override)
            after = next
        case .takeDuty, .cover:
            throw .invalid([RosterViolation(field: "edit", message: "is a self-service edit (SelfService plans it)")])
        case nil:
            throw .invalid([RosterViolation(field: "edit", message: "names no edit")])
        }
        return try finishing(before: before, after: after, created: created, state: state, now: now)
    }

    /// The edit that replaces `before` with `after` (nil: deleted), checked as a commit checks it.
    public static func finishing(
        before: ScheduleDefinition?, after: ScheduleDefinition?, created: [String], state: RosterState,
        now: UnixMillis
    ) throws(RosterError) -> ScheduleEdit {
        let id = after?.id ?? before!.id
        let change: RosterChange = after.map { .scheduleUpserted($0) } ?? .scheduleDeleted(id: id)
        // The rules first (the same check a commit makes, so a preview never shows what would be
        // refused): the preview below resolves the new definition, which must be sound.
        let problems = state.violations(of: change, now: now)
        if !problems.isEmpty { throw .invalid(problems) }
        let changes: [RosterImport.Located] = [("", change)]
        return ScheduleEdit(
            changes: changes, scheduleID: id, createdIDs: created,
            deltas: deltas(
                before: before.flatMap { state.definition(of: $0.id) },
                after: after.map { definition in
                    var full = definition
                    full.shifts = state.definition(of: definition.id)?.shifts ?? []
                    return full
                }, now: now))
    }

    /// Who gains or loses what over `previewSpan`: from the first instant the change touches.
    private static func deltas(before: ScheduleDefinition?, after: ScheduleDefinition?, now: UnixMillis) -> [DutyDelta]
    {
        let span = previewSpan(before: before, after: after, now: now)
        func resolve(_ definition: ScheduleDefinition?) -> [ResolvedShift] {
            guard let definition, !span.isEmpty else { return [] }
            return (try? ScheduleResolver.resolve(definition, from: span.lowerBound, to: span.upperBound)) ?? []
        }
        return DutyDelta.between(resolve(before), resolve(after))
    }

    /// Where a change can alter who is on duty, as previewed: from the first instant it touches
    /// (now at the earliest: the past is not shown) for 35 days, or to the last instant it
    /// touches when that is later, at most 366 days. Overrides and one-off shifts touch their own
    /// windows; anything else (rotations, the zone, a new or deleted schedule) from now on. So a
    /// swap of two turns three months out shows those turns (issue #31: it showed nothing).
    public static func previewSpan(before: ScheduleDefinition?, after: ScheduleDefinition?, now: UnixMillis) -> Range<
        UnixMillis
    > {
        var lower = UnixMillis.max, upper = UnixMillis.min
        func touch(_ start: UnixMillis, _ end: UnixMillis) { lower = min(lower, start); upper = max(upper, end) }
        if let before, let after {
            func rules(_ definition: ScheduleDefinition) -> ScheduleDefinition {
                var rules = definition
                (rules.overrides, rules.shifts, rules.requests) = ([], [], [])
                return rules
            }
            if rules(before) != rules(after) { touch(now, now + previewWindow) }
            for override in Set(before.overrides).symmetricDifference(after.overrides) {
                touch(override.start, override.end)
            }
            for shift in Set(before.shifts).symmetricDifference(after.shifts) { touch(shift.start, shift.end) }
        } else {
            touch(now, now + previewWindow)
        }
        guard lower < upper else { return now..<now }
        let start = max(now, lower)
        let end = min(max(start + previewWindow, upper), start + 366 * 86_400_000)
        return start..<max(start, end)
    }
}
