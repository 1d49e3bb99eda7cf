import RosterDomain
import RosterProtocol
@testable import RosterServerCore
import Testing

/// Who wins a cover-request race, without a socket: a change is planned against the state its
/// tenant's queue hands it (`MutationQueue`, one change at a time), and `SelfService.plan`
/// refuses a take of a request that is no longer open. So of two takers the one planned first
/// wins, and the other is told by whom it was taken. (SelfServiceTests runs the same race over
/// two real connections; MultiNodeTests across two nodes.)
@Suite(.timeLimit(.minutes(5))) struct CoverRaceTests {
    static let day: UnixMillis = 86_400_000
    static let now: UnixMillis = 1_796_025_600_000  // Monday 2026-11-30 00:00 UTC

    /// Ada, Alan and Grace take daily turns; Grace asks for cover of her turn two days ahead.
    static func state() -> RosterState {
        let people = [Employee(id: "ada", firstName: "Ada", lastName: "Lovelace"), Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
                      Employee(id: "grace", firstName: "Grace", lastName: "Hopper")]
        let request = CoverRequest(id: "req_1", requester: "grace", start: now + 2 * day, end: now + 3 * day, opened: now - day)
        let schedule = ScheduleDefinition(id: "p", name: "Platform", zone: "UTC", layers: [
            ScheduleLayer(level: 0, rotations: [Rotation(id: "r", slots: [["ada"], ["alan"], ["grace"]], cadence: .days(1),
                                                         handoff: LocalDateTime(year: 2026, month: 11, day: 30))]),
        ], requests: [request])
        return RosterState(tenant: Tenant(id: "acme", name: "Acme"), employees: people, schedules: [schedule])
    }

    static func take(by person: String, in state: RosterState) throws(WireError) -> SelfService.Planned {
        let edit = Roster_V1_EditScheduleRequest.with { $0.coverRequest = .with { $0.action = .take; $0.requestID = "req_1" } }
        return try SelfService.plan(edit, actor: Actor(tokenID: "t-\(person)", name: person, isAdmin: false, employeeID: person),
                                    state: state, now: now, newID: { "\($0)_\(person)" })
    }

    @Test func theFirstTakerPlannedWinsAndTheSecondIsToldByWhom() throws {
        var state = Self.state()
        // Alone, either could take it.
        #expect((try? Self.take(by: "ada", in: state)) != nil && (try? Self.take(by: "alan", in: state)) != nil)
        // In the queue's order: Ada's change commits, then Alan's is planned against its result.
        let first = try Self.take(by: "ada", in: state)
        state.apply(.scheduleUpserted(first.after))
        #expect(first.after.requests.first?.stored == .taken && first.after.requests.first?.taker == "ada")
        #expect(first.after.overrides.map(\.kind) == [.replace(replacing: "grace", with: "ada")])
        do {
            _ = try Self.take(by: "alan", in: state)
            Issue.record("a second take of a taken request was planned")
        } catch {
            #expect(error.body.code == .failedPrecondition && error.body.message.contains("already taken by Ada Lovelace"), "\(error)")
        }
    }
}
