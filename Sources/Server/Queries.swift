import RosterDomain
import RosterProtocol

/// Answers read requests from a consistent view of one tenant. Pure: no I/O, no locks.
enum Queries {
    static func answer(_ request: RosterMessage, view: TenantRuntime.View, now: UnixMillis) -> Result<RosterMessage, WireError> {
        let state = view.state
        switch request {
        case .getOnDuty(let query):
            let lookup = view.engine.lookup(at: query.hasAtMs ? query.atMs : now)
            return .success(.onDuty(.with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.atMs = lookup.at
                $0.current = lookup.current.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
                if let until = lookup.until { $0.untilMs = until }
                $0.next = lookup.next.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
            }))

        case .listEmployees(let query):
            let employees = state.sortedEmployees
            return .success(.employees(.with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.employees = employees.map(Roster_V1_Employee.init)
                let grouping: EmployeeGrouping? = switch query.groupBy {
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
            }))

        case .search(let query):
            var found = state.employees.values.matching(query.text)
            if query.limit > 0 { found = Array(found.prefix(Int(query.limit))) }
            return .success(.employees(.with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.employees = found.map(Roster_V1_Employee.init)
            }))

        case .getEmployee(let query):
            guard let employee = state.employee(matching: query.idOrName) else {
                return .failure(WireError(.notFound(
                    "employee \"\(query.idOrName)\"", suggestions: state.suggestions(for: query.idOrName))))
            }
            let shifts = state.upcomingShifts(of: employee.id, now: now)
            return .success(.employee(.with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.employee = Roster_V1_Employee(employee)
                $0.shifts = shifts.map(Roster_V1_Shift.init)
            }))

        case .listShifts(let query):
            var employeeID: String?
            if !query.employeeID.isEmpty {
                guard let employee = state.employee(idOrName: query.employeeID) else {
                    return .failure(WireError(.notFound(
                        "employee \"\(query.employeeID)\"", suggestions: state.suggestions(for: query.employeeID))))
                }
                employeeID = employee.id
            }
            if query.hasFromMs, query.hasToMs, query.fromMs >= query.toMs {
                return .failure(WireError(.invalidArgument, "the window's start is not before its end"))
            }
            let shifts = state.shifts(from: query.hasFromMs ? query.fromMs : nil, to: query.hasToMs ? query.toMs : nil,
                                      employeeID: employeeID)
            return .success(.shifts(.with {
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.shifts = shifts.map(Roster_V1_Shift.init)
            }))

        case .getSnapshot:
            return .success(.snapshot(Roster_V1_Snapshot(state, epoch: view.epoch, revision: view.revision)))

        default:
            return .failure(WireError(.protocolViolation, "\(request.type) is not a query"))
        }
    }
}
