import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
#if canImport(Glibc)
    import Glibc
#endif

/// The hostile-client repros of issue #30 against a roster-server process (a release build), each
/// beside a healthy client of another tenant: how long that client's admin changes take to be
/// acknowledged while the attack runs, what the server holds in memory, and whether it is still up
/// afterwards. `server` may be another build (an earlier commit's) to compare; only flags every
/// build knows are passed.
package struct AttackBenchmark {
    package enum Attack: String, CaseIterable, Sendable {
        /// GetCalendar with an alarm whose arithmetic overflowed.
        case overflow
        /// 200,000 requests for a year of a busy schedule, never read.
        case neverReads = "never-reads"
        /// More truncated ClientHellos than --max-connections, on a TLS server.
        case halfOpenTLS = "half-open-tls"
        /// A small import that resolves twenty minutely rotations, then years of a busy schedule
        /// asked without pause from four connections.
        case heavyTenant = "heavy-tenant"
        /// 1,100 idle HTTP connections to a server limited to 1,024 descriptors.
        case idleHTTP = "idle-http"
        /// Four HTTP loops of `GET /v1/oncall` for a year of a busy schedule, each answered within
        /// the budget; the other tenant's samples are its own `GET /v1/oncall` (who is on call
        /// now), as a status page asks it.
        case yearQueries = "year-queries"
    }

    package var server: URL
    package var administration: URL
    package var changes: Int

    package init(server: URL, administration: URL, changes: Int = 20) {
        self.server = server
        self.administration = administration
        self.changes = changes
    }

    package struct Result {
        package var attack: Attack
        /// The bystander's connections and admin changes before the attack and while it runs;
        /// nil when one was not acknowledged within a minute.
        package var quiet: LatencySummary
        package var underAttack: LatencySummary?
        package var failure: String?
        /// Resident memory before the attack and the most seen while it ran.
        package var residentBefore: Int
        package var residentPeak: Int
        package var alive: Bool
        /// The attacker's requests answered 200 while it ran (year-queries).
        package var attackAnswers: Int
    }

    package func run(_ attack: Attack) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-attack-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = freePort(), httpPort = freePort()
        var arguments = [
            "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "127.0.0.1:\(httpPort)", "--data-dir", directory,
            "--demo", "--log-level", "error", "--shutdown-grace-ms", "0",
        ]
        if attack == .halfOpenTLS { arguments += ["--tls", "--max-connections", "200"] }
        // Idle connections matter where descriptors run out: the server gets a common default's
        // 1,024 (prlimit, so that it cannot raise its own).
        let child =
            attack == .idleHTTP
            ? try ChildProcess(
                executable: URL(fileURLWithPath: "/usr/bin/prlimit"),
                arguments: ["--nofile=1024:1024", server.path] + arguments)
            : try ChildProcess(executable: server, arguments: arguments)
        defer { child.stop() }
        try waitForListener(port: port, timeout: 60, process: child)
        let defaultAdmin = try adminToken(dataDirectory: directory)
        try Self.tool(administration, ["tenant", "create", "bystander", "--data-dir", directory])
        let token = try Self.tool(
            administration, ["token", "create", "--tenant", "bystander", "--role", "admin", "--data-dir", directory])
        let tls = attack == .halfOpenTLS ? try TLSContext.client(.init(trust: .caFile(directory + "/tls/ca.pem"))) : nil
        // The server picks up a tenant and a token made beside it within a second or two.
        var connected: RosterConnection?
        for _ in 0..<100 where connected == nil {
            connected = try? await Self.connect(port: port, tls: tls, tenant: "bystander", token: token)
            if connected == nil { try await Task.sleep(for: .milliseconds(200)) }
        }
        guard let first = connected else { throw BenchError("the server never served the bystander tenant") }
        await first.close()
        let bystander = Bystander(port: port, tls: tls, token: token)
        let busy = try await Self.connect(port: port, tls: tls, tenant: "", token: defaultAdmin)
        try await Self.addBusySchedule(busy)
        await busy.close()

        let quiet = try await measure(bystander, attack: attack, httpPort: httpPort)
        let before = residentBytes(pid: child.pid)
        let peak = PeakMemory(pid: child.pid)
        let running = Task { await peak.watch() }
        let answered = NIOLockedValueBox(0)
        let stop = try await start(
            attack, port: port, httpPort: httpPort, adminToken: defaultAdmin, tls: tls, answered: answered)
        try await Task.sleep(for: .seconds(2))
        var underAttack: LatencySummary?
        var failure: String?
        do {
            underAttack = try await measure(bystander, attack: attack, httpPort: httpPort)
        } catch {
            failure = "\(error)"
        }
        await stop()
        running.cancel()
        _ = await running.value
        try? await Task.sleep(for: .milliseconds(500))
        let alive = child.process.isRunning
        return Result(
            attack: attack, quiet: quiet, underAttack: underAttack, failure: failure, residentBefore: before,
            residentPeak: max(before, peak.peak), alive: alive, attackAnswers: answered.withLockedValue { $0 })
    }

    /// The other tenant's admin: each sample is a new connection (TLS handshake and Hello
    /// included, as a client arriving during an attack needs) and a motd change acknowledged.
    struct Bystander {
        var port: Int
        var tls: TLSContext?
        var token: String
    }

    /// The bystander's samples for `attack`: its HTTP "on call now" for year queries, its admin
    /// changes otherwise.
    private func measure(_ bystander: Bystander, attack: Attack, httpPort: Int) async throws -> LatencySummary {
        attack == .yearQueries
            ? try await measureOnCallNow(bystander, httpPort: httpPort) : try await measure(bystander)
    }

    /// `changes` × 10 `GET /v1/oncall` on one keep-alive connection, one every 25 ms (as a
    /// status page polls, and long enough to span many of the attacker's queries).
    private func measureOnCallNow(_ bystander: Bystander, httpPort: Int) async throws -> LatencySummary {
        // An event loop of its own: the attackers' clients, in this process, decode megabytes of
        // answers on the shared ones, and that is not the server's latency.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { group.shutdownGracefully { _ in } }
        let client = try await PageClient.connect(port: httpPort, group: group)
        var samples: [UInt64] = []
        for _ in 0..<(changes * 10) {
            try await Task.sleep(for: .milliseconds(25))
            let start = nanos()
            _ = try await client.send(
                .GET, "/v1/oncall", headers: [("Authorization", "Bearer \(bystander.token)")], body: [])
            samples.append(nanos() - start)
        }
        try? await client.close()
        return LatencySummary(samples)
    }

    /// `changes` samples, each given a minute at most.
    private func measure(_ bystander: Bystander) async throws -> LatencySummary {
        var samples: [UInt64] = []
        for index in 0..<changes {
            let start = nanos()
            // A refused connection (the server at its connection cap) is tried again, as a client
            // reconnects: the sample is the time until the change is acknowledged.
            while true {
                do {
                    let client = try await Self.connect(
                        port: bystander.port, tls: bystander.tls, tenant: "bystander",
                        token: bystander.token)
                    defer { Task { await client.close() } }
                    _ = try await client.request(
                        .setMotd(.with { $0.motd = "bystander \(index) \(start)" }), timeout: .seconds(60))
                    break
                } catch {
                    guard nanos() - start < 60_000_000_000 else { throw error }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            samples.append(nanos() - start)
        }
        return LatencySummary(samples)
    }

    /// Starts the attack; returns what ends it.
    private func start(
        _ attack: Attack, port: Int, httpPort: Int, adminToken: String, tls: TLSContext?,
        answered: NIOLockedValueBox<Int>
    ) async throws
        -> @Sendable () async -> Void
    {
        switch attack {
        case .overflow:
            let reader = try await Self.connect(port: port, tls: nil, tenant: "", token: "")
            _ = try? await reader.request(
                .getCalendar(
                    .with {
                        $0.schedule = "Default"; $0.alarm = "99999999999999999d"
                    }),
                timeout: .seconds(5))
            return { await reader.close() }
        case .neverReads:
            let socket = try RawAttackSocket(port: port)
            socket.send(Self.frame(.hello(Self.hello(token: "")), 1))
            var flood = ByteBuffer()
            for id in 2..<200_002 { flood.writeImmutableBuffer(Self.yearOfBusy.frame(requestID: UInt32(id)).encoded()) }
            let bytes = Array(flood.readableBytesView)
            let sender = Task.detached {
                var sent = 0
                while sent < bytes.count && !Task.isCancelled { sent += max(0, socket.send(Array(bytes[sent...]))) }
            }
            return {
                sender.cancel(); socket.close()
            }
        case .halfOpenTLS:
            let truncated: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
            var sockets: [RawAttackSocket] = []
            for _ in 0..<250 {
                guard let socket = try? RawAttackSocket(port: port) else { continue }
                socket.send(truncated)
                sockets.append(socket)
            }
            let held = sockets
            return { for socket in held { socket.close() } }
        case .heavyTenant:
            let admin = try await Self.connect(port: port, tls: nil, tenant: "", token: adminToken)
            let importing = Task { _ = try? await admin.request(Self.importStall, timeout: .seconds(600)) }
            let readers = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            guard let reader = try? await Self.connect(port: port, tls: nil, tenant: "", token: "")
                            else { return }
                            while !Task.isCancelled {
                                await withTaskGroup(of: Void.self) { burst in
                                    for _ in 0..<16 {
                                        burst.addTask {
                                            _ = try? await reader.request(Self.yearOfBusy, timeout: .seconds(120))
                                        }
                                    }
                                }
                            }
                            await reader.close()
                        }
                    }
                }
            }
            return {
                readers.cancel(); importing.cancel(); await admin.close()
            }
        case .yearQueries:
            // A dense schedule first: a year of it is within a query's budget, just.
            let admin = try await Self.connect(port: port, tls: nil, tenant: "", token: adminToken)
            let answer = try await admin.request(Self.importDense, timeout: .seconds(600))
            await admin.close()
            if case .error(let error) = answer { throw BenchError("the dense schedule was refused: \(error.message)") }
            let loops = (0..<4).map { _ in
                Task {
                    guard
                        let client = try? await PageClient.connect(
                            port: httpPort, group: MultiThreadedEventLoopGroup.singleton)
                    else { return }
                    while !Task.isCancelled {
                        let now = Date()
                        let path =
                            "/v1/oncall?schedule=Dense&from=\(Self.iso(now))&to=\(Self.iso(now.addingTimeInterval(365 * 86_400)))"
                        do {
                            _ = try await client.send(
                                .GET, path, headers: [("Authorization", "Bearer \(adminToken)")], body: [])
                            answered.withLockedValue { $0 += 1 }
                        } catch {
                            FileHandle.standardError.write(Data("year query: \(error)\n".utf8))
                            try? await Task.sleep(for: .milliseconds(100))
                        }
                    }
                    try? await client.close()
                }
            }
            return {
                for loop in loops { loop.cancel() }; for loop in loops { _ = await loop.value }
            }
        case .idleHTTP:
            var sockets: [RawAttackSocket] = []
            for _ in 0..<2_000 where sockets.count < 1_100 {
                // Connecting may wait while the listener's backlog is full: up to 2 s each.
                if let socket = try? RawAttackSocket(port: httpPort, timeout: 2) { sockets.append(socket) }
            }
            let held = sockets
            return { for socket in held { socket.close() } }
        }
    }
}
