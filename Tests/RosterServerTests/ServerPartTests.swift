import Logging
import NIOConcurrencyHelpers
@testable import RosterServer
@testable import RosterServerCore
import RosterTestSupport
import ServiceLifecycle
import Testing

/// The server's parts as services: stopped in reverse order after a graceful shutdown, each
/// once, and a failed start undoes what it made.
@Suite(.timeLimit(.minutes(10))) struct ServerPartTests {
    /// Names in the order their parts stopped.
    final class StopLog: Sendable {
        private let names = NIOLockedValueBox<[String]>([])
        func add(_ name: String) { names.withLockedValue { $0.append(name) } }
        var all: [String] { names.withLockedValue { $0 } }
    }

    @Test func aGracefulShutdownStopsThePartsInReverseOrderEachOnce() async throws {
        let log = StopLog()
        // The outbox says when its work runs; awaited under the suite's limit, not a shorter
        // wait: at the run's start on two busy cores a task can wait a minute for a thread.
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let parts = [
            ServerPart("store", stop: { log.add("store") }),
            ServerPart(
                "outbox",
                work: {
                    startedSignal.yield()
                    try await Task.sleep(for: .seconds(3600))
                }, stop: { log.add("outbox") }),
            ServerPart.every(.seconds(3600), "periodic") {},
            ServerPart("connections", stop: { log.add("connections") }),
        ]
        var logger = Logger(label: "roster.test.parts")
        logger.logLevel = .error
        let group = ServiceGroup(
            configuration: .init(
                services: parts.map {
                    .init(
                        service: $0, successTerminationBehavior: .ignore,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: logger))
        let running = Task { try await group.run() }
        var outboxRuns = started.makeAsyncIterator()
        #expect(await outboxRuns.next() != nil)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(log.all == ["connections", "outbox", "store"])
        for part in parts { await part.stop() }
        #expect(log.all.count == 3, "stop runs once")
    }

    @Test func aFailedStartStopsWhatItMadeInReverseThenUndoes() async {
        let log = StopLog()
        var parts = StartedParts()
        parts.add(ServerPart("socket", stop: { log.add("socket") }))
        parts.onFailedStart { log.add("remove the new database") }
        parts.add(ServerPart("store", stop: { log.add("store") }))
        await parts.stopAll()
        #expect(log.all == ["store", "socket", "remove the new database"])
    }
}
