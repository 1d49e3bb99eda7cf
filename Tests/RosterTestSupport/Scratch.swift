import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterSystem
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
///
/// Started with posix_spawn, not Foundation's `Process`: on this toolchain `Process.run` reads
/// past the end of its /proc/self/fd listing buffer (AddressSanitizer's heap-buffer-overflow in
/// `findMaximumOpenFromProcSelfFD`) and, now and then, into an unmapped page: a crash of the
/// whole test process. Our pipes (socket pairs) are close-on-exec, so a child inherits only its own three.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let captured = NIOLockedValueBox(Captured())
    private let exitStatus = NIOLockedValueBox<Int32?>(nil)
    private let input: FileHandle?

    private struct Captured {
        var stdout = Data()
        var stderr = Data()
        var openPipes = 0
    }

    /// - Parameters:
    ///   - environment: the child's whole environment (nil: this process's).
    ///   - captureOutput: collect stdout and stderr; otherwise both go to /dev/null.
    ///   - stdin: give the child a pipe for standard input (see `closeInput`), else /dev/null.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        captureOutput: Bool = true, stdin: Bool = false
    ) throws {
        _ = TestScratch.root
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and every one at its default action.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // A socket pair made close-on-exec atomically (Glibc does not export pipe2), so that a
        // child spawned by another thread meanwhile inherits neither end.
        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
                throw TestFailure("socketpair: errno \(errno)")
            }
            return (fds[0], fds[1])
        }
        var childEnds: [Int32] = [], readers: [(Int32, Bool)] = []
        var inputEnd: Int32?
        if stdin {
            let pipe = try makePipe()
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
            childEnds.append(pipe.read)
            inputEnd = pipe.write
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (fd, isError) in [(Int32(1), false), (Int32(2), true)] {
            if captureOutput {
                let pipe = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, pipe.write, fd)
                childEnds.append(pipe.write)
                readers.append((pipe.read, isError))
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            }
        }
        // Only 0-2 reach the child: SwiftNIO's sockets are not close-on-exec, so a child would
        // otherwise keep the listening sockets of servers other tests run in this process, and a
        // long-lived one (a watcher) would hold a port another test restarts its server on.
        markDescriptorsCloseOnExec()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var spawnedPID: pid_t = 0
        let spawned = posix_spawn(&spawnedPID, executable, &actions, &attributes, argv, envp)
        for fd in childEnds { close(fd) }
        guard spawned == 0 else {
            for (fd, _) in readers { close(fd) }
            if let inputEnd { close(inputEnd) }
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        let pid = spawnedPID
        self.pid = pid
        input = inputEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        TestScratch.track(pid)
        captured.withLockedValue { $0.openPipes = readers.count }
        // One reading thread per pipe, holding its handle until EOF.
        for (fd, isError) in readers {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
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
        // The exit, awaited on a thread of its own: the exit code, or the signal that ended it.
        Thread.detachNewThread { [exitStatus] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7F
            exitStatus.withLockedValue { $0 = signal == 0 ? (status >> 8) & 0xFF : signal }
            TestScratch.untrack(pid)
        }
    }

    public var stdout: String { String(decoding: captured.withLockedValue { $0.stdout }, as: UTF8.self) }
    public var stderr: String { String(decoding: captured.withLockedValue { $0.stderr }, as: UTF8.self) }

    /// Everything the child has written so far, stdout then stderr.
    public var output: String { stdout + stderr }

    /// The exit status once the child has exited.
    public var status: Int32? { exitStatus.withLockedValue { $0 } }

    public var isRunning: Bool { status == nil }

    public func write(_ text: String) {
        input?.write(Data(text.utf8))
    }

    public func closeInput() {
        try? input?.close()
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
        if isRunning { kill(pid, SIGKILL) }
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
    for fd: Int32 in [0, 1, 2] {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    markDescriptorsCloseOnExec()  // as in ChildProcess: no inherited sockets
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

/// Runs `body` with `resource`, then `cleanUp`, whether `body` returned or threw.
/// Runs on the caller's actor (`isolation`), so a test on the main actor may use it too.
public func withCleanup<Resource: Sendable, Result>(
    isolation: isolated (any Actor)? = #isolation, _ resource: Resource,
    cleanUp: (Resource) async -> Void,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
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
public func using<Resource: StoppableTestResource, Result>(
    isolation: isolated (any Actor)? = #isolation, _ resource: Resource,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    try await withCleanup(isolation: isolation, resource, cleanUp: { await $0.stop() }, body)
}
