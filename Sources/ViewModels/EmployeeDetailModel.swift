import Foundation
import Observation
import RosterClient
import RosterDomain

/// A person's detail screen: everything the directory holds about them, their duty per schedule
/// from every source, and the matching contact. It reads the screen model's roster, so it follows
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

    /// How far ahead `nextDuty` looks, as `roster-client show PERSON` does.
    public static let dutyHorizon: UnixMillis = 28 * 86_400_000

    /// The person's duty that has not ended at `now`, over the next four weeks, from every source
    /// (rotation turns, overrides, one-off shifts) as the cached final schedule has it, per
    /// schedule in the schedules' order; at most `limit` stretches per schedule. Each stretch is
    /// whole (the turn under way from its start, one past the four weeks to its end) and
    /// back-to-back stretches are joined (`WholeStretches`).
    public func nextDuty(now: UnixMillis = .now, limit: Int = 10) -> [(
        schedule: String, stretches: [WholeStretches.Stretch<FinalShift>]
    )] {
        let outer = WholeStretches.resolving(from: now, to: now + Self.dutyHorizon)
        guard let roster = screen.roster, employee != nil,
            let answer = try? roster.finalSchedule(
                FinalScheduleQuery(from: outer.from, to: outer.to, employee: employeeID))
        else { return [] }
        var bySchedule: [String: [WholeStretches.Stretch<FinalShift>]] = [:]
        for stretch in answer.whole(from: now, to: now + Self.dutyHorizon) where stretch.end > now {
            bySchedule[stretch.item.scheduleID, default: []].append(stretch)
        }
        return roster.state.sortedSchedules.compactMap { definition in
            guard let stretches = bySchedule[definition.id] else { return nil }
            return (definition.name, Array(stretches.sorted { $0.start < $1.start }.prefix(limit)))
        }
    }
}
