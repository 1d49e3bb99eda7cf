import RosterDomain

// Conversions between the shared domain model and wire messages, used by server and client alike.

/// Protocol constants shared by both ends.
public enum WireProtocol {
    /// The protocol versions this build speaks.
    public static let supportedVersions: ClosedRange<UInt32> = 1...1
    /// The frame limit before the handshake completes (Hello and Welcome must fit).
    public static let handshakeMaxFrameLength = 4 * 1024
    /// The default frame limit after the handshake.
    public static let defaultMaxFrameLength = 1024 * 1024
}

extension Roster_V1_Employee {
    public init(_ employee: Employee) {
        self.init()
        id = employee.id
        firstName = employee.firstName
        lastName = employee.lastName
        email = employee.email
        phone = employee.phone
        position = employee.position
        team = employee.team
        projects = employee.projects
        biography = employee.biography
        photoURL = employee.photoURL
        type = Roster_V1_EmployeeType(employee.type)
        chat = employee.chat
        deactivated = employee.deactivated
    }
}

extension Employee {
    public init(_ wire: Roster_V1_Employee) {
        self.init(
            id: wire.id, firstName: wire.firstName, lastName: wire.lastName, email: wire.email, phone: wire.phone,
            position: wire.position, team: wire.team, projects: wire.projects, biography: wire.biography,
            photoURL: wire.photoURL, type: EmployeeType(wire.type), chat: wire.chat, deactivated: wire.deactivated)
    }
}

extension Roster_V1_EmployeeType {
    public init(_ type: EmployeeType) {
        switch type {
        case .unspecified: self = .unspecified
        case .fullTime: self = .fullTime
        case .partTime: self = .partTime
        case .contractor: self = .contractor
        }
    }
}

extension EmployeeType {
    public init(_ wire: Roster_V1_EmployeeType) {
        switch wire {
        case .fullTime: self = .fullTime
        case .partTime: self = .partTime
        case .contractor: self = .contractor
        case .unspecified, .UNRECOGNIZED: self = .unspecified
        }
    }
}

extension Roster_V1_Shift {
    public init(_ shift: Shift) {
        self.init()
        id = shift.id
        employeeID = shift.employeeID
        startMs = shift.start
        endMs = shift.end
        role = shift.role
        scheduleID = shift.scheduleID
    }
}

extension Shift {
    public init(_ wire: Roster_V1_Shift) {
        self.init(
            id: wire.id, employeeID: wire.employeeID, start: wire.startMs, end: wire.endMs, role: wire.role,
            scheduleID: wire.scheduleID)
    }
}

extension Roster_V1_Tenant {
    public init(_ tenant: Tenant) {
        self.init()
        id = tenant.id
        name = tenant.name
        motd = tenant.motd
    }
}

extension Tenant {
    public init(_ wire: Roster_V1_Tenant) {
        self.init(id: wire.id, name: wire.name, motd: wire.motd)
    }
}

extension Roster_V1_Change {
    public init(_ change: RosterChange) {
        self.init()
        switch change {
        case .employeeUpserted(let employee): employeeUpserted = Roster_V1_Employee(employee)
        case .employeeDeleted(let id): employeeDeleted = id
        case .shiftAdded(let shift): shiftAdded = Roster_V1_Shift(shift)
        case .shiftDeleted(let id): shiftDeleted = id
        case .motdSet(let motd): motdSet = motd
        case .scheduleUpserted(let schedule): scheduleUpserted = Roster_V1_Schedule(schedule)
        case .scheduleDeleted(let id): scheduleDeleted = id
        case .timeOffSet(let entry): timeOffSet = Roster_V1_TimeOff(entry)
        case .timeOffDeleted(let id): timeOffDeleted = id
        case .holidaysSet(let calendar): holidaysSet = Roster_V1_Holidays(calendar)
        case .holidaysDeleted(let name): holidaysDeleted = name
        case .escalationPolicySet(let policy): escalationPolicySet = Roster_V1_EscalationPolicy(policy)
        case .escalationPolicyDeleted(let id): escalationPolicyDeleted = id
        case .serviceSet(let service): serviceSet = Roster_V1_Service(service)
        case .serviceDeleted(let id): serviceDeleted = id
        }
    }
}

extension RosterChange {
    /// nil for a change kind this build does not know (a newer peer's addition).
    public init?(_ wire: Roster_V1_Change) {
        switch wire.kind {
        case .employeeUpserted(let employee): self = .employeeUpserted(Employee(employee))
        case .employeeDeleted(let id): self = .employeeDeleted(id: id)
        case .shiftAdded(let shift): self = .shiftAdded(Shift(shift))
        case .shiftDeleted(let id): self = .shiftDeleted(id: id)
        case .motdSet(let motd): self = .motdSet(motd)
        case .scheduleUpserted(let schedule): self = .scheduleUpserted(ScheduleDefinition(schedule))
        case .scheduleDeleted(let id): self = .scheduleDeleted(id: id)
        case .timeOffSet(let entry): self = .timeOffSet(TimeOff(entry))
        case .timeOffDeleted(let id): self = .timeOffDeleted(id: id)
        case .holidaysSet(let calendar): self = .holidaysSet(HolidaySet(calendar))
        case .holidaysDeleted(let name): self = .holidaysDeleted(name: name)
        case .escalationPolicySet(let policy): self = .escalationPolicySet(EscalationPolicy(policy))
        case .escalationPolicyDeleted(let id): self = .escalationPolicyDeleted(id: id)
        case .serviceSet(let service): self = .serviceSet(PagingService(service))
        case .serviceDeleted(let id): self = .serviceDeleted(id: id)
        case nil: return nil
        }
    }
}

extension Roster_V1_Snapshot {
    public init(_ state: RosterState, epoch: UInt64, revision: UInt64) {
        self.init()
        self.epoch = epoch
        self.revision = revision
        tenant = Roster_V1_Tenant(state.tenant)
        employees = state.sortedEmployees.map(Roster_V1_Employee.init)
        shifts = state.sortedShifts.map(Roster_V1_Shift.init)
        schedules = state.sortedSchedules.map(Roster_V1_Schedule.init)
        timeOff = state.timeOff.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map(Roster_V1_TimeOff.init)
        holidays = state.holidays.values.sorted { $0.name < $1.name }.map(Roster_V1_Holidays.init)
        escalationPolicies = state.escalation.sortedPolicies.map(Roster_V1_EscalationPolicy.init)
        services = state.escalation.sortedServices.map(Roster_V1_Service.init)
    }
}

extension RosterState {
    public init(_ snapshot: Roster_V1_Snapshot) {
        self.init(
            tenant: Tenant(snapshot.tenant), employees: snapshot.employees.map(Employee.init),
            shifts: snapshot.shifts.map(Shift.init), schedules: snapshot.schedules.map(ScheduleDefinition.init),
            timeOff: snapshot.timeOff.map(TimeOff.init), holidays: snapshot.holidays.map(HolidaySet.init),
            escalationPolicies: snapshot.escalationPolicies.map(EscalationPolicy.init),
            services: snapshot.services.map(PagingService.init))
    }
}

extension Roster_V1_OnDutyPerson {
    /// The person behind `shift`, looked up in `state`; a shift whose employee is unknown yields
    /// an entry with only the employee id set.
    public init(shift: Shift, in state: RosterState) {
        self.init()
        self.shift = Roster_V1_Shift(shift)
        employee =
            state.employees[shift.employeeID].map(Roster_V1_Employee.init)
            ?? Roster_V1_Employee.with { $0.id = shift.employeeID }
    }
}

extension Roster_V1_SubscriptionFilter {
    /// True when the filter lets everything through.
    public var isEmpty: Bool { team.isEmpty && position.isEmpty }

    /// Whether an employee passes the filter (case- and diacritic-insensitive).
    public func admits(_ employee: Employee) -> Bool {
        (team.isEmpty || TextFolding.fold(team) == TextFolding.fold(employee.team))
            && (position.isEmpty || TextFolding.fold(position) == TextFolding.fold(employee.position))
    }
}

extension Roster_V1_ImportFormat {
    public init(_ format: ImportFormat) {
        switch format {
        case .snapshotJSON: self = .snapshotJson
        case .legacyAppJSON: self = .legacyAppJson
        case .employeesCSV: self = .employeesCsv
        case .shiftsCSV: self = .shiftsCsv
        case .pagerDutyJSON: self = .pagerdutyScheduleJson
        }
    }
}

extension ImportFormat {
    public init?(_ wire: Roster_V1_ImportFormat) {
        switch wire {
        case .snapshotJson: self = .snapshotJSON
        case .legacyAppJson: self = .legacyAppJSON
        case .employeesCsv: self = .employeesCSV
        case .pagerdutyScheduleJson: self = .pagerDutyJSON
        case .shiftsCsv: self = .shiftsCSV
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}

extension Roster_V1_ImportSummary {
    public init(_ plan: ImportPlan) {
        self = .with {
            $0.added = UInt32(plan.count(.added))
            $0.updated = UInt32(plan.count(.updated))
            $0.unchanged = UInt32(plan.count(.unchanged))
            $0.removed = UInt32(plan.count(.removed))
            $0.rows = plan.rows.map { row in
                .with {
                    $0.action = Roster_V1_ImportAction(row.action)
                    $0.kind = row.kind
                    $0.id = row.id
                    $0.description_p = row.description
                    $0.location = row.location
                }
            }
        }
    }
}

extension Roster_V1_ImportAction {
    public init(_ action: ImportAction) {
        switch action {
        case .added: self = .added
        case .updated: self = .updated
        case .unchanged: self = .unchanged
        case .removed: self = .removed
        }
    }
}

extension ImportAction {
    public init?(_ wire: Roster_V1_ImportAction) {
        switch wire {
        case .added: self = .added
        case .updated: self = .updated
        case .unchanged: self = .unchanged
        case .removed: self = .removed
        default: return nil
        }
    }
}

extension Roster_V1_OnDutyCause {
    public init(_ cause: OnDutyCause) {
        switch cause {
        case .initial: self = .initial
        case .boundary: self = .boundary
        case .planChanged: self = .planChanged
        case .clockJump: self = .clockJump
        }
    }
}

extension OnDutyCause {
    /// nil for a cause this build does not know (a newer server's).
    public init?(_ wire: Roster_V1_OnDutyCause) {
        switch wire {
        case .initial: self = .initial
        case .boundary: self = .boundary
        case .planChanged: self = .planChanged
        case .clockJump: self = .clockJump
        default: return nil
        }
    }
}
