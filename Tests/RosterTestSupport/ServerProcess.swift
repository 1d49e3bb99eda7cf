import Foundation
import RosterClient

/// The real `roster-server` executable, started as a child process on 127.0.0.1 port 0.
/// Prefer `withServerProcess`, which always stops it.
public final class ServerProcess: Sendable {
    public let child: ChildProcess
    public let port: Int
    public let dataDirectory: String

    /// The built binary: ROSTER_BIN_DIR if set, else the package's .build/debug.
    public static var binDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["ROSTER_BIN_DIR"] {
            return URL(fileURLWithPath: directory)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    /// Starts the server and waits for its "listening on" log line, which gives the port.
    /// `environment` is added to this process's; `binaries` is where roster-server is (the
    /// build's by default, an unpacked release in its test).
    public static func start(
        dataDirectory: String, arguments: [String] = [], environment: [String: String] = [:],
        binaries: URL = binDirectory
    ) async throws -> ServerProcess {
        let binary = binaries.appendingPathComponent("roster-server")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TestFailure("\(binary.path) is missing: run `swift build` first (scripts/test does)")
        }
        let child = try ChildProcess(
            binary.path,
            ["serve", "--data-dir", dataDirectory] + testServeArguments + arguments,
            environment: environment.isEmpty
                ? nil
                : ProcessInfo.processInfo.environment.merging(environment) { _, given in given })
        return try await started(child, dataDirectory: dataDirectory)
    }

    /// What every test server is started with, after `serve`: both listeners on 127.0.0.1 port 0,
    /// a short shutdown grace, and a Hello deadline of 30 s, not 5: with both cores busy, this
    /// test process's own clients can wait seconds for a turn on the cooperative pool between
    /// connecting and sending Hello. Tests of the deadline pass their own (the last given wins).
    /// The tests are written around a tenant called demo, as stores made by earlier builds.
    public static let testServeArguments = [
        "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--shutdown-grace-ms", "50",
        "--hello-timeout-ms", "30000", "--default-tenant", "demo",
    ]

    /// Waits for a started server's "listening on" log line, which gives the port; `dataDirectory`
    /// is where its files are seen from here (the admin token).
    public static func started(
        _ child: ChildProcess, dataDirectory: String, timeout: Duration = .seconds(30)
    ) async throws -> ServerProcess {
        // "listening on 127.0.0.1:PORT"
        let port = await child.waitForOutput(timeout: timeout) { log in
            log.split(separator: "\n").first { $0.contains("listening on") }
                .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.prefix { $0.isNumber }) }
        }
        guard let port else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("roster-server did not start: \(child.output)")
        }
        // "HTTP on 127.0.0.1:PORT (...)"
        let httpPort = child.output.split(separator: "\n").first { $0.contains("HTTP on ") }
            .flatMap { $0.components(separatedBy: "HTTP on ").last?.split(separator: " ").first }
            .flatMap { $0.split(separator: ":").last }.flatMap { Int($0) }
        return ServerProcess(child: child, port: port, httpPort: httpPort, dataDirectory: dataDirectory)
    }

    /// The HTTP listener's port.
    public let httpPort: Int?

    private init(child: ChildProcess, port: Int, httpPort: Int?, dataDirectory: String) {
        self.child = child
        self.port = port
        self.httpPort = httpPort
        self.dataDirectory = dataDirectory
    }

    public func kill9() async {
        await child.stop(signal: SIGKILL)
    }

    /// SIGTERM, then waits for the exit (the server sends GoingAway and stops after its grace).
    public func terminate() async {
        await child.stop(signal: SIGTERM)
    }

    /// The admin token the server wrote at first start.
    public var adminToken: String {
        (try? String(contentsOfFile: dataDirectory + "/admin.token", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
}

/// Runs `body` with a `roster-server` child in `dataDirectory` (a fresh scratch directory if
/// nil); the server is stopped and a scratch directory removed afterwards, also when `body` throws.
public func withServerProcess<T>(
    dataDirectory: String? = nil, arguments: [String] = [],
    _ body: (ServerProcess) async throws -> T
) async throws -> T {
    let scratch = dataDirectory == nil ? TestScratch.directory("roster-server") : nil
    defer { if let scratch { TestScratch.remove(scratch) } }
    let server = try await ServerProcess.start(dataDirectory: dataDirectory ?? scratch!.path, arguments: arguments)
    return try await withCleanup(server, cleanUp: { await $0.terminate() }, body)
}

/// Runs the built `roster-client` with an isolated config and cache directory.
public struct CLI: Sendable {
    public let server: String
    public let home: URL
    /// Passed as ROSTER_TOKEN when set.
    public let token: String?
    /// Passed as ROSTER_CA_FILE when set: the server's CA, which turns TLS on.
    public var caFile: String?
    /// Where roster-client and roster-server are: the build's, or an unpacked release's.
    public let binaries: URL

    public struct Result: Sendable {
        public var stdout: String
        public var stderr: String
        public var status: Int32

        /// stdout parsed as one JSON object (or array).
        public var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        public var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    public init(port: Int, token: String? = nil, binaries: URL = ServerProcess.binDirectory) {
        self.token = token
        self.binaries = binaries
        server = "127.0.0.1:\(port)"
        home = TestScratch.directory("roster-cli")
    }

    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("ROSTER_") { environment[key] = nil }
        environment["ROSTER_SERVER"] = server
        if let token { environment["ROSTER_TOKEN"] = token }
        if let caFile { environment["ROSTER_CA_FILE"] = caFile }
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["TZ"] = "UTC"
        // A debug server beside a dozen others on two busy cores can take seconds over a request
        // that plans 28 days of the demo's minutely rotation (adding a webhook, a report): more
        // than the default 10 s at times, and at the suite's start a Hello once waited past 30 s.
        // Tests of the timeout itself pass --timeout.
        environment["ROSTER_TIMEOUT"] = "60s"
        return environment
    }

    public static var binary: URL { ServerProcess.binDirectory.appendingPathComponent("roster-client") }

    /// Runs the client to completion. Pipes are drained on Dispatch threads and the exit is
    /// awaited, so no thread of the concurrency pool is ever blocked.
    @discardableResult
    public func run(_ arguments: [String]) async throws -> Result {
        try await Self.execute(binaries.appendingPathComponent("roster-client"), arguments, environment: environment)
    }

    /// Runs the built `roster-server` with a subcommand such as `token create`.
    @discardableResult
    public func server(_ arguments: [String]) async throws -> Result {
        try await Self.execute(binaries.appendingPathComponent("roster-server"), arguments, environment: environment)
    }

    /// Runs to completion; a child still running after `timeout` is killed and fails the call.
    public static func execute(
        _ binary: URL, _ arguments: [String], environment: [String: String],
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let child = try ChildProcess(binary.path, arguments, environment: environment)
        guard let status = await child.waitForExit(timeout: timeout) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure(
                "\(binary.lastPathComponent) \(arguments.joined(separator: " ")) did not exit within \(timeout)")
        }
        return Result(stdout: child.stdout, stderr: child.stderr, status: status)
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
public func eventually(_ seconds: Double = 15, _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await eventually(until: Date().addingTimeInterval(seconds), condition)
}

/// Polls `condition` every 50 ms until it holds or `deadline` passes. For a wait on something
/// due at a known instant (a handoff), anchor the deadline there rather than at the moment of
/// asking: on two busy cores the steps before the wait can take longer than the lead time.
public func eventually(until deadline: Date, _ condition: () async throws -> Bool) async rethrows -> Bool {
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
