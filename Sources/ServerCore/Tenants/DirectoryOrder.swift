import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol

/// The directory in display order, and each listing's encoded answer, at the newest revision
/// asked for: at 12,000 people sorting was half the work of a listing and encoding most of the
/// rest, and every listing of a revision is the same bytes. Worked out outside the tenant's lock
/// (on the work pool), so a listing never holds up another.
final class DirectoryOrder: Sendable {
    private struct Revision {
        var epoch: UInt64
        var revision: UInt64
        var employees: [Employee]
        var listings: [Roster_V1_Grouping: ByteBuffer] = [:]
    }

    private let newest = NIOLockedValueBox<Revision?>(nil)

    func employees(of state: RosterState, epoch: UInt64, revision: UInt64) -> [Employee] {
        if let hit = newest.withLockedValue({ $0 }), hit.epoch == epoch, hit.revision == revision {
            return hit.employees
        }
        let employees = state.sortedEmployees
        // A late listing of an older revision may replace a newer one's order: the next listing
        // of the newer revision sorts again, and is no less right.
        newest.withLockedValue { $0 = Revision(epoch: epoch, revision: revision, employees: employees) }
        return employees
    }

    /// The body of the EmployeesResponse that lists the directory at this revision.
    func listingBody(of state: RosterState, epoch: UInt64, revision: UInt64, groupBy: Roster_V1_Grouping) -> ByteBuffer
    {
        let employees = employees(of: state, epoch: epoch, revision: revision)
        let cached = newest.withLockedValue { newest -> ByteBuffer? in
            guard let newest, newest.epoch == epoch, newest.revision == revision else { return nil }
            return newest.listings[groupBy]
        }
        if let cached { return cached }
        let body = RosterMessage.employees(
            Queries.employeeListing(employees, groupBy: groupBy, epoch: epoch, revision: revision)
        )
        .bodyBuffer()
        newest.withLockedValue {
            if $0?.epoch == epoch, $0?.revision == revision { $0?.listings[groupBy] = body }
        }
        return body
    }
}
