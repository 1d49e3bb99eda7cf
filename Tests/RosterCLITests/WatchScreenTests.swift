import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import RosterViewModels
import Testing

/// The terminal screen draws `RosterScreenModel` and handles the keys of `watch`.
@MainActor @Suite(.timeLimit(.minutes(10))) struct WatchScreenTests {
    let now: UnixMillis = 1_795_343_400_000  // 10:30 UTC
    var roster: CachedRoster {
        let ada = Employee(
            id: "a", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", position: "Engineer",
            team: "Core")
        let alan = Employee(id: "b", firstName: "Alan", lastName: "Turing", position: "Engineer", team: "Core")
        let rene = Employee(
            id: "c", firstName: "René", lastName: "Descartes", position: "Philosopher", team: "Edge",
            biography: "Thinks, therefore is.")
        let state = RosterState(
            tenant: Tenant(id: "t", name: "Acme", motd: "Be kind"), employees: [ada, alan, rene],
            shifts: [
                Shift(id: "1", employeeID: "a", start: now - 1_800_000, end: now + 1_800_000),
                Shift(id: "2", employeeID: "b", start: now + 1_800_000, end: now + 5_400_000),
            ])
        return CachedRoster(
            state: state, epoch: 1, revision: 7, syncedAt: Date(timeIntervalSince1970: Double(now) / 1000 - 120))
    }

    /// A model fed by hand; its client is never started.
    func model(contacts: VCardDirectory? = nil) -> RosterScreenModel {
        let client = RosterClient(configuration: RosterClientConfiguration(host: "127.0.0.1", port: 1))
        let now = self.now
        return RosterScreenModel(source: client, contacts: contacts, clock: { now })
    }

    @Test func showsTenantOnDutyTheDirectoryAndTheOfflineMessage() async throws {
        let model = model()
        await model.receive(.synced(roster))
        await model.receive(.connectionState(.reconnecting(attempt: 2, nextRetry: Date())))
        let lines = WatchScreen(model: model, server: "h:1", display: Display(utc: true)).lines(
            now: now, width: 100, height: 30)
        #expect(lines[0] == "Acme" && lines[1] == "Be kind")
        #expect(
            lines.contains {
                $0.hasPrefix("  ● Ada Lovelace — Engineer, Core") && $0.contains("until 11:00 (in 30m 00s)")
            })
        #expect(lines.contains("  Next: Alan Turing at 11:00 (in 30m 00s)"))
        #expect(
            lines.contains("No connection — showing data from 2 minutes ago"),
            "the model's message, with the data's age")
        #expect(lines.contains { $0.hasPrefix("EMPLOYEES by position") })
        let engineer = try #require(lines.firstIndex(of: "Engineer"), "an Engineer section")
        #expect(lines[engineer + 1].hasPrefix("  ▸ Ada Lovelace") && lines[engineer + 1].contains("● on duty"))
        #expect(lines[engineer + 2].hasPrefix("    Alan Turing"))
        #expect(lines.contains("Philosopher"))
        #expect(lines.last?.hasPrefix("reconnecting (attempt 2") == true)
        #expect(lines.count <= 30 && lines.allSatisfy { $0.count <= 100 })
    }

    @Test func openCoverRequestsAreListedAndClosedOnesAreNot() async throws {
        var state = roster.state
        var schedule = ScheduleDefinition(id: "p", name: "Platform", zone: "UTC")
        schedule.requests = [
            CoverRequest(
                id: "req_open", requester: "a", start: now + 3_600_000, end: now + 7_200_000, addressedTo: ["b"],
                note: "dentist",
                opened: now - 60_000),
            CoverRequest(
                id: "req_gone", requester: "a", start: now + 3_600_000, end: now + 7_200_000, stored: .cancelled,
                opened: now - 60_000),
            CoverRequest(id: "req_late", requester: "b", start: now - 60_000, end: now + 60_000, opened: now - 120_000),
        ]
        state.apply(.scheduleUpserted(schedule))
        let model = model()
        await model.receive(
            .synced(
                CachedRoster(
                    state: state, epoch: 1, revision: 8, syncedAt: Date(timeIntervalSince1970: Double(now) / 1000))))
        let lines = WatchScreen(model: model, server: "h:1", display: Display(utc: true)).lines(
            now: now, width: 120, height: 40)
        let heading = try #require(lines.firstIndex(of: "OPEN COVER REQUESTS (roster-client request take ID)"))
        #expect(
            lines[heading + 1].hasPrefix("  req_open  Ada Lovelace on Platform:")
                && lines[heading + 1].hasSuffix("for Alan Turing — dentist"),
            "\(lines[heading + 1])")
        #expect(
            !lines.contains { $0.contains("req_gone") || $0.contains("req_late") },
            "cancelled and expired requests are not open")
    }

    @Test func watchJSONCarriesAScheduleOpenAndTakenRequests() throws {
        let start = UnixMillis.now + 86_400_000
        var schedule = ScheduleDefinition(id: "p", name: "Platform", zone: "UTC")
        schedule.requests = [
            CoverRequest(id: "req_a", requester: "a", start: start, end: start + 3_600_000, opened: start - 90_000_000),
            CoverRequest(
                id: "req_b", requester: "a", start: start, end: start + 3_600_000, stored: .taken, taker: "b",
                opened: start - 90_000_000),
            CoverRequest(
                id: "req_c", requester: "a", start: start, end: start + 3_600_000, stored: .cancelled,
                opened: start - 90_000_000),
        ]
        let line = WatchEvents.json(.rosterChanged(revision: 9, changes: [.scheduleUpserted(schedule)]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let change = try #require((object["changes"] as? [[String: Any]])?.first)
        let requests = try #require(change["requests"] as? [[String: Any]])
        #expect(requests.map { $0["id"] as? String } == ["req_a", "req_b"])
        #expect(
            requests.map { $0["state"] as? String } == ["open", "taken"] && requests[1]["takerId"] as? String == "b")
    }

    @Test func slashSearchesGTogglesGroupingAndEnterShowsTheDetail() async {
        let contacts = VCardDirectory(parsing: "BEGIN:VCARD\nN:Descartes;Rene\nTEL:+33 1\nEND:VCARD\n")
        let model = model(contacts: contacts)
        await model.receive(.synced(roster))
        var screen = WatchScreen(model: model, server: "h:1", display: Display(utc: true))
        for key in WatchKey.decode(Array("/DESC".utf8)) {
            let goesOn = screen.handle(key)
            #expect(goesOn)
        }
        #expect(screen.view.mode == .searching)
        #expect(model.searchText == "DESC")
        var lines = screen.lines(now: now)
        #expect(lines.contains { $0.contains("search: DESC▏") })
        #expect(screen.people.map(\.firstName) == ["René"])
        #expect(lines.contains { $0.hasPrefix("  ▸ René Descartes") && $0.contains("✓ contact") })

        _ = screen.handle(.backspace)
        #expect(model.searchText == "DES")
        _ = screen.handle(.enter)
        #expect(screen.view.mode == .browse && model.searchText == "DES", "Enter ends typing and keeps the filter")
        _ = screen.handle(.enter)
        #expect(screen.view.mode == .detail("c"))
        lines = screen.lines(now: now)
        #expect(lines.contains("René Descartes   (Esc: back)"))
        #expect(lines.contains("  Thinks, therefore is."))
        #expect(lines.contains("  In your contacts as Rene Descartes: +33 1"))
        #expect(lines.contains("  Not on duty on any schedule in the next 4 weeks."))
        _ = screen.handle(.escape)
        #expect(screen.view.mode == .browse)
        _ = screen.handle(.escape)
        #expect(model.searchText.isEmpty, "Esc while browsing clears the search")

        _ = screen.handle(.character("g"))
        #expect(model.grouping == .team)
        #expect(screen.lines(now: now).contains { $0.hasPrefix("EMPLOYEES by team · g: by position") })
        for key in WatchKey.decode([
            0x1B, UInt8(ascii: "["), UInt8(ascii: "B"), 0x1B, UInt8(ascii: "["), UInt8(ascii: "B"),
        ]) {
            _ = screen.handle(key)
        }
        #expect(screen.view.selection == 2)
        _ = screen.handle(.down)
        #expect(screen.view.selection == 2, "the selection stays on the list")
        _ = screen.handle(.enter)
        #expect(screen.view.mode == .detail("c"), "by team: Core (Ada, Alan), then Edge (René)")
        _ = screen.handle(.character("q"))
        #expect(screen.view.mode == .browse)
        let goesOn = screen.handle(.character("q"))
        #expect(!goesOn, "q quits while browsing")
    }

    @Test func decodesKeysAsATerminalSendsThem() {
        #expect(WatchKey.decode([0x1B]) == [.escape])
        #expect(WatchKey.decode([0x7F, 0x0D, 0x0A]) == [.backspace, .enter, .enter])
        #expect(WatchKey.decode([0x1B, 0x5B, 0x41]) == [.up])
        #expect(WatchKey.decode(Array("é".utf8)) == [.character("é")])
    }

    @Test func fitsASmallTerminal() async {
        let model = model()
        await model.receive(.connectionState(.live))
        await model.receive(.synced(roster))
        let lines = WatchScreen(model: model, server: "h:1", display: Display(utc: true)).lines(
            now: now, width: 30, height: 8)
        #expect(lines.count <= 8 && lines.allSatisfy { $0.count <= 30 })
        #expect(lines.last?.hasPrefix("live") == true, "the status line is always shown")
    }

    /// With more schedules on duty than a terminal has rows, the connection message still shows:
    /// it comes before the on-duty lines, which are cut at the bottom.
    @Test func theOfflineMessageShowsAboveManySchedulesOnASmallTerminal() async throws {
        let base = roster
        let schedules = (1...12).map { ScheduleDefinition(id: "s\($0)", name: "Schedule \($0)", zone: "UTC") }
        let shifts = schedules.map {
            Shift(id: "x\($0.id)", employeeID: "a", start: now - 60_000, end: now + 60_000, scheduleID: $0.id)
        }
        let state = RosterState(
            tenant: base.state.tenant, employees: Array(base.state.employees.values),
            shifts: Array(base.state.shifts.values) + shifts, schedules: schedules)
        let model = model()
        await model.receive(.synced(CachedRoster(state: state, epoch: 1, revision: 7, syncedAt: base.syncedAt)))
        await model.receive(.connectionState(.reconnecting(attempt: 16, nextRetry: Date())))
        let lines = WatchScreen(model: model, server: "h:1", display: Display(utc: true)).lines(
            now: now, width: 100, height: 24)
        #expect(lines.count <= 24)
        #expect(lines.contains("No connection — showing data from 2 minutes ago"), "\(lines)")
        #expect(lines.contains(" Schedule 1"), "the on-duty lines follow, as far as they fit")
    }

    /// The detail lists the person's duty per schedule, with where it comes from.
    @Test func theDetailListsDutyWithItsSource() async {
        let model = model()
        await model.receive(.synced(roster))
        var screen = WatchScreen(model: model, server: "h:1", display: Display(utc: true))
        screen.view.mode = .detail("a")
        let lines = screen.lines(now: now)
        let header = lines.firstIndex(of: "  On duty on Default (UTC):")
        #expect(header != nil, "\(lines)")
        #expect(header.map { lines[$0 + 1].hasSuffix("  shift 1") } == true, "\(lines)")
    }

    @Test func saysWhenThereIsNothingToShow() async {
        let model = model()
        let screen = WatchScreen(model: model, server: "h:1", display: Display(utc: true))
        #expect(screen.lines(now: now).contains("Loading…"))
        await model.receive(.connectionState(.reconnecting(attempt: 1, nextRetry: Date())))
        #expect(screen.lines(now: now).contains("No connection to 127.0.0.1:1"))
        await model.receive(.connectionState(.live))
        await model.receive(
            .synced(
                CachedRoster(
                    state: RosterState(tenant: Tenant(id: "t", name: "Acme")), epoch: 1, revision: 1,
                    syncedAt: Date())))
        let lines = screen.lines(now: now)
        #expect(lines.contains("No employees found") && lines.contains("  Nobody is on duty."))
    }
}
