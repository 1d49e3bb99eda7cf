import Foundation
import NIOCore
import NIOPosix
import RosterTLS
import RosterTestSupport
import Testing

@testable import RosterNotifications

/// Connections kept open per origin for push deliveries (`KeptConnections`), against real HTTP
/// servers on 127.0.0.1: reuse, the cap per origin, a far end that closes, a hostile origin
/// beside a healthy one, an origin that cannot be reached, and a waiting request cancelled.
@Suite(.timeLimit(.minutes(5))) struct KeptConnectionsTests {
    static func client(_ limits: KeptConnections.Limits = .init(), trust: TLSTrust = .system) -> WebhookClient {
        WebhookClient(
            group: MultiThreadedEventLoopGroup.singleton,
            tls: WebhookClient.LazyTLS(TLSClientConfiguration(trust: trust)),
            addresses: WebhookAddressPolicy(allowLoopback: true), kept: KeptConnections(limits: limits))
    }

    static func post(_ client: WebhookClient, _ url: String, timeout: Duration = .seconds(60)) async throws -> Int {
        try await client.post(url: url, headers: [], body: Data("{}".utf8), timeout: timeout, keepAlive: true).status
    }

    static func origin(_ receiver: WebhookReceiver) -> String {
        "\(receiver.https ? "https" : "http")://127.0.0.1:\(receiver.port)"
    }

    static func withReceiver(
        _ rule: @escaping @Sendable (WebhookReceiver.Request, Int) -> WebhookReceiver.Answer,
        _ body: (WebhookReceiver) async throws -> Void
    ) async throws {
        let receiver = try await WebhookReceiver.start(rule)
        try await withCleanup(receiver, cleanUp: { await $0.stop() }, body)
    }

    @Test func requestsOneAfterAnotherShareOneConnection() async throws {
        try await Self.withReceiver({ _, _ in .init(status: 201, connection: .keep) }) {
            (receiver: WebhookReceiver) async throws in
            let client = Self.client()
            for _ in 0..<20 { #expect(try await Self.post(client, receiver.url) == 201) }
            #expect(receiver.requests.count == 20)
            #expect(Set(receiver.requests.map(\.peerPort)).count == 1, "one connection for all twenty")
            let counts = client.kept.counts(Self.origin(receiver))
            #expect(counts.open == 1 && counts.idle == 1 && counts.waiting == 0)
        }
    }

    @Test func overTLSTooOneConnectionServesOneRequestAfterAnother() async throws {
        let pki = try TestPKI()
        defer { TestScratch.remove(pki.directory) }
        let tls = try TLSContext.server(
            TLSServerConfiguration(certificateChainFile: pki.serverChainFile, privateKeyFile: pki.serverKeyFile))
        let receiver = try await WebhookReceiver.start(tls: tls) { _, _ in .init(status: 201, connection: .keep) }
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { (receiver: WebhookReceiver) async throws in
            let client = Self.client(trust: .caFile(pki.caFile))
            for _ in 0..<10 { #expect(try await Self.post(client, receiver.url) == 201) }
            #expect(receiver.requests.count == 10)
            #expect(Set(receiver.requests.map(\.peerPort)).count == 1, "one TLS connection, one handshake")
        }
    }

    @Test func anIdleConnectionIsClosedAndAnOldOneNotUsedAgain() async throws {
        try await Self.withReceiver({ _, _ in .init(status: 201, connection: .keep) }) {
            (receiver: WebhookReceiver) async throws in
            var limits = KeptConnections.Limits()
            limits.idle = .milliseconds(200)
            let idling = Self.client(limits)
            #expect(try await Self.post(idling, receiver.url) == 201)
            try await receiver.wait(timeout: .seconds(60), "the idle connection closed") { _ in
                idling.kept.counts(Self.origin(receiver)) == (0, 0, 0)
            }
            limits.lifetime = .zero
            let aging = Self.client(limits)
            for _ in 0..<3 { #expect(try await Self.post(aging, receiver.url) == 201) }
            #expect(Set(receiver.requests.map(\.peerPort)).count == 4, "a connection past its lifetime is closed")
        }
    }

    @Test func requestsAtOnceUseNoMoreConnectionsThanTheCap() async throws {
        try await Self.withReceiver({ _, _ in .init(status: 201, delay: .milliseconds(5), connection: .keep) }) {
            (receiver: WebhookReceiver) async throws in
            var limits = KeptConnections.Limits()
            limits.perOrigin = 4
            let client = Self.client(limits)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<60 { group.addTask { try await Self.post(client, receiver.url) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 201, count: 60))
            let connections = Set(receiver.requests.map(\.peerPort)).count
            #expect((1...4).contains(connections), "\(connections) connections")
            #expect(client.kept.counts(Self.origin(receiver)).open <= 4)
        }
    }

    @Test func aFarEndThatClosesGetsANewConnectionAndEachRequestOnce() async throws {
        // Three answers say `Connection: close`; five more close without saying so, as a
        // server ending idle connections does: the next request finds the kept one closed (or
        // fails on it before any answer, and goes once more on a new one).
        try await Self.withReceiver({ _, index in
            .init(status: 201, connection: index < 3 ? .close : .dropSilently)
        }) { (receiver: WebhookReceiver) async throws in
            let client = Self.client()
            for _ in 0..<8 {
                #expect(try await Self.post(client, receiver.url) == 201)
                // The close may reach the client before or after its next request starts.
            }
            #expect(receiver.requests.count == 8, "each request received once")
            #expect(Set(receiver.requests.map(\.peerPort)).count == 8, "a connection each")
            try await receiver.wait(timeout: .seconds(60), "the last connection closed") { _ in
                client.kept.counts(Self.origin(receiver)).open == 0
            }
        }
    }

    @Test func aHostileOriginHoldsItsShareAndAHealthyOneIsServedBeside() async throws {
        var limits = KeptConnections.Limits()
        // Nothing here may time out on a machine that is slow for a while: the test ends it.
        (limits.perOrigin, limits.waiting, limits.wait) = (2, 3, .seconds(600))
        let client = Self.client(limits)
        try await Self.withReceiver({ _, _ in .init(status: 201, delay: .seconds(600), connection: .keep) }) {
            hostile in
            try await Self.withReceiver({ _, _ in .init(status: 201, connection: .keep) }) { healthy in
                async let held: [String] = withTaskGroup(of: String.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            do {
                                return "answered \(try await Self.post(client, hostile.url, timeout: .seconds(600)))"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                // Two requests hold the hostile origin's two connections, three wait, five are
                // refused at once; the healthy origin's requests go meanwhile.
                try await hostile.wait(timeout: .seconds(60), "two requests held, three waiting") {
                    $0.count == 2 && client.kept.counts(Self.origin(hostile)).waiting == 3
                }
                for _ in 0..<10 { #expect(try await Self.post(client, healthy.url) == 201) }
                #expect(client.kept.counts(Self.origin(hostile)) == (2, 0, 3))
                // The hostile origin goes away: its two requests fail, and the three waiting
                // fail with the connection that could not be opened in their place.
                await hostile.stop()
                let outcomes = await held
                #expect(outcomes.filter { $0.contains("already wait") }.count == 5, "\(outcomes)")
                #expect(outcomes.filter { $0.contains("closed before a response") }.count == 2, "\(outcomes)")
                #expect(outcomes.filter { $0.contains("cannot connect") }.count == 3, "\(outcomes)")
                #expect(hostile.requests.count == 2, "no third connection was opened")
                try await healthy.wait(timeout: .seconds(60), "the hostile origin's connections closed") { _ in
                    client.kept.counts(Self.origin(hostile)) == (0, 0, 0)
                }
            }
        }
    }

    /// The answer's deadline runs on the connection's loop: a far end that takes the request and
    /// never answers fails it with "timed out", and its connection is closed, not kept.
    @Test func anAnswerThatNeverComesTimesOutAndItsConnectionCloses() async throws {
        let client = Self.client()
        try await Self.withReceiver({ _, _ in .init(status: 201, delay: .seconds(600), connection: .keep) }) {
            silent in
            let started = NIODeadline.now()
            do {
                _ = try await Self.post(client, silent.url, timeout: .seconds(1))
                Issue.record("the request was answered")
            } catch {
                #expect("\(error)" == "timed out")
            }
            #expect(NIODeadline.now() - started >= .seconds(1), "not before its deadline")
            #expect(silent.requests.count == 1)
            try await silent.wait(timeout: .seconds(60), "the connection closed") { _ in
                client.kept.counts(Self.origin(silent)) == (0, 0, 0)
            }
        }
    }

    @Test func aRequestWaitsForAConnectionNoLongerThanTheLimit() async throws {
        var limits = KeptConnections.Limits()
        (limits.perOrigin, limits.wait) = (1, .milliseconds(300))
        let client = Self.client(limits)
        try await Self.withReceiver({ _, _ in .init(status: 201, delay: .seconds(600), connection: .keep) }) {
            hostile in
            let holding = Task { try? await Self.post(client, hostile.url, timeout: .seconds(600)) }
            try await hostile.wait(timeout: .seconds(60), "the first request") { $0.count == 1 }
            do {
                _ = try await Self.post(client, hostile.url)
                Issue.record("the second request was answered")
            } catch {
                #expect("\(error)" == "timed out")
            }
            #expect(client.kept.counts(Self.origin(hostile)).waiting == 0)
            holding.cancel()
            _ = await holding.value
        }
    }

    /// One timer per origin serves the whole queue: a request that joins later is not failed at
    /// an earlier one's deadline, and is failed at its own (timers never fire early, so the
    /// lower bounds below hold on a busy machine too).
    @Test func eachWaitingRequestGetsItsOwnWholeWait() async throws {
        var limits = KeptConnections.Limits()
        (limits.perOrigin, limits.wait) = (1, .seconds(2))
        let kept = KeptConnections(limits: limits)
        let (origin, loop) = ("http://127.0.0.1:9", MultiThreadedEventLoopGroup.singleton.next())
        let holding = try await kept.lease(origin, on: loop)
        func waiter() -> (joined: NIODeadline, outcome: Task<(String, NIODeadline), Never>) {
            let joined = NIODeadline.now()
            return (
                joined,
                Task {
                    do {
                        let lease = try await kept.lease(origin, on: loop)
                        kept.giveBack(lease, origin: origin)
                        return ("leased", .now())
                    } catch {
                        return ("\(error)", .now())
                    }
                }
            )
        }
        let early = waiter()
        try await Task.sleep(for: .seconds(1))
        let late = waiter()
        let (earlyOutcome, earlyEnded) = await early.outcome.value
        let (lateOutcome, lateEnded) = await late.outcome.value
        #expect(earlyOutcome == "timed out" && lateOutcome == "timed out")
        #expect(earlyEnded - early.joined >= limits.wait)
        #expect(lateEnded - late.joined >= limits.wait, "the later request waited its own whole wait")
        kept.giveBack(holding, origin: origin)
        #expect(kept.counts(origin) == (0, 0, 0))
    }

    @Test func anOriginThatCannotBeReachedFailsItsWaitersWithIt() async throws {
        let gone = try await WebhookReceiver.start()
        let (url, origin) = (gone.url, Self.origin(gone))
        await gone.stop()
        var limits = KeptConnections.Limits()
        limits.perOrigin = 1
        let client = Self.client(limits)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do { return "answered \(try await Self.post(client, url))" } catch { return "\(error)" }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.contains("cannot connect") }, "\(outcomes)")
        #expect(client.kept.counts(origin) == (0, 0, 0))
    }

    @Test func aPlaceTakenAndNotUsedPassesToTheNext() async throws {
        // A push message held for quiet hours gives its reserved place back unused.
        try await Self.withReceiver({ _, _ in .init(status: 201, connection: .keep) }) {
            (receiver: WebhookReceiver) async throws in
            var limits = KeptConnections.Limits()
            limits.perOrigin = 1
            let client = Self.client(limits)
            let first = try await client.reserve(url: receiver.url)
            let second = Task { try await client.reserve(url: receiver.url) }
            try await receiver.wait(timeout: .seconds(60), "the second in the queue") { _ in
                client.kept.counts(Self.origin(receiver)).waiting == 1
            }
            client.giveBack(first)
            let place = try await second.value
            let status = try await client.post(
                url: receiver.url, on: place, headers: [], body: Data("{}".utf8), timeout: .seconds(60)
            ).status
            #expect(status == 201 && receiver.requests.count == 1)
            // Kept and given back unused, it is there for the next.
            client.giveBack(try await client.reserve(url: receiver.url))
            #expect(try await Self.post(client, receiver.url) == 201)
            #expect(Set(receiver.requests.map(\.peerPort)).count == 1)
            let counts = client.kept.counts(Self.origin(receiver))
            #expect(counts.open == 1 && counts.idle == 1 && counts.waiting == 0)
        }
    }

    @Test func aWaitingRequestThatIsCancelledLeavesTheQueue() async throws {
        var limits = KeptConnections.Limits()
        limits.perOrigin = 1
        let client = Self.client(limits)
        try await Self.withReceiver({ _, _ in .init(status: 201, delay: .seconds(60), connection: .keep) }) { hostile in
            let holding = Task { try? await Self.post(client, hostile.url, timeout: .seconds(600)) }
            try await hostile.wait(timeout: .seconds(60), "the first request") { $0.count == 1 }
            let waiting = Task { () -> String in
                do { return "answered \(try await Self.post(client, hostile.url))" } catch { return "\(error)" }
            }
            try await hostile.wait(timeout: .seconds(60), "the second request in the queue") { _ in
                client.kept.counts(Self.origin(hostile)).waiting == 1
            }
            waiting.cancel()
            #expect(await waiting.value == "cancelled")
            #expect(client.kept.counts(Self.origin(hostile)).waiting == 0)
            holding.cancel()
            _ = await holding.value
        }
    }
}
