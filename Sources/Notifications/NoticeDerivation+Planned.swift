import RosterDomain
import RosterServerCore
import RosterStore

// Written ahead of time: handoffs, reminders, announcements at their hour and coverage gaps,
// planned for a window so that each is in the outbox before it is due.
extension NoticeDerivation {
    /// The time-driven events due in [from, to) under `state`: handoffs, reminders, and gaps that
    /// come within `gapDays`.
    /// `schedules`: only those (the ones a change touched); nil: every schedule.
    func planned(
        state: RosterState, revision: UInt64, from: UnixMillis, to: UnixMillis, rules: [ReminderRule],
        wanted: Set<NotificationType>, schedules: Set<String>?, announcements: [AnnounceRule] = []
    ) -> [NotificationEvent] {
        guard from < to else { return [] }
        var events: [NotificationEvent] = []
        for schedule in state.sortedSchedules where schedules?.contains(schedule.id) ?? true {
            let id = schedule.id
            let onChange = announcements.filter { $0.scheduleID == id && $0.trigger == .change }
            if wanted.contains(.onDutyChanged) || !onChange.isEmpty, let index = state.onDutyIndex(of: id, around: from)
            {
                for change in OnDutyTracker.handoffs(scheduleID: id, in: index, from: from, to: to) {
                    let people = change.current.currentEmployeeIDs.sorted().joined(separator: ",")
                    let data = onDutyData(change, state: state, actor: nil)
                    if wanted.contains(.onDutyChanged) {
                        events.append(
                            onDutyChanged(
                                change, data: data, state: state, revision: revision,
                                key: "handoff:\(id):\(change.at):\(people)", planned: true))
                    }
                    for rule in onChange {
                        events.append(
                            announcement(
                                rule, data: data, trigger: "change", revision: revision,
                                key: "announce:\(rule.id):\(change.at):\(people)", about: change.at,
                                due: change.at, planned: true))
                    }
                }
            }
            for rule in announcements where rule.scheduleID == id {
                guard case .at(let minute, let weekdays) = rule.trigger else { continue }
                for instant in Self.instants(
                    minuteOfDay: minute, weekdays: weekdays, zone: schedule.zone, from: from, to: to)
                {
                    guard let lookup = state.onDuty(of: id, at: instant) else { continue }
                    let change = OnDutyChange(scheduleID: id, previous: lookup, current: lookup, cause: .initial)
                    let data = onDutyData(change, state: state, actor: nil)
                    events.append(
                        announcement(
                            rule, data: data, trigger: "at", revision: revision,
                            key: "at-announce:\(rule.id):\(instant)",
                            about: instant, due: instant, planned: true))
                }
            }
            if wanted.contains(.coverageGap) {
                let ahead = UnixMillis(settings.gapDays) * Self.day
                // From just before the window, so that a gap already under way there (announced
                // by the window before, with its true start) is not taken as starting at its edge.
                for gap in gaps(in: state, scheduleID: id, from: from + ahead - 1, to: to + ahead)
                where gap.start >= from + ahead {
                    events.append(
                        coverageGap(
                            gap, scheduleID: id, state: state, revision: revision, due: gap.start - ahead, planned: true
                        ))
                }
            }
        }
        if wanted.contains(.requestExpired) {
            // An open request expires when its stretch begins; taking or cancelling it first
            // changes the schedule, which withdraws this and plans again.
            for schedule in state.sortedSchedules where schedules?.contains(schedule.id) ?? true {
                for request in schedule.requests
                where request.stored == .open && request.start >= from && request.start < to {
                    events.append(
                        requestStep(
                            .requestExpired, request, taker: nil, reopened: false, schedule: schedule, state: state,
                            revision: revision, key: "expired:\(request.id)", about: request.start,
                            due: request.start, planned: true))
                }
            }
        }
        if wanted.contains(.escalationChanged) {
            events += plannedEscalations(state: state, revision: revision, from: from, to: to, schedules: schedules)
        }
        if wanted.contains(.shiftStarting) {
            events += reminders(
                state: state, revision: revision, from: from, to: to, rules: rules, schedules: schedules)
        }
        if wanted.contains(.coverageConflict) {
            events += plannedConflicts(state: state, revision: revision, from: from, to: to, schedules: schedules)
        }
        return events
    }

    private func reminders(
        state: RosterState, revision: UInt64, from: UnixMillis, to: UnixMillis,
        rules: [ReminderRule], schedules only: Set<String>?
    ) -> [NotificationEvent] {
        var events: [NotificationEvent] = []
        for rule in rules {
            let schedules = rule.scheduleID.isEmpty ? state.sortedSchedules.map(\.id) : [rule.scheduleID]
            for id in schedules where only?.contains(id) ?? true {
                // Shifts that start up to the rule's reach after the window, whose reminder may fall in it.
                guard let definition = state.definition(of: id, from: from, to: to + rule.reach),
                    let resolved = try? ScheduleResolver.resolve(definition, from: from, to: to + rule.reach)
                else { continue }
                for shift in resolved where rule.personID.isEmpty || shift.employeeID == rule.personID {
                    guard shift.start >= from, let due = rule.due(start: shift.start, scheduleZone: definition.zone),
                        due >= from, due < to, due < shift.start
                    else { continue }
                    let data = NotificationPayload.ShiftStarting(
                        schedule: .init(definition), person: .init(shift.employeeID, in: state),
                        shift: .init(start: shift.start, end: shift.end), reminder: rule.description)
                    events.append(
                        NotificationEvent(
                            type: .shiftStarting, tenantID: tenantID,
                            key: "starting:\(id):\(shift.employeeID):\(shift.start):\(rule.id)", revision: revision,
                            about: shift.start, due: due, planned: true, scheduleIDs: [id], people: [shift.employeeID],
                            data: data))
                }
            }
        }
        return events
    }
}
