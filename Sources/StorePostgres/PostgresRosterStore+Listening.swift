import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterStore

// Listening: the connection on which a node hears the others' commits.

extension PostgresRosterStore {
    /// Keeps a LISTEN connection open while `keepGoing()`, reconnecting with a growing pause;
    /// after every (re)connection it yields `.resync`, since announcements made meanwhile are
    /// lost. Runs on the listener's own thread (every wait is at most a quarter second, so
    /// closing the store ends it promptly).
    static func listen(
        _ parameters: [(String, String)], logger: Logger, into continuation: AsyncStream<StoreSignal>.Continuation,
        keepGoing: () -> Bool
    ) {
        var pause = Duration.milliseconds(100)
        while keepGoing() {
            do {
                let connection = try LibPQConnection.connect(parameters, deadline: .now + .seconds(5))
                defer { connection.close() }
                try connection.execute("LISTEN \(channel)", until: .now + .seconds(15))
                pause = .milliseconds(100)
                continuation.yield(.resync)
                while keepGoing() {
                    for payload in try connection.notifications(until: .now + .milliseconds(250)) {
                        if let signal = StoreSignal(payload: payload) { continuation.yield(signal) }
                    }
                }
                return
            } catch {
                if !keepGoing() { return }
                logger.warning("the store's listening connection failed (\(Self.describe(error))); reconnecting")
            }
            var slept = Duration.zero
            while slept < pause, keepGoing() {
                Thread.sleep(forTimeInterval: 0.05)
                slept += .milliseconds(50)
            }
            pause = min(pause * 2, .seconds(2))
        }
    }
}
