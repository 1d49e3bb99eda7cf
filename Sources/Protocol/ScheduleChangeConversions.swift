import RosterDomain

// EditSchedule requests as the domain's planners read them. An unknown action reads as none
// (nil), which the planner refuses with the actions it knows.

extension ScheduleChangeRequest {
    public init(_ wire: Roster_V1_EditScheduleRequest) {
        let edit: Edit? =
            switch wire.edit {
            case .upsertSchedule(let schedule): .upsertSchedule(ScheduleDefinition(schedule))
            case .deleteSchedule: .deleteSchedule
            case .upsertRotation(let edit):
                .upsertRotation(
                    Rotation(edit.rotation), level: Int(edit.level),
                    effective: edit.hasEffectiveMs ? edit.effectiveMs : nil,
                    startSlot: edit.hasStartSlot ? Int(edit.startSlot) : nil)
            case .endRotation(let end):
                .endRotation(id: end.rotationID, effective: end.hasEffectiveMs ? end.effectiveMs : nil)
            case .addOverride(let override): .addOverride(ScheduleOverride(override))
            case .deleteOverride(let id): .deleteOverride(id: id)
            case .swap(let swap):
                .swap(
                    Swap(
                        first: swap.first, firstFrom: swap.firstFromMs, firstTo: swap.firstToMs, second: swap.second,
                        secondFrom: swap.secondFromMs, secondTo: swap.secondToMs, reason: swap.reason))
            case .takeDuty(let take):
                .takeDuty(
                    TakeDuty(
                        person: take.person, start: take.startMs, end: take.endMs, reason: take.reason, undo: take.undo)
                )
            case .coverRequest(let cover): .cover(CoverEdit(cover))
            case .timeOff(let timeOff): .timeOff(TimeOffEdit(timeOff))
            case .temporary(let temporary): .temporary(TemporaryEdit(temporary))
            case .takeSuggestion(let conflictID): .takeSuggestion(conflictID: conflictID)
            case .holidays(let holidays): .holidays(HolidaysEdit(holidays))
            case nil: nil
            }
        self.init(schedule: wire.schedule, edit: edit, reason: wire.reason)
    }
}

extension ScheduleChangeRequest.CoverEdit {
    init(_ wire: Roster_V1_CoverRequestEdit) {
        let action: Action? =
            switch wire.action {
            case .open: .open
            case .take: .take
            case .decline: .decline
            case .cancel: .cancel
            case .backOut: .backOut
            case .unspecified, .UNRECOGNIZED: nil
            }
        self.init(
            action: action, requestID: wire.requestID, person: wire.person, start: wire.startMs, end: wire.endMs,
            addressedTo: wire.addressedTo, note: wire.note)
    }
}

extension ScheduleChangeRequest.TimeOffEdit {
    init(_ wire: Roster_V1_TimeOffEdit) {
        let action: Action? =
            switch wire.action {
            case .add: .add
            case .delete: .delete
            case .import: .importCalendar
            case .unspecified, .UNRECOGNIZED: nil
            }
        self.init(
            action: action, person: wire.person, start: wire.startMs, end: wire.endMs, reason: wire.reason, id: wire.id,
            calendar: wire.calendar, zone: wire.zone)
    }
}

extension ScheduleChangeRequest.TemporaryEdit {
    init(_ wire: Roster_V1_TemporaryEdit) {
        let action: Action? =
            switch wire.action {
            case .set: .set
            case .clear: .clear
            case .unspecified, .UNRECOGNIZED: nil
            }
        self.init(
            action: action, start: wire.startMs, end: wire.endMs,
            shifts: wire.shifts.map {
                TemporarySchedule.Shift(employeeID: $0.employeeID, start: $0.startMs, end: $0.endMs)
            },
            allowGaps: wire.allowGaps)
    }
}

extension ScheduleChangeRequest.HolidaysEdit {
    init(_ wire: Roster_V1_HolidaysEdit) {
        let action: Action? =
            switch wire.action {
            case .set: .set
            case .delete: .delete
            case .unspecified, .UNRECOGNIZED: nil
            }
        self.init(action: action, name: wire.name, days: wire.days, calendar: wire.calendar)
    }
}
