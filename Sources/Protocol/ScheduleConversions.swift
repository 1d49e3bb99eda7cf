import RosterDomain

// Schedule definitions and the final schedule on the wire.

extension Roster_V1_Schedule {
    public init(_ schedule: ScheduleDefinition) {
        self.init()
        id = schedule.id
        name = schedule.name
        zone = schedule.zone
        team = schedule.team
        description_p = schedule.description
        layers = schedule.layers.map { layer in
            Roster_V1_ScheduleLayer.with {
                $0.level = Int32(clamping: layer.level)
                $0.rotations = layer.rotations.map(Roster_V1_Rotation.init)
            }
        }
        overrides = schedule.overrides.map(Roster_V1_ScheduleOverride.init)
        readersMayVolunteer = schedule.readersMayVolunteer
        selfServiceOff = schedule.selfServiceOff
        requests = schedule.requests.map { Roster_V1_CoverRequest($0) }
        temporary = schedule.temporary.map { span in
            Roster_V1_TemporarySchedule.with {
                $0.id = span.id
                $0.startMs = span.start
                $0.endMs = span.end
                $0.author = span.author
                $0.shifts = span.shifts.map(Roster_V1_TemporaryShift.init)
            }
        }
    }
}

extension Roster_V1_TemporaryShift {
    public init(_ shift: TemporarySchedule.Shift) {
        self.init()
        employeeID = shift.employeeID
        startMs = shift.start
        endMs = shift.end
    }
}

extension TemporarySchedule {
    public init(_ wire: Roster_V1_TemporarySchedule) {
        self.init(
            id: wire.id, start: wire.startMs, end: wire.endMs,
            shifts: wire.shifts.map { Shift(employeeID: $0.employeeID, start: $0.startMs, end: $0.endMs) },
            author: wire.author)
    }
}

extension ScheduleDefinition {
    /// A definition as sent. Values the domain cannot represent (an unknown cadence unit, an
    /// unparsable handoff) become ones `violations()` reports, never a crash.
    public init(_ wire: Roster_V1_Schedule) {
        self.init(
            id: wire.id, name: wire.name, zone: wire.zone, team: wire.team, description: wire.description_p,
            layers: wire.layers.map { ScheduleLayer(level: Int($0.level), rotations: $0.rotations.map(Rotation.init)) },
            overrides: wire.overrides.map(ScheduleOverride.init), readersMayVolunteer: wire.readersMayVolunteer,
            selfServiceOff: wire.selfServiceOff, requests: wire.requests.map(CoverRequest.init),
            temporary: wire.temporary.map(TemporarySchedule.init))
    }
}

extension Roster_V1_Rotation {
    public init(_ rotation: Rotation) {
        self.init()
        id = rotation.id
        slots = rotation.slots.map { slot in Roster_V1_RotationSlot.with { $0.employeeIds = slot } }
        cadence = Roster_V1_Cadence(rotation.cadence)
        handoff = rotation.handoff.description
        if let end = rotation.end { endMs = end }
        restrictions = rotation.restrictions.map { window in
            Roster_V1_RestrictionWindow.with {
                $0.weekdays = window.weekdays.sorted().map { UInt32($0) }
                $0.startMinute = UInt32(clamping: window.start)
                $0.endMinute = UInt32(clamping: window.end)
                $0.exceptHolidays = window.exceptHolidays
                if let monthly = window.monthly {
                    $0.monthly = .with {
                        $0.nth = Int32(clamping: monthly.nth)
                        $0.weekday = UInt32(clamping: monthly.weekday ?? 0)
                        $0.everyMonths = UInt32(clamping: monthly.everyMonths)
                    }
                }
            }
        }
        advance = rotation.advance == .calendar ? .calendar : .activeTurns
        if let since = rotation.since { sinceMs = since }
        version = UInt32(clamping: rotation.version)
        slotOffset = UInt32(clamping: rotation.slotOffset)
        onTimeOff = rotation.onTimeOff == .skip ? .skip : .flag
    }
}

extension Rotation {
    public init(_ wire: Roster_V1_Rotation) {
        self.init(
            id: wire.id, slots: wire.slots.map(\.employeeIds), cadence: Cadence(wire.cadence),
            // An unparsable anchor becomes year 0, which `violations()` refuses by name.
            handoff: LocalDateTime(parsing: wire.handoff) ?? LocalDateTime(year: 0, month: 1, day: 1),
            end: wire.hasEndMs ? wire.endMs : nil,
            restrictions: wire.restrictions.map {
                RestrictionWindow(
                    weekdays: Set($0.weekdays.map { Int(clamping: $0) }), start: Int($0.startMinute),
                    end: Int($0.endMinute), exceptHolidays: $0.exceptHolidays,
                    monthly: $0.hasMonthly
                        ? MonthlyDays(
                            nth: Int($0.monthly.nth),
                            weekday: $0.monthly.weekday == 0 ? nil : Int(clamping: $0.monthly.weekday),
                            everyMonths: Int(clamping: $0.monthly.everyMonths)) : nil)
            },
            advance: wire.advance == .calendar ? .calendar : .activeTurns,
            since: wire.hasSinceMs ? wire.sinceMs : nil, version: max(1, Int(wire.version)),
            slotOffset: Int(wire.slotOffset), onTimeOff: wire.onTimeOff == .skip ? .skip : .flag)
    }
}

extension Roster_V1_Cadence {
    public init(_ cadence: Cadence) {
        self.init()
        switch cadence {
        case .hours(let n): (unit, count) = (.hours, UInt32(clamping: n))
        case .days(let n): (unit, count) = (.days, UInt32(clamping: n))
        case .weeks(let n): (unit, count) = (.weeks, UInt32(clamping: n))
        case .months(let n): (unit, count) = (.months, UInt32(clamping: n))
        case .minutes(let n): (unit, count) = (.minutes, UInt32(clamping: n))
        }
    }
}

extension Cadence {
    /// An unknown unit reads as a cadence of 0, which validation refuses.
    public init(_ wire: Roster_V1_Cadence) {
        let n = Int(clamping: wire.count)
        switch wire.unit {
        case .hours: self = .hours(n)
        case .days: self = .days(n)
        case .weeks: self = .weeks(n)
        case .months: self = .months(n)
        case .minutes: self = .minutes(n)
        case .unspecified, .UNRECOGNIZED: self = .days(0)
        }
    }
}

extension Roster_V1_ScheduleOverride {
    public init(_ override: ScheduleOverride) {
        self.init()
        id = override.id
        switch override.kind {
        case .replace(let replaced, let with): (kind, employeeID, replacedEmployeeID) = (.replace, with, replaced)
        case .add(let person): (kind, employeeID) = (.add, person)
        case .remove(let person): (kind, employeeID) = (.remove, person)
        }
        startMs = override.start
        endMs = override.end
        author = override.author
        reason = override.reason
        source = override.source
    }
}

extension ScheduleOverride {
    /// An unknown kind reads as removing nobody (""), which validation refuses.
    public init(_ wire: Roster_V1_ScheduleOverride) {
        let kind: Kind =
            switch wire.kind {
            case .replace: .replace(replacing: wire.replacedEmployeeID, with: wire.employeeID)
            case .add: .add(wire.employeeID)
            case .remove: .remove(wire.employeeID)
            case .unspecified, .UNRECOGNIZED: .remove("")
            }
        self.init(
            id: wire.id, kind: kind, start: wire.startMs, end: wire.endMs, author: wire.author, reason: wire.reason,
            source: wire.source)
    }
}

extension Roster_V1_CoverRequest {
    /// As stored; `at` set: with the state at that instant (EXPIRED once an open one's start has come).
    public init(_ request: CoverRequest, at instant: UnixMillis? = nil) {
        self.init()
        id = request.id
        requester = request.requester
        startMs = request.start
        endMs = request.end
        addressedTo = request.addressedTo
        note = request.note
        state =
            switch instant.map(request.state(at:)) ?? request.stored {
            case .open: .open
            case .taken: .taken
            case .cancelled: .cancelled
            case .expired: .expired
            }
        taker = request.taker ?? ""
        overrideID = request.overrideID ?? ""
        declinedBy = request.declinedBy
        openedMs = request.opened
        changedMs = request.changed
        author = request.author
    }
}

extension CoverRequest {
    /// EXPIRED reads as open (it is an open request whose start has come), an unknown state as cancelled.
    public init(_ wire: Roster_V1_CoverRequest) {
        let stored: State =
            switch wire.state {
            case .open, .expired: .open
            case .taken: .taken
            default: .cancelled
            }
        self.init(
            id: wire.id, requester: wire.requester, start: wire.startMs, end: wire.endMs, addressedTo: wire.addressedTo,
            note: wire.note, stored: stored, taker: wire.taker.isEmpty ? nil : wire.taker,
            overrideID: wire.overrideID.isEmpty ? nil : wire.overrideID, declinedBy: wire.declinedBy,
            opened: wire.openedMs, changed: wire.changedMs, author: wire.author)
    }
}

extension Roster_V1_ResolvedShift {
    /// `overrideSources`: `RosterState.overrideSources(on:)` for the answer's schedules.
    public init(
        _ shift: ResolvedShift, scheduleID: String, in state: RosterState? = nil,
        overrideSources: [String: [String: String]] = [:]
    ) {
        self.init()
        id = shift.id
        employeeID = shift.employeeID
        startMs = shift.start
        endMs = shift.end
        self.scheduleID = scheduleID
        switch shift.source {
        case .rotation(let level, let rotation, let version, let turn):
            (sourceKind, sourceID) = (.rotation, rotation)
            self.level = Int32(clamping: level)
            self.turn = UInt32(clamping: turn)
            self.version = UInt32(clamping: version)
        case .shift(let id): (sourceKind, sourceID) = (.shift, id)
        case .override(let id):
            (sourceKind, sourceID) = (.override, id)
            overrideSource = overrideSources[scheduleID]?[id] ?? ""
        case .temporary(let id): (sourceKind, sourceID) = (.temporary, id)
        }
        if let employee = state?.employees[shift.employeeID] { self.employee = Roster_V1_Employee(employee) }
    }
}

extension ResolvedShift {
    public init(_ wire: Roster_V1_ResolvedShift) {
        let source: ShiftSource =
            switch wire.sourceKind {
            case .rotation:
                .rotation(
                    level: Int(wire.level), rotation: wire.sourceID, version: max(1, Int(wire.version)),
                    turn: Int(wire.turn))
            case .shift: .shift(id: wire.sourceID)
            case .temporary: .temporary(id: wire.sourceID)
            default: .override(id: wire.sourceID)
            }
        self.init(id: wire.id, employeeID: wire.employeeID, start: wire.startMs, end: wire.endMs, source: source)
    }
}

extension Roster_V1_DutyDelta {
    public init(_ delta: DutyDelta, scheduleID: String, in state: RosterState) {
        self.init()
        employeeID = delta.employeeID
        employeeName = state.employees[delta.employeeID]?.fullName ?? delta.employeeID
        startMs = delta.start
        endMs = delta.end
        gained = delta.gained
        self.scheduleID = scheduleID
    }
}

extension Roster_V1_TimeOff {
    public init(_ entry: TimeOff) {
        self.init()
        id = entry.id
        employeeID = entry.employeeID
        startMs = entry.start
        endMs = entry.end
        reason = entry.reason
        source = entry.source
        author = entry.author
    }
}

extension TimeOff {
    public init(_ wire: Roster_V1_TimeOff) {
        self.init(
            id: wire.id, employeeID: wire.employeeID, start: wire.startMs, end: wire.endMs, reason: wire.reason,
            source: wire.source,
            author: wire.author)
    }
}

extension Roster_V1_DutyConflict {
    public init(_ conflict: DutyConflict, in state: RosterState) {
        self.init()
        employeeName = state.employees[conflict.employeeID]?.fullName ?? conflict.employeeID
        id = conflict.id
        scheduleID = conflict.scheduleID
        employeeID = conflict.employeeID
        startMs = conflict.start
        endMs = conflict.end
        timeOffID = conflict.timeOffID
        let shift = Roster_V1_ResolvedShift(
            ResolvedShift(
                id: "", employeeID: conflict.employeeID, start: conflict.start, end: conflict.end,
                source: conflict.source), scheduleID: conflict.scheduleID)
        (sourceKind, sourceID) = (shift.sourceKind, shift.sourceID)
        proposals = conflict.proposals.map { proposal in
            Roster_V1_CoverProposal.with {
                $0.employeeID = proposal.employeeID
                $0.dutyAroundMs = proposal.dutyAround
                $0.employeeName = state.employees[proposal.employeeID]?.fullName ?? proposal.employeeID
            }
        }
    }
}

extension DutyConflict {
    /// A conflict as sent (a rotation source keeps only its id: the turn is in the conflict's id).
    public init(_ wire: Roster_V1_DutyConflict) {
        let source: ShiftSource =
            switch wire.sourceKind {
            case .rotation: .rotation(level: 0, rotation: wire.sourceID, version: 1, turn: 0)
            case .shift: .shift(id: wire.sourceID)
            case .temporary: .temporary(id: wire.sourceID)
            default: .override(id: wire.sourceID)
            }
        self.init(
            id: wire.id, scheduleID: wire.scheduleID, employeeID: wire.employeeID, start: wire.startMs, end: wire.endMs,
            timeOffID: wire.timeOffID, source: source,
            proposals: wire.proposals.map { CoverProposal(employeeID: $0.employeeID, dutyAround: $0.dutyAroundMs) })
    }
}

extension Roster_V1_Holidays {
    public init(_ calendar: HolidaySet) {
        self.init()
        name = calendar.name
        days = calendar.days
    }
}

extension HolidaySet {
    public init(_ wire: Roster_V1_Holidays) { self.init(name: wire.name, days: wire.days) }
}
