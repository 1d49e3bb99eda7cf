import Foundation
import NIOCore
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS

/// The server's TLS set-up as the benchmark clients see it: TLS to the CA it generated.
struct BenchTLS {
    let context: TLSContext

    /// The client side for a server started with `--tls` in `dataDirectory`.
    init(dataDirectory: String) throws {
        context = try TLSContext.client(.init(trust: .caFile(dataDirectory + "/tls/ca.pem")))
    }
}

/// The admin token a freshly started server wrote to its data dir.
func adminToken(dataDirectory: String) throws -> String {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
        // Not empty: a file just created may not have been written yet.
        if let text = try? String(contentsOfFile: dataDirectory + "/admin.token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
        {
            return text
        }
        usleep(50_000)
    }
    throw BenchError("no admin token in \(dataDirectory)")
}

/// Fan-out: N subscribers, M on-duty changes triggered through admin operations.
package struct FanoutBenchmark {
    package var subscribers: Int
    package var pushes: Int
    package var serverExecutable: URL
    package var benchExecutable: URL
    /// Subscribers (besides `subscribers`) that stop reading once synced.
    package var stalledSubscribers = 0
    /// A PostgreSQL server (postgres://USER@HOST:PORT/DATABASE) on which each run gets a
    /// database of its own; nil runs on the embedded SQLite store.
    package var postgres: String?
    /// Nodes on that database, with the subscribers spread evenly and the changes made through
    /// the first (docs/SCALING.md). Only with `postgres`.
    package var nodes = 1
    /// With the HTTP listener, and so metrics counted (the default of `roster-server serve`).
    package var metrics = true
    /// The subscribers are the web app's event streams (`GET /v1/events` on the HTTP port)
    /// instead of protocol connections; one node on SQLite only.
    package var eventStreams = false
    /// Protocol subscribers also follow the roster (as `roster-client watch` and the event
    /// streams do): two frames a push, a roster change and who is on duty.
    package var subscribersFollowRoster = false
    /// How long the synced subscribers stay idle before the memory is read a second time (an
    /// idle minute shows what the server keeps for a connection that does nothing).
    package var idleSeconds: Double = 1
    /// Subscribers (besides `subscribers`) that follow a service whose policy's first step is the
    /// schedule each push changes: its EscalationChanged beside the on-duty push of the same
    /// change. One node only.
    package var escalationSubscribers = 0
    /// Valgrind, to run the server (and the floor) under callgrind and count the instructions
    /// of the fan-out loop; one node on SQLite only. Everything else it measures is then slowed
    /// down by valgrind and means nothing.
    package var valgrind: String?

    package init(subscribers: Int, pushes: Int, serverExecutable: URL, benchExecutable: URL) {
        self.subscribers = subscribers
        self.pushes = pushes
        self.serverExecutable = serverExecutable
        self.benchExecutable = benchExecutable
    }

    /// Runs against fresh roster-server processes (`nodes` of them on one PostgreSQL database
    /// when `postgres` is set), over TLS when `tls` is set.
    package func runServer(tls: Bool = false) async throws -> FanoutResult {
        var database: ScratchDatabase?
        if let postgres { database = try await ScratchDatabase.create(on: postgres) }
        var nodes: [ChildProcess] = []
        var directories: [String] = []
        do {
            let result = try await runServer(tls: tls, store: database?.url, nodes: &nodes, directories: &directories)
            await stop(nodes, directories, database)
            return result
        } catch {
            await stop(nodes, directories, database)
            throw error
        }
    }

    private func stop(_ nodes: [ChildProcess], _ directories: [String], _ database: ScratchDatabase?) async {
        for node in nodes { node.stop() }
        for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
        await database?.drop()
    }

    private func runServer(tls: Bool, store: String?, nodes: inout [ChildProcess], directories: inout [String])
        async throws
        -> FanoutResult
    {
        var targets: [Target] = []
        // One after another: the first creates the tenant and writes the admin token.
        let callgrind = valgrind.map { Callgrind.fanOut(valgrind: $0) }
        for _ in 0..<(store == nil ? 1 : max(1, self.nodes)) {
            let port = freePort(), httpPort = eventStreams ? freePort() : 0
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "roster-bench-\(UUID().uuidString)"
            ).path
            directories.append(directory)
            let command = (
                executable: serverExecutable,
                arguments: [
                    "serve", "--listen", "127.0.0.1:\(port)", "--data-dir", directory, "--log-level", "warning",
                    // Only the admin's protocol connection when the subscribers are event streams: the
                    // two caps share the open-file limit.
                    "--max-connections",
                    "\(eventStreams ? 100 : subscribers + stalledSubscribers + escalationSubscribers + 100)",
                    "--ping-interval-ms", "3600000",
                    "--progress-interval-ms", "3600000", "--shutdown-grace-ms", "0",
                    "--http-listen", eventStreams ? "127.0.0.1:\(httpPort)" : (metrics ? "127.0.0.1:0" : "none"),
                    // Every stream comes from one address with no token: lift the per-client cap, and
                    // leave the quarter of the connections that streams never take.
                    "--http-max-connections", "\(eventStreams ? subscribers + subscribers / 3 + 100 : 64)",
                    "--http-max-streams-per-client", "\(max(8, subscribers))",
                ] + (tls ? ["--tls"] : []) + (store.map { ["--store", $0] } ?? [])
            )
            let run = callgrind?.wrapping(command.executable, command.arguments) ?? command
            let node = try ChildProcess(executable: run.executable, arguments: run.arguments)
            nodes.append(node)
            try waitForListener(port: port, timeout: callgrind == nil ? 30 : 300, process: node)
            if eventStreams { try waitForListener(port: httpPort, process: node) }
            targets.append(Target(port: port, pid: node.pid, httpPort: httpPort))
        }
        let directory = directories[0], port = targets[0].port
        let clientTLS = tls ? try BenchTLS(dataDirectory: directory) : nil
        let token = try adminToken(dataDirectory: directory)
        let admin = try await RosterConnection.connect(
            host: "127.0.0.1", port: port, tls: clientTLS?.context,
            hello: .with { $0.token = token })
        // Two short-named people keep each push near 256 bytes, as the targets assume.
        let first = try await administer(
            admin,
            .upsertEmployee(
                .with {
                    $0.employee = .with {
                        $0.firstName = "Ann"; $0.lastName = "Lee"
                    }
                }))
        let second = try await administer(
            admin,
            .upsertEmployee(
                .with {
                    $0.employee = .with {
                        $0.firstName = "Bo"; $0.lastName = "Ng"
                    }
                }))
        let now = UnixMillis.now
        _ = try await administer(
            admin,
            .addShift(
                .with {
                    $0.shift = .with {
                        $0.employeeID = first; $0.startMs = now - 3_600_000; $0.endMs = now + 86_400_000
                    }
                }))
        if escalationSubscribers > 0 {
            // A service paging the schedule the pushes change, then Ann by name.
            _ = try await admin.request(
                .applyDefinition(
                    .with {
                        $0.definition = .with {
                            $0.managesEscalationPolicies = true
                            $0.escalationPolicies = [
                                .with {
                                    $0.id = "bench"; $0.name = "Bench"
                                    $0.steps = [
                                        .with {
                                            $0.delayMinutes = 5
                                            $0.targets = [.with { $0.scheduleID = ScheduleDefinition.defaultID }]
                                        },
                                        .with {
                                            $0.delayMinutes = 5
                                            $0.targets = [.with { $0.employeeID = first }]
                                        },
                                    ]
                                }
                            ]
                            $0.managesServices = true
                            $0.services = [
                                .with {
                                    $0.id = "bench-service"; $0.name = "Bench"; $0.policyID = "bench"
                                }
                            ]
                        }
                    }))
        }
        var result = try await measure(targets, tls: clientTLS, idleSeconds: idleSeconds) { index in
            // Even pushes put the second person on duty, odd ones take them off again.
            if index % 2 == 0 {
                _ = try await administer(
                    admin,
                    .addShift(
                        .with {
                            $0.shift = .with {
                                $0.id = "bench-\(index)"; $0.employeeID = second; $0.startMs = now - 60_000;
                                $0.endMs = now + 86_400_000
                            }
                        }))
            } else {
                _ = try await administer(admin, .deleteShift(.with { $0.id = "bench-\(index - 1)" }))
            }
        }
        await admin.close()
        result.pushes = pushes
        if let callgrind {
            nodes[0].terminate(waitingUpTo: 300)
            result.instructionsPerSubscriberPush = Double(try callgrind.instructions()) / Double(subscribers * pushes)
            result.callgrindOutput = callgrind.outputFile
        }
        return result
    }

    /// Runs against the floor broadcaster, writing `pushFrame` on each trigger.
    package func runFloor(pushFrame: [UInt8]) async throws -> FanoutResult {
        let port = freePort()
        let hex = pushFrame.map { String(format: "%02x", $0) }.joined()
        let callgrind = valgrind.map { Callgrind.floor(valgrind: $0) }
        let command = (executable: benchExecutable, arguments: ["floor-server", "--port", "\(port)", "--frame", hex])
        let run = callgrind?.wrapping(command.executable, command.arguments) ?? command
        let floor = try ChildProcess(executable: run.executable, arguments: run.arguments)
        defer { floor.stop() }
        try waitForListener(port: port, timeout: callgrind == nil ? 30 : 300, process: floor)
        let admin = try await RosterConnection.connect(host: "127.0.0.1", port: port)
        var result = try await measure([Target(port: port, pid: floor.pid)], idleSeconds: 1) { _ in
            _ = try await admin.request(.setMotd(.init()))
        }
        await admin.close()
        if let callgrind {
            floor.terminate(waitingUpTo: 300)
            result.instructionsPerSubscriberPush = Double(try callgrind.instructions()) / Double(subscribers * pushes)
            result.callgrindOutput = callgrind.outputFile
        }
        return result
    }

    private func administer(_ connection: RosterConnection, _ message: RosterMessage) async throws -> String {
        guard case .mutationResult(let result) = try await connection.request(message) else {
            throw BenchError("no MutationResult")
        }
        return result.ids.first ?? ""
    }

    /// A process under test: where it listens, and its PID for CPU and memory.
    struct Target {
        var port: Int
        var pid: Int32
        /// The HTTP listener's, when the subscribers are event streams.
        var httpPort = 0
    }

    private func measure(
        _ targets: [Target], tls: BenchTLS? = nil, idleSeconds: Double,
        trigger: (Int) async throws -> Void
    ) async throws -> FanoutResult {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        do {
            let result = try await measure(targets, tls: tls, group: group, idleSeconds: idleSeconds, trigger: trigger)
            try? await group.shutdownGracefully()
            return result
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Subscribers are spread evenly over `targets` (stalled ones all on the first); the
    /// triggers go through the first.
    private func measure(
        _ targets: [Target], tls: BenchTLS?, group: MultiThreadedEventLoopGroup, idleSeconds: Double,
        trigger: (Int) async throws -> Void
    ) async throws -> FanoutResult {
        let recorders = targets.map { _ in PushRecorder(pushes: pushes) }
        let escalationRecorder = PushRecorder(pushes: pushes)
        let counts = targets.indices.map { subscribers / targets.count + ($0 < subscribers % targets.count ? 1 : 0) }
        let memory = { targets.reduce(0) { $0 + residentBytes(pid: $1.pid) } }
        let cpu = { targets.reduce(0.0) { $0 + cpuMillis(pid: $1.pid) } }
        let before = memory()
        let cpuBeforeConnects = cpu()
        var channels = try await openStalledSubscribers(
            count: stalledSubscribers, port: targets[0].port, tls: tls?.context,
            group: group, recorder: recorders[0])
        for (index, target) in targets.enumerated() {
            if eventStreams {
                channels += try await openEventStreams(
                    count: counts[index], port: target.httpPort, group: group, recorder: recorders[index])
            } else {
                channels += try await openSubscribers(
                    count: counts[index], port: target.port, tls: tls?.context, group: group,
                    recorder: recorders[index], roster: subscribersFollowRoster)
            }
        }
        if escalationSubscribers > 0 {
            channels += try await openSubscribers(
                count: escalationSubscribers, port: targets[0].port, tls: tls?.context, group: group,
                recorder: escalationRecorder, services: ["Bench"])
        }
        let cpuPerConnect =
            (cpu() - cpuBeforeConnects) / Double(max(1, subscribers + stalledSubscribers + escalationSubscribers))
        try await Task.sleep(for: .seconds(1))  // let the servers settle before reading their memory
        let after = memory()
        var afterIdle: Int?
        if idleSeconds > 1 {
            try await Task.sleep(for: .seconds(idleSeconds - 1))
            afterIdle = memory()
        }

        var samples: [UInt64] = []
        var completions: [Double] = []
        var otherCompletions: [Double] = []
        var triggers: [Double] = []
        var escalationSamples: [UInt64] = []
        var escalationCompletions: [Double] = []
        let cpuBeforePushes = cpu()
        for index in 0..<pushes {
            let start = nanos()
            try await trigger(index)
            triggers.append(Double(nanos() - start) / 1e6)
            let deadline = nanos() + 60_000_000_000
            while let behind = targets.indices.first(where: { recorders[$0].received(push: index) < counts[$0] })
                ?? (escalationRecorder.received(push: index) < escalationSubscribers ? 0 : nil)
            {
                guard nanos() < deadline else {
                    throw BenchError(
                        "push \(index): only \(recorders[behind].received(push: index)) of \(counts[behind]) delivered by node \(behind + 1), "
                            + "\(escalationRecorder.received(push: index)) of \(escalationSubscribers) escalation pushes"
                    )
                }
                // Sleep rather than spin: receipts are timed where they arrive, and a spinning
                // poll would take a core from the server under test on a two-core machine.
                try await Task.sleep(for: .milliseconds(1))
            }
            let receipts = recorders.map { $0.receipts(push: index) }
            samples += receipts.joined().map { $0 - start }
            if let last = receipts.joined().max() { completions.append(Double(last - start) / 1e6) }
            if let last = receipts.dropFirst().joined().max() { otherCompletions.append(Double(last - start) / 1e6) }
            let escalated = escalationRecorder.receipts(push: index)
            escalationSamples += escalated.map { $0 - start }
            if let last = escalated.max() { escalationCompletions.append(Double(last - start) / 1e6) }
        }
        let cpuPerPush = (cpu() - cpuBeforePushes) / Double(max(1, pushes))
        for channel in channels { channel.close(promise: nil) }
        let frame = recorders[0].sampleFrame ?? []
        var result = FanoutResult(
            subscribers: subscribers, pushes: pushes, latency: LatencySummary(samples),
            completionMillis: median(completions),
            otherNodesCompletionMillis: otherCompletions.isEmpty ? nil : median(otherCompletions),
            triggerMillis: median(triggers),
            triggerP99Millis: triggers.sorted()[min(triggers.count - 1, triggers.count * 99 / 100)],
            frameBytes: frame.count, cpuMillisPerPush: cpuPerPush, cpuMillisPerConnect: cpuPerConnect,
            residentBytesPerSubscriber: after > before ? Double(after - before) / Double(subscribers) : nil,
            residentBytesPerSubscriberAfterIdle: afterIdle.flatMap {
                $0 > before ? Double($0 - before) / Double(subscribers) : nil
            },
            pushFrame: frame)
        if escalationSubscribers > 0 {
            result.escalation = (
                LatencySummary(escalationSamples), median(escalationCompletions),
                escalationRecorder.sampleFrame?.count ?? 0
            )
        }
        return result
    }

    private func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
}
