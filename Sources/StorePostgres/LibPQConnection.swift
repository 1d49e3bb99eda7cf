import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection through libpq, driven in its non-blocking mode: every wait is a poll(2) on the
/// connection's socket that ends at a deadline, so a PostgreSQL that stops answering costs a
/// thread at most that long. The calls block their thread: they run on the store's own threads,
/// never on the cooperative pool. One caller at a time (the pool lends a connection to one).
final class LibPQConnection: @unchecked Sendable {
    /// The connection could not be made, or broke; `description` is libpq's message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The deadline passed before PostgreSQL answered. The connection is closed by then.
    struct Timeout: Error {}

    /// PostgreSQL refused the statement: its SQLSTATE and message.
    struct ServerError: Error, CustomStringConvertible {
        let sqlState: String
        let message: String

        var description: String { "PostgreSQL: \(message)" }
    }

    private var handle: OpaquePointer?

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Connects with libpq's connection keywords (host, port, dbname, user, password, sslmode …).
    static func connect(_ parameters: [(String, String)], deadline: ContinuousClock.Instant) throws -> LibPQConnection {
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let started = keywords.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { keywords in
            values.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
                PQconnectStartParams(keywords.baseAddress, values.baseAddress, 0)
            }
        }
        guard let started else { throw Failure(description: "out of memory") }
        let connection = LibPQConnection(handle: started)
        guard PQstatus(started) != CONNECTION_BAD else { throw connection.fail() }
        // libpq's documented loop: wait for what PQconnectPoll asks for, then call it again.
        var status = PGRES_POLLING_WRITING
        while status != PGRES_POLLING_OK {
            switch status {
            case PGRES_POLLING_READING: try connection.wait(for: Int16(POLLIN), until: deadline)
            case PGRES_POLLING_WRITING: try connection.wait(for: Int16(POLLOUT), until: deadline)
            case PGRES_POLLING_FAILED: throw connection.fail()
            default: break
            }
            status = PQconnectPoll(started)
        }
        guard PQsetnonblocking(started, 1) == 0 else { throw connection.fail() }
        // libpq prints the server's notices on stderr ("relation … already exists, skipping"):
        // nothing the store acts on, and not for a node's log.
        PQsetNoticeProcessor(started, { _, _ in }, nil)
        return connection
    }

    /// True once the connection broke or was closed: it is not lent again.
    var isClosed: Bool {
        guard let handle else { return true }
        return PQstatus(handle) == CONNECTION_BAD
    }

    /// Closes the connection (PostgreSQL rolls back an open transaction).
    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Runs one statement and returns its rows (in binary format).
    func run(_ query: PostgresQuery, until deadline: ContinuousClock.Instant) throws -> PostgresRows {
        guard let handle else { throw Failure(description: "the connection is closed") }
        let binds = query.binds.values
        let types = binds.map { $0.type }
        let lengths = binds.map { Int32($0.bytes?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: binds.count)
        let buffers: [UnsafeMutablePointer<CChar>?] = binds.map { bind -> UnsafeMutablePointer<CChar>? in
            guard let bytes = bind.bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: source.count)
                }
            }
            return buffer
        }
        defer { buffers.forEach { $0?.deallocate() } }
        let sent = buffers.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { values in
            PQsendQueryParams(handle, query.sql, Int32(binds.count), types, values.baseAddress, lengths, formats, 1)
        }
        guard sent == 1 else { throw fail() }
        return try collect(until: deadline)
    }

    /// Runs SQL without parameters or rows (BEGIN, COMMIT, LISTEN …).
    func execute(_ sql: String, until deadline: ContinuousClock.Instant) throws {
        guard let handle else { throw Failure(description: "the connection is closed") }
        guard PQsendQuery(handle, sql) == 1 else { throw fail() }
        _ = try collect(until: deadline)
    }

    /// The payloads of notifications on channels this connection LISTENs on, waiting until
    /// `deadline` for the first one; none when the deadline passes first.
    func notifications(until deadline: ContinuousClock.Instant) throws -> [String] {
        guard let handle else { throw Failure(description: "the connection is closed") }
        var payloads = takeNotifications()
        guard payloads.isEmpty else { return payloads }
        do {
            try wait(for: Int16(POLLIN), until: deadline, closingOnTimeout: false)
        } catch is Timeout {
            return []
        }
        guard PQconsumeInput(handle) == 1 else { throw fail() }
        payloads = takeNotifications()
        return payloads
    }

    // MARK: Internals

    private func takeNotifications() -> [String] {
        var payloads: [String] = []
        while let handle, let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Sends what libpq holds, reads every result of the statement, and returns the rows of the
    /// last one; PostgreSQL's error, if it sent one, after the statement is done.
    private func collect(until deadline: ContinuousClock.Instant) throws -> PostgresRows {
        guard let handle else { throw Failure(description: "the connection is closed") }
        // Non-blocking mode: libpq may hold part of the statement until the socket takes it.
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            guard flushed == 1 else { throw fail() }
            try wait(for: Int16(POLLOUT | POLLIN), until: deadline)
            guard PQconsumeInput(handle) == 1 else { throw fail() }
        }
        var rows = PostgresRows()
        var refused: ServerError?
        while true {
            while PQisBusy(handle) == 1 {
                try wait(for: Int16(POLLIN), until: deadline)
                guard PQconsumeInput(handle) == 1 else { throw fail() }
            }
            guard let result = PQgetResult(handle) else { break }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            switch status {
            case PGRES_TUPLES_OK: rows = Self.rows(of: result)
            case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: break
            default:
                let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
                let message =
                    PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                    ?? String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
                refused = refused ?? ServerError(sqlState: state, message: message)
            }
        }
        if PQstatus(handle) == CONNECTION_BAD { throw fail() }
        if let refused { throw refused }
        return rows
    }

    private static func rows(of result: OpaquePointer) -> PostgresRows {
        let count = Int(PQntuples(result)), columns = Int(PQnfields(result))
        var rows = PostgresRows()
        rows.types = (0..<columns).map { PQftype(result, Int32($0)) }
        rows.cells.reserveCapacity(count * columns)
        for row in 0..<Int32(count) {
            for column in 0..<Int32(columns) {
                if PQgetisnull(result, row, column) == 1 {
                    rows.cells.append(nil)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let start = rows.bytes.count
                if length > 0, let value = PQgetvalue(result, row, column) {
                    value.withMemoryRebound(to: UInt8.self, capacity: length) {
                        rows.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                    }
                }
                rows.cells.append(start..<start + length)
            }
        }
        return rows
    }

    /// Waits until the socket is ready for `events` or `deadline` passes. Ready data wins over a
    /// passed deadline: a process that was not running (stopped, starved of CPU) reads the answer
    /// that arrived meanwhile instead of giving up on it. Out of time, the connection is closed.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, closingOnTimeout: Bool = true) throws
    {
        guard let handle else { throw Failure(description: "the connection is closed") }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw fail() }
        while true {
            let left = deadline - .now
            let milliseconds =
                left <= .zero
                ? 0
                : Int32(
                    min(
                        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1,
                        Int64(Int32.max)))
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw Failure(description: "poll: \(String(cString: strerror(errno)))") }
            if ready == 0, left <= .zero {
                if closingOnTimeout { close() }
                throw Timeout()
            }
        }
    }

    /// libpq's message for the last failure, as an error.
    private func fail() -> Failure {
        guard let handle else { return Failure(description: "the connection is closed") }
        let message = String(cString: PQerrorMessage(handle))
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return Failure(description: message.isEmpty ? "the connection failed" : message)
    }
}
