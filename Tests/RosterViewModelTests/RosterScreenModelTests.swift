import Foundation
import RosterClient
import RosterDomain
import RosterViewModels
import Testing

/// The roster screen's states, transitions, grouping and search, driven without a socket.
@MainActor @Suite(.timeLimit(.minutes(10))) struct RosterScreenModelTests {
    func names(_ model: RosterScreenModel) -> [[String]] {
        model.sections.map { [$0.name] + $0.employees.map(\.fullName) }
    }

    @Test func loadsFromTheFirstSyncGroupedByPositionAToZByLastName() async throws {
        let source = FakeRosterSource()
        let model = RosterScreenModel(source: source)
        #expect(model.state == .loading)
        #expect(model.message() == "Loading…")
        await model.receive(.connectionState(.connecting))
        #expect(model.state == .loading)
        await model.receive(.synced(cached([ada, grace, rene, alan], motd: "Hello")))
        #expect(model.state == .loaded)
        #expect(model.message() == nil)
        #expect(model.tenantName == "Acme" && model.motd == "Hello")
        #expect(
            names(model) == [
                ["Engineer", "Grace Hopper", "Ada Lovelace"], ["Philosopher", "René Descartes"],
                ["No position", "Alan Turing"],
            ])
        model.grouping = .team
        #expect(
            names(model) == [["Core", "Ada Lovelace", "Alan Turing"], ["Edge", "René Descartes", "Grace Hopper"]])
    }

    @Test func tiesSortByFirstNameAndGroupsIgnoreCaseAndAccents() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        let people = [
            Employee(id: "a", firstName: "Zoe", lastName: "Smith", position: "Écrivain"),
            Employee(id: "b", firstName: "Adam", lastName: "Smith", position: "ecrivain"),
            Employee(id: "c", firstName: "Bea", lastName: "Adams", position: "Baker"),
        ]
        await model.receive(.synced(cached(people)))
        #expect(names(model) == [["Baker", "Bea Adams"], ["ecrivain", "Adam Smith", "Zoe Smith"]])
    }

    @Test func aPersonInTheDataTwiceIsShownOnce() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        let twin = Employee(id: "e9", firstName: "ADA", lastName: "Lovelace", position: "Engineer")
        await model.receive(.synced(cached([ada, twin, grace])))
        #expect(names(model) == [["Engineer", "Grace Hopper", "Ada Lovelace"]])
    }

    @Test func anEmptyDirectorySaysNoEmployeesFound() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        await model.receive(.connectionState(.live))
        await model.receive(.synced(cached([])))
        #expect(model.state == .empty)
        #expect(model.message() == "No employees found")
        #expect(model.sections.isEmpty)
    }

    @Test func malformedDataBecomesLoadedAfterARefresh() async throws {
        let source = FakeRosterSource()
        let model = RosterScreenModel(source: source)
        let broken = Employee(id: "bad", firstName: "", lastName: "Nameless")
        await model.receive(.synced(cached([ada, broken])))
        #expect(model.state == .malformed)
        #expect(model.message() == "Malformed employees found")
        #expect(model.sections.isEmpty, "nothing half-read is shown")

        source.answerRefresh(with: .success(cached([ada, grace], revision: 2)))
        await model.refresh()
        #expect(model.state == .loaded)
        #expect(names(model) == [["Engineer", "Grace Hopper", "Ada Lovelace"]])
    }

    @Test func aCorruptCacheAtLaunchIsMalformedUntilTheServerAnswers() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        await model.receive(.cacheProblem(.corrupt("checksum mismatch")))
        #expect(model.state == .malformed)
        #expect(model.notice?.contains("corrupt") == true)
        await model.receive(.connectionState(.live))
        await model.receive(.synced(cached([ada])))
        #expect(model.state == .loaded)
    }

    @Test func offlineShowsTheDataAgeThenLiveAgain() async throws {
        let syncedAt = Date(timeIntervalSince1970: 1_000_000)
        let source = FakeRosterSource(roster: cached([ada], syncedAt: syncedAt))
        let model = RosterScreenModel(source: source)
        await model.receive(.synced(try #require(source.roster)))
        #expect(model.state == .loaded, "the last good answer is shown at launch")
        await model.receive(.connectionState(.reconnecting(attempt: 1, nextRetry: Date())))
        #expect(model.state == .offline(dataFrom: syncedAt))
        #expect(
            model.message(now: syncedAt.addingTimeInterval(5 * 60 + 10))
                == "No connection — showing data from 5 minutes ago")
        #expect(names(model) == [["Engineer", "Ada Lovelace"]], "the data stays on screen")
        await model.receive(.connectionState(.live))
        #expect(model.state == .loaded)
    }

    @Test func offlineWithNothingCachedSaysNoConnection() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        await model.receive(.connectionState(.reconnecting(attempt: 1, nextRetry: Date())))
        #expect(model.state == .offline(dataFrom: nil))
        #expect(model.message() == "No connection to roster.test:7400")
    }

    @Test func refreshAlwaysAsksTheNetworkAndKeepsTheDataWhenItFails() async throws {
        let source = FakeRosterSource(roster: cached([ada]))
        let model = RosterScreenModel(source: source)
        await model.receive(.synced(try #require(source.roster)))
        source.answerRefresh(with: .failure(.connectionFailed("connection refused")))
        await model.refresh()
        #expect(model.state == .offline(dataFrom: source.roster?.syncedAt))
        #expect(names(model) == [["Engineer", "Ada Lovelace"]])

        source.answerRefresh(with: .success(cached([ada, grace], revision: 5)))
        await model.refresh()
        #expect(model.roster?.revision == 5, "the cached data did not stop the refresh from asking")
    }

    @Test func aRefusalIsAnErrorSentence() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        let refusal = RosterClientError.server(
            .with {
                $0.code = .unauthenticated; $0.message = "authentication failed"
            })
        await model.receive(.refused(refusal))
        guard case .error(let sentence) = model.state else { throw Failure("expected an error, got \(model.state)") }
        #expect(sentence.contains("authentication failed"))
        #expect(model.message() == sentence)
    }

    @Test func searchIgnoresCaseAndAccentsOverEveryField() async throws {
        let model = RosterScreenModel(source: FakeRosterSource())
        await model.receive(.synced(cached([ada, grace, rene, alan])))
        model.searchText = "rene"
        #expect(names(model) == [["Philosopher", "René Descartes"]])
        model.searchText = "LOV"
        #expect(names(model) == [["Engineer", "Ada Lovelace"]])
        model.searchText = "ada@acme"
        #expect(names(model) == [["Engineer", "Ada Lovelace"]], "email")
        model.searchText = "engine"
        #expect(names(model) == [["Engineer", "Grace Hopper", "Ada Lovelace"]], "position and project")
        model.grouping = .team
        model.searchText = "edge"
        #expect(names(model) == [["Edge", "René Descartes", "Grace Hopper"]], "team")
        model.searchText = ""
        #expect(model.sections.flatMap(\.employees).count == 4)
    }

    @Test func aPersonDeletedWhileSearchingLeavesTheResults() async throws {
        let source = FakeRosterSource(roster: cached([ada, grace]))
        let model = RosterScreenModel(source: source)
        await model.receive(.synced(try #require(source.roster)))
        model.searchText = "lov"
        #expect(names(model) == [["Engineer", "Ada Lovelace"]])
        source.roster = cached([grace], revision: 2)
        await model.receive(.rosterChanged(revision: 2, changes: [.employeeDeleted(id: ada.id)]))
        #expect(model.sections.isEmpty)
        #expect(model.searchText == "lov", "the search stays")
    }

    @Test func onDutyTicksAtHandoffsFromTheCachedPlanWhileOffline() async throws {
        let shifts = [
            Shift(id: "s1", employeeID: ada.id, start: t0, end: t0 + 30 * minute),
            Shift(id: "s2", employeeID: grace.id, start: t0 + 30 * minute, end: t0 + 60 * minute),
        ]
        let model = RosterScreenModel(source: FakeRosterSource(), clock: { t0 + 10 * minute })
        await model.receive(.synced(cached([ada, grace], shifts: shifts)))
        await model.receive(.connectionState(.reconnecting(attempt: 1, nextRetry: Date())))
        #expect(model.onDuty.first?.status.current.map(\.employee.firstName) == ["Ada"])
        #expect(model.onDuty.first?.status.until == t0 + 30 * minute)
        #expect(model.onDuty.first?.name == "Default", "the default schedule by its own name, as `schedules` says")
        model.tick(now: t0 + 40 * minute)
        #expect(model.onDuty.first?.status.current.map(\.employee.firstName) == ["Grace"])
        model.tick(now: t0 + 70 * minute)
        #expect(model.onDuty.first?.status.current.isEmpty == true)
    }

    @Test func whileLiveTheServersPushWinsUntilItsHandoff() async throws {
        let shifts = [Shift(id: "s1", employeeID: ada.id, start: t0, end: t0 + 30 * minute)]
        let model = RosterScreenModel(source: FakeRosterSource(), clock: { t0 + 10 * minute })
        await model.receive(.connectionState(.live))
        await model.receive(.synced(cached([ada, grace], shifts: shifts)))
        var pushed = OnDutyStatus(
            OnDutyLookup(
                at: t0 + 10 * minute, current: [Shift(id: "x", employeeID: grace.id, start: t0, end: t0 + 20 * minute)],
                until: t0 + 20 * minute, next: []),
            in: cached([ada, grace]).state, revision: 1)
        pushed.cause = .planChanged
        await model.receive(.onDutyChanged(pushed))
        #expect(model.onDuty.first?.status.current.map(\.employee.firstName) == ["Grace"], "the push, while current")
        model.tick(now: t0 + 25 * minute)
        #expect(
            model.onDuty.first?.status.current.map(\.employee.firstName) == ["Ada"],
            "past its handoff, the plan answers")
    }

    @Test func runShowsTheCacheStartsTheClientAndStopsItWhenCancelled() async throws {
        let source = FakeRosterSource(roster: cached([ada]))
        let model = RosterScreenModel(source: source)
        let running = Task { await model.run() }
        #expect(await eventually { model.state == .loaded }, "the cache is shown at launch")
        #expect(await eventually { source.started.withLockedValue { $0 } == 1 }, "and the client is started")
        source.roster = cached([ada, grace], revision: 2)
        source.continuation.yield(.rosterChanged(revision: 2, changes: [.employeeUpserted(grace)]))
        #expect(await eventually { model.sections.first?.employees.count == 2 }, "updates are applied as they come")
        running.cancel()
        await running.value
        #expect(source.stopped.withLockedValue { $0 } == 1)
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` on the main actor for up to ten seconds (a loaded machine is slow to connect).
@MainActor func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
