import Foundation
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterTLS

/// The requests of an app: who is on duty, the directory, shifts, imports. Each is one
/// request over the client's connection (`request`), answered or thrown as a typed error.
extension RosterClient {
    /// Who is on duty on a schedule (id or name; the default schedule when nil).
    public func onDuty(at instant: UnixMillis? = nil, schedule: String? = nil) async throws -> OnDutyStatus {
        let query = RosterMessage.getOnDuty(
            .with {
                if let instant { $0.atMs = instant }
                if let schedule { $0.schedule = schedule }
            })
        guard case .onDuty(let answer) = try await request(query) else {
            throw RosterClientError.protocolViolation("expected OnDuty")
        }
        return OnDutyStatus(answer)
    }

    public func employees(groupedBy grouping: EmployeeGrouping? = nil) async throws -> (
        employees: [Employee], groups: [EmployeeGroup]
    ) {
        let message = RosterMessage.listEmployees(
            .with {
                $0.groupBy =
                    switch grouping {
                    case .position: .byPosition;
                    case .team: .byTeam;
                    case nil: .none
                    }
            })
        guard case .employees(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Employees")
        }
        return (
            answer.employees.map(Employee.init),
            answer.groups.map { EmployeeGroup(name: $0.name, employees: $0.employees.map(Employee.init)) }
        )
    }

    public func search(_ text: String, limit: Int = 0) async throws -> [Employee] {
        guard
            case .employees(let answer) = try await request(
                .search(
                    .with {
                        $0.text = text; $0.limit = UInt32(limit)
                    }))
        else {
            throw RosterClientError.protocolViolation("expected Employees")
        }
        return answer.employees.map(Employee.init)
    }

    public func employee(_ idOrName: String) async throws -> (employee: Employee, shifts: [Shift]) {
        guard case .employee(let answer) = try await request(.getEmployee(.with { $0.idOrName = idOrName })) else {
            throw RosterClientError.protocolViolation("expected Employee")
        }
        return (Employee(answer.employee), answer.shifts.map(Shift.init))
    }

    public func shifts(from: UnixMillis? = nil, to: UnixMillis? = nil, employee: String? = nil) async throws -> [Shift]
    {
        try await shiftListing(from: from, to: to, employee: employee).shifts
    }

    /// The shifts overlapping [from, to), and the people they name by id (an older server
    /// names nobody: look them up in the cache then).
    public func shiftListing(from: UnixMillis? = nil, to: UnixMillis? = nil, employee: String? = nil) async throws
        -> (shifts: [Shift], people: [String: Employee])
    {
        let message = RosterMessage.listShifts(
            .with {
                if let from { $0.fromMs = from }
                if let to { $0.toMs = to }
                if let employee { $0.employeeID = employee }
            })
        guard case .shifts(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Shifts")
        }
        let people = answer.employees.map(Employee.init)
        return (
            answer.shifts.map(Shift.init),
            Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        )
    }

    // MARK: Administration

    /// Sends an admin request; returns the committed revision and the ids it touched.
    /// Imports a file (docs/PROTOCOL.md, "Import formats"); with `dryRun`, only says what it would do.
    /// `reason` is kept in the audit log.
    public func importFile(
        _ data: Data, format: ImportFormat, options: ImportOptions, dryRun: Bool,
        reason: String = ""
    ) async throws -> ImportResult {
        let message = RosterMessage.importData(
            .with {
                $0.format = .init(format)
                $0.data = data
                $0.replace = options.replace
                $0.updateExisting = options.updateExisting
                $0.dryRun = dryRun
                $0.reason = reason
            })
        let result: Roster_V1_MutationResult
        if dryRun {
            guard case .mutationResult(let answer) = try await request(message) else {
                throw RosterClientError.protocolViolation("expected MutationResult")
            }
            result = answer
        } else {
            result = try await change(message)
        }
        return ImportResult(
            revision: result.revision, ids: result.ids, dryRun: result.dryRun,
            rows: result.importSummary.rows.compactMap { row in
                ImportAction(row.action).map {
                    ImportRow(
                        action: $0, kind: row.kind, id: row.id, description: row.description_p,
                        location: row.location)
                }
            })
    }
}
