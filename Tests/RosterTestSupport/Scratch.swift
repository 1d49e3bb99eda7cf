import Foundation
import NIOConcurrencyHelpers
import RosterClient
#if canImport(Glibc)
import Glibc
#endif

/// What a test run leaves on the machine: nothing. Every temporary directory a test makes lives
/// under one root for this process, and every child process is tracked; both are removed when
/// the process exits, also after a failed test that never reached its own cleanup. Tests still
/// clean up after themselves (scoped helpers); this is the net under them.
public enum TestScratch {
    /// `$TMPDIR/roster-tests-PID`, created on first use.
    public static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("roster-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // tmux puts its sockets under TMUX_TMPDIR; keep them inside the root too.
        setenv("TMUX_TMPDIR", root.path, 1)
        atexit { TestScratch.cleanUp() }
        return root
    }()

    /// A new, empty directory under the root.
    public static func directory(_ prefix: String = "roster") -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(12))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a directory made by `directory(_:)`.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    private static let children = NIOLockedValueBox<Set<pid_t>>([])
    private static let tmuxSockets = NIOLockedValueBox<Set<String>>([])

    static func track(_ pid: pid_t) { _ = children.withLockedValue { $0.insert(pid) } }
    static func untrack(_ pid: pid_t) { _ = children.withLockedValue { $0.remove(pid) } }
    public static func trackTmux(socket: String) { _ = tmuxSockets.withLockedValue { $0.insert(socket) } }
    public static func untrackTmux(socket: String) { _ = tmuxSockets.withLockedValue { $0.remove(socket) } }

    /// SIGKILL for every child still running (some, like `openssl s_server`, ignore SIGTERM),
    /// every tmux server a test started, then the root directory.
    static func cleanUp() {
        for pid in children.withLockedValue({ $0 }) {
            kill(pid, SIGKILL)
        }
        for socket in tmuxSockets.withLockedValue({ $0 }) {
            _ = spawnAndWaitBlocking("/usr/bin/tmux", ["-L", socket, "kill-server"])
        }
        try? FileManager.default.removeItem(at: root)
    }
}

/// A child process with its output captured, its exit awaited without blocking a thread, and a
/// stop that always ends it (SIGTERM, then SIGKILL after a grace period).
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let captured = NIOLockedValueBox(Captured())
    private let exitStatus = NIOLockedValueBox<Int32?>(nil)
    private let stdinPipe: Pipe?

    private struct Captured {
        var stdout = Data()
        var stderr = Data()
        var openPipes = 0
    }

    /// - Parameters:
    ///   - captureOutput: collect stdout and stderr; otherwise both go to /dev/null.
    ///   - stdin: give the child a pipe for standard input (see `closeInput`), else /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                captureOutput: Bool = true, stdin: Bool = false) throws {
        _ = TestScratch.root
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if captureOutput {
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            captured.withLockedValue { $0.openPipes = 2 }
            // One reading thread per pipe, holding its handle until EOF. (A readabilityHandler
            // whose handle is freed before EOF crashes libdispatch's event loop.)
            for (handle, isError) in [(out.fileHandleForReading, false), (err.fileHandleForReading, true)] {
                Thread.detachNewThread { [captured] in
                    while true {
                        let data = handle.availableData
                        let done = captured.withLockedValue { captured in
                            if data.isEmpty {
                                captured.openPipes -= 1
                                return true
                            }
                            if isError { captured.stderr.append(data) } else { captured.stdout.append(data) }
                            return false
                        }
                        if done { break }
                    }
                    try? handle.close()
                }
            }
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        stdinPipe = stdin ? Pipe() : nil
        process.standardInput = stdinPipe ?? FileHandle.nullDevice
        process.terminationHandler = { [exitStatus] process in
            exitStatus.withLockedValue { $0 = process.terminationStatus }
            TestScratch.untrack(process.processIdentifier)
        }
        try process.run()
        TestScratch.track(process.processIdentifier)
    }

    public var stdout: String { String(decoding: captured.withLockedValue { $0.stdout }, as: UTF8.self) }
    public var stderr: String { String(decoding: captured.withLockedValue { $0.stderr }, as: UTF8.self) }

    /// Everything the child has written so far, stdout then stderr.
    public var output: String { stdout + stderr }

    public var pid: pid_t { process.processIdentifier }

    /// The exit status once the child has exited.
    public var status: Int32? { exitStatus.withLockedValue { $0 } }

    public var isRunning: Bool { status == nil }

    public func write(_ text: String) {
        stdinPipe?.fileHandleForWriting.write(Data(text.utf8))
    }

    public func closeInput() {
        try? stdinPipe?.fileHandleForWriting.close()
    }

    /// Waits until `parse` finds something in the output, the child exits, or `timeout` passes.
    public func waitForOutput<T>(timeout: Duration = .seconds(30), _ parse: (String) -> T?) async -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = parse(output) { return found }
            if !isRunning {
                try? await Task.sleep(for: .milliseconds(20))  // the last output may trail the exit
                return parse(output)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return parse(output)
    }

    /// Waits for the exit; nil if the child is still running after `timeout`.
    /// Once it has exited, output still in the pipes is read for up to a second more (a
    /// daemon the child started may hold them open for ever).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, status == nil {
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let status else { return nil }
        let drained = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < drained, captured.withLockedValue({ $0.openPipes > 0 }) {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return status
    }

    /// Sends `signal` and returns at once (SIGHUP, SIGSTOP ...).
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Sends `signal`; if the child has not exited after `grace`, SIGKILL. Returns its status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, grace: Duration = .seconds(10)) async -> Int32 {
        if isRunning { kill(pid, signal) }
        if let status = await waitForExit(timeout: grace) { return status }
        kill(pid, SIGKILL)
        return await waitForExit(timeout: .seconds(3600)) ?? -1
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Runs a program with posix_spawn and waits with waitpid on a thread of its own. For programs
/// that daemonize (tmux): Foundation's `Process` notices a child's exit through a descriptor the
/// child inherits, and a forked daemon keeps it open, so the exit is never seen.
public func spawnAndWait(_ path: String, _ arguments: [String]) async -> Int32 {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: spawnAndWaitBlocking(path, arguments)) }
    }
}

func spawnAndWaitBlocking(_ path: String, _ arguments: [String]) -> Int32 {
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

/// Runs `body` with `resource`, then `cleanUp`, whether `body` returned or threw.
/// Runs on the caller's actor (`isolation`), so a test on the main actor may use it too.
public func withCleanup<Resource: Sendable, Result>(isolation: isolated (any Actor)? = #isolation, _ resource: Resource,
                                          cleanUp: (Resource) async -> Void,
                                          _ body: (Resource) async throws -> Result) async throws -> Result {
    do {
        let result = try await body(resource)
        await cleanUp(resource)
        return result
    } catch {
        await cleanUp(resource)
        throw error
    }
}

/// What a test starts and must stop: servers, clients, peers.
public protocol StoppableTestResource: Sendable {
    func stop() async
}

extension ServerHarness: StoppableTestResource {}
extension RosterClient: StoppableTestResource {}

/// Runs `body` with `resource` and stops it afterwards, whether `body` returned or threw, so a
/// failing test never leaks a server, a client or a peer process.
public func using<Resource: StoppableTestResource, Result>(isolation: isolated (any Actor)? = #isolation, _ resource: Resource,
                                                           _ body: (Resource) async throws -> Result) async throws -> Result {
    try await withCleanup(isolation: isolation, resource, cleanUp: { await $0.stop() }, body)
}
