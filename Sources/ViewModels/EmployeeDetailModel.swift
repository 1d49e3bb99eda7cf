import Foundation
import Observation
import RosterClient
import RosterDomain

/// A person's detail screen: everything the directory holds about them, their next shifts per
/// schedule, and the matching contact. It reads the screen model's roster, so it follows
/// pushes while shown; `employee` is nil once the person was deleted.
@MainActor @Observable
public final class EmployeeDetailModel {
    public let employeeID: String
    private let screen: RosterScreenModel

    public init(employeeID: String, screen: RosterScreenModel) {
        self.employeeID = employeeID
        self.screen = screen
    }

    public var employee: Employee? { screen.roster?.state.employees[employeeID] }
    public var fullName: String { employee?.fullName ?? "" }
    public var email: String { employee?.email ?? "" }
    public var phone: String { employee?.phone ?? "" }
    public var position: String { employee?.position ?? "" }
    public var team: String { employee?.team ?? "" }
    public var projects: [String] { employee?.projects ?? [] }
    public var biography: String { employee?.biography ?? "" }
    public var photoURL: URL? { employee.flatMap { URL(string: $0.photoURL) }.flatMap { $0.scheme == nil ? nil : $0 } }
    public var employeeType: EmployeeType { employee?.type ?? .unspecified }

    /// The contact with the same first and last name, if a contacts directory was given.
    public var contact: Contact? { employee.flatMap { screen.contacts?.contact(matching: $0) } }
    public var matchesContact: Bool { contact != nil }

    /// The person's shifts that have not ended at `now`, earliest first, per schedule.
    public func nextShifts(now: UnixMillis = .now, limit: Int = 10) -> [(schedule: String, shifts: [Shift])] {
        guard let roster = screen.roster, employee != nil else { return [] }
        let shifts = roster.state.upcomingShifts(of: employeeID, now: now)
        return shifts.isEmpty ? [] : [(screen.tenantName, Array(shifts.prefix(limit)))]
    }
}
