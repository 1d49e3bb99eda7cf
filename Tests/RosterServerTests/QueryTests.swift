import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// Ada [0, 60m) Core, Grace [30m, 90m) Edge, René [90m, 120m) Edge; the clock at 10m.
struct SeededRoster: StoppableTestResource {
    let harness: ServerHarness
    let admin: RosterConnection
    var ada = "", grace = "", rene = ""
    var adaShift = ""

    static func start(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> SeededRoster {
        let harness = try await ServerHarness.start(now: t0 + 10 * minute, configure: configure)
        return try await harness.stoppingOnError { harness in
            let admin = try await harness.connect()
            var seeded = SeededRoster(harness: harness, admin: admin)
            seeded.ada = try await admin.addEmployee("Ada", "Lovelace", position: "Engineer", team: "Core")
            seeded.grace = try await admin.addEmployee("Grace", "Hopper", position: "Engineer", team: "Edge")
            seeded.rene = try await admin.addEmployee("René", "Descartes", position: "Philosopher", team: "Edge")
            seeded.adaShift = try await admin.addShift(seeded.ada, t0, t0 + 60 * minute)
            try await admin.addShift(seeded.grace, t0 + 30 * minute, t0 + 90 * minute)
            try await admin.addShift(seeded.rene, t0 + 90 * minute, t0 + 120 * minute)
            return seeded
        }
    }

    func stop() async {
        await admin.close()
        await harness.stop()
    }
}

func names(_ people: [Roster_V1_OnDutyPerson]) -> [String] {
    people.map(\.employee.firstName)
}

@Suite(.timeLimit(.minutes(10))) struct QueryTests {
    @Test func onDutyNowAndAtAnInstant() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard case .onDuty(let now) = try await roster.admin.request(.getOnDuty(.init())) else {
                Issue.record("not OnDuty"); return
            }
            #expect(now.atMs == t0 + 10 * minute)
            #expect(names(now.current) == ["Ada"])
            #expect(now.untilMs == t0 + 30 * minute)
            #expect(names(now.next) == ["Ada", "Grace"])
            #expect(now.current.first?.shift.endMs == t0 + 60 * minute)

            guard
                case .onDuty(let later) = try await roster.admin.request(
                    .getOnDuty(.with { $0.atMs = t0 + 95 * minute }))
            else { Issue.record("not OnDuty"); return }
            #expect(names(later.current) == ["René"])
            #expect(later.untilMs == t0 + 120 * minute)
            #expect(later.next.isEmpty)
        }
    }

    @Test func onDutyNowFollowsBoundariesAndRevisions() async throws {
        try await using(try await SeededRoster.start()) { roster in
            func now() async throws -> Roster_V1_OnDutyResponse {
                guard case .onDuty(let answer) = try await roster.admin.request(.getOnDuty(.init())) else {
                    throw RosterClientError.protocolViolation("not OnDuty")
                }
                return answer
            }
            let first = try await now()
            #expect(names(first.current) == ["Ada"] && first.revision == 6)
            #expect(try await now() == first, "the same instant and revision: the same answer")

            roster.harness.clock.advance(to: t0 + 30 * minute)
            let later = try await now()
            #expect(names(later.current) == ["Ada", "Grace"] && later.atMs == t0 + 30 * minute)
            #expect(later.untilMs == t0 + 60 * minute && names(later.next) == ["Grace"])

            try await roster.admin.addEmployee("Alan", "Turing")
            let afterChange = try await now()
            #expect(afterChange.revision == 7 && names(afterChange.current) == ["Ada", "Grace"])
            try await roster.admin.admin(.deleteShift(.with { $0.id = roster.adaShift }))
            #expect(names(try await now().current) == ["Grace"])

            roster.harness.clock.jump(to: t0)  // backwards: outside the cached window
            #expect(names(try await now().current).isEmpty)
        }
    }

    @Test func employeesGroupedAndSorted() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard
                case .employees(let all) = try await roster.admin.request(
                    .listEmployees(.with { $0.groupBy = .byTeam }))
            else { Issue.record("not Employees"); return }
            #expect(all.employees.map(\.lastName) == ["Descartes", "Hopper", "Lovelace"])
            #expect(all.groups.map(\.name) == ["Core", "Edge"])
            #expect(all.groups[1].employees.map(\.lastName) == ["Descartes", "Hopper"])
            #expect(all.revision == 6)
        }
    }

    /// A listing's answer is encoded once per revision and grouping: the next revision and the
    /// other groupings are answered anew.
    @Test func aListingFollowsRevisionsAndGroupings() async throws {
        try await using(try await SeededRoster.start()) { roster in
            func list(_ grouping: Roster_V1_Grouping) async throws -> Roster_V1_EmployeesResponse {
                guard
                    case .employees(let answer) = try await roster.admin.request(
                        .listEmployees(.with { $0.groupBy = grouping }))
                else { throw RosterClientError.protocolViolation("not Employees") }
                return answer
            }
            let plain = try await list(.none)
            #expect(plain.groups.isEmpty && plain.employees.count == 3)
            #expect(try await list(.none) == plain)
            #expect(try await list(.byPosition).groups.map(\.name) == ["Engineer", "Philosopher"])
            #expect(try await list(.byTeam).groups.map(\.name) == ["Core", "Edge"])

            try await roster.admin.addEmployee("Alan", "Turing", position: "Mathematician", team: "Core")
            let after = try await list(.none)
            #expect(after.revision == plain.revision + 1)
            #expect(after.employees.map(\.lastName) == ["Descartes", "Hopper", "Lovelace", "Turing"])
            #expect(try await list(.byTeam).groups.first?.employees.map(\.lastName) == ["Lovelace", "Turing"])
            #expect(try await list(.byPosition).groups.map(\.name) == ["Engineer", "Mathematician", "Philosopher"])
        }
    }

    @Test func searchIgnoresDiacritics() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard case .employees(let found) = try await roster.admin.request(.search(.with { $0.text = "rene" }))
            else { Issue.record("not Employees"); return }
            #expect(found.employees.map(\.id) == [roster.rene])
            guard
                case .employees(let engineers) = try await roster.admin.request(
                    .search(
                        .with {
                            $0.text = "engineer"; $0.limit = 1
                        }))
            else { Issue.record("not Employees"); return }
            #expect(engineers.employees.map(\.lastName) == ["Hopper"])
        }
    }

    @Test func oneEmployeeWithUpcomingShiftsOrSuggestions() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard
                case .employee(let grace) = try await roster.admin.request(
                    .getEmployee(.with { $0.idOrName = "grace HOPPER" }))
            else { Issue.record("not Employee"); return }
            #expect(grace.employee.id == roster.grace)
            #expect(grace.shifts.map(\.startMs) == [t0 + 30 * minute])

            do {
                _ = try await roster.admin.request(.getEmployee(.with { $0.idOrName = "Grace Hoper" }))
                Issue.record("expected NOT_FOUND")
            } catch let error as RosterClientError {
                guard case .server(let body) = error else { Issue.record("\(error)"); return }
                #expect(body.code == .notFound)
                #expect(body.suggestions == ["Grace Hopper"])
            }
        }
    }

    @Test func shiftsInAWindowAndForOneEmployee() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard
                case .shifts(let window) = try await roster.admin.request(
                    .listShifts(
                        .with {
                            $0.fromMs = t0 + 60 * minute
                            $0.toMs = t0 + 100 * minute
                        }))
            else { Issue.record("not Shifts"); return }
            #expect(
                window.shifts.map(\.employeeID) == [roster.grace, roster.rene], "Ada's shift ends at the window's start"
            )
            #expect(
                window.employees.map(\.lastName) == ["Hopper", "Descartes"],
                "the people named, so no directory is needed")

            try await roster.admin.addShift(roster.grace, t0 + 120 * minute, t0 + 150 * minute)
            guard
                case .shifts(let twice) = try await roster.admin.request(
                    .listShifts(.with { $0.fromMs = t0 + 60 * minute }))
            else { Issue.record("not Shifts"); return }
            #expect(twice.shifts.map(\.employeeID) == [roster.grace, roster.rene, roster.grace])
            #expect(twice.employees.map(\.id) == [roster.grace, roster.rene], "each person once")

            guard
                case .shifts(let ada) = try await roster.admin.request(
                    .listShifts(.with { $0.employeeID = "Ada Lovelace" }))
            else { Issue.record("not Shifts"); return }
            #expect(ada.shifts.map(\.id) == [roster.adaShift])
        }
    }

    @Test func snapshotHoldsEverything() async throws {
        try await using(try await SeededRoster.start()) { roster in
            guard case .snapshot(let snapshot) = try await roster.admin.request(.getSnapshot(.init()))
            else { Issue.record("not Snapshot"); return }
            #expect(snapshot.revision == 6)
            #expect(snapshot.epoch == roster.admin.welcome.epoch)
            #expect(snapshot.employees.count == 3 && snapshot.shifts.count == 3)
            #expect(snapshot.tenant.id == "demo")
        }
    }

    @Test func invalidAdminChangesAreRefusedWithTheirFields() async throws {
        try await using(try await SeededRoster.start()) { roster in
            do {
                try await roster.admin.addShift(roster.ada, t0 + 5 * minute, t0)
                Issue.record("expected INVALID_ARGUMENT")
            } catch let error as RosterClientError {
                #expect(error.code == .invalidArgument)
                if case .server(let body) = error { #expect(body.violations.map(\.field) == ["end"]) }
            }
            do {
                try await roster.admin.addEmployee("ADA", "lovelace")
                Issue.record("expected INVALID_ARGUMENT")
            } catch let error as RosterClientError {
                #expect(error.code == .invalidArgument)
            }
            let snapshot = try await roster.admin.request(.getSnapshot(.init())).snapshotBody()
            #expect(snapshot.revision == 6, "nothing was applied")
        }
    }

    @Test func importIsAllOrNothingWithEveryBadRecordReported() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let csv =
                "first_name,last_name,email\nAlan,Turing,alan@example.com\n,Nobody,\nEdsger,Dijkstra,not-an-email\n"
            do {
                try await roster.admin.admin(
                    .importData(
                        .with {
                            $0.format = .employeesCsv; $0.data = Data(csv.utf8)
                        }))
                Issue.record("expected INVALID_ARGUMENT")
            } catch let error as RosterClientError {
                guard case .server(let body) = error else { Issue.record("\(error)"); return }
                #expect(body.code == .invalidArgument)
                #expect(body.violations.map { "\($0.location) \($0.field)" } == ["line 3 first_name", "line 4 email"])
            }
            let good = "first_name,last_name\nAlan,Turing\nEdsger,Dijkstra\n"
            let result = try await roster.admin.admin(
                .importData(
                    .with {
                        $0.format = .employeesCsv; $0.data = Data(good.utf8)
                    }))
            #expect(result.revision == 7 && result.changeCount == 2)

            let legacy = """
                {"tenant": "Demo", "motd": "Imported", "roster": [{"name": "Alan Turing", "fromDate": "2026-01-01T02:00:00Z", "toDate": "2026-01-01T03:00:00Z"}]}
                """
            try await roster.admin.admin(
                .importData(
                    .with {
                        $0.format = .legacyAppJson; $0.data = Data(legacy.utf8)
                    }))
            let answer = try await roster.admin.request(.getOnDuty(.with { $0.atMs = t0 + 150 * minute }))
            guard case .onDuty(let then) = answer else { throw TestFailure("expected OnDuty, got \(answer.type)") }
            #expect(names(then.current) == ["Alan"])
        }
    }
}
