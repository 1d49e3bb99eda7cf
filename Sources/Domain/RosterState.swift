import Foundation

/// A tenant's whole data set at one revision: the state a server serves and a client caches.
public struct RosterState: Sendable, Hashable {
    public var tenant: Tenant
    public private(set) var employees: EmployeeDirectory
    public private(set) var shifts: ShiftTable
    /// Schedule definitions by id, without their one-off shifts (those are in `shifts`). The
    /// default schedule is always here.
    public private(set) var schedules: [String: ScheduleDefinition]
    /// Every person's time off by id (`TimeOff`), and the ids by person.
    public private(set) var timeOff: [String: TimeOff] = [:]
    private(set) var timeOffByPerson: [String: Set<String>] = [:]
    /// The tenant's holiday calendars by name.
    public private(set) var holidays: [String: HolidaySet] = [:]
    /// Escalation policies and the services that page through them.
    public private(set) var escalation = EscalationDirectory()
    /// Folded schedule name → id, so finding a schedule by name does not fold every name.
    private var scheduleIDsByName: [String: String]
    /// Folded team name → the ids of its schedules: a step's team target is looked up at every
    /// escalation answer, and folding every schedule's team each time was most of its cost.
    private(set) var scheduleIDsByTeam: [String: Set<String>] = [:]
    /// Folded full name → ids, so checking a name or finding a person by it does not fold the
    /// whole directory (300 ms at 100,000 people). Built on first use: a one-shot `now` never
    /// looks anyone up by name, and building it was a fifth of loading a 12,000-person cache.
    private var names = EmployeeNameIndex()

    public init(
        tenant: Tenant, employees: [Employee] = [], shifts: [Shift] = [], schedules: [ScheduleDefinition] = [],
        timeOff: [TimeOff] = [], holidays: [HolidaySet] = [], escalationPolicies: [EscalationPolicy] = [],
        services: [PagingService] = []
    ) {
        self.tenant = tenant
        self.employees = EmployeeDirectory()
        self.employees.reserveCapacity(employees.count)
        for employee in employees { self.employees[employee.id] = employee }
        self.shifts = ShiftTable(shifts)
        var byID = [ScheduleDefinition.defaultID: ScheduleDefinition.makeDefault()]
        for var schedule in schedules {
            schedule.shifts = []
            byID[schedule.id] = schedule
        }
        self.schedules = byID
        for schedule in byID.values where !schedule.team.isEmpty {
            scheduleIDsByTeam[TextFolding.fold(schedule.team), default: []].insert(schedule.id)
        }
        scheduleIDsByName = Dictionary(
            byID.values.map { (TextFolding.fold($0.name), $0.id) }, uniquingKeysWith: { a, _ in a })
        for entry in timeOff { apply(.timeOffSet(entry)) }
        for calendar in holidays { self.holidays[calendar.name] = calendar }
        escalation = EscalationDirectory(policies: escalationPolicies, services: services)
    }

    private mutating func refileTeam(of schedule: ScheduleDefinition, adding: Bool) {
        guard !schedule.team.isEmpty else { return }
        let key = TextFolding.fold(schedule.team)
        if adding {
            scheduleIDsByTeam[key, default: []].insert(schedule.id)
        } else {
            scheduleIDsByTeam[key]?.remove(schedule.id)
            if scheduleIDsByTeam[key]?.isEmpty == true { scheduleIDsByTeam[key] = nil }
        }
    }

    /// The ids of the employees with this full name (case- and diacritic-insensitive).
    public func employeeIDs(named fullName: String) -> Set<String> {
        names.ids(named: TextFolding.fold(fullName.trimmingCharacters(in: .whitespaces)), in: employees)
    }

    private mutating func refile(removing previous: Employee?, adding employee: Employee?) {
        if isKnownUniquelyReferenced(&names) {
            names.update(removing: previous, adding: employee)
        } else {
            names = names.changed(removing: previous, adding: employee)
        }
    }

    /// Employees by last name, then first name.
    public var sortedEmployees: [Employee] { Array(employees.values, count: employees.count).sortedForDisplay() }

    /// Shifts by start, then by the employee's last name.
    public var sortedShifts: [Shift] { sortShifts(Array(shifts.values, count: shifts.count)) }

    public func sortShifts(_ list: [Shift]) -> [Shift] {
        // Sorts positions by start and looks at the shifts only on a tie: moving the shifts
        // themselves retains and releases their strings at every step (a million took 1.3 s).
        let starts = list.map(\.start)
        let order = list.indices.sorted { a, b in
            if starts[a] != starts[b] { return starts[a] < starts[b] }
            let sa = list[a], sb = list[b]
            let ea = employees[sa.employeeID], eb = employees[sb.employeeID]
            if let ea, let eb, ea != eb { return Employee.displayOrder(ea, eb) }
            return sa.id < sb.id
        }
        return order.map { list[$0] }
    }

    /// Applies changes that were already validated (a committed revision, or a replayed event).
    /// Deleting an employee also deletes their shifts. Applying is idempotent.
    public mutating func apply(_ change: RosterChange) {
        switch change {
        case .employeeUpserted(let employee):
            refile(removing: employees[employee.id], adding: employee)
            employees[employee.id] = employee
        case .employeeDeleted(let id):
            refile(removing: employees[id], adding: nil)
            employees[id] = nil
            shifts.removeAll { $0.employeeID == id }
            for entry in timeOffByPerson[id] ?? [] { timeOff[entry] = nil }
            timeOffByPerson[id] = nil
        case .scheduleUpserted(var schedule):
            schedule.shifts = []
            if let previous = schedules[schedule.id] {
                scheduleIDsByName[TextFolding.fold(previous.name)] = nil
                refileTeam(of: previous, adding: false)
            }
            schedules[schedule.id] = schedule
            scheduleIDsByName[TextFolding.fold(schedule.name)] = schedule.id
            refileTeam(of: schedule, adding: true)
        case .scheduleDeleted(let id):
            guard id != ScheduleDefinition.defaultID else { return }
            if let previous = schedules[id] {
                scheduleIDsByName[TextFolding.fold(previous.name)] = nil
                refileTeam(of: previous, adding: false)
            }
            schedules[id] = nil
            shifts.removeAll { ShiftTable.scheduleKey($0.scheduleID) == id }
        case .shiftAdded(let shift):
            shifts[shift.id] = shift
        case .shiftDeleted(let id):
            shifts[id] = nil
        case .motdSet(let motd):
            tenant.motd = motd
        case .timeOffSet(let entry):
            if let previous = timeOff[entry.id] { timeOffByPerson[previous.employeeID]?.remove(entry.id) }
            timeOff[entry.id] = entry
            timeOffByPerson[entry.employeeID, default: []].insert(entry.id)
        case .timeOffDeleted(let id):
            if let previous = timeOff.removeValue(forKey: id) { timeOffByPerson[previous.employeeID]?.remove(id) }
        case .holidaysSet(let calendar):
            holidays[calendar.name] = calendar
        case .holidaysDeleted(let name):
            holidays[name] = nil
        case .escalationPolicySet(let policy):
            escalation.setPolicy(policy)
        case .escalationPolicyDeleted(let id):
            escalation.deletePolicy(id)
        case .serviceSet(let service):
            escalation.setService(service)
        case .serviceDeleted(let id):
            escalation.deleteService(id)
        }
    }

    /// `changes` with each employee or schedule deletion preceded by the deletion of its shifts
    /// (those still there at that point), so that a revision says on the wire everything it
    /// removes and a client never keeps an orphan shift.
    public func expandingCascades(_ changes: [(location: String, change: RosterChange)])
        -> [(location: String, change: RosterChange)]
    {
        func cascades(_ change: RosterChange) -> ((Shift) -> Bool)? {
            switch change {
            case .employeeDeleted(let id): { $0.employeeID == id }
            case .scheduleDeleted(let id): { $0.scheduleID == id }
            default: nil
            }
        }
        guard changes.contains(where: { cascades($0.change) != nil }) else { return changes }
        var state = self
        var expanded: [(location: String, change: RosterChange)] = []
        for (location, change) in changes {
            if let owned = cascades(change) {
                for shift in state.sortShifts(state.shifts.values.filter(owned)) {
                    expanded.append((location, .shiftDeleted(id: shift.id)))
                    state.apply(.shiftDeleted(id: shift.id))
                }
            }
            if case .employeeDeleted(let id) = change {
                for entry in state.timeOff(of: id) {
                    expanded.append((location, .timeOffDeleted(id: entry.id)))
                    state.apply(.timeOffDeleted(id: entry.id))
                }
            }
            expanded.append((location, change))
            state.apply(change)
        }
        return expanded
    }

    public mutating func apply(_ changes: [RosterChange]) {
        for change in changes { apply(change) }
    }

    /// The employee with this id, or else with this full name (case- and diacritic-insensitive).
    public func employee(idOrName: String) -> Employee? {
        if let byID = employees[idOrName] { return byID }
        return employeeIDs(named: idOrName).min().flatMap { employees[$0] }
    }

    /// The one employee a person means by `query`, as `show` and GetEmployee answer: an id, a
    /// full name, or else a query that only one employee matches (by the search rule: "Ada",
    /// "lovelace", an email). nil when nobody or several people match; then
    /// `suggestions(for:)` names them. Changes (delete, shift add) use `employee(idOrName:)`,
    /// which never guesses.
    public func employee(matching query: String) -> Employee? {
        if let exact = employee(idOrName: query) { return exact }
        let search = EmployeeSearch(query)
        var found: Employee?
        for employee in employees.values where search.matches(employee) {
            guard found == nil else { return nil }  // ambiguous
            found = employee
        }
        return found
    }

    /// Shifts overlapping `[from, to)` (either end open when nil), of one employee if given, by
    /// start then last name: ListShifts on the server, `shifts` from the cache.
    public func shifts(from: UnixMillis?, to: UnixMillis?, employeeID: String? = nil) -> [Shift] {
        sortShifts(
            shifts.values.filter { shift in
                (employeeID == nil || shift.employeeID == employeeID)
                    && (from.map { shift.end > $0 } ?? true) && (to.map { shift.start < $0 } ?? true)
            })
    }

    /// An employee's shifts that have not ended at `now`: GetEmployee, `show`, the watch screen.
    public func upcomingShifts(of employeeID: String? = nil, now: UnixMillis) -> [Shift] {
        shifts(from: now, to: nil, employeeID: employeeID)
    }

    /// A schedule's whole definition, its one-off shifts included.
    public func definition(of scheduleID: String) -> ScheduleDefinition? {
        guard var schedule = schedules[scheduleID] else { return nil }
        schedule.shifts = shifts.all(schedule: scheduleID)
        schedule.timeOff = timeOffOfParticipants(schedule)
        schedule.holidays = holidayDays(for: schedule)
        return schedule
    }

    /// A schedule's definition with the one-off shifts that overlap `[from, to)`: enough to
    /// resolve that window, found by week rather than by looking at every shift.
    public func definition(of scheduleID: String, from: UnixMillis, to: UnixMillis) -> ScheduleDefinition? {
        guard var schedule = schedules[scheduleID] else { return nil }
        schedule.shifts = shifts.overlapping(schedule: scheduleID, from: from, to: to)
        schedule.timeOff = timeOffOfParticipants(schedule)
        schedule.holidays = holidayDays(for: schedule)
        return schedule
    }

    /// The time off of everyone a schedule's rotations name, when one of them hands stretches on
    /// (`Rotation.onTimeOff`): what the resolver needs. Empty otherwise, so that resolving the
    /// usual schedule carries none.
    func timeOffOfParticipants(_ schedule: ScheduleDefinition) -> [TimeOff] {
        guard !timeOff.isEmpty, schedule.skipsTimeOff else { return [] }
        var people = Set<String>()
        for layer in schedule.layers {
            for rotation in layer.rotations where rotation.onTimeOff == .skip {
                people.formUnion(rotation.slots.joined())
            }
        }
        return people.sorted().flatMap { timeOff(of: $0) }
    }

    /// The schedule with this id, or else this name (case- and diacritic-insensitive).
    public func schedule(idOrName: String) -> ScheduleDefinition? {
        if let byID = schedules[idOrName] { return byID }
        return scheduleIDsByName[TextFolding.fold(idOrName.trimmingCharacters(in: .whitespaces))].flatMap {
            schedules[$0]
        }
    }

    /// Schedules by name, the default one first.
    public var sortedSchedules: [ScheduleDefinition] {
        schedules.values.sorted { a, b in
            if (a.id == ScheduleDefinition.defaultID) != (b.id == ScheduleDefinition.defaultID) {
                return a.id == ScheduleDefinition.defaultID
            }
            return (TextFolding.fold(a.name), a.id) < (TextFolding.fold(b.name), b.id)
        }
    }

    /// Builds the on-duty index of one schedule (the default one when nil) around `instant`.
    public func onDutyIndex(of scheduleID: String = ScheduleDefinition.defaultID, around instant: UnixMillis)
        -> ScheduleOnDutyIndex?
    {
        guard let (rules, source) = rulesAndShifts(of: scheduleID) else { return nil }
        return ScheduleOnDutyIndex(rules, source: source, employees: employees, around: instant)
    }

    /// Who is on duty on a schedule (the default one unless named) at `instant`: what its index
    /// answers, without building the index when a few hours settle it.
    public func onDuty(of scheduleID: String = ScheduleDefinition.defaultID, at instant: UnixMillis) -> OnDutyLookup? {
        guard let (rules, source) = rulesAndShifts(of: scheduleID) else { return nil }
        return ScheduleOnDutyIndex.lookupOnce(rules, source: source, employees: employees, at: instant)
    }

    /// A schedule's rules (without one-off shifts) and where its one-off shifts are found. An
    /// index outlives revisions (only the schedules a change touches are rebuilt): one that has
    /// no one-off shifts to read does not keep this revision's shift table alive.
    private func rulesAndShifts(of scheduleID: String) -> (ScheduleDefinition, ScheduleShiftSource)? {
        guard var rules = schedules[scheduleID] else { return nil }
        rules.shifts = []
        rules.timeOff = timeOffOfParticipants(rules)
        rules.holidays = holidayDays(for: rules)
        let source =
            shifts.holdsShifts(schedule: scheduleID)
            ? ScheduleShiftSource(table: shifts, scheduleID: scheduleID)
            : ScheduleShiftSource(list: [])
        return (rules, source)
    }
}

extension Array {
    /// The elements of a sequence whose count is known, in one allocation (a sharded table's
    /// values do not know their count, and growing an array of a million shifts step by step
    /// doubled the time of a snapshot).
    init<S: Sequence>(_ elements: S, count: Int) where S.Element == Element {
        self.init()
        reserveCapacity(count)
        append(contentsOf: elements)
    }
}

extension Employee {
    /// Last name, then first name, ignoring case and diacritics; the id breaks ties.
    public static func displayOrder(_ a: Employee, _ b: Employee) -> Bool {
        let last = TextFolding.compare(a.lastName, b.lastName)
        if last != .orderedSame { return last == .orderedAscending }
        let first = TextFolding.compare(a.firstName, b.firstName)
        if first != .orderedSame { return first == .orderedAscending }
        return a.id < b.id
    }
}

extension Sequence where Element == Employee {
    /// Sorted in `Employee.displayOrder`, folding each name once rather than at every
    /// comparison (folding is the expensive part: a directory of 100,000 took seconds).
    /// Positions are sorted, not the employees: moving an employee retains and releases each of
    /// its strings (half of a 12,000-person listing's time).
    public func sortedForDisplay() -> [Employee] {
        let list = Array(self)
        let keys = list.map { (last: TextFolding.fold($0.lastName), first: TextFolding.fold($0.firstName)) }
        let order = list.indices.sorted { a, b in
            if keys[a].last != keys[b].last { return keys[a].last < keys[b].last }
            if keys[a].first != keys[b].first { return keys[a].first < keys[b].first }
            return list[a].id < list[b].id
        }
        return order.map { list[$0] }
    }
}
