import Dispatch
import Foundation
import RosterClient
import RosterDomain
#if canImport(Glibc)
import Glibc
#endif

extension CommandRunner {
    /// Follows the server until Ctrl-C: a live screen on a terminal, JSON lines otherwise.
    public func watch() async -> ClientExitCode {
        let onTerminal = !json && isatty(STDOUT_FILENO) == 1
        let screen = TerminalScreen(enabled: onTerminal)
        let stopper = SignalStopper { [client] in await client.stop() }
        // On a terminal, `q` quits as Ctrl-C does.
        let keys = onTerminal && isatty(STDIN_FILENO) == 1 ? KeyReader { [client] key in
            if key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") { Task { await client.stop() } }
        } : nil
        if !onTerminal, let roster = await client.roster {
            // Scripts get the cached view at once, marked as such.
            let status = OnDutyStatus(roster.onDuty(), in: roster.state, revision: roster.revision)
            Self.out(JSONShapes.line(JSONShapes.OnDuty(status, source: "cache", event: "onDuty", ageSeconds: Int(roster.age()))))
        }
        await client.start()
        let ticker = Task {
            // Redraw once a second so countdowns and the data's age stay current.
            while !Task.isCancelled {
                await screen.draw(lines: await screenLines())
                try? await Task.sleep(for: .seconds(1))
            }
        }
        var refusal: RosterClientError?
        for await update in client.updates {
            if onTerminal {
                await screen.draw(lines: await screenLines())
            } else {
                Self.out(WatchEvents.json(update))
            }
            if case .refused(let error) = update {
                refusal = error
                Task { await client.stop() }
            }
        }
        ticker.cancel()
        _ = await ticker.value
        keys?.restore()
        await screen.restore()
        stopper.cancel()
        // Why watch ended, after the screen is gone so that nothing draws over it (the JSON
        // event was written above).
        return refusal.map { report($0) } ?? .success
    }

    private func screenLines() async -> [String] {
        let size = TerminalScreen.size()
        let watch = WatchScreen(roster: await client.roster, pushed: await client.onDuty, state: await client.state,
                                server: settings.server, display: display)
        return watch.lines(now: .now, width: size.columns, height: size.rows)
    }
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

    init(_ pressed: @escaping @Sendable (UInt8) -> Void) {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return }
        active = true
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 { pressed(byte) }
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
