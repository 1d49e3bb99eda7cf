import Foundation
import RosterClient

/// The real `roster-server` executable, started as a child process on 127.0.0.1 port 0.
public final class ServerProcess: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    public let dataDirectory: String
    private let errorPipe = Pipe()
    private let exited = ExitSignal()

    /// The built binary: ROSTER_BIN_DIR if set, else the package's .build/debug.
    public static var binDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["ROSTER_BIN_DIR"] {
            return URL(fileURLWithPath: directory)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    public init(dataDirectory: String, arguments: [String] = []) throws {
        let binary = Self.binDirectory.appendingPathComponent("roster-server")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw RosterClientError.connectionFailed("\(binary.path) is missing: run `swift build` first (scripts/test does)")
        }
        self.dataDirectory = dataDirectory
        process.executableURL = binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDirectory, "--shutdown-grace-ms", "50"] + arguments
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        // The log line "listening on [IPv4]127.0.0.1/127.0.0.1:PORT" gives the port.
        var log = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let line = log.split(separator: "\n").first(where: { $0.contains("listening on") }),
               let port = line.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) {
                self.port = port
                // Keep draining stderr so the server never blocks on a full pipe.
                errorPipe.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
                return
            }
        }
        process.terminate()
        throw RosterClientError.connectionFailed("roster-server did not start: \(log)")
    }

    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        exited.wait()
    }

    /// SIGTERM, then waits for the exit (the server sends GoingAway and stops after its grace).
    public func terminate() {
        if process.isRunning { process.terminate() }
        exited.wait()
    }

    /// The admin token the server wrote at first start.
    public var adminToken: String {
        (try? String(contentsOfFile: dataDirectory + "/admin.token", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    deinit {
        errorPipe.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Runs the built `roster-client` with an isolated config and cache directory.
public struct CLI: Sendable {
    public let server: String
    public let home: URL
    /// Passed as ROSTER_TOKEN when set.
    public let token: String?

    public struct Result: Sendable {
        public var stdout: String
        public var stderr: String
        public var status: Int32

        /// stdout parsed as one JSON object (or array).
        public var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        public var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    public init(port: Int, token: String? = nil) {
        self.token = token
        server = "127.0.0.1:\(port)"
        home = FileManager.default.temporaryDirectory.appendingPathComponent("roster-cli-\(UUID().uuidString)")
    }

    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("ROSTER_") { environment[key] = nil }
        environment["ROSTER_SERVER"] = server
        if let token { environment["ROSTER_TOKEN"] = token }
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["TZ"] = "UTC"
        return environment
    }

    public static var binary: URL { ServerProcess.binDirectory.appendingPathComponent("roster-client") }

    /// Runs the client to completion. Pipes are drained on Dispatch threads and the exit is
    /// awaited, so no thread of the concurrency pool is ever blocked.
    @discardableResult
    public func run(_ arguments: [String]) async throws -> Result {
        try await Self.execute(Self.binary, arguments, environment: environment)
    }

    /// Runs the built `roster-server` with a subcommand such as `token create`.
    @discardableResult
    public func server(_ arguments: [String]) async throws -> Result {
        try await Self.execute(ServerProcess.binDirectory.appendingPathComponent("roster-server"), arguments, environment: environment)
    }

    static func execute(_ binary: URL, _ arguments: [String], environment: [String: String]) async throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus); exited.continuation.finish() }
        try process.run()
        async let output = Self.readToEnd(out.fileHandleForReading)
        async let errors = Self.readToEnd(err.fileHandleForReading)
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        return Result(stdout: String(decoding: await output, as: UTF8.self),
                      stderr: String(decoding: await errors, as: UTF8.self), status: status)
    }

    static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
public func eventually(_ seconds: Double = 15, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// Waits for a child process's exit through its termination handler (which runs on Dispatch):
/// `Process.waitUntilExit()` may never return when called from a concurrency-pool thread.
public final class ExitSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false

    public init() {}

    public func signal() {
        condition.withLock {
            done = true
            condition.broadcast()
        }
    }

    public func wait() {
        condition.withLock { while !done { condition.wait() } }
    }
}

extension Process {
    /// Runs to completion, waiting without `waitUntilExit()`.
    public func runToExit() throws {
        let exited = ExitSignal()
        terminationHandler = { _ in exited.signal() }
        try run()
        exited.wait()
    }
}

/// Runs a program with posix_spawn and waits with waitpid. For programs that daemonize (tmux):
/// Foundation's `Process` notices a child's exit through a descriptor the child inherits, and a
/// forked daemon keeps it open, so the exit is never seen.
public func spawnAndWait(_ path: String, _ arguments: [String]) -> Int32 {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status >> 8) & 0xFF
}
