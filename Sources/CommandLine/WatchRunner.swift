import Dispatch
import Foundation
import RosterClient
import Observation
import RosterDomain
import RosterViewModels
#if canImport(Glibc)
    import Glibc
#endif

extension CommandRunner {
    /// Follows the server until Ctrl-C or `q`: a live screen on a terminal, JSON lines otherwise.
    /// With `exec`, runs that command for each on-duty change (`OnDutyHooks`) and prints the
    /// JSON lines, on a terminal too.
    public func watch(exec: String? = nil, execTimeLimit: Duration = .seconds(30)) async -> ClientExitCode {
        if exec == nil && !json && isatty(STDOUT_FILENO) == 1 { return await watchOnScreen() }
        let hooks = exec.map {
            OnDutyHooks(command: $0, timeLimit: execTimeLimit, report: { Self.err("roster-client: \($0)") })
        }
        return await watchAsEvents(hooks: hooks)
    }

    /// JSON lines for scripts: the cached view at once (marked as such), then every update.
    private func watchAsEvents(hooks: OnDutyHooks?) async -> ClientExitCode {
        let stopper = SignalStopper { [client] in await client.stop() }
        if let roster = await client.roster {
            let status = OnDutyStatus(roster.onDuty(), in: roster.state, revision: roster.revision)
            Self.out(
                JSONShapes.line(
                    JSONShapes.OnDuty(status, source: "cache", event: "onDuty", ageSeconds: Int(roster.age()))))
        }
        let offline = OfflineOnDutyLines()
        let cachedHandoffs = Task { [client] in
            await Self.followCachedPlan(of: client) { status in
                if await offline.shouldPrint(status) { Self.out(WatchEvents.onDutyLine(status, source: "cache")) }
                await hooks?.observe(status, source: "cache")
            }
        }
        await client.start()
        var refusal: RosterClientError?
        for await update in client.updates {
            Self.out(WatchEvents.json(update))
            if case .connectionState(let state) = update { await offline.connection(state) }
            if case .onDutyChanged(let status) = update {
                await offline.printed(status)
                await hooks?.observe(status, source: "server")
            }
            if case .refused(let error) = update {
                refusal = error
                Task { await client.stop() }
            }
        }
        cachedHandoffs.cancel()
        await hooks?.finish()
        stopper.cancel()
        return refusal.map { report($0) } ?? .success
    }

    /// Who is on duty on every schedule by the cached plan, looked at again at each handoff it
    /// names and whenever the cache takes a new revision (checked four times a second), and at
    /// least every minute: the handoffs reach the JSON lines and the hooks while the server is
    /// unreachable, as `now --offline` would answer.
    private static func followCachedPlan(of client: RosterClient, into observe: (OnDutyStatus) async -> Void) async {
        var looked: (revision: UInt64, epoch: UInt64)?
        var wake: UnixMillis = 0
        while !Task.isCancelled {
            let now = UnixMillis.now
            if let roster = await client.roster,
                now >= wake || looked == nil || looked! != (roster.revision, roster.epoch)
            {
                looked = (roster.revision, roster.epoch)
                let plan = cachedPlan(roster.state, revision: roster.revision, at: now)
                wake = plan.wake
                for status in plan.statuses { await observe(status) }
            }
            try? await Task.sleep(for: .milliseconds(max(20, min(250, wake - UnixMillis.now))))
        }
    }

    /// Who is on duty on every schedule by the cached plan at `now`, and when to look again: at
    /// the first handoff the plan names, a minute from now at the latest.
    static func cachedPlan(_ state: RosterState, revision: UInt64, at now: UnixMillis)
        -> (statuses: [OnDutyStatus], wake: UnixMillis)
    {
        var statuses: [OnDutyStatus] = []
        var wake = now + 60_000
        for schedule in state.sortedSchedules {
            guard let lookup = state.onDuty(of: schedule.id, at: now) else { continue }
            var status = OnDutyStatus(lookup, in: state, revision: revision)
            status.scheduleID = schedule.id
            status.scheduleName = schedule.id == ScheduleDefinition.defaultID ? "" : schedule.name
            statuses.append(status)
            if let until = lookup.until { wake = min(wake, until) }
        }
        return (statuses, wake)
    }

    /// What wakes the screen up.
    private enum ScreenEvent: Sendable {
        case keys([UInt8]), changed, tick, quit
    }

    /// The terminal screen: `RosterScreenModel` drawn by `WatchScreen`, redrawn when the model
    /// changes (observed), on every key and once a second for the countdowns.
    @MainActor
    private func watchOnScreen() async -> ClientExitCode {
        let model = RosterScreenModel(source: client, contacts: contacts)
        var screen = WatchScreen(model: model, server: settings.server, display: display)
        let terminal = TerminalScreen(enabled: true)
        let (events, input) = AsyncStream<ScreenEvent>.makeStream()
        let stopper = SignalStopper { input.yield(.quit) }
        let keys = isatty(STDIN_FILENO) == 1 ? KeyReader { input.yield(.keys($0)) } : nil
        let running = Task { await model.run() }
        let ticker = Task {
            while !Task.isCancelled {
                input.yield(.tick)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        func draw() async {
            let size = TerminalScreen.size()
            // Reading the model inside the tracking registers what the screen depends on.
            let lines = withObservationTracking {
                screen.lines(now: .now, width: size.columns, height: size.rows)
            } onChange: {
                input.yield(.changed)
            }
            await terminal.draw(lines: lines)
        }
        await draw()
        loop: for await event in events {
            switch event {
            case .keys(let bytes):
                for key in WatchKey.decode(bytes) where !screen.handle(key) { break loop }
            case .quit:
                break loop
            case .changed, .tick:
                break
            }
            if model.refusal != nil { break }
            await draw()
        }
        ticker.cancel()
        running.cancel()
        await running.value
        keys?.restore()
        await terminal.restore()
        stopper.cancel()
        // Why watch ended, after the screen is gone so that nothing draws over it.
        return model.refusal.map { report($0) } ?? .success
    }
}

/// `watch --json` while the server is unreachable: an on-duty line from the cached plan
/// (source "cache") when a schedule's people differ from the last line printed for it. While
/// live the server's pushes are the lines, so a handoff is not printed twice; a schedule's first
/// state by the cache is the baseline, as it is for `--exec`.
actor OfflineOnDutyLines {
    private var live = false
    private var printedPeople: [String: [String]] = [:]

    func connection(_ state: ConnectionState) { live = state == .live }

    /// A line printed from a server push.
    func printed(_ status: OnDutyStatus) { printedPeople[status.scheduleID] = Self.people(status) }

    /// Whether a state found by the cached plan is news to print (and so now printed).
    func shouldPrint(_ status: OnDutyStatus) -> Bool {
        let people = Self.people(status)
        let previous = printedPeople[status.scheduleID]
        if live && previous != nil { return false }
        printedPeople[status.scheduleID] = people
        return previous.map { $0 != people } ?? false
    }

    private static func people(_ status: OnDutyStatus) -> [String] { status.current.map(\.employee.id).sorted() }
}

/// Draws full screens on a terminal; serialises draws from the update loop and the ticker.
actor TerminalScreen {
    private let enabled: Bool
    private var started = false

    init(enabled: Bool) { self.enabled = enabled }

    func draw(lines: [String]) {
        guard enabled else { return }
        var output = started ? "" : "\u{1B}[?25l"  // hide the cursor once
        started = true
        output += "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n")
        try? FileHandle.standardOutput.write(contentsOf: Data(output.utf8))
    }

    func restore() {
        guard enabled, started else { return }
        try? FileHandle.standardOutput.write(contentsOf: Data("\u{1B}[?25h\n".utf8))
    }

    nonisolated static func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (100, 40)
    }
}

/// Runs `action` once on SIGINT or SIGTERM, for a clean exit from `watch`.
// @unchecked: its sources are set up in init and cancelled once; `fired` is touched only on its queue.
final class SignalStopper: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(_ action: @escaping @Sendable () async -> Void) {
        let queue = DispatchQueue(label: "roster-client.signals")
        var fired = false
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                guard !fired else { return }
                fired = true
                Task { await action() }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// Reads single key presses from a terminal on a thread of its own (a blocking read must not
/// hold a thread of the concurrency pool), with the terminal in non-canonical, no-echo mode
/// until `restore`.
// @unchecked: the saved terminal state is written in init and read once by `restore`.
final class KeyReader: @unchecked Sendable {
    private var saved = termios()
    private var active = false

    /// `pressed` gets what each read returned: one key, or the bytes of an arrow key.
    init(_ pressed: @escaping @Sendable ([UInt8]) -> Void) {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return }
        active = true
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                guard count > 0 else { return }
                pressed(Array(buffer[0..<count]))
            }
        }
    }

    /// Puts the terminal back as it was.
    func restore() {
        guard active else { return }
        active = false
        var original = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }
}
