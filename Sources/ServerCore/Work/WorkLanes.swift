import RosterDomain
import RosterProtocol

/// Which work is short (`TenantWorkPool.Lane`): what reads an index or a listing, a window of
/// at most a week, a change of the message of the day or of a person's details. Everything that
/// resolves further, plans schedules, reports, or exports is long, and never takes the thread
/// kept for short work.
extension TenantWorkPool.Lane {
    /// The lane of a request's work (a query answered, or a change planned): its rule in
    /// `ProtocolRequests`.
    package static func of(_ request: RosterMessage) -> Self {
        ProtocolRequests.rule(request)?.lane ?? .long
    }

    /// The lane of staging these changes: short when none touches a schedule.
    package static func of(changes: [RosterChange]) -> Self {
        changes.allSatisfy { change in
            switch change {
            case .motdSet, .employeeUpserted: true
            default: false
            }
        } ? .short : .long
    }
}
