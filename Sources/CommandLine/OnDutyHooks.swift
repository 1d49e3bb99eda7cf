import Foundation
import RosterClient
import RosterDomain
import RosterSystem
#if canImport(Glibc)
    import Glibc
#endif

/// `watch --exec CMD`: runs CMD once for each change of who is on duty on a schedule, one run
/// at a time, with the event as a JSON line on standard input and its main fields in the
/// environment. Changes come from the server's pushes and, so that a laptop's hook still fires
/// at a handoff while offline, from the cached plan at each `until`. A schedule's first state is
/// the baseline, not a change; a state the hook has already seen (a push after the cache found
/// the same handoff, a resume) does not run it again.
actor OnDutyHooks {
    struct Run: Sendable {
        var input: String
        var environment: [String: String]
        var at: UnixMillis
    }

    private let command: String
    private let timeLimit: Duration
    private var seen: [String: [String]] = [:]
    private let queue: AsyncStream<Run>.Continuation
    private let runner: Task<Void, Never>

    init(command: String, timeLimit: Duration, report: @escaping @Sendable (String) -> Void) {
        self.command = command
        self.timeLimit = timeLimit
        let (runs, queue) = AsyncStream<Run>.makeStream()
        self.queue = queue
        runner = Task {
            for await run in runs {
                let outcome = await HookProcess.run(
                    command, input: run.input, environment: run.environment, timeLimit: timeLimit)
                if let problem = outcome.problem {
                    report("--exec for the change at \(TimeText.iso8601(run.at)): \(problem)")
                }
            }
        }
    }

    /// A state of one schedule, from the server or the cache; runs the hook when it differs
    /// from the last one seen for that schedule.
    func observe(_ status: OnDutyStatus, source: String) {
        let people = status.current.map(\.employee.id).sorted()
        let previous = seen.updateValue(people, forKey: status.scheduleID)
        guard let previous, previous != people else { return }
        let names = { (entries: [OnDutyEntry]) in entries.map(\.employee.fullName).joined(separator: ", ") }
        var environment = ProcessInfo.processInfo.environment
        environment["ROSTER_SCHEDULE_ID"] = status.scheduleID
        environment["ROSTER_SCHEDULE"] = status.scheduleName.isEmpty ? status.scheduleID : status.scheduleName
        environment["ROSTER_ON_DUTY"] = names(status.current)
        environment["ROSTER_ON_DUTY_IDS"] = status.current.map(\.employee.id).joined(separator: ",")
        environment["ROSTER_UNTIL"] = status.until.map(TimeText.iso8601) ?? ""
        environment["ROSTER_SOURCE"] = source
        queue.yield(
            Run(input: WatchEvents.onDutyLine(status, source: source) + "\n", environment: environment, at: status.at))
    }

    /// Lets the runs already queued finish (each within its time limit).
    func finish() async {
        queue.finish()
        await runner.value
    }
}

/// One run of a hook: `/bin/sh -c COMMAND` in its own process group, started with posix_spawn,
/// awaited by `waitpid` on a thread of its own (never on the cooperative pool), killed with its
/// group when it outlives its time limit.
enum HookProcess {
    struct Outcome: Sendable {
        var status: Int32?
        var timedOut: Bool
        var problem: String? {
            if timedOut { return "the command did not finish in time and was stopped" }
            guard let status else { return "the command could not be started" }
            return status == 0 ? nil : "the command exited with status \(status)"
        }
    }

    static func run(_ command: String, input: String, environment: [String: String], timeLimit: Duration) async
        -> Outcome
    {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0
        else {
            return Outcome(status: nil, timedOut: false)
        }
        let (ours, theirs) = (descriptors[0], descriptors[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, theirs, STDIN_FILENO)
        // Standard output and error are the watch's; nothing else is: SwiftNIO's sockets are not
        // close-on-exec, and a hook that outlived the watch would keep its connection open.
        markDescriptorsCloseOnExec()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let arguments = ["/bin/sh", "-c", command]
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp) }
        }
        close(theirs)
        guard spawned == 0 else {
            close(ours)
            return Outcome(status: nil, timedOut: false)
        }
        // The hook may not read its input: writing must not block or kill us (SIGPIPE).
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { send(ours, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        close(ours)
        let child = pid
        let exited = Task { await waitForExit(child) }
        // Whether the time limit ran out (and the group was told to stop).
        let timer = Task { () -> Bool in
            do { try await Task.sleep(for: timeLimit) } catch { return false }
            kill(-child, SIGTERM)
            if (try? await Task.sleep(for: .seconds(2))) != nil { kill(-child, SIGKILL) }
            return true
        }
        let status = await exited.value
        timer.cancel()
        let timedOut = await timer.value
        return Outcome(status: timedOut ? nil : status.code, timedOut: timedOut)
    }

    /// The exit code, or the signal that ended the process.
    private static func waitForExit(_ pid: pid_t) async -> (code: Int32?, signalled: Int32?) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(returning: signal == 0 ? ((status >> 8) & 0xFF, nil) : (nil, signal))
            }
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
