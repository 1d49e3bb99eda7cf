import Foundation
import RosterDomain
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// Each setting is defined once (`ServerSettings`): the layering of flag, environment and file,
/// one grammar per kind, the ranges the library itself refuses, and the command's help and
/// config check built from the same rows.
@Suite(.timeLimit(.minutes(10))) struct ServerSettingsTests {
    static func file(_ text: String) throws -> ServerConfigFile {
        try ServerConfigFile.parse(text, path: "roster.yaml")
    }

    @Test func aFlagBeatsItsVariableWhichBeatsTheFileWhichBeatsTheDefault() throws {
        let file = try Self.file("max-connections: 20\nmax-in-flight: 7\ndemo: true\nwebhook-allow: [10.0.0.0/8]\n")
        let resolved = try ServerSettings.configuration(
            flags: ["max-connections": ["30"]],
            environment: ["ROSTER_MAX_CONNECTIONS": "40", "ROSTER_MAX_IN_FLIGHT": "8"], file: file)
        let configuration = resolved.configuration
        #expect(configuration.limits.maxConnections == 30 && resolved.sources["max-connections"] == .flag)
        #expect(
            configuration.limits.maxInFlightRequests == 8
                && resolved.sources["max-in-flight"] == .environment("ROSTER_MAX_IN_FLIGHT"))
        #expect(configuration.demo && resolved.sources["demo"] == .file(path: "roster.yaml", line: 3))
        #expect(configuration.notifications.webhookAllow.map(\.description) == ["10.0.0.0/8"])
        #expect(configuration.limits.historySize == ServerConfiguration.serveDefaults.limits.historySize)
        #expect(resolved.sources["history-size"] == .defaultValue)
        #expect(configuration.httpListen == HostPort(host: "127.0.0.1", port: 7480), "serve's default HTTP listener")
    }

    @Test func unitsRangesAndListsAreReadByTheirRow() throws {
        let resolved = try ServerSettings.configuration(
            flags: [
                "hello-timeout-ms": ["1500"], "audit-retention-days": ["30"], "outbound-buffer-bytes": ["65536"],
                "tls-name": ["a.example", "10.0.0.1"], "http-listen": ["none"],
            ], environment: ["ROSTER_WEBHOOK_ALLOW": "10.0.0.0/8, 192.168.0.0/16"], file: nil
        ).configuration
        #expect(resolved.limits.helloTimeout == .milliseconds(1_500))
        #expect(resolved.auditRetention == .seconds(30 * 86_400))
        #expect(resolved.limits.outboundHighWaterMark == 65_536 && resolved.limits.outboundLowWaterMark == 16_384)
        #expect(resolved.tls?.names == ["a.example", "10.0.0.1"], "a TLS setting turns TLS on")
        #expect(resolved.httpListen == nil)
        #expect(resolved.notifications.webhookAllow.count == 2, "a list variable is comma-separated")
    }

    /// Every problem at once, each naming its setting and where it came from; a file's by line.
    @Test func everyProblemIsReportedInOneRound() throws {
        let file = try Self.file(
            "max-connections: 0\ncalendar-days-back: 1000\nlog-level: loud\nwebhook-allow: [nope]\nwebhook-timeout-ms: 0\n"
        )
        let error = #expect(throws: ServerSettingError.self) {
            try ServerSettings.configuration(
                flags: ["listen": ["nowhere"]], environment: ["ROSTER_HISTORY_SIZE": "lots"], file: file)
        }
        let lines = try #require(error).description.split(separator: "\n").map(String.init)
        #expect(lines.contains("--listen must be HOST:PORT, e.g. 127.0.0.1:7400 (got \"nowhere\")"), "\(lines)")
        #expect(lines.contains("ROSTER_HISTORY_SIZE: history-size: expected a whole number (got \"lots\")"), "\(lines)")
        #expect(
            Array(lines.suffix(5)) == [
                "roster.yaml: line 1: max-connections is 1 to 1000000 (got 0)",
                "roster.yaml: line 2: calendar-days-back is 0 to 366 (got 1000)",
                "roster.yaml: line 3: log-level: unknown level \"loud\" (trace, debug, info, notice, warning, error, critical)",
                "roster.yaml: line 4: webhook-allow takes an address or a CIDR range such as 10.1.0.0/16 (got \"nope\")",
                "roster.yaml: line 5: webhook-timeout-ms is 1 to 600000 (got 0)",
            ], "in the file's order: \(lines)")
        // Unknown keys and values of the wrong kind come in the same round and shape as values
        // out of their range, in the file's order.
        let mixed = try Self.file(
            "listen: 127.0.0.1:7400\nmax-conections: 10\nhistory-size: lots\nmax-connections: 0\ndemo: maybe\n")
        let all = try #require(
            #expect(throws: ServerSettingError.self) {
                try ServerSettings.configuration(flags: [:], environment: [:], file: mixed)
            }
        ).description.split(separator: "\n").map(String.init)
        #expect(all.count == 4 && all.allSatisfy { $0.hasPrefix("roster.yaml: line ") }, "\(all)")
        #expect(
            all[0].contains("line 2: unknown key \"max-conections\"")
                && all[1].contains("line 3: history-size: expected a whole number")
                && all[2].contains("line 4: max-connections is 1 to 1000000")
                && all[3].contains("line 5: demo: expected true or false"),
            "\(all)")
    }

    /// The library applies the same ranges to a configuration built in code (no clamps that
    /// only the command knew), and TLS files go in pairs.
    @Test func theLibraryRefusesWhatTheCommandRefuses() {
        var configuration = ServerConfiguration(dataDirectory: "/nonexistent")
        configuration.calendarDaysAhead = 0
        configuration.notifications.gapDays = 91
        configuration.limits.outboundHighWaterMark = 10
        var tls = ServerConfiguration.TLSSettings()
        tls.certificateChainFile = "/etc/roster/server.pem"
        configuration.tls = tls
        #expect(
            configuration.problems == [
                "tls-cert and tls-key go together",
                "outbound-buffer-bytes is 4096 to 1073741824 (got 10)",
                "calendar-days-ahead is 1 to 366 (got 0)",
                "coverage-gap-days is 1 to 90 (got 91)",
            ])
        #expect(ServerConfiguration.serveDefaults.problems.isEmpty, "the defaults are within every range")
    }

    /// `serve --help` is built from the rows: every setting's flag, variable and default.
    @Test func theServeHelpListsEverySetting() async throws {
        let cli = CLI(port: 1)
        let help = try await cli.server(["serve", "--help"])
        #expect(help.status == 0)
        let text = help.stdout.replacingOccurrences(of: "\n", with: " ").split(
            separator: " ", omittingEmptySubsequences: true
        ).joined(separator: " ")
        for setting in ServerSettings.all {
            #expect(text.contains("--\(setting.name) "), "--\(setting.name) has a property in Serve")
            #expect(text.contains(setting.environmentName), "\(setting.environmentName)")
        }
        #expect(text.contains("(env: ROSTER_MAX_IN_FLIGHT; default: 64)"))
    }

    /// The README's table of `serve`'s settings has a row for every setting, its flag and its
    /// variable as the rows name them (a setting added without its line fails here).
    @Test func theReadmeTableNamesEverySetting() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        for setting in ServerSettings.all {
            let row = rows.first { $0.contains("`--\(setting.name) ") || $0.contains("`--\(setting.name)`") }
            #expect(row != nil, "README.md has no row for --\(setting.name)")
            #expect(
                row?.contains(setting.environmentName) == true,
                "--\(setting.name)'s row names \(setting.environmentName)")
        }
    }
}
