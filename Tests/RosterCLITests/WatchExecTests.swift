import Foundation
import RosterTestSupport
import Testing

/// `roster-client watch --exec`: the real binaries, real handoffs a few seconds apart.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WatchExecTests {
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Starts `watch` with these arguments and waits until it has synced, so that everything the
    /// test changes afterwards is a change to it (a loaded machine must not turn a handoff the
    /// test meant into the watch's starting point).
    static func startWatch(_ arguments: [String], cli: CLI) async throws -> ChildProcess {
        let watch = try ChildProcess(CLI.binary.path, ["watch"] + arguments, environment: cli.environment)
        guard await eventually(30, { watch.stdout.contains("\"event\":\"synced\"") }) else {
            await watch.stop(signal: SIGKILL)
            throw TestFailure("watch did not sync: \(watch.stderr)")
        }
        return watch
    }

    @Test func aHookRunsForEachHandoffReportsAFailureAndFiresFromTheCacheWhenTheServerIsGone() async throws {
        let scratch = TestScratch.directory("roster-hooks")
        defer { TestScratch.remove(scratch) }
        let events = scratch.appendingPathComponent("handoffs.jsonl").path
        let fields = scratch.appendingPathComponent("fields.txt").path
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            var oneCommand: TimeInterval = 0
            for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper")] {
                let started = Date()
                #expect(try await cli.run(["admin", "employee", "add", "--first", first, "--last", last]).status == 0)
                oneCommand = Date().timeIntervalSince(started)
            }
            // Alan's handoff makes the command fail; the watch goes on to Grace's.
            let command = """
                if [ "$ROSTER_ON_DUTY" = "Alan Turing" ]; then exit 3; fi
                cat >> \(events); echo "$ROSTER_ON_DUTY|$ROSTER_SOURCE|$ROSTER_SCHEDULE_ID|$ROSTER_UNTIL" >> \(fields)
                """
            let watch = try await Self.startWatch(["--exec", command], cli: cli)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                func lines(_ path: String) -> [String] {
                    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                }
                // Nobody is on duty (the watch's starting point); Alan from in 8 s, Grace 6 s later,
                // or more where one command takes seconds (a loaded machine): both shifts must be
                // added before Alan's starts, or his handoff is a change of plan instead.
                let now = Date()
                let lead = max(8, 4 * oneCommand), gap = max(6, 3 * oneCommand)
                let first = now.addingTimeInterval(lead), second = first.addingTimeInterval(gap)
                for (person, start, end) in [
                    ("Alan Turing", first, second), ("Grace Hopper", second, now.addingTimeInterval(3600)),
                ] {
                    let added = try await cli.run([
                        "admin", "shift", "add", "--employee", person, "--start", Self.iso(start), "--end",
                        Self.iso(end),
                    ])
                    #expect(added.status == 0, "\(added.stderr)")
                }
                // Each wait ends a minute after its handoff is due, whenever the steps before it ended.
                #expect(
                    await eventually(until: first.addingTimeInterval(60)) {
                        watch.stderr.contains("exited with status 3")
                    },
                    "\(watch.stderr)")
                #expect(
                    await eventually(until: second.addingTimeInterval(60)) {
                        lines(fields).contains { $0.hasPrefix("Grace Hopper|") }
                    },
                    "\(lines(fields)) \(watch.stderr)")
                #expect(
                    lines(fields).first?.hasPrefix("Grace Hopper|") == true,
                    "nobody was the starting point; Alan's run failed")
                #expect(lines(fields).first?.contains("|default|") == true)
                let json = try #require(
                    lines(events).first.flatMap {
                        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                    })
                #expect(json["event"] as? String == "onDuty")
                #expect((json["current"] as? [[String: Any]])?.first?["name"] as? String == "Grace Hopper")
                #expect(
                    lines(fields).count == 1,
                    "one run per change: the push and the cache agreeing is not a second change")

                // Offline: the server is gone; a handoff in the cached plan still runs the hook.
                let third = Date().addingTimeInterval(7)
                #expect(
                    try await cli.run([
                        "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", Self.iso(third),
                        "--end", Self.iso(third.addingTimeInterval(3600)),
                    ]).status == 0)
                #expect(
                    try await cli.run([
                        "admin", "shift", "add", "--employee", "Alan Turing", "--start", Self.iso(third),
                        "--end", Self.iso(third.addingTimeInterval(3600)),
                    ]).status == 0)
                // The watch's cache (which --offline reads) has both new shifts before the kill.
                let window = [
                    "oncall", "--from", Self.iso(third), "--to", Self.iso(third.addingTimeInterval(3600)), "--offline",
                ]
                #expect(
                    await eventually(60) {
                        let plan = (try? await cli.run(window))?.stdout ?? ""
                        return plan.contains("Ada Lovelace") && plan.contains("Alan Turing")
                    }, "the watch cached the revisions")
                await server.kill9()
                let killedBeforeTheHandoff = Date() < third
                #expect(
                    await eventually(until: max(third, Date()).addingTimeInterval(60)) { lines(fields).count == 2 },
                    "\(lines(fields))")
                let offline = lines(fields).last ?? ""
                #expect(
                    offline.contains("Ada Lovelace") && offline.contains("Alan Turing")
                        && offline.contains("Grace Hopper"), "\(offline)")
                if killedBeforeTheHandoff { #expect(offline.contains("|cache|"), "\(offline)") }
                #expect(watch.isRunning, "a failing command does not stop the watch")
            }
        }
    }

    /// `watch --json` (no hook): a handoff while connected is one line from the server; a handoff
    /// in the cached plan while the server is gone is one line from the cache.
    @Test func jsonLinesFollowTheCachedPlanWhileTheServerIsGone() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
                #expect(try await cli.run(["admin", "employee", "add", "--first", first, "--last", last]).status == 0)
            }
            let watch = try await Self.startWatch(["--json"], cli: cli)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                func onDutyLines(naming person: String) -> [[String: Any]] {
                    watch.stdout.split(separator: "\n").compactMap { line in
                        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                            object["event"] as? String == "onDuty",
                            let current = object["current"] as? [[String: Any]],
                            current.contains(where: { $0["name"] as? String == person })
                        else { return nil }
                        return object
                    }
                }
                // Connected: Alan from in 5 s.
                let first = Date().addingTimeInterval(5)
                #expect(
                    try await cli.run([
                        "admin", "shift", "add", "--employee", "Alan Turing", "--start", Self.iso(first),
                        "--end", Self.iso(first.addingTimeInterval(8)),
                    ]).status == 0)
                #expect(
                    await eventually(until: first.addingTimeInterval(60)) {
                        !onDutyLines(naming: "Alan Turing").isEmpty
                    },
                    "\(watch.stdout)")
                try await Task.sleep(for: .seconds(1))  // room for a second line, which must not come
                #expect(
                    onDutyLines(naming: "Alan Turing").map { $0["source"] as? String } == ["server"], "\(watch.stdout)")

                // Offline: Ada from in 7 s by the cached plan.
                let second = Date().addingTimeInterval(7)
                #expect(
                    try await cli.run([
                        "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", Self.iso(second),
                        "--end", Self.iso(second.addingTimeInterval(3600)),
                    ]).status == 0)
                let window = [
                    "oncall", "--from", Self.iso(second), "--to", Self.iso(second.addingTimeInterval(3600)),
                    "--offline",
                ]
                #expect(
                    await eventually(60) { ((try? await cli.run(window))?.stdout ?? "").contains("Ada Lovelace") },
                    "the watch cached the revision")
                await server.kill9()
                let killedBeforeTheHandoff = Date() < second
                #expect(
                    await eventually(until: max(second, Date()).addingTimeInterval(60)) {
                        !onDutyLines(naming: "Ada Lovelace").isEmpty
                    },
                    "\(watch.stdout)")
                if killedBeforeTheHandoff {
                    #expect(
                        onDutyLines(naming: "Ada Lovelace").map { $0["source"] as? String } == ["cache"],
                        "\(watch.stdout)")
                }
                #expect(watch.isRunning)
            }
        }
    }

    @Test func aCommandThatOutlivesItsTimeLimitIsStoppedAndReported() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            #expect(
                try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"]).status == 0)
            let watch = try await Self.startWatch(["--exec-timeout", "1", "--exec", "sleep 30"], cli: cli)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                // Ada on duty from now: a change of plan the watch hears at once.
                let added = try await cli.run([
                    "admin", "shift", "add", "--employee", "Ada Lovelace", "--start",
                    Self.iso(Date().addingTimeInterval(-60)),
                    "--end", Self.iso(Date().addingTimeInterval(3600)),
                ])
                #expect(added.status == 0, "\(added.stderr)")
                #expect(await eventually(30) { watch.stderr.contains("did not finish in time") }, "\(watch.stderr)")
                #expect(watch.isRunning)
            }
            let refused = try await cli.run(["watch", "--exec-timeout", "0", "--exec", "true"])
            #expect(refused.status == 64)
        }
    }
}
