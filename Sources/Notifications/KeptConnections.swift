import NIOConcurrencyHelpers
import NIOCore

/// Connections kept open to each origin (scheme, host and port) for the requests that ask for it:
/// a handoff sends thousands of push messages to one push service, and opening and closing a TCP
/// (and TLS) connection for each was a third of the server's CPU (docs/PUSH.md, "Measured").
///
/// Bounded: at most `Limits.perOrigin` connections to an origin, counted from the moment one is
/// being opened until it is closed; a request that finds them all busy waits (first come, first
/// served) at most `Limits.wait`, and at most `Limits.waiting` requests wait per origin. An idle
/// connection is closed after `Limits.idle`, and one older than `Limits.lifetime` is not used
/// again, so the host is resolved and its address checked against the policy anew. When opening a
/// connection fails, the requests waiting for that origin fail with it (they are retried with
/// back-off) rather than each waiting to fail in turn.
final class KeptConnections: Sendable {
    struct Limits: Sendable {
        var perOrigin = 64
        var waiting = 10_000
        var wait: TimeAmount = .seconds(60)
        var idle: TimeAmount = .seconds(30)
        var lifetime: TimeAmount = .minutes(5)
    }

    /// An open connection with its exchange handler in the pipeline.
    final class Connection: Sendable {
        let channel: any Channel
        let opened: NIODeadline
        let origin: String

        init(channel: any Channel, origin: String) {
            (self.channel, self.origin, opened) = (channel, origin, .now())
        }
    }

    /// What a request gets: an idle connection, or leave to open one (already counted).
    enum Lease: Sendable {
        case kept(Connection)
        case open
    }

    private typealias Waiter = CheckedContinuation<Lease, any Error>

    private struct Origin {
        var idle: [Connection] = []
        /// Connections open or being opened.
        var counted = 0
        /// First come, first served: each with the instant it stops waiting.
        var waiting = CircularBuffer<(id: UInt64, waiter: Waiter, until: NIODeadline)>()
        /// A timer is set for the first waiting's deadline (one per origin, not one per request:
        /// a handoff queues thousands, and each timer set from off the loop woke the loop).
        /// The timer's id: one left from an entry forgotten and made anew stops when it fires.
        var timer: UInt64?
        var unused: Bool { counted == 0 && idle.isEmpty && waiting.isEmpty }
    }

    private struct State {
        var origins: [String: Origin] = [:]
        var nextID: UInt64 = 0
        /// Requests cancelled before they joined the queue.
        var cancelled: Set<UInt64> = []
    }

    let limits: Limits
    private let state = NIOLockedValueBox(State())

    init(limits: Limits = Limits()) { self.limits = limits }

    /// Changes `origin`'s entry in place (a copy of it would copy its queue on every change),
    /// and forgets the entry once nothing is left in it.
    private func change<R>(_ origin: String, in state: inout State, _ body: (inout Origin) -> R) -> R {
        let result = body(&state.origins[origin, default: Origin()])
        if state.origins[origin]?.unused == true { state.origins[origin] = nil }
        return result
    }

    /// Connections open or being opened to `origin`, and requests waiting for one (for tests).
    func counts(_ origin: String) -> (open: Int, idle: Int, waiting: Int) {
        state.withLockedValue { state in
            let found = state.origins[origin] ?? Origin()
            return (found.counted, found.idle.count, found.waiting.count)
        }
    }

    /// An idle connection to `origin`, else leave to open one, else a place in the queue; fails
    /// with `WebhookClient.Failure.timedOut` after `limits.wait`, or at once when the queue is full.
    func lease(_ origin: String, on loop: any EventLoop) async throws -> Lease {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        // A cancellation that comes after the lease was given leaves its mark: taken off here.
        defer { state.withLockedValue { _ = $0.cancelled.remove(id) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                enum Now {
                    case leased(Lease)
                    case failed(any Error)
                    case queued(setTimer: NIODeadline?)
                }
                let now: Now = state.withLockedValue { state in
                    if state.cancelled.remove(id) != nil { return .failed(CancellationError()) }
                    return change(origin, in: &state) { found in
                        // The most recently used first: a burst's connections stay warm, the rest age out.
                        while let connection = found.idle.popLast() {
                            if connection.channel.isActive { return .leased(.kept(connection)) }
                        }
                        if found.counted < limits.perOrigin {
                            found.counted += 1
                            return .leased(.open)
                        }
                        guard found.waiting.count < limits.waiting else {
                            return .failed(
                                WebhookClient.Failure.connection(
                                    "\(limits.waiting) requests already wait for a connection to \(origin)"))
                        }
                        let until = NIODeadline.now() + limits.wait
                        found.waiting.append((id, waiter, until))
                        guard found.timer == nil else { return .queued(setTimer: nil) }
                        found.timer = id
                        return .queued(setTimer: until)
                    }
                }
                switch now {
                case .leased(let lease): waiter.resume(returning: lease)
                case .failed(let error): waiter.resume(throwing: error)
                case .queued(let timer):
                    if let timer { setTimer(origin, id: id, at: timer, on: loop) }
                }
            }
        } onCancel: {
            if !leave(origin, id: id, failure: CancellationError()) {
                state.withLockedValue { _ = $0.cancelled.insert(id) }
            }
        }
    }

    /// At `deadline`, fails the requests that have waited their whole wait, and sets the timer
    /// again for the first still waiting.
    private func setTimer(_ origin: String, id: UInt64, at deadline: NIODeadline, on loop: any EventLoop) {
        loop.scheduleTask(deadline: deadline) {
            let now = NIODeadline.now()
            let (expired, next): ([Waiter], NIODeadline?) = self.state.withLockedValue { state in
                guard state.origins[origin]?.timer == id else { return ([], nil) }
                return self.change(origin, in: &state) { found in
                    var expired: [Waiter] = []
                    while let first = found.waiting.first, first.until <= now {
                        expired.append(found.waiting.removeFirst().waiter)
                    }
                    found.timer = found.waiting.isEmpty ? nil : id
                    return (expired, found.waiting.first?.until)
                }
            }
            for waiter in expired { waiter.resume(throwing: WebhookClient.Failure.timedOut) }
            if let next { self.setTimer(origin, id: id, at: next, on: loop) }
        }
    }

    /// Takes a waiting request out of the queue and fails it; false when it was not there.
    @discardableResult
    private func leave(_ origin: String, id: UInt64, failure: any Error) -> Bool {
        let waiter: Waiter? = state.withLockedValue { state in
            guard state.origins[origin] != nil else { return nil }
            return change(origin, in: &state) { found in
                found.waiting.firstIndex(where: { $0.id == id }).map { found.waiting.remove(at: $0).waiter }
            }
        }
        waiter?.resume(throwing: failure)
        return waiter != nil
    }

    /// A connection opened under a lease: closing it, however that happens, uncounts it.
    func opened(_ channel: any Channel, origin: String) -> Connection {
        let connection = Connection(channel: channel, origin: origin)
        channel.closeFuture.whenComplete { _ in self.closed(connection) }
        return connection
    }

    /// Opening a connection failed: its place is free, and those waiting fail with `error`.
    func openFailed(_ origin: String, error: any Error) {
        let failing: [Waiter] = state.withLockedValue { state in
            change(origin, in: &state) { found in
                found.counted -= 1
                defer { found.waiting.removeAll() }
                return found.waiting.map(\.waiter)
            }
        }
        for waiter in failing { waiter.resume(throwing: error) }
    }

    /// A request is done with `connection`: kept for the next (the first waiting gets it at
    /// once), or closed when the answer said so, it is too old, or it failed.
    func release(_ connection: Connection, reusable: Bool) {
        guard reusable, connection.channel.isActive, NIODeadline.now() - connection.opened < limits.lifetime else {
            connection.channel.close(promise: nil)
            return
        }
        let next: Waiter? = state.withLockedValue { state in
            change(connection.origin, in: &state) { found in
                if found.waiting.isEmpty {
                    found.idle.append(connection)
                    return nil
                }
                return found.waiting.removeFirst().waiter
            }
        }
        next?.resume(returning: .kept(connection))
    }

    /// A lease not used: a kept connection goes back, leave to open one passes to the next.
    func giveBack(_ lease: Lease, origin: String) {
        switch lease {
        case .kept(let connection): release(connection, reusable: true)
        case .open: vacate(origin, connection: nil)
        }
    }

    private func closed(_ connection: Connection) { vacate(connection.origin, connection: connection) }

    /// A place at `origin` is free (`connection` closed, or leave to open one was not used): the
    /// first waiting may open a connection in it.
    private func vacate(_ origin: String, connection: Connection?) {
        let next: Waiter? = state.withLockedValue { state in
            change(origin, in: &state) { found in
                if let connection { found.idle.removeAll { $0 === connection } }
                found.counted -= 1
                guard !found.waiting.isEmpty else { return nil }
                found.counted += 1
                return found.waiting.removeFirst().waiter
            }
        }
        next?.resume(returning: .open)
    }
}
