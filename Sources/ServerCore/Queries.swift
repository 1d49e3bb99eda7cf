import RosterDomain
import RosterProtocol

/// Answers read requests from a consistent view of one tenant. Pure: no I/O, no locks.
package enum Queries {
    package static func answer(_ request: RosterMessage, view: TenantRuntime.View, now: UnixMillis) -> Result<
        RosterMessage, WireError
    > {
        let state = view.state
        switch request {
        case .getOnDuty(let query):
            if query.hasAtMs, !TimeRange.supported.contains(query.atMs) {
                return .failure(WireError(.invalidArgument, "at_ms \(TimeRange.message)"))
            }
            let scheduleID: String
            switch schedule(named: query.schedule, in: state) {
            case .success(let found): scheduleID = found?.id ?? ScheduleDefinition.defaultID
            case .failure(let error): return .failure(error)
            }
            guard let lookup = view.onDuty(scheduleID: scheduleID, at: query.hasAtMs ? query.atMs : now) else {
                return .failure(WireError(.notFound("schedule \"\(query.schedule)\"", suggestions: [])))
            }
            return .success(
                .onDuty(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        $0.atMs = lookup.at
                        $0.current = lookup.current.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
                        if let until = lookup.until { $0.untilMs = until }
                        $0.next = lookup.next.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
                        if scheduleID != ScheduleDefinition.defaultID { $0.scheduleID = scheduleID }
                    }))

        case .getEscalation(let request):
            return EscalationAnswer.answer(
                request, state: state, epoch: view.epoch, revision: view.revision, now: now,
                onDuty: { view.onDuty(scheduleID: $0, at: $1) }
            ).map(RosterMessage.escalation).mapError(WireError.init)

        case .listSchedules:
            return .success(
                .schedules(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        $0.schedules = state.sortedSchedules.map(Roster_V1_Schedule.init)
                    }))

        case .getFinalSchedule(let query):
            if let refusal = finalScheduleRefusal(query) { return .failure(refusal) }
            return finalSchedule(
                schedule: query.schedule, employee: query.employee, from: query.fromMs, to: query.toMs,
                view: view
            ).map { finalScheduleMessage($0, view: view) }

        case .getNextOnDuty(let query):
            guard !query.employee.isEmpty else { return .failure(WireError(.invalidArgument, "name an employee")) }
            if query.hasAtMs, !TimeRange.supported.contains(query.atMs) {
                return .failure(WireError(.invalidArgument, "at_ms \(TimeRange.message)"))
            }
            let next: [(scheduleID: String, shift: ResolvedShift)]
            do throws(RosterError) {
                next = try state.nextOnDuty(
                    employee: query.employee, schedule: query.schedule, at: query.hasAtMs ? query.atMs : now)
            } catch {
                return .failure(WireError(error))
            }
            return .success(
                .finalSchedule(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        let sources = state.overrideSources(on: next.map(\.scheduleID))
                        $0.shifts = next.map {
                            Roster_V1_ResolvedShift(
                                $0.shift, scheduleID: $0.scheduleID, in: state, overrideSources: sources)
                        }
                    }))

        case .listEmployees(let query):
            return .success(
                .employees(
                    employeeListing(
                        view.sortedEmployees, groupBy: query.groupBy, epoch: view.epoch,
                        revision: view.revision)))

        case .search(let query):
            var found = state.employees.values.matching(query.text)
            if query.limit > 0 { found = Array(found.prefix(Int(query.limit))) }
            return .success(
                .employees(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        $0.employees = found.map(Roster_V1_Employee.init)
                    }))

        case .getEmployee(let query):
            guard let employee = state.employee(matching: query.idOrName) else {
                return .failure(
                    WireError(
                        .notFound(
                            "employee \"\(query.idOrName)\"", suggestions: state.suggestions(for: query.idOrName))))
            }
            let shifts = state.upcomingShifts(of: employee.id, now: now)
            return .success(
                .employee(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        $0.employee = Roster_V1_Employee(employee)
                        $0.shifts = shifts.map(Roster_V1_Shift.init)
                    }))

        case .listShifts(let query):
            var employeeID: String?
            if !query.employeeID.isEmpty {
                guard let employee = state.employee(idOrName: query.employeeID) else {
                    return .failure(
                        WireError(
                            .notFound(
                                "employee \"\(query.employeeID)\"",
                                suggestions: state.suggestions(for: query.employeeID))))
                }
                employeeID = employee.id
            }
            if query.hasFromMs, query.hasToMs, query.fromMs >= query.toMs {
                return .failure(WireError(.invalidArgument, "the window's start is not before its end"))
            }
            let shifts = state.shifts(
                from: query.hasFromMs ? query.fromMs : nil, to: query.hasToMs ? query.toMs : nil,
                employeeID: employeeID)
            return .success(
                .shifts(
                    .with {
                        $0.epoch = view.epoch
                        $0.revision = view.revision
                        $0.shifts = shifts.map(Roster_V1_Shift.init)
                        var named = Set<String>()
                        $0.employees = shifts.compactMap { shift in
                            guard named.insert(shift.employeeID).inserted else { return nil }
                            return state.employees[shift.employeeID].map(Roster_V1_Employee.init)
                        }
                    }))

        case .getSnapshot:
            return .success(.snapshot(Roster_V1_Snapshot(state, epoch: view.epoch, revision: view.revision)))

        default:
            return .failure(WireError(.protocolViolation, "\(request.type) is not a query"))
        }
    }

    /// The directory listing: everyone in display order, and the groups when asked for.
    static func employeeListing(
        _ employees: [Employee], groupBy: Roster_V1_Grouping, epoch: UInt64,
        revision: UInt64
    ) -> Roster_V1_EmployeesResponse {
        .with {
            $0.epoch = epoch
            $0.revision = revision
            $0.employees = employees.map(Roster_V1_Employee.init)
            let grouping: EmployeeGrouping? =
                switch groupBy {
                case .byPosition: .position
                case .byTeam: .team
                default: nil
                }
            if let grouping {
                $0.groups = employees.grouped(by: grouping).map { group in
                    Roster_V1_EmployeeGroup.with {
                        $0.name = group.name
                        $0.employees = group.employees.map(Roster_V1_Employee.init)
                    }
                }
            }
        }
    }

    /// The longest window the final schedule is resolved for in one request.
    static let maxWindow: UnixMillis = 366 * 86_400_000

    /// nil for an empty name (meaning "the default one" here).
    static func schedule(named name: String, in state: RosterState) -> Result<ScheduleDefinition?, WireError> {
        guard !name.isEmpty else { return .success(nil) }
        do throws(RosterError) {
            return .success(try state.schedules(named: name).first)
        } catch {
            return .failure(WireError(error))
        }
    }

    /// The final schedule as the wire carries it (the rules are `RosterState.finalSchedule`).
    static func finalSchedule(
        schedule name: String, employee: String, from: UnixMillis, to: UnixMillis,
        view: TenantRuntime.View
    )
        -> Result<([Roster_V1_ResolvedShift], Bool, [Roster_V1_DutyConflict]), WireError>
    {
        do throws(RosterError) {
            var resolution = try view.state.finalScheduleResolution(
                schedule: name, employee: employee, from: from, to: to,
                kept: view.keptWeeks)
            try resolution.advance()
            return .success(finalScheduleParts(resolution, view: view))
        } catch {
            return .failure(WireError(error))
        }
    }

    /// Why a GetFinalSchedule window is refused, if it is.
    static func finalScheduleRefusal(_ query: Roster_V1_GetFinalScheduleRequest) -> WireError? {
        guard TimeRange.supported.contains(query.fromMs), TimeRange.supported.contains(query.toMs) else {
            return WireError(.invalidArgument, "from_ms and to_ms: each \(TimeRange.message)")
        }
        guard query.fromMs < query.toMs else {
            return WireError(.invalidArgument, "the window's start is not before its end")
        }
        guard query.toMs - query.fromMs <= maxWindow else {
            return WireError(.invalidArgument, "the window is longer than 366 days; ask in parts")
        }
        return nil
    }

    static func finalScheduleMessage(
        _ parts: ([Roster_V1_ResolvedShift], Bool, [Roster_V1_DutyConflict]),
        view: TenantRuntime.View
    ) -> RosterMessage {
        .finalSchedule(
            .with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                ($0.shifts, $0.truncated, $0.conflicts) = parts
            })
    }

    /// A resolution that is done, as the wire carries it: the shifts, whether they were cut, and
    /// the conflicts among them.
    static func finalScheduleParts(_ resolution: FinalScheduleResolution, view: TenantRuntime.View)
        -> ([Roster_V1_ResolvedShift], Bool, [Roster_V1_DutyConflict])
    {
        let state = view.state, answer = resolution.answer
        let sources = state.overrideSources(on: answer.shifts.map(\.scheduleID))
        return (
            answer.shifts.map {
                Roster_V1_ResolvedShift($0.shift, scheduleID: $0.scheduleID, in: state, overrideSources: sources)
            },
            answer.truncated, state.conflicts(in: answer.shifts).map { Roster_V1_DutyConflict($0, in: state) }
        )
    }
}
