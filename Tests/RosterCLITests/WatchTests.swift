import Foundation
import NIOConcurrencyHelpers
import RosterTestSupport
import Testing

@Suite(.serialized) struct WatchTests {
    @Test func watchWritesOneJSONObjectPerEventWhenPiped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-watch-\(UUID().uuidString)").path
        let server = try ServerProcess(dataDirectory: directory)
        defer { server.terminate() }
        let cli = CLI(port: server.port, token: server.adminToken)
        try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])

        let watch = Process()
        watch.executableURL = CLI.binary
        watch.arguments = ["watch"]
        watch.environment = cli.environment
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        let lines = NIOLockedValueBox<[String]>([])
        let partial = NIOLockedValueBox("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            partial.withLockedValue { pending in
                pending += text
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending.removeSubrange(...newline)
                    lines.withLockedValue { $0.append(line) }
                }
            }
        }
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }

        func events() -> [[String: Any]] {
            lines.withLockedValue { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        #expect(await eventually { events().contains { $0["event"] as? String == "synced" } })
        #expect(lines.withLockedValue { $0 }.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil },
                "every line is one JSON object")
        #expect(events().contains { $0["event"] as? String == "state" && $0["state"] as? String == "live" })
        #expect(events().contains { $0["event"] as? String == "onDuty" && $0["cause"] as? String == "initial" })

        try await cli.run(["admin", "motd", "set", "Pushed to the watcher"])
        #expect(await eventually {
            events().contains { event in
                event["event"] as? String == "rosterChanged"
                    && (event["changes"] as? [[String: Any]])?.first?["motd"] as? String == "Pushed to the watcher"
            }
        })

        // SIGTERM to the server reaches the watcher as GoingAway; it then keeps retrying.
        server.terminate()
        #expect(await eventually { events().contains { $0["event"] as? String == "goingAway" } })
        #expect(await eventually { events().contains { ($0["state"] as? String)?.hasPrefix("reconnecting") == true } })

        kill(watch.processIdentifier, SIGINT)
        #expect(await eventually { !watch.isRunning })
        #expect(watch.terminationStatus == 0, "Ctrl-C exits cleanly")
        output.fileHandleForReading.readabilityHandler = nil
    }

    @Test func watchRedrawsTheScreenInATerminalOnEveryPush() async throws {
        let tmux = URL(fileURLWithPath: "/usr/bin/tmux")
        try #require(FileManager.default.isExecutableFile(atPath: tmux.path), "tmux is needed (apt-get install tmux)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-tty-\(UUID().uuidString)").path
        let server = try ServerProcess(dataDirectory: directory)
        defer { server.terminate() }
        let cli = CLI(port: server.port, token: server.adminToken)
        try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--position", "Engineer"])
        try await cli.run(["admin", "shift", "add", "--employee", "Ada Lovelace", "--start", "1h ago", "--end", "in 2h"])

        let session = "roster-watch-\(UUID().uuidString.prefix(8))"
        let environment = cli.environment.filter { $0.key.hasPrefix("ROSTER_") || $0.key.hasPrefix("XDG_") || $0.key == "TZ" }
            .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        // Commands that may start the tmux server go through posix_spawn (see spawnAndWait);
        // capture-pane only talks to it, so a Process with an output pipe is fine.
        @Sendable func tmuxRun(_ arguments: [String], capture: Bool = true) throws -> String {
            guard capture else { return spawnAndWait(tmux.path, ["-L", session] + arguments) == 0 ? "ok" : "" }
            let process = Process()
            process.executableURL = tmux
            process.arguments = ["-L", session] + arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            let exited = ExitSignal()
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            exited.wait()
            return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : ""
        }
        _ = try tmuxRun(["new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                         "env \(environment) \(CLI.binary.path) watch"], capture: false)
        defer { _ = try? tmuxRun(["kill-server"], capture: false) }
        func screen() throws -> String { try tmuxRun(["capture-pane", "-p", "-t", session]) }

        #expect(try await eventually { try screen().contains("live ·") })
        let first = try screen()
        #expect(first.contains("ON DUTY NOW"))
        #expect(first.contains("● Ada Lovelace — Engineer"))
        #expect(first.contains("ROSTER"))

        try await cli.run(["admin", "motd", "set", "Redrawn by a push"])
        #expect(try await eventually { try screen().contains("Redrawn by a push") })
        try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Hopper"])
        try await cli.run(["admin", "shift", "add", "--employee", "Grace Hopper", "--start", "1h ago", "--end", "in 1h"])
        #expect(try await eventually { try screen().contains("● Grace Hopper") }, "an on-duty push redraws the top")

        _ = try tmuxRun(["send-keys", "-t", session, "C-c"], capture: false)
        #expect(try await eventually { try tmuxRun(["has-session", "-t", session], capture: false).isEmpty },
                "Ctrl-C ends watch, and with it the session")
    }
}
