import Foundation
import RosterTestSupport
import Testing

/// The README's examples do what they say on the demo, whatever the week: its self-service block
/// is run as written (with the built binaries for `swift run`) against `serve --demo`.
@Suite(.timeLimit(.minutes(10))) struct ReadmeExampleTests {
    /// The README's lines from `start` up to the end of its code block.
    static func block(startingWith start: String) throws -> String {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        let from = try #require(readme.range(of: start), "README.md has no line starting \(start)")
        let end = try #require(readme.range(of: "```", range: from.lowerBound..<readme.endIndex))
        return String(readme[from.lowerBound..<end.lowerBound])
    }

    @Test func theSelfServiceExampleWorksOnTheDemo() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let bin = ServerProcess.binDirectory.path
            let script = try Self.block(startingWith: "for who in \"Grace Hopper\"")
                .replacingOccurrences(of: "swift run roster-server", with: "\(bin)/roster-server")
                .replacingOccurrences(of: "swift run roster-client", with: "\(bin)/roster-client")
            #expect(!script.contains("swift run"), "\(script)")
            var environment = cli.environment
            environment["ROSTER_DATA_DIR"] = server.dataDirectory
            func bash(_ lines: String) async throws -> CLI.Result {
                try await CLI.execute(
                    URL(fileURLWithPath: "/bin/bash"),
                    ["-e", "-o", "pipefail", "-c", "cd '\(cli.home.path)' && " + lines],
                    environment: environment, timeout: .seconds(120))
            }
            // The tokens first; a person types slower than the server's one-second pick-up of new tokens.
            let split = try #require(script.range(of: "C=\""))
            let tokens = try await bash(String(script[..<split.lowerBound]))
            try #require(tokens.status == 0, "\(tokens.stderr)")
            let grace = try String(contentsOf: cli.home.appendingPathComponent("Grace.token"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(await eventually(10) { (try? await cli.run(["requests", "--token", grace]))?.status == 0 })
            // Then each command must succeed: the example is a sequence a new user types.
            let run = try await bash(String(script[split.lowerBound...]))
            #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
            #expect(
                run.stdout.contains("Took cover request req_") && run.stdout.contains("Cancelled cover request")
                    && run.stdout.contains("Took duty on Platform primary") && run.stdout.contains("Undid the take"),
                "\(run.stdout)")
        }
    }

    /// The README's migrate example, as written but for the paths: the export proved, planned
    /// (exit 2: changes) and applied on the demo.
    @Test func theMigrateExampleWorksOnTheDemo() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
                .standardized.path
            let block = try Self.block(startingWith: "$C migrate --from pagerduty")
            let script =
                "C=\"\(ServerProcess.binDirectory.path)/roster-client\"\n"
                + block.replacingOccurrences(of: " docs/examples/", with: " \(root)/docs/examples/")
            let run = try await CLI.execute(
                URL(fileURLWithPath: "/bin/bash"),
                ["-c", "cd '\(cli.home.path)' && " + script + "\necho \"apply $?\""],
                environment: cli.environment, timeout: .seconds(120))
            #expect(run.stdout.contains("0 differences over 90 days"), "\(run.stdout)\n\(run.stderr)")
            #expect(run.stdout.contains("+ schedule Checkout nights"), "\(run.stdout)")
            #expect(
                run.stdout.contains("Applied roster.yaml as revision") && run.stdout.hasSuffix("apply 0\n"),
                "\(run.stdout)")
        }
    }
}
