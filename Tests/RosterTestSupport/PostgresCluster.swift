import Foundation
import NIOConcurrencyHelpers
import RosterServer
import RosterServerCore
import RosterStore
#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of the test's own: initdb in a scratch directory, the server on a free
/// port of 127.0.0.1, trust authentication for user `roster`. CI runs as root, which PostgreSQL
/// refuses, so as root the programs run as the `postgres` user (Debian's package makes it) or
/// `nobody`, through setpriv. `stop()` ends the server (fast shutdown) and removes everything;
/// the scratch net kills it if a test process dies first.
public final class PostgresCluster: StoppableTestResource {
    public let port: Int
    private let directory: URL
    private let server = NIOLockedValueBox<ChildProcess?>(nil)

    private var data: String { directory.appendingPathComponent("data").path }

    /// Debian's binaries (/usr/lib/postgresql/VERSION/bin), the newest version; nil when
    /// PostgreSQL is not installed.
    public static let binDirectory: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().last
            .map { root.appendingPathComponent("\($0)/bin") }
            .flatMap {
                FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("postgres").path) ? $0 : nil
            }
    }()

    public static var isAvailable: Bool { binDirectory != nil }

    /// Whether the PostgreSQL tests run: when it is installed, and always when
    /// ROSTER_REQUIRE_POSTGRES=1 (CI sets it, so a missing PostgreSQL fails there instead of
    /// skipping the multi-node tests).
    public static var shouldRun: Bool {
        isAvailable || ProcessInfo.processInfo.environment["ROSTER_REQUIRE_POSTGRES"] == "1"
    }

    private static let sharedStart = NIOLockedValueBox<Task<PostgresCluster, any Error>?>(nil)
    private static let sharedCluster = NIOLockedValueBox<PostgresCluster?>(nil)

    /// One cluster for the whole test process (each test makes its own database in it): started
    /// on first use, stopped when the process exits.
    public static func shared() async throws -> PostgresCluster {
        let start = sharedStart.withLockedValue { task in
            if let task { return task }
            let made = Task {
                let cluster = try await PostgresCluster.start()
                sharedCluster.withLockedValue { $0 = cluster }
                atexit { PostgresCluster.stopSharedAtExit() }
                return cluster
            }
            task = made
            return made
        }
        return try await start.value
    }

    /// A fast shutdown of the shared cluster, waited for (up to 15 s), then its directory goes.
    private static func stopSharedAtExit() {
        guard let cluster = sharedCluster.withLockedValue({ $0 }),
            let child = cluster.server.withLockedValue({ $0 })
        else { return }
        kill(child.pid, SIGINT)
        for _ in 0..<150 where child.isRunning { usleep(100_000) }
        TestScratch.remove(cluster.directory)
    }

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// initdb and start; throws (with the programs' output) when PostgreSQL is missing or fails.
    public static func start() async throws -> PostgresCluster {
        guard let bin = binDirectory else {
            throw TestFailure("PostgreSQL is not installed (apt-get install postgresql)")
        }
        let directory = TestScratch.directory("postgres")
        let data = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        if geteuid() == 0, let owner = unprivilegedUser() {
            chown(directory.path, owner.uid, owner.gid)
            chown(data.path, owner.uid, owner.gid)
        }
        chmod(data.path, 0o700)
        let initdb = try ChildProcess(
            asUnprivileged(bin.appendingPathComponent("initdb").path),
            unprivilegedArguments(
                bin.appendingPathComponent("initdb").path,
                [
                    "-D", data.path, "-U", "roster", "-A", "trust", "-E", "UTF8", "--no-sync",
                    "--no-instructions",
                ]))
        guard await initdb.waitForExit(timeout: .seconds(120)) == 0 else {
            let output = initdb.output
            TestScratch.remove(directory)
            throw TestFailure("initdb failed: \(output)")
        }
        var lastError = ""
        for _ in 0..<5 {
            let cluster = PostgresCluster(directory: directory, port: freePort())
            do {
                try await cluster.startServer()
                try await cluster.psql("postgres", "SELECT 1")
                return cluster
            } catch {
                lastError = "\(error)"
                await cluster.stopServer()
            }
        }
        TestScratch.remove(directory)
        throw TestFailure("PostgreSQL did not start: \(lastError)")
    }

    /// Starts the server on this cluster's port (again, after `stopServer`).
    public func startServer() async throws {
        guard let bin = Self.binDirectory else { throw TestFailure("PostgreSQL is not installed") }
        let postgres = bin.appendingPathComponent("postgres").path
        let child = try ChildProcess(
            Self.asUnprivileged(postgres),
            Self.unprivilegedArguments(
                postgres,
                [
                    "-D", data, "-p", "\(port)", "-c", "listen_addresses=127.0.0.1", "-c",
                    "unix_socket_directories=\(data)",
                    // Tests measure behaviour, not the disk: no fsync (a clean stop still writes everything).
                    "-c", "fsync=off", "-c", "max_connections=200", "-c", "log_min_messages=warning",
                ]))
        server.withLockedValue { $0 = child }
        // Ready, or gone (waitForOutput ends at the exit). A FATAL line alone is no verdict:
        // clients that connect while it starts get "the database system is starting up".
        let ready = await child.waitForOutput(timeout: .seconds(60)) { log in
            log.contains("ready to accept connections") ? true : nil
        }
        guard ready == true else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("postgres did not start on port \(port): \(child.output)")
        }
    }

    /// A fast shutdown (SIGINT): clients are disconnected, what was committed is kept.
    public func stopServer() async {
        guard
            let child = server.withLockedValue({ value -> ChildProcess? in
                defer { value = nil }; return value
            })
        else { return }
        await child.stop(signal: SIGINT, grace: .seconds(30))
    }

    public func stop() async {
        await stopServer()
        TestScratch.remove(directory)
    }

    /// A new, empty database; its address for `--store`.
    public func createDatabase(_ name: String = "roster_\(UUID().uuidString.prefix(8).lowercased())") async throws
        -> PostgresAddress
    {
        try await psql("postgres", "CREATE DATABASE \(name)")
        return PostgresAddress(host: "127.0.0.1", port: port, user: "roster", database: name)
    }

    /// Runs SQL with psql; returns its output (unaligned, tuples only).
    @discardableResult
    public func psql(_ database: String, _ sql: String) async throws -> String {
        guard let bin = Self.binDirectory else { throw TestFailure("PostgreSQL is not installed") }
        let child = try ChildProcess(
            bin.appendingPathComponent("psql").path,
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", "roster",
                "-d", database, "-c", sql,
            ])
        guard await child.waitForExit(timeout: .seconds(60)) == 0 else {
            throw TestFailure("psql \(sql): \(child.output)")
        }
        return child.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Running as an unprivileged user

    private static func unprivilegedUser() -> (uid: uid_t, gid: gid_t)? {
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        }
        return nil
    }

    private static func asUnprivileged(_ program: String) -> String {
        geteuid() == 0 ? "/usr/bin/setpriv" : program
    }

    /// setpriv changes the user and then executes the program itself, so the child is the program.
    private static func unprivilegedArguments(_ program: String, _ arguments: [String]) -> [String] {
        guard geteuid() == 0, let owner = unprivilegedUser() else { return arguments }
        return ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--", program] + arguments
    }

    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
