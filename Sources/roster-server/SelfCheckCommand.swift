import ArgumentParser
import Foundation
import Logging
import RosterDomain
import RosterProtocol
import RosterServer
import RosterStore
import RosterStorePostgres

/// `roster-server self-check`: starts the whole server once on loopback and stops it (the image
/// build runs it on the assembled root filesystem; `SelfCheck` says what is checked).
struct SelfCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "self-check",
        abstract: "Start the server on loopback, open a store, ask /readyz, stop: can it run here?",
        discussion: """
            Uses a data directory of its own, made for the check and removed after it, so it never touches a \
            running server's. Exits 0 when every step passed; otherwise prints the step that failed and exits 1. \
            The whole check has one deadline (--deadline, 60 seconds by default), each step taking what is left \
            of it.
            """)

    /// The longest --deadline: a check that needs more is not a quick check.
    static let maxDeadline: Duration = .seconds(600)

    @Option(
        name: .customLong("data-dir"),
        help: "The check's data directory: must not exist; made and removed. (default: a new one in $TMPDIR)")
    var dataDirectory: String?

    @Option(help: "Check this store instead of SQLite in the data directory: postgres://USER@HOST[:PORT]/DATABASE.")
    var store: String?

    @Option(help: "How long the whole check may take: 30s, 2m (1 second to 10 minutes).")
    var deadline: String = "60s"

    /// --deadline, read by the one duration grammar and bounded.
    var deadlineDuration: Duration {
        get throws {
            guard let duration = DurationText.parse(deadline, within: Self.maxDeadline), duration >= .seconds(1) else {
                throw ValidationError("--deadline is a duration from 1s to 10m, such as 60s or 2m, not \(deadline)")
            }
            return duration
        }
    }

    func validate() throws { _ = try deadlineDuration }

    func run() async throws {
        var location: StoreLocation?
        if let store {
            do { location = try StoreLocation(parsing: store) } catch { throw ValidationError(error.description) }
        }
        let directory =
            dataDirectory
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("roster-self-check-\(UUID().uuidString)")
        guard mkdir(directory, 0o700) == 0 else {
            let why = errno == EEXIST ? "exists" : "cannot be made (\(String(cString: strerror(errno))))"
            throw ValidationError("\(directory) \(why): self-check makes its own data directory and removes it")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A last resort beside SelfCheck's deadline: a step that ignores cancellation still ends.
        let deadline = try deadlineDuration
        let lastResort = Double(deadline.components.seconds) + 30
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: lastResort)
            FileHandle.standardError.write(Data("self-check: no result within \(Int(lastResort)) s\n".utf8))
            Foundation.exit(1)
        }
        var logger = Logger(label: "roster.self-check")
        logger.logLevel = .warning
        do {
            let report = try await SelfCheck.run(
                dataDirectory: directory, store: location, drivers: .withPostgreSQL, deadline: deadline, logger: logger)
            for line in report { print(line) }
            print("self-check passed: roster-server \(RosterVersion.description)")
        } catch {
            FileHandle.standardError.write(Data("self-check failed: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
