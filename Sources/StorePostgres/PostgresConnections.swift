import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import RosterStore

/// The shared store's connections to PostgreSQL: up to `limit` open at once, each lent to one
/// caller at a time, opened when one is needed and dropped once PostgreSQL has closed it.
///
/// Ours rather than PostgresNIO's `PostgresClient` pool: with PostgreSQL restarted under load,
/// that pool (1.33.2) was left with a connection attempt that never finished and then lent no
/// connection for minutes, so a node stopped acknowledging changes (MultiNodeTests' restart
/// test, CI). Here a connection attempt and a wait for a connection each have a deadline; what
/// runs out of time fails with `StoreUnavailable`, which the caller reports and retries.
final class PostgresConnections: Sendable {
    /// The store could not be reached or refused the statement; `description` says why.
    struct StoreUnavailable: Error, CustomStringConvertible {
        let description: String
    }

    private enum Next {
        case use(PostgresConnection)
        case open
        case wait
        case closed
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Idle, lent and being opened.
        var open = 0
        var waiters: [UInt64: CheckedContinuation<PostgresConnection?, Never>] = [:]
        /// Waiters whose deadline came before they were registered.
        var expired: Set<UInt64> = []
        var nextID: UInt64 = 0
        var closed = false
    }

    private let configuration: PostgresConnection.Configuration
    /// The server, as errors name it (no password).
    private let server: String
    private let limit: Int
    private let connectLimit: Duration
    private let waitLimit: Duration
    private let operationLimit: Duration
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(configuration: PostgresConnection.Configuration, server: String, limit: Int, connectLimit: Duration = .seconds(5),
         waitLimit: Duration = .seconds(10), operationLimit: Duration = .seconds(15), logger: Logger) {
        self.configuration = configuration
        self.server = server
        self.limit = limit
        self.connectLimit = connectLimit
        self.waitLimit = waitLimit
        self.operationLimit = operationLimit
        self.logger = logger
    }

    /// Lends a connection to `body` and takes it back afterwards (dropped if it was closed).
    /// PostgreSQL's errors come out with the server's message (PostgresNIO hides it).
    ///
    /// `body` has `operationLimit`, and a second once its connection has closed: PostgresNIO
    /// (1.33.2) can leave a statement waiting for ever on a connection PostgreSQL closed during a
    /// restart (seen under load in the restart test), and a node must not stop acknowledging
    /// changes for that. A body that runs out of time has its connection closed (PostgreSQL rolls back what it had not committed) and fails
    /// with `StoreUnavailable`: the outcome of a COMMIT already sent is then unknown, as with
    /// any lost connection, and the next commit's revision check settles it.
    func withConnection<Result: Sendable>(limit given: Duration? = nil,
                                          _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        let connection = try await lease()
        let limit = given ?? operationLimit
        return try await withCheckedThrowingContinuation { continuation in
            let pending = NIOLockedValueBox<CheckedContinuation<Result, any Error>?>(continuation)
            let take: @Sendable () -> CheckedContinuation<Result, any Error>? = {
                pending.withLockedValue { value in defer { value = nil }; return value }
            }
            let timer = Task {
                var started = ContinuousClock.now
                var closedAt: ContinuousClock.Instant?
                var asleepSince = started
                while true {
                    guard (try? await Task.sleep(for: .milliseconds(250))) != nil else { return }
                    let now = ContinuousClock.now
                    // Woken far later than asked: this process was not running (its threads busy
                    // or stopped), so PostgreSQL's answer may be waiting to be read. That time is
                    // not PostgreSQL's: the deadline moves by it.
                    let overslept = now - asleepSince - .milliseconds(250)
                    if overslept > .seconds(1) { started += overslept }
                    asleepSince = now
                    if closedAt == nil, connection.isClosed { closedAt = now }
                    let why: String
                    if let closedAt, now - closedAt >= .seconds(1) {
                        why = "PostgreSQL closed the connection"
                    } else if now - started >= limit {
                        why = "PostgreSQL did not answer within \(limit)"
                    } else {
                        continue
                    }
                    guard let waiting = take() else { return }
                    self.drop(connection)
                    waiting.resume(throwing: StoreUnavailable(description: why))
                    return
                }
            }
            Task {
                let result: Swift.Result<Result, any Error>
                do {
                    result = .success(try await body(connection))
                } catch let error as PSQLError {
                    result = .failure(StoreUnavailable(description: PostgresRosterStore.describe(error)))
                } catch {
                    result = .failure(error)
                }
                timer.cancel()
                guard let waiting = take() else { return }  // out of time: dropped already
                self.giveBack(connection)
                waiting.resume(with: result)
            }
        }
    }

    /// One transaction; an error thrown inside it comes out as itself (PostgresNIO wraps it).
    func withTransaction<Result: Sendable>(limit: Duration? = nil,
                                           _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        try await withConnection(limit: limit) { connection in
            do {
                return try await connection.withTransaction(logger: self.logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                if error.rollbackError != nil || error.commitError != nil { try? await connection.close() }
                throw error.closureError ?? error.beginError ?? error.commitError ?? error
            }
        }
    }

    /// A statement's rows, read to the end before the connection goes back.
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withConnection { connection in try await connection.query(query, logger: self.logger).collect() }
    }

    /// Closes the idle connections; those lent out close when they come back.
    func close() async {
        let (idle, waiters) = state.withLockedValue { state in
            state.closed = true
            defer { state.idle = []; state.waiters = [:] }
            return (state.idle, state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        for connection in idle { try? await connection.close() }
    }

    // MARK: Lending

    private func lease() async throws -> PostgresConnection {
        let deadline = ContinuousClock.now + waitLimit
        while true {
            let next = state.withLockedValue { state -> Next in
                if state.closed { return .closed }
                while let connection = state.idle.popLast() {
                    if !connection.isClosed { return .use(connection) }
                    state.open -= 1
                }
                guard state.open < limit else { return .wait }
                state.open += 1
                return .open
            }
            switch next {
            case .use(let connection):
                return connection
            case .closed:
                throw StoreUnavailable(description: "the store is closed")
            case .open:
                do {
                    return try await connect()
                } catch {
                    state.withLockedValue { $0.open -= 1 }
                    wakeOneWaiter()
                    throw error
                }
            case .wait:
                if let connection = await nextGivenBack(before: deadline) { return connection }
                guard ContinuousClock.now < deadline else {
                    throw StoreUnavailable(description: "no connection to PostgreSQL came free within \(waitLimit)")
                }
            }
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        enum Outcome { case handedOver(CheckedContinuation<PostgresConnection?, Never>), dropped(CheckedContinuation<PostgresConnection?, Never>?), kept, close }
        let outcome = state.withLockedValue { state -> Outcome in
            if state.closed { state.open -= 1; return .close }
            if connection.isClosed {
                state.open -= 1
                // The waiter can open a connection in its place.
                return .dropped(state.waiters.isEmpty ? nil : state.waiters.removeValue(forKey: state.waiters.keys.min()!))
            }
            if let first = state.waiters.keys.min() { return .handedOver(state.waiters.removeValue(forKey: first)!) }
            state.idle.append(connection)
            return .kept
        }
        switch outcome {
        case .handedOver(let waiter): waiter.resume(returning: connection)
        case .dropped(let waiter): waiter?.resume(returning: nil)
        case .kept: break
        case .close: Task { try? await connection.close() }
        }
    }

    /// Forgets a connection that may still look open, and closes it.
    private func drop(_ connection: PostgresConnection) {
        state.withLockedValue { $0.open -= 1 }
        wakeOneWaiter()
        Task { try? await connection.close() }
    }

    private func wakeOneWaiter() {
        let waiter = state.withLockedValue { state in
            state.waiters.keys.min().flatMap { state.waiters.removeValue(forKey: $0) }
        }
        waiter?.resume(returning: nil)
    }

    /// A connection handed over by `giveBack`, or nil when one may be opened now, the deadline
    /// passed, or the store closed: the caller looks again.
    private func nextGivenBack(before deadline: ContinuousClock.Instant) async -> PostgresConnection? {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task {
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            let waiter = self.state.withLockedValue { state -> CheckedContinuation<PostgresConnection?, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.expired.insert(id)
                return nil
            }
            waiter?.resume(returning: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let resumeNow = state.withLockedValue { state in
                if state.closed || state.expired.remove(id) != nil { return true }
                state.waiters[id] = continuation
                return false
            }
            if resumeNow { continuation.resume(returning: nil) }
        }
    }

    // MARK: Opening

    /// A new connection, or an error once `connectLimit` has passed; an attempt that finishes
    /// after that is closed.
    private func connect() async throws -> PostgresConnection {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return Int(truncatingIfNeeded: state.nextID)
        }
        let (configuration, logger, limit, server) = (self.configuration, self.logger, connectLimit, self.server)
        return try await withCheckedThrowingContinuation { continuation in
            let pending = NIOLockedValueBox<CheckedContinuation<PostgresConnection, any Error>?>(continuation)
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                pending.withLockedValue { value in defer { value = nil }; return value }?
                    .resume(throwing: StoreUnavailable(description: "could not connect to PostgreSQL at \(server) within \(limit)"))
            }
            Task {
                let result: Result<PostgresConnection, any Error>
                do {
                    result = .success(try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger))
                } catch {
                    result = .failure(StoreUnavailable(
                        description: "could not connect to PostgreSQL at \(server): \(PostgresRosterStore.describe(error))"))
                }
                timer.cancel()
                if let waiting = pending.withLockedValue({ value in defer { value = nil }; return value }) {
                    waiting.resume(with: result)
                } else if case .success(let late) = result {
                    try? await late.close()
                }
            }
        }
    }
}

extension Array where Element == PostgresRow {
    /// Every row's columns as `types`.
    func decode<each Column: PostgresDecodable>(_ types: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(types) }
    }
}
