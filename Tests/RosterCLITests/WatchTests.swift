import Foundation
import NIOConcurrencyHelpers
import RosterTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct WatchTests {
    @Test func watchWritesOneJSONObjectPerEventWhenPiped() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])

            let watch = try ChildProcess(CLI.binary.path, ["watch"], environment: cli.environment)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                func events() -> [[String: Any]] {
                    watch.stdout.split(separator: "\n").compactMap {
                        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                    }
                }
                #expect(await eventually { events().contains { $0["event"] as? String == "synced" } })
                #expect(
                    watch.stdout.split(separator: "\n").allSatisfy {
                        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil
                    },
                    "every line is one JSON object")
                // The client's "live" state and the initial on-duty event may be printed just after Synced.
                #expect(
                    await eventually {
                        events().contains { $0["event"] as? String == "state" && $0["state"] as? String == "live" }
                    })
                #expect(
                    await eventually {
                        events().contains { $0["event"] as? String == "onDuty" && $0["cause"] as? String == "initial" }
                    })

                try await cli.run(["admin", "motd", "set", "Pushed to the watcher"])
                #expect(
                    await eventually {
                        events().contains { event in
                            event["event"] as? String == "rosterChanged"
                                && (event["changes"] as? [[String: Any]])?.first?["motd"] as? String
                                    == "Pushed to the watcher"
                        }
                    })

                // SIGTERM to the server reaches the watcher as GoingAway; it then keeps retrying.
                await server.terminate()
                #expect(await eventually { events().contains { $0["event"] as? String == "goingAway" } })
                #expect(
                    await eventually {
                        events().contains { ($0["state"] as? String)?.hasPrefix("reconnecting") == true }
                    })

                kill(watch.pid, SIGINT)
                #expect(await watch.waitForExit(timeout: .seconds(15)) == 0, "Ctrl-C exits cleanly")
            }
        }
    }

    @Test func watchRedrawsTheScreenInATerminalOnEveryPush() async throws {
        let tmux = "/usr/bin/tmux"
        try #require(FileManager.default.isExecutableFile(atPath: tmux), "tmux is needed (apt-get install tmux)")
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--position", "Engineer",
            ])
            try await cli.run([
                "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", "1h ago", "--end", "in 2h",
            ])

            let session = "roster-watch-\(UUID().uuidString.prefix(8))"
            let environment = cli.environment.filter {
                $0.key.hasPrefix("ROSTER_") || $0.key.hasPrefix("XDG_") || $0.key == "TZ"
            }
            .map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            // Commands that may start the tmux server go through posix_spawn (see spawnAndWait);
            // capture-pane only talks to it, so a child with output pipes is fine.
            @Sendable func tmuxRun(_ arguments: [String]) async -> Int32 {
                await spawnAndWait(tmux, ["-L", session] + arguments)
            }
            @Sendable func screen() async throws -> String {
                let child = try ChildProcess(tmux, ["-L", session, "capture-pane", "-p", "-t", session])
                return await child.waitForExit(timeout: .seconds(10)) == 0 ? child.stdout : ""
            }
            TestScratch.trackTmux(socket: session)
            defer { TestScratch.untrackTmux(socket: session) }
            let contacts = TestScratch.directory("roster-contacts").appendingPathComponent("people.vcf")
            try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:LOVELACE;ada;;;\r\nEND:VCARD\r\n".utf8).write(to: contacts)
            try await withCleanup(session, cleanUp: { _ in _ = await tmuxRun(["kill-server"]) }) { _ in
                #expect(
                    await tmuxRun([
                        "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                        "env \(environment) \(CLI.binary.path) watch --contacts \(contacts.path)",
                    ]) == 0)

                #expect(try await eventually { try await screen().contains("live ·") })
                let first = try await screen()
                #expect(first.contains("ON DUTY NOW"))
                #expect(first.contains("● Ada Lovelace — Engineer"))
                #expect(first.contains("EMPLOYEES by position"))
                #expect(
                    first.contains("▸ Ada Lovelace") && first.contains("✓ contact"), "people in --contacts are marked")

                try await cli.run(["admin", "motd", "set", "Redrawn by a push"])
                #expect(try await eventually { try await screen().contains("Redrawn by a push") })
                try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Hopper"])
                try await cli.run([
                    "admin", "shift", "add", "--employee", "Grace Hopper", "--start", "1h ago", "--end", "in 1h",
                ])
                #expect(
                    try await eventually { try await screen().contains("● Grace Hopper") },
                    "an on-duty push redraws the top")
                #expect(try await eventually { try await screen().contains("    Grace Hopper") }, "and the directory")

                // `/` then "lov" narrows the directory to Ada Lovelace as it is typed.
                _ = await tmuxRun(["send-keys", "-t", session, "/", "l", "o", "v"])
                #expect(
                    try await eventually {
                        let text = try await screen()
                        return text.contains("search: lov") && text.contains("▸ Ada Lovelace")
                            && !text.contains("    Grace Hopper")
                    })
                _ = await tmuxRun(["send-keys", "-t", session, "Escape"])
                #expect(
                    try await eventually { try await screen().contains("    Grace Hopper") }, "Esc clears the search")

                // Enter on a name shows the person.
                _ = await tmuxRun(["send-keys", "-t", session, "Enter"])
                #expect(try await eventually { try await screen().contains("Ada Lovelace   (Esc: back)") })
                _ = await tmuxRun(["send-keys", "-t", session, "Escape"])
                #expect(try await eventually { try await screen().contains("EMPLOYEES by position") })

                // With the server gone the screen says so, with the data's age, and keeps the data.
                await server.terminate()
                #expect(
                    try await eventually {
                        let text = try await screen()
                        return text.contains("No connection — showing data from") && text.contains("▸ Ada Lovelace")
                    })

                _ = await tmuxRun(["send-keys", "-t", session, "q"])
                #expect(
                    await eventually { await tmuxRun(["has-session", "-t", session]) != 0 },
                    "q ends watch, and with it the session")
            }
        }
    }

    /// A revoked token ends watch with the reason, as a JSON event and on stderr, and exit 7.
    @Test func watchSaysWhyItEnds() async throws {
        try await withServerProcess { server in
            let admin = CLI(port: server.port)
            let created = try await admin.server([
                "token", "create", "--tenant", "demo", "--role", "reader",
                "--data-dir", server.dataDirectory,
            ])
            let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let id = try #require(token.split(separator: "_").dropFirst().first.map(String.init))
            let cli = CLI(port: server.port, token: token)
            #expect(
                await eventually(10) { (try? await cli.run(["now"]).status) == 0 }, "the server knows the new token")

            let watch = try ChildProcess(CLI.binary.path, ["watch", "--json"], environment: cli.environment)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                #expect(await eventually { watch.stdout.contains(#""event":"synced""#) })
                let revoked = try await admin.server(["token", "revoke", id, "--data-dir", server.dataDirectory])
                #expect(revoked.status == 0)
                #expect(await watch.waitForExit(timeout: .seconds(20)) == 7, "\(watch.stdout) \(watch.stderr)")
                #expect(
                    watch.stdout.contains(#""event":"error""#) && watch.stdout.contains("revoked"), "\(watch.stdout)")
                #expect(watch.stderr.contains("the token was revoked"), "\(watch.stderr)")
            }
        }
    }
}
