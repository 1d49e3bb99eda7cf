import Foundation
import Logging
@testable import RosterServer
import RosterStore
import RosterTestSupport
import Testing

/// `SelfCheck`, what `roster-server self-check` and the image build run: the whole server on
/// loopback, /readyz over a real socket, a protocol connection, a clean stop; or the step that
/// failed, with why, well before its deadline.
@Suite(.timeLimit(.minutes(10)))
struct SelfCheckTests {
    static let logger: Logger = {
        var logger = Logger(label: "roster.test.self-check")
        logger.logLevel = .critical
        return logger
    }()

    @Test func aFreshDataDirectoryPassesEveryStep() async throws {
        let scratch = TestScratch.directory("roster-self-check")
        defer { TestScratch.remove(scratch) }
        let directory = scratch.appendingPathComponent("data").path
        // Minutes, not the default minute: the suite runs this beside hundreds of tests on two
        // busy cores (docs/RELIABILITY.md), where starting a server took 81 s once.
        let report = try await SelfCheck.run(
            dataDirectory: directory, store: nil, drivers: StoreDrivers(), deadline: .seconds(240), logger: Self.logger)
        #expect(report.first == "store: sqlite in \(directory)", "\(report)")
        #expect(report.contains("http: GET /readyz 200 OK"), "\(report)")
        #expect(report.contains("protocol: Hello answered by Welcome, wire protocol 1"), "\(report)")
        #expect(report.last == "stopped", "\(report)")
        // It opened a real store there.
        #expect(FileManager.default.fileExists(atPath: directory + "/roster.sqlite"))
    }

    @Test func aDataDirectoryThatCannotHoldAStoreFailsWithWhy() async throws {
        let scratch = TestScratch.directory("roster-self-check")
        defer { TestScratch.remove(scratch) }
        // A file where the directory should be.
        let blocked = scratch.appendingPathComponent("data").path
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: blocked))
        // An hour's deadline: a check that waited for it instead of ending at the failure would
        // run into the suite's time limit (no clock is read here: under load that flakes).
        let error = await #expect(throws: (any Error).self) {
            try await SelfCheck.run(
                dataDirectory: blocked, store: nil, drivers: StoreDrivers(), deadline: .seconds(3_600),
                logger: Self.logger)
        }
        let said = "\(error.map { "\($0)" } ?? "")"
        #expect(said.contains(blocked) && !said.contains("deadline"), "the store's failure, said: \(said)")
    }

    @Test func aPostgreSQLStoreWithoutItsDriverIsRefused() async throws {
        let scratch = TestScratch.directory("roster-self-check")
        defer { TestScratch.remove(scratch) }
        let store = try StoreLocation(parsing: "postgres://roster@127.0.0.1:1/roster")
        await #expect(throws: (any Error).self) {
            try await SelfCheck.run(
                dataDirectory: scratch.appendingPathComponent("data").path, store: store, drivers: StoreDrivers(),
                logger: Self.logger)
        }
    }

    @Test func aCheckPastItsDeadlineFailsWithTheStepItWasAt() async throws {
        let scratch = TestScratch.directory("roster-self-check")
        defer { TestScratch.remove(scratch) }
        do {
            _ = try await SelfCheck.run(
                dataDirectory: scratch.appendingPathComponent("data").path, store: nil, drivers: StoreDrivers(),
                deadline: .zero, logger: Self.logger)
            Issue.record("a check with no time left passed")
        } catch let failure as SelfCheck.Failure {
            #expect(failure.description.hasSuffix("before the check's deadline"), "\(failure)")
        }
    }

    @Test func aListenerThatIsNotHTTPIsNamedAsSuch() async throws {
        // A protocol listener answers /readyz with a binary frame or nothing: not 200.
        _ = try await withServer { harness in
            await #expect(throws: SelfCheck.Failure.self) {
                _ = try await SelfCheck.get("/readyz", port: harness.port)
            }
        }
    }
}
