import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct WatchScreenTests {
    let now: UnixMillis = 1_795_343_400_000  // 10:30 UTC
    var roster: CachedRoster {
        let ada = Employee(id: "a", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", position: "Engineer", team: "Core")
        let alan = Employee(id: "b", firstName: "Alan", lastName: "Turing", position: "Engineer", team: "Core")
        let state = RosterState(tenant: Tenant(id: "t", name: "Acme", motd: "Be kind"), employees: [ada, alan], shifts: [
            Shift(id: "1", employeeID: "a", start: now - 1_800_000, end: now + 1_800_000),
            Shift(id: "2", employeeID: "b", start: now + 1_800_000, end: now + 5_400_000),
        ])
        return CachedRoster(state: state, epoch: 1, revision: 7, syncedAt: Date(timeIntervalSince1970: Double(now) / 1000 - 120))
    }

    @Test func showsTenantOnDutyNextRosterAndStatus() {
        let screen = WatchScreen(roster: roster, pushed: nil, state: .reconnecting(attempt: 2, nextRetry: Date()),
                                 server: "h:1", display: Display(utc: true))
        let lines = screen.lines(now: now, width: 100, height: 30)
        #expect(lines[0] == "Acme" && lines[1] == "Be kind")
        #expect(lines.contains { $0.hasPrefix("  ● Ada Lovelace — Engineer, Core") && $0.contains("until 11:00 (in 30m 00s)") })
        #expect(lines.contains("  Next: Alan Turing at 11:00 (in 30m 00s)"))
        #expect(lines.contains { $0.hasPrefix("▶ 10:00–11:00  Ada Lovelace") })
        #expect(lines.last?.contains("data 2 minutes old") == true, "offline: the data's age is shown")
        #expect(lines.last?.contains("reconnecting (attempt 2") == true)
        #expect(lines.count <= 30 && lines.allSatisfy { $0.count <= 100 })
    }

    @Test func fitsASmallTerminal() {
        let screen = WatchScreen(roster: roster, pushed: nil, state: .live, server: "h:1", display: Display(utc: true))
        let lines = screen.lines(now: now, width: 30, height: 8)
        #expect(lines.count <= 8 && lines.allSatisfy { $0.count <= 30 })
        #expect(lines.last?.hasPrefix("live") == true, "the status line is always shown")
    }

    @Test func saysWhenThereIsNothingToShow() {
        let screen = WatchScreen(roster: nil, pushed: nil, state: .connecting, server: "h:1", display: Display(utc: true))
        #expect(screen.lines(now: now).contains("No connection to h:1, and nothing cached yet."))
        var empty = roster
        empty = CachedRoster(state: RosterState(tenant: Tenant(id: "t", name: "Acme")), epoch: 1, revision: 1, syncedAt: Date())
        let lines = WatchScreen(roster: empty, pushed: nil, state: .live, server: "h:1", display: Display(utc: true)).lines(now: now)
        #expect(lines.contains("No employees.") && lines.contains("  Nobody is on duty."))
    }
}
