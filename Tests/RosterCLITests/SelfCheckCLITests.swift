import Foundation
import RosterTestSupport
import Testing

/// `roster-server self-check` from the built binary: it passes on this machine, says each step,
/// makes its own data directory and removes it, and never touches a directory that exists.
@Suite(.timeLimit(.minutes(10)))
struct SelfCheckCLITests {
    static var server: URL { ServerProcess.binDirectory.appendingPathComponent("roster-server") }

    @Test func itPassesAndLeavesNothingInItsTemporaryDirectory() async throws {
        let temporary = TestScratch.directory("roster-self-check-tmp")
        defer { TestScratch.remove(temporary) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        // A longer deadline than the default minute: the suite keeps both cores busy.
        let result = try await CLI.execute(
            Self.server, ["self-check", "--deadline", "4m"], environment: environment, timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for line in [
            "http: GET /readyz 200 OK", "protocol: Hello answered by Welcome, wire protocol 1", "stopped",
            "self-check passed",
        ] {
            #expect(result.stdout.contains(line), "\(line): \(result.stdout)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    @Test func anExistingDirectoryIsRefusedAndLeftAsItWas() async throws {
        let existing = TestScratch.directory("roster-self-check-existing")
        defer { TestScratch.remove(existing) }
        let kept = existing.appendingPathComponent("kept.txt")
        try Data("mine".utf8).write(to: kept)
        let result = try await CLI.execute(
            Self.server, ["self-check", "--data-dir", existing.path], environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("exists"), "\(result.stderr)")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "mine")
    }

    @Test func aDeadlineOutsideItsRangeIsRefused() async throws {
        for deadline in ["0s", "11m", "soon", "-5s"] {
            let result = try await CLI.execute(
                Self.server, ["self-check", "--deadline=\(deadline)"], environment: ProcessInfo.processInfo.environment)
            #expect(
                result.status == 64 && result.stderr.contains("--deadline is a duration"),
                "\(deadline): \(result.stderr)")
        }
    }

    @Test func aStoreThatCannotBeReachedFailsWithTheStepAndExitsOne() async throws {
        let result = try await CLI.execute(
            Self.server, ["self-check", "--store", "postgres://roster@127.0.0.1:1/roster"],
            environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("self-check failed"), "\(result.stderr)")
    }
}
