import Foundation
import RosterTestSupport
import Testing

/// Bad command-line arguments (part of the bad-input catalogue): the real binaries exit 64 with
/// a sentence that says what is wrong, and contact no server.
@Suite(.timeLimit(.minutes(10))) struct ArgumentCatalogueTests {
    static let clientCases: [(String, [String], String)] = [
        ("an unreadable time", ["now", "--at", "not a time"], "time"),
        ("a server without a port", ["now", "--server", "rosterhost"], "HOST:PORT"),
        ("a port out of range", ["now", "--server", "127.0.0.1:70000"], "HOST:PORT"),
        ("an unknown command", ["frobnicate"], "frobnicate"),
        ("an unknown option", ["now", "--colour"], "--colour"),
        ("an employee without names", ["admin", "employee", "add", "--first", "Ada"], "--first and --last"),
        (
            "an unknown employment type",
            ["admin", "employee", "add", "--first", "A", "--last", "B", "--type", "pirate"], "--type"
        ),
        ("an unreadable shift start", ["shifts", "--from", "the day after"], "time"),
        ("a missing token file", ["now", "--token-file", "/nonexistent/token"], "token file"),
        ("trust without HOST:PORT", ["trust", "rosterhost", "--yes"], "HOST:PORT"),
        ("a URL instead of HOST:PORT", ["now", "--server", "http://127.0.0.1:7400"], "without a scheme"),
        ("a reversed window", ["shifts", "--from", "+2h", "--to", "+1h"], "--from must be before --to"),
        // Issue #31: refused, naming the part, instead of read as something else.
        ("a day the month does not have", ["now", "--at", "2027-02-30T09:00:00Z"], "time"),
        ("an hour without its zero", ["shifts", "--from", "2026-11-30T9:00:00Z"], "time"),
        (
            "days joined by +",
            [
                "admin", "rotation", "add", "--schedule", "S", "--every", "1d", "--handoff", "2026-11-30T09:00",
                "--people", "Ada Lovelace", "--restrict", "Mon+Tue 08:00-20:00",
            ], "\"mon+tue\" is not a day"
        ),
        (
            "an empty slot",
            [
                "admin", "rotation", "add", "--schedule", "S", "--every", "1d", "--handoff", "2026-11-30T09:00",
                "--people", "Ada Lovelace,,Alan Turing",
            ], "empty name"
        ),
        (
            "an impossible handoff",
            [
                "admin", "rotation", "add", "--schedule", "S", "--every", "1d", "--handoff", "2026-02-30T09:00",
                "--people", "Ada Lovelace",
            ], "YYYY-MM-DDTHH:MM"
        ),
        ("a timeout without a unit", ["now", "--timeout", "90"], "--timeout"),
        (
            "a rotation without --handoff",
            ["admin", "rotation", "add", "--schedule", "S", "--every", "1d", "--people", "Ada Lovelace"],
            "missing --handoff:"
        ),
    ]

    static let serverCases: [(String, [String], String)] = [
        ("a bad listen address", ["serve", "--listen", "everywhere"], "HOST:PORT"),
        ("an unknown log level", ["serve", "--log-level", "loud"], "--log-level: unknown level \"loud\""),
        ("a certificate without its key", ["serve", "--tls-cert", "/tmp/x.pem"], "--tls-cert and tls-key go together"),
        ("an unknown role", ["token", "create", "--tenant", "demo", "--role", "boss"], "boss"),
        (
            "an unreadable expiry", ["token", "create", "--tenant", "demo", "--role", "reader", "--expires", "soon"],
            "--expires"
        ),
        (
            "an expiry without a unit", ["token", "create", "--tenant", "demo", "--role", "reader", "--expires", "90"],
            "--expires"
        ),
        ("a number that is not one", ["serve", "--max-connections", "many"], "many"),
        ("a web address with a path", ["serve", "--web-url", "https://roster.example.com/app?x=1"], "web-url"),
        ("a push contact that is no URL", ["serve", "--push-contact", "oncall"], "push-contact"),
    ]

    @Test func badClientArgumentsExit64() async throws {
        let cli = CLI(port: 1)
        for (name, arguments, mention) in Self.clientCases {
            let result = try await cli.run(arguments)
            #expect(result.status == 64, "\(name): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.localizedCaseInsensitiveContains(mention), "\(name): \(result.stderr)")
        }
    }

    @Test func badServerArgumentsExit64() async throws {
        let cli = CLI(port: 1)
        for (name, arguments, mention) in Self.serverCases {
            let result = try await cli.server(
                arguments + (arguments.first == "serve" ? [] : ["--data-dir", cli.home.path]))
            #expect(result.status == 64, "\(name): exit \(result.status), \(result.stderr)")
            #expect(result.stderr.localizedCaseInsensitiveContains(mention), "\(name): \(result.stderr)")
        }
    }

    /// A mistyped --data-dir is an error for every store command, and nothing is created there.
    @Test func storeCommandsOnADirectoryWithoutADatabaseFailAndCreateNothing() async throws {
        let cli = CLI(port: 1)
        let typo = cli.home.appendingPathComponent("typo").path
        for arguments in [
            ["token", "list"], ["token", "create", "--tenant", "demo", "--role", "reader"],
            ["token", "revoke", "abc"], ["tenant", "list"], ["tenant", "create", "acme"],
        ] {
            let result = try await cli.server(arguments + ["--data-dir", typo])
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("no Roster database in \(typo)"), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(arguments) created \(typo)")
        }
    }

    @Test func aBusyPortIsNamed() async throws {
        try await withServerProcess { running in
            let cli = CLI(port: 1)
            let data = cli.home.appendingPathComponent("data").path
            let result = try await cli.server(["serve", "--listen", "127.0.0.1:\(running.port)", "--data-dir", data])
            #expect(result.status != 0)
            #expect(result.stderr.contains("127.0.0.1:\(running.port) is already in use"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: data))
        }
    }

    @Test func bothBinariesSayTheirVersionAndUnreachableIsASentence() async throws {
        let cli = CLI(port: 1)
        for result in [try await cli.run(["--version"]), try await cli.server(["--version"])] {
            #expect(result.status == 0 && result.stdout.contains("wire protocol 1"), "\(result.stdout)")
        }
        let refused = try await cli.run(["now"])
        #expect(refused.status == 4)
        #expect(
            refused.stderr == "Cannot reach 127.0.0.1:1: connection refused, and nothing is cached.\n",
            "\(refused.stderr)")
    }
}
