import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// Several `roster-server` processes on one PostgreSQL database (docs/SCALING.md): a change
/// made through one node reaches the subscribers of every node in order; a subscriber whose
/// node dies carries on from another without a gap; a restarted PostgreSQL loses nothing that
/// was acknowledged; two nodes writing one tenant at once give one gap-free history.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PostgresCluster.shouldRun, "PostgreSQL is not installed (apt-get install postgresql)"))
struct MultiNodeTests {
    /// Nodes on `cluster` (a new database), started one after another (the first creates the
    /// tenant and the admin token), stopped and removed afterwards whatever happens.
    static func withNodes<T>(
        _ count: Int, cluster: PostgresCluster? = nil,
        _ body: ([ServerProcess], PostgresAddress) async throws -> T
    ) async throws -> T {
        let cluster = if let cluster { cluster } else { try await PostgresCluster.shared() }
        let address = try await cluster.createDatabase()
        let store = "postgres://\(address.user)@\(address.host):\(address.port)/\(address.database)"
        var nodes: [ServerProcess] = []
        // One secrets key for every node, as docs/SCALING.md says: each signs the webhooks of all.
        let keys = TestScratch.directory("keys")
        var directories: [URL] = [keys]
        defer { for directory in directories { TestScratch.remove(directory) } }
        let keyFile = keys.appendingPathComponent("secrets.key").path
        do {
            for _ in 0..<count {
                let directory = TestScratch.directory("node")
                directories.append(directory)
                nodes.append(
                    try await ServerProcess.start(
                        dataDirectory: directory.path,
                        arguments: ["--store", store, "--secrets-key-file", keyFile]))
            }
        } catch {
            for node in nodes { await node.kill9() }
            throw error
        }
        return try await withCleanup(nodes, cleanUp: { for node in $0 { await node.kill9() } }) {
            try await body($0, address)
        }
    }

    static func admin(_ node: ServerProcess, token: String) async throws -> RosterConnection {
        try await RosterConnection.connect(host: "127.0.0.1", port: node.port, hello: .with { $0.token = token })
    }

    /// A subscriber with a history checker; `servers` in order of preference.
    static func subscriber(_ servers: [ServerProcess], name: String) async -> (RosterClient, HistoryChecker) {
        var configuration = RosterClientConfiguration(
            servers: servers.map { HostPort(host: "127.0.0.1", port: $0.port) })
        configuration.cacheDirectory = nil
        configuration.reconnect.baseDelay = .milliseconds(20)
        configuration.reconnect.maxDelay = .milliseconds(200)
        let client = RosterClient(configuration: configuration)
        let checker = HistoryChecker(name: name)
        Task { for await update in client.updates { checker.observe(update) } }
        await client.start()
        return (client, checker)
    }

    /// Waits until every checker has synced and reached `revision` (or the time is up).
    static func waitFor(_ checkers: [HistoryChecker], revision: UInt64, timeout: Duration = .seconds(30)) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, checkers.contains(where: { $0.revision.map { $0 < revision } ?? true }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    static func motd(_ text: String) -> RosterMessage { .setMotd(.with { $0.motd = text }) }

    @Test func aChangeThroughOneNodeReachesTheSubscribersOfTheOthersInOrder() async throws {
        try await Self.withNodes(3) { nodes, address in
            let token = nodes[0].adminToken
            let onB = await Self.subscriber([nodes[1]], name: "on B")
            let onC = await Self.subscriber([nodes[2]], name: "on C")
            try await withCleanup([onB.0, onC.0], cleanUp: { for client in $0 { await client.stop() } }) { _ in
                await Self.waitFor([onB.1, onC.1], revision: 0)
                let admin = try await Self.admin(nodes[0], token: token)
                var last: UInt64 = 0
                for index in 1...15 {
                    last = try await admin.admin(Self.motd("change \(index)")).revision
                }
                await admin.close()
                #expect(last == 15)
                await Self.waitFor([onB.1, onC.1], revision: last)
                for (client, checker) in [onB, onC] {
                    #expect(checker.violations == [], "\(checker.name)")
                    #expect(
                        checker.revision == 15 && checker.applied == 15, "\(checker.name) got every change as a push")
                    #expect(await client.roster?.state.tenant.motd == "change 15")
                }
            }
        }
    }

    @Test func aSubscriberWhoseNodeIsKilledCarriesOnFromAnotherWithoutAGap() async throws {
        try await Self.withNodes(2) { nodes, address in
            let token = nodes[0].adminToken
            // Subscribed to B first, A next; the changes go through A.
            let (client, checker) = await Self.subscriber([nodes[1], nodes[0]], name: "failing over")
            try await withCleanup(client, cleanUp: { await $0.stop() }) { client in
                await Self.waitFor([checker], revision: 0)
                let admin = try await Self.admin(nodes[0], token: token)
                var last: UInt64 = 0
                for index in 1...30 {
                    last = try await admin.admin(Self.motd("change \(index)")).revision
                    if index == 10 { await nodes[1].kill9() }
                    try await Task.sleep(for: .milliseconds(10))
                }
                await admin.close()
                await Self.waitFor([checker], revision: last)
                #expect(checker.violations == [])
                #expect(checker.revision == 30)
                #expect(checker.disconnects >= 1, "the node it was on was killed")
                #expect(checker.resyncs == 0, "it resumed on the other node rather than taking a snapshot")
                #expect(await client.roster?.state.tenant.motd == "change 30")
            }
        }
    }

    @Test func twoNodesCommittingToOneTenantAtOnceGiveOneGapFreeHistory() async throws {
        try await Self.withNodes(3) { nodes, address in
            let token = nodes[0].adminToken
            let (client, checker) = await Self.subscriber([nodes[2]], name: "on C")
            try await withCleanup(client, cleanUp: { await $0.stop() }) { _ in
                await Self.waitFor([checker], revision: 0)
                @Sendable func write(through node: ServerProcess, _ name: String) async throws -> [UInt64] {
                    let admin = try await Self.admin(node, token: token)
                    var revisions: [UInt64] = []
                    for index in 0..<20 {
                        revisions.append(try await admin.admin(Self.motd("\(name) \(index)")).revision)
                    }
                    await admin.close()
                    return revisions
                }
                async let a = write(through: nodes[0], "a")
                async let b = write(through: nodes[1], "b")
                let (fromA, fromB) = try await (a, b)
                // Every change acknowledged with its own revision, and together they are 1...40.
                #expect((fromA + fromB).sorted() == Array(1...40))
                #expect(fromA == fromA.sorted() && fromB == fromB.sorted())
                await Self.waitFor([checker], revision: 40)
                #expect(checker.violations == [])
                #expect(checker.revision == 40 && checker.applied == 40)
            }
        }
    }

    @Test func aRestartedPostgreSQLLosesNoAcknowledgedChange() async throws {
        let cluster = try await PostgresCluster.start()
        try await withCleanup(cluster, cleanUp: { await $0.stop() }) { cluster in
            try await Self.withNodes(2, cluster: cluster) { nodes, address in
                let token = nodes[0].adminToken
                let (client, checker) = await Self.subscriber([nodes[1]], name: "on B")
                try await withCleanup(client, cleanUp: { await $0.stop() }) { client in
                    await Self.waitFor([checker], revision: 0)
                    let acknowledged = NIOLockedValueBox<[UInt64: String]>([:])
                    let refusals = NIOLockedValueBox<[String: Int]>([:])
                    let restarted = NIOLockedValueBox(false), acknowledgedAfterRestart = NIOLockedValueBox(0)
                    // A child task, so that the suite's time limit cancels it too; and a deadline
                    // of its own, so that a node that never recovers fails the test in two
                    // minutes. It stops once 25 changes were acknowledged after the restart: beside
                    // the whole suite on two cores, a fixed minute sometimes held fewer than 20.
                    async let writing: Void = {
                        let deadline = ContinuousClock.now + .seconds(120)
                        var admin: RosterConnection?
                        for index in 1...400
                        where !Task.isCancelled && ContinuousClock.now < deadline
                            && acknowledgedAfterRestart.withLockedValue({ $0 }) < 25
                        {
                            do {
                                if admin == nil { admin = try await Self.admin(nodes[0], token: token) }
                                let text = "change \(index)"
                                // The node answers within its store's deadlines (5 s to connect, 10 s to wait for a
                                // connection, 15 s for the statements), PostgreSQL away or not; the client's
                                // timeout says "the server did not answer in time".
                                guard
                                    case .mutationResult(let result) = try await admin!.request(
                                        Self.motd(text), timeout: .seconds(40))
                                else { throw TestFailure("expected MutationResult") }
                                acknowledged.withLockedValue { $0[result.revision] = text }
                                if restarted.withLockedValue({ $0 }) {
                                    acknowledgedAfterRestart.withLockedValue { $0 += 1 }
                                }
                            } catch {
                                // Refused while PostgreSQL is away (retryable), or the connection went: go on.
                                refusals.withLockedValue {
                                    $0[String(describing: error).prefix(120).description, default: 0] += 1
                                }
                                if let connection = admin, !connection.isActive { admin = nil }
                                try? await Task.sleep(for: .milliseconds(50))
                            }
                            try? await Task.sleep(for: .milliseconds(5))
                        }
                        await admin?.close()
                    }()
                    try await Task.sleep(for: .milliseconds(600))
                    await cluster.stopServer()
                    try await Task.sleep(for: .milliseconds(500))
                    try await cluster.startServer()
                    restarted.withLockedValue { $0 = true }
                    await writing
                    let acked = acknowledged.withLockedValue { $0 }
                    let newest = acked.keys.max() ?? 0
                    let refused = refusals.withLockedValue { $0 }
                    #expect(
                        acknowledgedAfterRestart.withLockedValue { $0 } >= 20
                            && !refused.keys.contains { $0.contains("the server did not answer in time") },
                        """
                        the node went on acknowledging changes after the restart, and answered every request; refused: \(refused)
                        node A's log: \(nodes[0].child.output.suffix(4000))
                        """)
                    // What the store holds: every acknowledged revision, with its text.
                    let stored = try await cluster.psql(
                        address.database,
                        "SELECT revision FROM change_log ORDER BY revision")
                    let revisions = stored.split(separator: "\n").compactMap { UInt64($0) }
                    #expect(Set(acked.keys).isSubset(of: Set(revisions)))
                    #expect(revisions == Array(1...UInt64(revisions.count)))
                    // The subscriber on the other node caught up with all of it, in order.
                    await Self.waitFor([checker], revision: newest)
                    #expect(checker.violations == [])
                    #expect((checker.revision ?? 0) >= newest)
                    #expect(await client.roster?.state.tenant.motd == acked[revisions.last ?? 0] ?? acked[newest])
                }
            }
        }
    }
    /// Webhook delivery is work for one node: with two nodes dispatching from one outbox, the
    /// receiver gets each event once, in the order of the changes, whichever node made them.
    @Test func eachWebhookEventIsDeliveredOnceWhicheverNodeMadeTheChange() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await Self.withNodes(2) { nodes, _ in
                let token = nodes[0].adminToken
                let (a, b) = (
                    try await Self.admin(nodes[0], token: token), try await Self.admin(nodes[1], token: token)
                )
                try await withCleanup([a, b], cleanUp: { for connection in $0 { await connection.close() } }) { _ in
                    guard
                        case .notificationAdminResult = try await a.request(
                            .notificationAdmin(
                                .with {
                                    $0.addWebhook = .with {
                                        $0.url = receiver.url; $0.events = ["shifts.changed"]
                                    }
                                }))
                    else { throw TestFailure("the webhook was not added") }
                    let ada = try await a.addEmployee("Ada", "Lovelace")
                    let hour: Int64 = 3_600_000
                    let start = (Int64(Date().timeIntervalSince1970 * 1000) / hour + 24) * hour
                    var revisions: [UInt64] = []
                    for index in 0..<12 {
                        let through = index.isMultiple(of: 2) ? a : b
                        let shiftStart = start + Int64(index) * hour
                        revisions.append(
                            try await through.admin(
                                .addShift(
                                    .with {
                                        $0.shift = .with {
                                            $0.employeeID = ada; $0.startMs = shiftStart; $0.endMs = shiftStart + hour
                                        }
                                    })
                            ).revision)
                    }
                    try await receiver.wait("twelve shifts.changed events") { $0.count >= 12 }
                    // Long enough for a second delivery by the other node's dispatcher to show.
                    try await Task.sleep(for: .seconds(2))
                    let requests = receiver.requests
                    #expect(
                        requests.count == 12,
                        "\(requests.map { "\($0.eventID) attempt \($0.headers["roster-attempt"] ?? "?")" })")
                    #expect(Set(requests.map(\.eventID)).count == 12, "each event once")
                    #expect(
                        requests.compactMap { $0.json["revision"] as? UInt64 } == revisions,
                        "in the order of the changes")
                }
            }
        }
    }

    /// A token revoked from the command line, against the store, closes its connections on
    /// every node; a tenant and a token created the same way are known to every node.
    @Test func aTokenRevokedThroughTheStoreClosesItsConnectionsOnEveryNode() async throws {
        try await Self.withNodes(2) { nodes, address in
            let store = "postgres://\(address.user)@\(address.host):\(address.port)/\(address.database)"
            let cli = CLI(port: nodes[0].port)
            defer { TestScratch.remove(cli.home) }
            let tenant = try await cli.server(["tenant", "create", "acme", "--store", store])
            try #require(tenant.status == 0, "\(tenant.stderr)")
            let created = try await cli.server([
                "token", "create", "--tenant", "acme", "--role", "reader", "--store", store,
            ])
            try #require(created.status == 0, "\(created.stderr)")
            let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let id = try #require(token.split(separator: "_").dropFirst().first.map(String.init))
            var connections: [RosterConnection] = []
            for node in nodes {
                var connected: RosterConnection?
                _ = await eventually(10) {
                    connected = try? await RosterConnection.connect(
                        host: "127.0.0.1", port: node.port, hello: .with { $0.token = token })
                    return connected != nil
                }
                let connection = try #require(connected, "node \(node.port) knows the new tenant and token")
                #expect(connection.welcome.tenant.id == "acme")
                connections.append(connection)
            }
            try await withCleanup(connections, cleanUp: { for connection in $0 { await connection.close() } }) {
                connections in
                for connection in connections { _ = try await connection.request(.listEmployees(.init())) }
                let revoked = try await cli.server(["token", "revoke", id, "--store", store])
                #expect(revoked.status == 0, "\(revoked.stderr)")
                for (node, connection) in zip(nodes, connections) {
                    #expect(
                        await eventually(5) { !connection.isActive }, "the connection on node \(node.port) was closed")
                }
            }
        }
    }

    /// Issue #34: two people take one cover request at the same instant through two nodes.
    /// Exactly one gets it, every time; the other is told who has it; the override is the
    /// winner's on both nodes.
    @Test func twoPeopleTakingOneCoverRequestOnTwoNodesAtOnceGiveOneTaker() async throws {
        try await Self.withNodes(2) { nodes, address in
            let store = "postgres://\(address.user)@\(address.host):\(address.port)/\(address.database)"
            let admin = try await Self.admin(nodes[0], token: nodes[0].adminToken)
            try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                let tenant = admin.welcome.tenant.id
                for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper")] {
                    _ = try await admin.addEmployee(first, last)
                }
                // Grace is on duty around the clock; Ada and Alan take part too.
                _ = try await admin.admin(
                    .editSchedule(
                        .with {
                            $0.upsertSchedule = .with {
                                $0.name = "Platform primary"; $0.zone = "UTC"
                            }
                        }))
                _ = try await admin.admin(
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"
                            $0.upsertRotation = .with {
                                $0.rotation = .with {
                                    $0.cadence = .with {
                                        $0.unit = .weeks; $0.count = 1
                                    }
                                    $0.handoff = "2026-01-05T09:00"
                                    $0.slots = [.with { $0.employeeIds = ["Grace Hopper"] }]
                                }
                            }
                        }))
                _ = try await admin.admin(
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"
                            $0.upsertRotation = .with {
                                $0.rotation = .with {
                                    $0.cadence = .with {
                                        $0.unit = .weeks; $0.count = 1
                                    }
                                    $0.handoff = "2026-01-05T09:00"
                                    $0.endMs = 1_767_600_000_000  // 2026-01-05: never on duty since, named all the same
                                    $0.slots = [
                                        .with { $0.employeeIds = ["Ada Lovelace"] },
                                        .with { $0.employeeIds = ["Alan Turing"] },
                                    ]
                                }
                                $0.level = 1
                            }
                        }))
                let cli = CLI(port: nodes[0].port)
                defer { TestScratch.remove(cli.home) }
                var tokens: [String] = []
                for person in ["Ada Lovelace", "Alan Turing"] {
                    let created = try await cli.server([
                        "token", "create", "--tenant", tenant, "--role", "reader", "--employee", person, "--store",
                        store,
                    ])
                    try #require(created.status == 0, "\(created.stderr)")
                    tokens.append(created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                var people: [RosterConnection] = []
                for (token, node) in zip(tokens, nodes) {
                    var connected: RosterConnection?
                    _ = await eventually(10) {
                        connected = try? await RosterConnection.connect(
                            host: "127.0.0.1", port: node.port, hello: .with { $0.token = token })
                        return connected != nil
                    }
                    people.append(try #require(connected, "node \(node.port) knows the token"))
                }
                try await withCleanup(people, cleanUp: { for person in $0 { await person.close() } }) { people in
                    let day: Int64 = 86_400_000
                    let base = (Int64(Date().timeIntervalSince1970 * 1000) / day + 2) * day
                    for round in 0..<5 {
                        let opened = try await admin.admin(
                            .editSchedule(
                                .with {
                                    $0.schedule = "Platform primary"
                                    $0.coverRequest = .with {
                                        $0.action = .open
                                        $0.person = "Grace Hopper"
                                        $0.startMs = base + Int64(round) * day
                                        $0.endMs = base + Int64(round) * day + 3_600_000
                                    }
                                }))
                        let id = try #require(opened.ids.dropFirst().first)
                        // Each node must know the request before the race starts.
                        for person in people {
                            let known = await eventually(10) {
                                guard case .schedules(let answer)? = try? await person.request(.listSchedules(.init()))
                                else { return false }
                                return answer.schedules.contains { $0.requests.contains { $0.id == id } }
                            }
                            try #require(known)
                        }
                        @Sendable func take(_ person: RosterConnection) async -> Roster_V1_Error? {
                            do {
                                _ = try await person.admin(
                                    .editSchedule(
                                        .with {
                                            $0.coverRequest = .with {
                                                $0.action = .take; $0.requestID = id
                                            }
                                        }))
                                return nil
                            } catch RosterClientError.server(let error) {
                                return error
                            } catch {
                                return Roster_V1_Error.with { $0.message = "\(error)" }
                            }
                        }
                        async let byAda = take(people[0])
                        async let byAlan = take(people[1])
                        let (ada, alan) = await (byAda, byAlan)
                        #expect(
                            (ada == nil) != (alan == nil),
                            "round \(round): exactly one taker (\(String(describing: ada)), \(String(describing: alan)))"
                        )
                        let winner = ada == nil ? "Ada Lovelace" : "Alan Turing"
                        let refusal = ada ?? alan
                        #expect(
                            refusal?.code == .failedPrecondition
                                && refusal?.message.contains("already taken by \(winner)") == true,
                            "round \(round): \(refusal?.message ?? "")")
                        // Both nodes agree on who covers.
                        for person in people {
                            let agreed = await eventually(10) {
                                guard
                                    case .finalSchedule(let answer)? = try? await person.request(
                                        .getFinalSchedule(
                                            .with {
                                                $0.schedule = "Platform primary"
                                                $0.fromMs = base + Int64(round) * day
                                                $0.toMs = base + Int64(round) * day + 1_000
                                            }))
                                else { return false }
                                return answer.shifts.map(\.overrideSource) == ["request:\(id)"]
                                    && answer.shifts.map { $0.employee.firstName + " " + $0.employee.lastName } == [
                                        winner
                                    ]
                            }
                            #expect(agreed, "round \(round): node agrees \(winner) covers")
                        }
                    }
                }
            }
        }
    }
}
