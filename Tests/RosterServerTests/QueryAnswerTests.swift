import NIOEmbedded
import RosterDomain
import RosterProtocol
@testable import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// What a query answers, from one tenant's consistent view (`Queries.answer`), with no server
/// and no socket. QueryTests asks the same over a real connection.
@Suite(.timeLimit(.minutes(10))) struct QueryAnswerTests {
    static let minute: UnixMillis = 60_000

    /// Ada [0, 60m) Core, Grace [30m, 90m) Edge, René [90m, 120m) Edge.
    static func view() -> TenantRuntime.View {
        let people = [
            Employee(id: "ada", firstName: "Ada", lastName: "Lovelace", position: "Engineer", team: "Core"),
            Employee(id: "grace", firstName: "Grace", lastName: "Hopper", position: "Engineer", team: "Edge"),
            Employee(id: "rene", firstName: "René", lastName: "Descartes", position: "Philosopher", team: "Edge"),
        ]
        let shifts = [
            Shift(id: "s1", employeeID: "ada", start: t0, end: t0 + 60 * minute),
            Shift(id: "s2", employeeID: "grace", start: t0 + 30 * minute, end: t0 + 90 * minute),
            Shift(id: "s3", employeeID: "rene", start: t0 + 90 * minute, end: t0 + 120 * minute),
        ]
        let state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: people, shifts: shifts)
        let tenant = TenantRuntime(
            stored: StoredTenant(state: state, epoch: 3, revision: 9, history: []), clock: ManualClock(now: t0),
            historyLimit: 10, loops: [EmbeddedEventLoop()])
        return tenant.view
    }

    static func answer(_ request: RosterMessage, at now: UnixMillis = t0 + 10 * minute) -> Result<
        RosterMessage, WireError
    > {
        Queries.answer(request, view: view(), now: now)
    }

    @Test func onDutyNowAndAtAnInstantWithUntilAndNext() throws {
        guard case .success(.onDuty(let now)) = Self.answer(.getOnDuty(.init())) else {
            Issue.record("not OnDuty")
            return
        }
        #expect(now.current.map(\.employee.firstName) == ["Ada"] && now.untilMs == t0 + 30 * Self.minute)
        #expect(now.next.map(\.employee.firstName) == ["Ada", "Grace"] && now.epoch == 3 && now.revision == 9)
        guard case .success(.onDuty(let later)) = Self.answer(.getOnDuty(.with { $0.atMs = t0 + 100 * Self.minute }))
        else {
            Issue.record("not OnDuty")
            return
        }
        #expect(later.current.map(\.employee.firstName) == ["René"] && later.untilMs == t0 + 120 * Self.minute)
        guard case .failure(let refused) = Self.answer(.getOnDuty(.with { $0.atMs = .max })) else {
            Issue.record("an instant out of range was answered")
            return
        }
        #expect(refused.body.code == .invalidArgument)
    }

    @Test func theDirectoryIsSortedGroupedAndSearchedWithoutDiacritics() throws {
        guard case .success(.employees(let byTeam)) = Self.answer(.listEmployees(.with { $0.groupBy = .byTeam })) else {
            Issue.record("not Employees")
            return
        }
        #expect(byTeam.employees.map(\.lastName) == ["Descartes", "Hopper", "Lovelace"])
        #expect(
            byTeam.groups.map(\.name) == ["Core", "Edge"]
                && byTeam.groups[1].employees.map(\.lastName) == ["Descartes", "Hopper"])
        guard case .success(.employees(let found)) = Self.answer(.search(.with { $0.text = "rene" })) else {
            Issue.record("not Employees")
            return
        }
        #expect(found.employees.map(\.id) == ["rene"])
    }

    @Test func oneEmployeeWithTheirShiftsOrSuggestions() throws {
        guard case .success(.employee(let grace)) = Self.answer(.getEmployee(.with { $0.idOrName = "grace HOPPER" }))
        else {
            Issue.record("not Employee")
            return
        }
        #expect(grace.employee.id == "grace" && grace.shifts.map(\.startMs) == [t0 + 30 * Self.minute])
        guard case .failure(let missing) = Self.answer(.getEmployee(.with { $0.idOrName = "Grace Hoper" })) else {
            Issue.record("a misspelt name was found")
            return
        }
        #expect(missing.body.code == .notFound && missing.body.suggestions == ["Grace Hopper"])
    }
}
