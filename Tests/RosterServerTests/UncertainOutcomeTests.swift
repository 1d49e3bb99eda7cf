import Foundation
import RosterClient
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// What roster-client says when it cannot know whether a change was made, and when a request is
/// too large to send: never "Cannot reach the server", which invites a blind retry.
@Suite(.timeLimit(.minutes(10))) struct UncertainOutcomeTests {
    /// A server whose commits can be held at its store, and a CLI with its admin token.
    static func withGatedServer(_ name: String, _ body: (ServerHarness, GatedStore, CLI) async throws -> Void)
        async throws
    {
        let directory = TestScratch.directory(name).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let gate = GatedStore(try await SQLiteRosterStore.open(path: directory + "/roster.sqlite"))
        try await using(try await ServerHarness.start(dataDirectory: directory, store: gate)) { harness in
            let cli = CLI(port: harness.port, token: harness.adminToken)
            defer { TestScratch.remove(cli.home) }
            try await body(harness, gate, cli)
        }
    }

    @Test func aChangeSentButNotAnsweredIsReportedAsUnknownNotUnreachable() async throws {
        try await Self.withGatedServer("roster-unknown") { harness, gate, cli in
            gate.hold()
            let held = try await cli.run(["admin", "motd", "set", "changed while nobody answered", "--timeout", "8s"])
            gate.release()
            #expect(held.status == 11, "\(held.stderr)")
            #expect(
                held.stderr.contains("may or may not have been made")
                    && held.stderr.contains("Check before trying again"),
                "\(held.stderr)")
            #expect(!held.stderr.contains("Cannot reach"), "\(held.stderr)")
            // It was made after all: what the message told the user to check.
            let reader = try await harness.connect(token: harness.adminToken)
            let made = await eventually {
                guard case .snapshot(let snapshot)? = try? await reader.request(.getSnapshot(.init())) else {
                    return false
                }
                return snapshot.tenant.motd == "changed while nobody answered"
            }
            #expect(made)
            await reader.close()
        }
    }

    /// `apply` is a change like any other: sent and not answered, its outcome is unknown (11),
    /// not "cannot reach" (4), which would invite a blind retry.
    @Test func anApplySentButNotAnsweredIsReportedAsUnknown() async throws {
        try await Self.withGatedServer("roster-unknown-apply") { harness, gate, cli in
            let file = cli.home.appendingPathComponent("roster.yaml")
            try "version: 1\npeople:\n  - {id: ada, firstName: Ada, lastName: Lovelace}\n".write(
                to: file, atomically: false, encoding: .utf8)
            gate.hold()
            // The timeout covers every request of the command, the reads before the change too:
            // long enough for them on two busy cores (CI runs the fuzzers beside the suite).
            let held = try await cli.run(["apply", "-f", file.path, "--yes", "--timeout", "8s"])
            gate.release()
            #expect(held.status == 11, "\(held.stderr)")
            #expect(
                held.stderr.contains("may or may not have been made") && !held.stderr.contains("Cannot reach"),
                "\(held.stderr)")
            // The command the message suggests works as written.
            let hint = try #require(
                held.stderr.components(separatedBy: "`roster-client ").dropFirst().first?.components(separatedBy: "`")
                    .first)
            var arguments: [String] = []
            for (index, part) in hint.components(separatedBy: "'").enumerated() {
                arguments += index % 2 == 1 ? [part] : part.split(separator: " ").map(String.init)
            }
            let audit = try await cli.run(arguments)
            #expect(audit.status == 0, "roster-client \(hint): \(audit.stderr)")
        }
    }

    /// Stopped (SIGTERM, Ctrl-C) while its change is in flight, roster-client says the outcome is
    /// unknown before it ends, instead of exiting 143 without a word.
    @Test func aClientStoppedWhileItsChangeIsInFlightSaysSo() async throws {
        try await Self.withGatedServer("roster-interrupted") { harness, gate, cli in
            gate.hold()
            let child = try ChildProcess(
                CLI.binary.path, ["admin", "motd", "set", "interrupted"], environment: cli.environment)
            let reached = await eventually(30) { gate.held > 0 }
            #expect(reached, "the change reached the store")
            let status = await child.stop(signal: SIGTERM)
            gate.release()
            #expect(status == 143, "\(child.stderr)")
            #expect(
                child.stderr.contains("Interrupted while a change was on its way")
                    && child.stderr.contains("may or may not"),
                "\(child.stderr)")
        }
    }

    @Test func aRequestOverTheServersFrameLimitIsRefusedBeforeItIsSent() async throws {
        try await withServer(configure: { $0.limits.maxFrameBytes = 16 << 10 }) { harness in
            let cli = CLI(port: harness.port, token: harness.adminToken)
            defer { TestScratch.remove(cli.home) }
            let file = cli.home.appendingPathComponent("people.csv")
            try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
            let rows = (0..<1_000).map { "Person,Number\($0),p\($0)@example.com" }
            try ("firstName,lastName,email\n" + rows.joined(separator: "\n") + "\n").write(
                to: file, atomically: false, encoding: .utf8)
            let result = try await cli.run(["admin", "import", file.path, "--format", "employees-csv"])
            #expect(result.status == 9, "\(result.stderr)")
            #expect(result.stderr.contains("Too large") && result.stderr.contains("at most 16384"), "\(result.stderr)")
            #expect(!result.stderr.contains("Cannot reach"), "\(result.stderr)")
            // Nothing was sent, and the server still answers on a new connection.
            let after = try await cli.run(["employees", "--json"])
            #expect(after.status == 0 || after.status == 5, "\(after.stderr)")
            #expect(!after.stdout.contains("Number999"))
        }
    }
}
