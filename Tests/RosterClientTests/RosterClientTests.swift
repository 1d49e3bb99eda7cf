import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

typealias UpdateReader = AsyncInbox<RosterUpdate>

extension AsyncInbox where Element == RosterUpdate {
    init(_ client: RosterClient) {
        self.init(client.updates)
    }
}

func isSynced(_ update: RosterUpdate) -> Bool {
    if case .synced = update { return true }
    return false
}

func temporaryDirectory() -> URL {
    TestScratch.directory("roster-client")
}

func fastReconnect(_ port: Int, cache: URL?) -> RosterClientConfiguration {
    var configuration = RosterClientConfiguration(host: "127.0.0.1", port: port)
    configuration.cacheDirectory = cache
    configuration.reconnect.baseDelay = .milliseconds(20)
    configuration.reconnect.maxDelay = .milliseconds(200)
    return configuration
}

@Suite(.timeLimit(.minutes(10))) struct RosterClientTests {
    @Test func followsTheServerAndKeepsTheCacheOnDisk() async throws {
        try await using(try await ServerHarness.start(now: t0 + 10 * minute)) { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            try await admin.addShift(ada, t0, t0 + 60 * minute)
            let cache = temporaryDirectory()
            try await using(RosterClient(configuration: fastReconnect(harness.port, cache: cache))) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)
                #expect(await client.state == .live)
                #expect(await client.onDuty?.current.map(\.employee.firstName) == ["Ada"])

                try await admin.admin(.setMotd(.with { $0.motd = "pushed" }))
                try await reader.until {
                    if case .rosterChanged(let revision, _) = $0 { return revision == 3 } else { return false }
                }
                #expect(await client.roster?.state.tenant.motd == "pushed")

                // The cache is written off the concurrency pool; flushCache waits until it is on disk.
                await client.flushCache()
                let saved = try #require(
                    try RosterCacheFile(directory: cache, server: "127.0.0.1:\(harness.port)", tenant: "demo").load())
                #expect(saved.revision == 3 && saved.state.tenant.motd == "pushed")
                await admin.close()
            }
        }
    }

    @Test func serverRestartLosesNothingAndAppliesNothingTwice() async throws {
        let directory = temporaryDirectory().path
        try await using(ServerSlot(try await ServerHarness.startOnStablePort(dataDirectory: directory))) { servers in
            var harness = servers.harness
            let port = harness.port
            var admin = try await harness.connect()
            for index in 1...3 { try await admin.addEmployee("Before", "Person\(index)") }

            try await using(RosterClient(configuration: fastReconnect(port, cache: temporaryDirectory()))) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)
                let start = try #require(await client.roster?.revision)
                for index in 4...6 { try await admin.addEmployee("Live", "Person\(index)") }
                try await reader.until {
                    if case .rosterChanged(let revision, _) = $0 { return revision == 6 } else { return false }
                }

                await admin.close()
                harness = try await servers.restart {
                    try await ServerHarness.start(dataDirectory: directory, port: port)
                }
                admin = try await harness.connect()
                for index in 7...10 { try await admin.addEmployee("After", "Person\(index)") }
                try await reader.until {
                    if case .rosterChanged(let revision, _) = $0 { return revision == 10 } else { return false }
                }

                #expect(await client.appliedRevisions == Array((start + 1)...10), "every revision once, in order")
                let snapshot = try await admin.request(.getSnapshot(.init())).snapshotBody()
                #expect(await client.roster?.state == RosterState(snapshot), "the cache equals the server's state")
                await admin.close()
            }
        }
    }

    @Test func aRecreatedStoreForcesAResync() async throws {
        try await using(ServerSlot(try await ServerHarness.startOnStablePort())) { servers in
            var harness = servers.harness
            let port = harness.port
            var admin = try await harness.connect()
            try await admin.addEmployee("Old", "Store")
            try await using(RosterClient(configuration: fastReconnect(port, cache: temporaryDirectory()))) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)
                await admin.close()

                // a new data directory: a new epoch
                harness = try await servers.restart { try await ServerHarness.start(port: port) }
                admin = try await harness.connect()
                try await admin.addEmployee("New", "Store")
                try await reader.until { if case .resyncing = $0 { return true } else { return false } }
                try await reader.until(isSynced)
                #expect(await client.roster?.epoch == admin.welcome.epoch)
                // "New" is in the snapshot or arrives just after it, depending on who was first.
                #expect(await eventually { await client.roster?.state.sortedEmployees.map(\.firstName) == ["New"] })
                await admin.close()
            }
        }
    }

    @Test func resumeBeyondTheHistoryTakesAFreshSnapshot() async throws {
        try await using(try await ServerHarness.start { $0.limits.historySize = 2 }) { harness in
            let admin = try await harness.connect()
            try await admin.addEmployee("First", "Person")
            let cache = temporaryDirectory()
            let first = RosterClient(configuration: fastReconnect(harness.port, cache: cache))
            let firstReader = UpdateReader(first)
            await first.start()
            try await firstReader.until(isSynced)
            await first.stop()

            for index in 1...5 { try await admin.addEmployee("Later", "Person\(index)") }
            try await using(RosterClient(configuration: fastReconnect(harness.port, cache: cache))) { second in
                #expect(await second.roster?.revision == 1, "starts from the cache")
                let reader = UpdateReader(second)
                await second.start()
                let seen = try await reader.until(isSynced)
                #expect(seen.contains { if case .resyncing = $0 { return true } else { return false } })
                let resynced = try #require(await second.roster)
                #expect(resynced.revision == 6 && resynced.state.employees.count == 6)
                await admin.close()
            }
        }
    }

    /// A one-shot read's cache refresh fetches the state only when the cache is behind the
    /// server's Welcome; a current cache only gets its age renewed (the body is not rewritten).
    @Test func aCurrentCacheIsNotFetchedAgainOnlyItsAgeRenewed() async throws {
        try await using(try await ServerHarness.start(now: t0 + 10 * minute)) { harness in
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Ada", "Lovelace")
            let cache = temporaryDirectory()
            let file = RosterCacheFile(directory: cache, server: "127.0.0.1:\(harness.port)", tenant: "demo")
            func oneShot() async throws -> CachedRoster {
                try await using(RosterClient(configuration: fastReconnect(harness.port, cache: cache))) { client in
                    _ = try await client.employees()
                    try await client.refreshCacheIfBehind()
                    return try #require(await client.roster)
                }
            }
            let first = try await oneShot()
            let written = try Data(contentsOf: file.url)
            try await Task.sleep(for: .milliseconds(20))
            let second = try await oneShot()
            #expect(second.revision == first.revision && second.syncedAt > first.syncedAt)
            #expect(
                try Data(contentsOf: file.url).dropFirst(16) == written.dropFirst(16), "the body was not written again")
            #expect(file.header()?.revision == first.revision && file.header()?.epoch == first.epoch)
            let loaded = try #require(try file.load())
            #expect(abs(loaded.syncedAt.timeIntervalSince(second.syncedAt)) < 0.002, "the file has the renewed age")

            try await admin.admin(.setMotd(.with { $0.motd = "new" }))
            let third = try await oneShot()
            #expect(third.revision > first.revision && third.state.tenant.motd == "new", "a cache behind is fetched")
            await admin.close()
        }
    }

    @Test func offlineAnswersComeFromTheCache() async throws {
        let cache = temporaryDirectory()
        let (port, ada, grace) = try await using(try await ServerHarness.start(now: t0 + 10 * minute)) { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let grace = try await admin.addEmployee("Grace", "Hopper")
            try await admin.addShift(ada, t0, t0 + 30 * minute)
            try await admin.addShift(grace, t0 + 30 * minute, t0 + 60 * minute)
            let online = RosterClient(configuration: fastReconnect(harness.port, cache: cache))
            try await online.refreshCache()
            await admin.close()
            return (harness.port, ada, grace)
        }

        let offline = RosterClient(configuration: fastReconnect(port, cache: cache))
        // The file is read when the copy is first needed; whoever asks while it is read waits for it.
        async let first = offline.roster?.revision
        async let second = offline.roster?.revision
        let revisions = await [first, second]
        #expect(revisions[0] != nil && revisions[0] == revisions[1], "\(revisions)")
        let roster = try #require(await offline.roster)
        #expect(roster.onDuty(at: t0 + 10 * minute).current.map(\.employeeID) == [ada])
        #expect(roster.onDuty(at: t0 + 10 * minute).until == t0 + 30 * minute)
        #expect(roster.onDuty(at: t0 + 40 * minute).current.map(\.employeeID) == [grace])
        #expect(roster.age() < 60)
        // Nothing listens on port 1: a query fails as unreachable while the cache still answers.
        let unreachable = RosterClient(configuration: fastReconnect(1, cache: nil))
        do {
            _ = try await unreachable.onDuty()
            Issue.record("expected the server to be unreachable")
        } catch let error as RosterClientError {
            guard case .connectionFailed = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func aCorruptOrTornCacheIsIgnoredWithAWarning() async throws {
        let cache = temporaryDirectory()
        let file = RosterCacheFile(directory: cache, server: "127.0.0.1:1", tenant: "")
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: [Employee(id: "e", firstName: "A", lastName: "B")])
        try file.save(CachedRoster(state: state, epoch: 1, revision: 9, syncedAt: Date()))
        #expect(try file.load()?.revision == 9)

        var bytes = try Data(contentsOf: file.url)
        bytes[bytes.count - 3] ^= 0xFF  // flip a byte: a corrupt file
        try bytes.write(to: file.url)
        #expect(throws: CacheProblem.corrupt("checksum mismatch")) { try file.load() }

        try bytes.prefix(bytes.count / 2).write(to: file.url)  // a torn write
        #expect(throws: CacheProblem.self) { try file.load() }

        try Data("not a cache".utf8).write(to: file.url)
        var configuration = RosterClientConfiguration(host: "127.0.0.1", port: 1)
        configuration.cacheDirectory = cache
        let client = RosterClient(configuration: configuration)
        #expect(await client.roster == nil)
        guard case .cacheProblem(let problem) = try await UpdateReader(client).nextElement() else {
            Issue.record("no warning"); return
        }
        #expect(problem == .corrupt("not a roster cache file"))
    }

    /// A CLI read (a query, then the cache refresh) opens one connection, not one per request.
    @Test func requestsWithoutFollowingShareOneConnection() async throws {
        try await withServer { harness in
            let before = harness.server.acceptedConnections
            try await using(RosterClient(configuration: fastReconnect(harness.port, cache: temporaryDirectory()))) {
                client in
                _ = try await client.onDuty()
                _ = try await client.refreshCache()
                _ = try await client.employees()
                #expect(harness.server.acceptedConnections - before == 1)
            }
        }
    }

    @Test func backoffIsSpreadFromTheFirstAttemptThenExponentialWithFullJitterAndCapped() {
        let policy = RosterClientConfiguration.ReconnectPolicy()
        // The first reconnect is spread over the base delay: a dead node's clients do not all
        // arrive at the next one within milliseconds.
        let first = (0..<200).map { _ in policy.delay(forAttempt: 1) }
        #expect(first.allSatisfy { $0 <= .milliseconds(500) })
        #expect(Set(first).count > 100, "the first reconnect is jittered")
        for attempt in 2...12 {
            let ceiling = min(Duration.seconds(30), Duration.milliseconds(500) * (1 << (attempt - 2)))
            for _ in 0..<50 { #expect(policy.delay(forAttempt: attempt) <= ceiling) }
        }
        let late = (0..<200).map { _ in policy.delay(forAttempt: 40) }
        #expect(late.allSatisfy { $0 <= .seconds(30) })
        #expect(Set(late).count > 100, "full jitter spreads the delays")
    }
}
