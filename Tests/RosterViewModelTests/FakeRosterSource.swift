import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterViewModels

/// A source the test drives by hand: the roster it holds, what `refresh` answers, and the
/// updates it yields. No socket.
final class FakeRosterSource: RosterSource {
    let updates: AsyncStream<RosterUpdate>
    let continuation: AsyncStream<RosterUpdate>.Continuation
    let serverName = "roster.test:7400"
    private let held = NIOLockedValueBox<(roster: CachedRoster?, refresh: Result<CachedRoster, RosterClientError>?)>(
        (nil, nil))
    let started = NIOLockedValueBox(0)
    let stopped = NIOLockedValueBox(0)

    init(roster: CachedRoster? = nil) {
        (updates, continuation) = AsyncStream.makeStream()
        held.withLockedValue { $0.roster = roster }
    }

    var roster: CachedRoster? {
        get { held.withLockedValue { $0.roster } }
        set { held.withLockedValue { $0.roster = newValue } }
    }

    /// What the next `refresh` returns or throws.
    func answerRefresh(with result: Result<CachedRoster, RosterClientError>) {
        held.withLockedValue { $0.refresh = result }
    }

    func currentRoster() async -> CachedRoster? { roster }
    func start() async { started.withLockedValue { $0 += 1 } }
    func stop() async { stopped.withLockedValue { $0 += 1 } }

    func refresh() async throws -> CachedRoster {
        guard let result = held.withLockedValue({ $0.refresh }) else {
            throw RosterClientError.connectionFailed("no answer set")
        }
        let roster = try result.get()
        self.roster = roster
        return roster
    }
}

let t0: UnixMillis = 1_767_225_600_000
let minute: Int64 = 60_000

/// A roster at revision `revision`, synced at `syncedAt`.
func cached(
    _ employees: [Employee], shifts: [Shift] = [], revision: UInt64 = 1, motd: String = "",
    syncedAt: Date = Date(timeIntervalSince1970: Double(t0) / 1000)
) -> CachedRoster {
    let state = RosterState(tenant: Tenant(id: "acme", name: "Acme", motd: motd), employees: employees, shifts: shifts)
    return CachedRoster(state: state, epoch: 7, revision: revision, syncedAt: syncedAt)
}

let ada = Employee(
    id: "e1", firstName: "Ada", lastName: "Lovelace", email: "ada@acme.test", position: "Engineer", team: "Core",
    projects: ["Engine"])
let grace = Employee(id: "e2", firstName: "Grace", lastName: "Hopper", position: "Engineer", team: "Edge")
let rene = Employee(id: "e3", firstName: "René", lastName: "Descartes", position: "Philosopher", team: "Edge")
let alan = Employee(id: "e4", firstName: "Alan", lastName: "Turing", position: "", team: "Core")
