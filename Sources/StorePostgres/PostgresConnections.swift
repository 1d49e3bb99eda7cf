import NIOConcurrencyHelpers
import NIOPosix
import RosterStore

/// A connection lent to one caller, with the deadline of what the caller does on it. Its
/// statements run one at a time on the store's threads.
struct PostgresConnection: Sendable {
    fileprivate let wire: LibPQConnection
    fileprivate let threads: NIOThreadPool
    fileprivate let deadline: ContinuousClock.Instant
    fileprivate let limit: Duration

    /// Runs one statement; its rows, read to the end.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRows {
        let (wire, deadline) = (self.wire, self.deadline)
        return try await run { try wire.run(query, until: deadline) }
    }

    /// Runs SQL that takes no parameters and returns no rows (BEGIN, COMMIT, LISTEN).
    func execute(_ sql: String) async throws {
        let (wire, deadline) = (self.wire, self.deadline)
        try await run { try wire.execute(sql, until: deadline) }
    }

    var isClosed: Bool { wire.isClosed }

    private func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        do {
            return try await threads.runIfActive(body)
        } catch is LibPQConnection.Timeout {
            throw PostgresConnections.StoreUnavailable(description: "PostgreSQL did not answer within \(limit)")
        } catch let error as LibPQConnection.Failure {
            throw PostgresConnections.StoreUnavailable(description: "PostgreSQL: \(error.description)")
        }
    }
}

/// The shared store's connections to PostgreSQL: up to `limit` open at once, each lent to one
/// caller at a time, opened when one is needed and dropped once PostgreSQL has closed it.
///
/// A connection attempt, a wait for a connection and what a caller does on one each have a
/// deadline; what runs out of time fails with `StoreUnavailable`, which the caller reports and
/// retries. libpq blocks its thread, so the statements run on threads of their own (as many as
/// connections), never on the cooperative pool.
final class PostgresConnections: Sendable {
    /// The store could not be reached or refused the statement; `description` says why.
    struct StoreUnavailable: Error, CustomStringConvertible {
        let description: String
        /// The database did not answer in time (busy or still starting), rather than refusing.
        var timedOut = false
    }

    private enum Next {
        case use(LibPQConnection)
        case open
        case wait
        case closed
    }

    private struct State {
        var idle: [LibPQConnection] = []
        /// Idle, lent and being opened.
        var open = 0
        var waiters: [UInt64: CheckedContinuation<LibPQConnection?, Never>] = [:]
        /// Waiters whose deadline came before they were registered.
        var expired: Set<UInt64> = []
        var nextID: UInt64 = 0
        var closed = false
    }

    private let parameters: [(String, String)]
    /// The server, as errors name it (no password).
    private let server: String
    private let limit: Int
    private let connectLimit: Duration
    private let waitLimit: Duration
    private let operationLimit: Duration
    private let threads: NIOThreadPool
    private let state = NIOLockedValueBox(State())

    init(
        parameters: [(String, String)], server: String, limit: Int, connectLimit: Duration = .seconds(5),
        waitLimit: Duration = .seconds(10), operationLimit: Duration = .seconds(15)
    ) {
        self.parameters = parameters
        self.server = server
        self.limit = limit
        self.connectLimit = connectLimit
        self.waitLimit = waitLimit
        self.operationLimit = operationLimit
        threads = NIOThreadPool(numberOfThreads: limit)
        threads.start()
    }

    /// Lends a connection to `body` and takes it back afterwards (dropped if it was closed).
    /// Everything `body` does on it must finish within `operationLimit` (or `given`): a statement
    /// still waiting then has its connection closed (PostgreSQL rolls back what it had not
    /// committed) and fails with `StoreUnavailable`. The outcome of a COMMIT already sent is
    /// then unknown, as with any lost connection; the next commit's revision check settles it.
    func withConnection<Result: Sendable>(
        limit given: Duration? = nil,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let limit = given ?? operationLimit
        let wire = try await lease()
        // From the moment the caller has a connection: opening one has a limit of its own.
        let deadline = ContinuousClock.now + limit
        let connection = PostgresConnection(wire: wire, threads: threads, deadline: deadline, limit: limit)
        do {
            let result = try await body(connection)
            giveBack(wire)
            return result
        } catch let error as LibPQConnection.ServerError {
            giveBack(wire)
            throw StoreUnavailable(description: error.description)
        } catch {
            giveBack(wire)
            throw error
        }
    }

    /// One transaction; an error thrown inside it comes out as itself, after a rollback.
    func withTransaction<Result: Sendable>(
        limit: Duration? = nil,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection(limit: limit) { connection in
            try await connection.execute("BEGIN")
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                if !connection.isClosed {
                    do { try await connection.execute("ROLLBACK") } catch { connection.wire.close() }
                }
                throw error
            }
            try await connection.execute("COMMIT")
            return result
        }
    }

    /// A statement's rows, on a connection of its own.
    func query(_ query: PostgresQuery) async throws -> PostgresRows {
        try await withConnection { connection in try await connection.query(query) }
    }

    /// Closes the idle connections; those lent out close when they come back.
    func close() async {
        let (idle, waiters) = state.withLockedValue { state in
            state.closed = true
            defer { state.idle = []; state.waiters = [:] }
            return (state.idle, state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        for connection in idle { connection.close() }
        try? await threads.shutdownGracefully()
    }

    // MARK: Lending

    private func lease() async throws -> LibPQConnection {
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

    private func giveBack(_ connection: LibPQConnection) {
        enum Outcome {
            case handedOver(CheckedContinuation<LibPQConnection?, Never>), dropped(
                CheckedContinuation<LibPQConnection?, Never>?), kept, close
        }
        let outcome = state.withLockedValue { state -> Outcome in
            if state.closed { state.open -= 1; return .close }
            if connection.isClosed {
                state.open -= 1
                // The waiter can open a connection in its place.
                return .dropped(
                    state.waiters.isEmpty ? nil : state.waiters.removeValue(forKey: state.waiters.keys.min()!))
            }
            if let first = state.waiters.keys.min() { return .handedOver(state.waiters.removeValue(forKey: first)!) }
            state.idle.append(connection)
            return .kept
        }
        switch outcome {
        case .handedOver(let waiter): waiter.resume(returning: connection)
        case .dropped(let waiter): waiter?.resume(returning: nil)
        case .kept: break
        case .close: connection.close()
        }
    }

    private func wakeOneWaiter() {
        let waiter = state.withLockedValue { state in
            state.waiters.keys.min().flatMap { state.waiters.removeValue(forKey: $0) }
        }
        waiter?.resume(returning: nil)
    }

    /// A connection handed over by `giveBack`, or nil when one may be opened now, the deadline
    /// passed, or the store closed: the caller looks again.
    private func nextGivenBack(before deadline: ContinuousClock.Instant) async -> LibPQConnection? {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task {
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            let waiter = self.state.withLockedValue { state -> CheckedContinuation<LibPQConnection?, Never>? in
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

    /// A new connection, or an error once `connectLimit` has passed.
    private func connect() async throws -> LibPQConnection {
        let (parameters, limit, server) = (self.parameters, connectLimit, self.server)
        let deadline = ContinuousClock.now + limit
        do {
            return try await threads.runIfActive { try LibPQConnection.connect(parameters, deadline: deadline) }
        } catch is LibPQConnection.Timeout {
            throw StoreUnavailable(
                description: "could not connect to PostgreSQL at \(server) within \(limit)", timedOut: true)
        } catch {
            throw StoreUnavailable(description: "could not connect to PostgreSQL at \(server): \(error)")
        }
    }
}
