import Foundation

/// Time off, temporary schedules and taking a conflict's proposal: the EditSchedule kinds that
/// docs/TIME-OFF.md describes.
extension ScheduleEdit {
    /// Whether a reader whose token names a person may make `request`: their own time off.
    static func isOwnTimeOff(_ request: ScheduleChangeRequest, actor: Caller, state: RosterState) -> Bool {
        guard case .timeOff(let edit) = request.edit, let me = actor.employeeID else { return false }
        switch edit.action {
        // unknown: NOT_FOUND from `plan`
        case .delete: return state.timeOff[edit.id].map { $0.employeeID == me } ?? true
        case .add, .importCalendar, nil: return edit.person.isEmpty || state.employee(idOrName: edit.person)?.id == me
        }
    }

    static func planTimeOff(
        _ edit: ScheduleChangeRequest.TimeOffEdit, state: RosterState, actor: Caller, now: UnixMillis,
        newID: (String) -> String
    ) throws(RosterError) -> ScheduleEdit {
        func person() throws(RosterError) -> String {
            if edit.person.isEmpty {
                guard let me = actor.employeeID else {
                    throw .invalid([
                        RosterViolation(field: "person", message: "name the person (this token names nobody)")
                    ])
                }
                return me
            }
            // The person a request is about is NOT_FOUND when missing, as for take, cover and reports.
            guard let found = state.employee(idOrName: edit.person) else {
                throw .notFound("employee \"\(edit.person)\"", suggestions: state.suggestions(for: edit.person))
            }
            return found.id
        }
        var changes: [RosterImport.Located] = []
        var people: [String] = []
        switch edit.action {
        case .add:
            let who = try person()
            let entry = TimeOff(
                id: newID("off"), employeeID: who, start: edit.start, end: edit.end, reason: edit.reason,
                author: actor.author)
            changes = [("", .timeOffSet(entry))]
            people = [who]
        case .delete:
            guard let entry = state.timeOff[edit.id] else {
                throw .notFound("time off \"\(edit.id)\"", suggestions: [])
            }
            changes = [("", .timeOffDeleted(id: entry.id))]
            people = [entry.employeeID]
        case .importCalendar:
            let who = try person()
            let events: [TimeOffCalendar.Event]
            do throws(TimeOffCalendar.Invalid) {
                events = try TimeOffCalendar.events(
                    fromICS: String(decoding: edit.calendar, as: UTF8.self),
                    zone: edit.zone.isEmpty ? "UTC" : edit.zone)
            } catch {
                throw .invalid([RosterViolation(field: "calendar", message: error.description)])
            }
            // Re-importing a file changes its events in place (the id comes from the UID); what
            // ended before now is not kept.
            for (index, event) in events.enumerated() where event.end > now {
                let entry = TimeOff(
                    id: "off-" + StableHash.hex(who + "\u{1F}" + event.uid), employeeID: who, start: event.start,
                    end: event.end, reason: String(event.summary.prefix(TextLimits.maxLine)),
                    source: "ics:" + event.uid, author: actor.author)
                if state.timeOff[entry.id] != entry { changes.append(("event \(index + 1)", .timeOffSet(entry))) }
            }
            people = [who]
        case nil:
            throw .invalid([RosterViolation(field: "action", message: "is ADD, DELETE or IMPORT")])
        }
        let after = try state.applyingValidated(changes, now: now)
        let created = changes.compactMap { change in
            if case .timeOffSet(let entry) = change.change { entry.id } else { nil }
        }
        // Only rotations that hand time off on move duty.
        return self.edit(
            changes, schedules: Set(people.flatMap { state.schedulesSkippingTimeOff(of: $0) }), created: created,
            before: state, after: after, now: now)
    }

    /// An edit outside any one schedule's definition: the first schedule it moves duty on names
    /// it (none: ""), and the preview lists who gains or loses what on each.
    static func edit(
        _ changes: [RosterImport.Located], schedules: Set<String>, created: [String], before: RosterState,
        after: RosterState,
        now: UnixMillis
    ) -> ScheduleEdit {
        let ids = schedules.sorted()
        var edit = ScheduleEdit(
            changes: changes, scheduleID: ids.first ?? "", createdIDs: created,
            deltas: ids.first.map { deltas(of: $0, before: before, after: after, now: now) } ?? [])
        for id in ids.dropFirst() {
            edit.otherDeltas += deltas(of: id, before: before, after: after, now: now).map { (id, $0) }
        }
        return edit
    }

    /// A holiday calendar set (from dates or an iCalendar file's all-day events) or deleted; the
    /// preview shows the schedules whose restrictions name it.
    static func planHolidays(_ edit: ScheduleChangeRequest.HolidaysEdit, state: RosterState, now: UnixMillis)
        throws(RosterError) -> ScheduleEdit
    {
        let change: RosterChange
        switch edit.action {
        case .set:
            var days = edit.days
            if !edit.calendar.isEmpty {
                guard edit.calendar.count <= TimeOffCalendar.maxBytes else {
                    throw .invalid([RosterViolation(field: "calendar", message: "is larger than 1 MiB")])
                }
                do throws(HolidayCalendar.Invalid) {
                    days += try HolidayCalendar.dates(fromICS: String(decoding: edit.calendar, as: UTF8.self))
                } catch {
                    throw .invalid([RosterViolation(field: "calendar", message: error.description)])
                }
            }
            change = .holidaysSet(HolidaySet(name: edit.name, days: days))
        case .delete:
            change = .holidaysDeleted(name: edit.name)
        case nil:
            throw .invalid([RosterViolation(field: "action", message: "is SET or DELETE")])
        }
        let changes: [RosterImport.Located] = [("", change)]
        let after = try state.applyingValidated(changes, now: now)
        return self.edit(
            changes, schedules: state.schedules(namingHolidays: [edit.name]), created: [edit.name], before: state,
            after: after,
            now: now)
    }

    /// Who gains or loses duty on one schedule from now over the preview window, between two
    /// tenant states (a change outside the schedule's definition: time off, holidays).
    /// Nothing when the two resolutions together would cost more than two requests' budget.
    public static func deltas(of scheduleID: String, before: RosterState, after: RosterState, now: UnixMillis)
        -> [DutyDelta]
    {
        var budget = ResolutionBudget(limit: 2 * ResolutionBudget.perRequest)
        return (try? deltas(of: scheduleID, before: before, after: after, now: now, budget: &budget)) ?? []
    }

    /// The same, spending from `budget` (a plan shares one across the schedules it changes).
    public static func deltas(
        of scheduleID: String, before: RosterState, after: RosterState, now: UnixMillis,
        budget: inout ResolutionBudget
    ) throws(ScheduleResolver.Problem) -> [DutyDelta] {
        let span = now..<(now + previewWindow)
        func resolve(_ state: RosterState) throws(ScheduleResolver.Problem) -> [ResolvedShift] {
            guard let definition = state.definition(of: scheduleID, from: span.lowerBound, to: span.upperBound) else {
                return []
            }
            return try ScheduleResolver.resolve(definition, from: span.lowerBound, to: span.upperBound, budget: &budget)
        }
        return DutyDelta.between(try resolve(before), try resolve(after))
    }

    /// A temporary schedule set or cleared over a span of `current`.
    static func temporary(
        _ edit: ScheduleChangeRequest.TemporaryEdit, on current: ScheduleDefinition, state: RosterState, author: String,
        now: UnixMillis, newID: (String) -> String
    ) throws(RosterError) -> ScheduleDefinition {
        switch edit.action {
        case .set:
            var shifts: [TemporarySchedule.Shift] = []
            var unknown: [RosterViolation] = []
            for (index, shift) in edit.shifts.enumerated() {
                guard let person = state.employee(idOrName: shift.employeeID) else {
                    unknown.append(
                        RosterViolation(
                            location: "shift \(index + 1)", field: "person",
                            message: "unknown employee \"\(shift.employeeID)\""))
                    continue
                }
                shifts.append(TemporarySchedule.Shift(employeeID: person.id, start: shift.start, end: shift.end))
            }
            if !unknown.isEmpty { throw .invalid(unknown) }
            return try current.settingTemporary(
                from: edit.start, to: edit.end, shifts: shifts, allowGaps: edit.allowGaps,
                id: newID("tmp"), author: author, now: now)
        case .clear:
            return try current.clearingTemporary(from: edit.start, to: edit.end, newID: newID("tmp"), now: now)
        case nil:
            throw .invalid([RosterViolation(field: "action", message: "is SET or CLEAR")])
        }
    }

    /// The override that gives a conflict to its first proposal: a `replace` of its person over
    /// the conflict (from now on).
    static func suggestion(
        _ conflictID: String, state: RosterState, author: String, reason: String, now: UnixMillis,
        newID: (String) -> String
    ) throws(RosterError) -> (schedule: ScheduleDefinition, override: ScheduleOverride) {
        guard let conflict = state.conflict(id: conflictID, now: now),
            let schedule = state.schedules[conflict.scheduleID]
        else {
            throw .notFound("conflict \"\(conflictID)\" (from now on)", suggestions: [])
        }
        if case .temporary = conflict.source {
            throw .invalid([
                RosterViolation(
                    field: "take_suggestion",
                    message: "this duty comes from a temporary schedule, where overrides "
                        + "do not apply: change the temporary schedule instead")
            ])
        }
        guard let proposal = conflict.proposals.first else {
            throw .invalid([
                RosterViolation(
                    field: "take_suggestion",
                    message: "nobody on this schedule is free then: "
                        + "add an override by hand or open a cover request")
            ])
        }
        let words = reason.isEmpty ? "covers time off \(conflict.timeOffID)" : reason
        let override = ScheduleOverride(
            id: newID("ovr"), kind: .replace(replacing: conflict.employeeID, with: proposal.employeeID),
            start: max(conflict.start, now), end: conflict.end, author: author, reason: words)
        return (schedule, override)
    }
}
