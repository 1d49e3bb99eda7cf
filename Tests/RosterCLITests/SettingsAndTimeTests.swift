import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct SettingsTests {
    func configFile(_ text: String) throws -> URL {
        let url = TestScratch.directory("roster-config").appendingPathComponent("config")
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheConfigFile() throws {
        let file = try configFile("# my roster\nserver = file.example:1\ntenant = from-file\ncache-dir = /tmp/file-cache\n")
        let fileOnly = try ClientSettings.resolve(flags: .init(), environment: [:], configFile: file)
        #expect(fileOnly.server == "file.example:1" && fileOnly.tenant == "from-file")
        #expect(fileOnly.cacheDirectory.path == "/tmp/file-cache")

        let environment = ["ROSTER_SERVER": "env.example:2", "ROSTER_TENANT": "from-env"]
        let fromEnvironment = try ClientSettings.resolve(flags: .init(), environment: environment, configFile: file)
        #expect(fromEnvironment.server == "env.example:2" && fromEnvironment.tenant == "from-env")
        #expect(fromEnvironment.cacheDirectory.path == "/tmp/file-cache", "unset in the environment: the file's value")

        let fromFlags = try ClientSettings.resolve(flags: .init(server: "flag.example:3"), environment: environment, configFile: file)
        #expect(fromFlags.server == "flag.example:3" && fromFlags.tenant == "from-env")
        #expect(fromFlags.hostAndPort! == ("flag.example", 3))
    }

    @Test func tokensComeFromFlagFileEnvironmentOrConfig() throws {
        let tokenFile = try configFile("  secret-from-file \n")
        let config = try configFile("token-file = \(tokenFile.path)\n")
        #expect(try ClientSettings.resolve(flags: .init(), environment: [:], configFile: config).token == "secret-from-file")
        #expect(try ClientSettings.resolve(flags: .init(), environment: ["ROSTER_TOKEN": "env"], configFile: config).token == "env")
        #expect(try ClientSettings.resolve(flags: .init(token: "flag"), environment: ["ROSTER_TOKEN": "env"], configFile: config)
            .token == "flag")
        #expect(try ClientSettings.resolve(flags: .init(tokenFile: tokenFile.path), environment: ["ROSTER_TOKEN": "env"],
                                           configFile: config).token == "secret-from-file")
        #expect(throws: ClientSettings.Problem.unreadableTokenFile("/nonexistent/token")) {
            try ClientSettings.resolve(flags: .init(tokenFile: "/nonexistent/token"), environment: [:], configFile: config)
        }
    }

    @Test func badValuesAreNamed() throws {
        #expect(throws: ClientSettings.Problem.badServer("no-port")) {
            try ClientSettings.resolve(flags: .init(server: "no-port"), environment: [:], configFile: URL(fileURLWithPath: "/nonexistent"))
        }
        let broken = try configFile("server = a:1\nthis line has no equals sign\n")
        #expect(throws: ClientSettings.Problem.badConfigLine(file: broken.path, line: 2, text: "this line has no equals sign")) {
            try ClientSettings.resolve(flags: .init(), environment: [:], configFile: broken)
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct TimeArgumentTests {
    // 2026-11-22T10:30:00Z.
    let now: UnixMillis = 1_795_343_400_000
    let utc = TimeZone(identifier: "UTC")!
    let paris = TimeZone(identifier: "Europe/Paris")!

    @Test func relativeForms() throws {
        #expect(try TimeArgument.parse("now", now: now, timeZone: utc) == now)
        #expect(try TimeArgument.parse("+2h", now: now, timeZone: utc) == now + 7_200_000)
        #expect(try TimeArgument.parse("-30m", now: now, timeZone: utc) == now - 1_800_000)
        #expect(try TimeArgument.parse("+1d", now: now, timeZone: utc) == now + 86_400_000)
        #expect(try TimeArgument.parse("+1h30m", now: now, timeZone: utc) == now + 5_400_000)
        #expect(try TimeArgument.parse("90s ago", now: now, timeZone: utc) == now - 90_000)
        #expect(try TimeArgument.parse("in 2h", now: now, timeZone: utc) == now + 7_200_000)
    }

    @Test func wallClockFormsUseTheDisplayZone() throws {
        #expect(try TimeArgument.parse("tomorrow 09:00", now: now, timeZone: utc) == TimeText.parseISO8601("2026-11-23T09:00:00Z"))
        #expect(try TimeArgument.parse("tomorrow 09:00", now: now, timeZone: paris) == TimeText.parseISO8601("2026-11-23T08:00:00Z"))
        #expect(try TimeArgument.parse("17:45", now: now, timeZone: utc) == TimeText.parseISO8601("2026-11-22T17:45:00Z"))
        #expect(try TimeArgument.parse("yesterday 23:00", now: now, timeZone: utc) == TimeText.parseISO8601("2026-11-21T23:00:00Z"))
        #expect(try TimeArgument.parse("2026-12-01 08:00", now: now, timeZone: paris) == TimeText.parseISO8601("2026-12-01T07:00:00Z"))
    }

    @Test func iso8601WithAZoneIsAbsolute() throws {
        #expect(try TimeArgument.parse("2026-11-22T09:00:00+01:00", now: now, timeZone: utc) == TimeText.parseISO8601("2026-11-22T08:00:00Z"))
        #expect(try TimeArgument.parse("2026-11-22T09:00:00.250Z", now: now, timeZone: paris) == 1_795_338_000_250)
    }

    @Test func nonsenseIsRefused() {
        for text in ["half past nine", "+2x", "25:00", "tomorrow 9:61", "", "+", "in soon"] {
            #expect(throws: TimeArgument.Invalid.self, "\(text)") { try TimeArgument.parse(text, now: now, timeZone: utc) }
        }
    }
}

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

/// JSON lines escape every control character, not only those JSONEncoder does.
@Suite(.timeLimit(.minutes(2))) struct JSONLineTests {
    @Test func controlCharactersAreEscaped() {
        struct Name: Encodable { var name: String }
        let line = JSONShapes.line(Name(name: "a\u{1B}[2Jb\u{9B}c\u{7F}"))
        #expect(line == #"{"name":"a\u001b[2Jb\u009bc\u007f"}"#)
        #expect(!line.unicodeScalars.contains(where: ControlCharacters.isControl))
    }
}
