import NIOConcurrencyHelpers
import ServiceLifecycle

/// One part of a running server, a `Service` of the server's `ServiceGroup`: `RosterServer.start`
/// makes the parts in order, and the group stops them in reverse order after a graceful shutdown
/// (the periodic work first, the store last). A part that fails to start has the parts made
/// before it stopped, in reverse, by `StartedParts.stopAll`.
///
/// A part either runs something until the graceful shutdown (`work`, cancelled then) or only
/// holds a resource; either way `stop` runs once, after it, also when the group is cancelled.
struct ServerPart: Service, CustomStringConvertible {
    let description: String
    private let work: (@Sendable () async throws -> Void)?
    private let stopping: @Sendable () async -> Void
    private let stopped = NIOLockedValueBox(false)

    /// - Parameters:
    ///   - work: what runs until the graceful shutdown; nil for a part that only holds something.
    ///   - stop: releases what the part holds; runs once.
    init(
        _ name: String, work: (@Sendable () async throws -> Void)? = nil,
        stop: @escaping @Sendable () async -> Void = {}
    ) {
        description = name
        self.work = work
        stopping = stop
    }

    /// A part that runs `body` every `interval` (the first time after one interval).
    static func every(_ interval: Duration, _ name: String, _ body: @escaping @Sendable () async -> Void) -> ServerPart
    {
        ServerPart(
            name,
            work: {
                while true {
                    try await Task.sleep(for: interval)
                    await body()
                }
            })
    }

    func run() async throws {
        do {
            if let work {
                try await cancelWhenGracefulShutdown(work)
            } else {
                try await gracefulShutdown()
            }
        } catch is CancellationError {
            // Cancelled at the graceful shutdown, or with the group: stopping is what follows.
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// Releases what the part holds, the first time it is called.
    func stop() async {
        guard
            stopped.withLockedValue({ value in
                defer { value = true }; return !value
            })
        else { return }
        await stopping()
    }
}

/// The parts made so far while a server starts, and what undoes a first start that failed.
struct StartedParts {
    private(set) var all: [ServerPart] = []
    private var onFailure: [@Sendable () -> Void] = []

    mutating func add(_ part: ServerPart) { all.append(part) }

    /// Runs only if the start fails, after the parts are stopped.
    mutating func onFailedStart(_ undo: @escaping @Sendable () -> Void) { onFailure.append(undo) }

    /// Stops every part made, in reverse order, then runs the failure cleanups.
    func stopAll() async {
        for part in all.reversed() { await part.stop() }
        for undo in onFailure.reversed() { undo() }
    }
}

/// Where a running server listens: what a caller that bound port 0 needs.
public struct ListeningAddresses: Sendable, Equatable {
    /// The protocol listener's port.
    public var port: Int
    /// The HTTP listener's port; nil without one.
    public var httpPort: Int?
}

/// Set once, when the server has started or failed to; awaited by whoever needs the ports.
final class StartOutcome: Sendable {
    private enum State {
        case waiting([CheckedContinuation<ListeningAddresses, any Error>])
        case done(Result<ListeningAddresses, any Error>)
    }

    private let state = NIOLockedValueBox(State.waiting([]))

    func settle(_ result: Result<ListeningAddresses, any Error>) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<ListeningAddresses, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    var value: ListeningAddresses {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled = state.withLockedValue { state -> Result<ListeningAddresses, any Error>? in
                    switch state {
                    case .waiting(let waiters):
                        state = .waiting(waiters + [continuation])
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }
}
