import Foundation
import Logging
import PostgresNIO
import RosterDomain
import RosterProtocol
import RosterStore

/// The shared store: one PostgreSQL database that several roster-server nodes write through.
///
/// A commit is one transaction that locks the tenant's row, checks that the tenant is at the
/// revision before the new one, applies the changes, appends the history entry, the audit
/// entry and the outbox rows, and announces `c:TENANT:REVISION` on the `roster` channel; the
/// announcement reaches the other nodes only once the transaction has committed, in commit
/// order. Every node listens on a connection of its own (`signals`).
public final class PostgresRosterStore: RosterStore, Sendable {
    static let channel = "roster"

    let connections: PostgresConnections
    let logger: Logger
    private let listener: Task<Void, Never>
    private let signalStream: AsyncStream<StoreSignal>
    let address: PostgresAddress

    private init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
        connections = PostgresConnections(configuration: Self.connectionConfiguration(address), server: address.description,
                                          limit: 8, logger: logger)
        let (stream, continuation) = AsyncStream<StoreSignal>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        signalStream = stream
        listener = Task { await Self.listen(address, logger: logger, into: continuation) }
    }

    /// Connects, migrates the schema to this build's (under an advisory lock, so nodes starting
    /// together take turns) and refuses a schema newer than it.
    public static func open(_ address: PostgresAddress, logger: Logger = Logger(label: "roster.postgres")) async throws
        -> PostgresRosterStore
    {
        let store = PostgresRosterStore(address: address, logger: logger)
        do {
            try await store.migrate()
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    public var signals: AsyncStream<StoreSignal>? { signalStream }

    private static func connectionConfiguration(_ address: PostgresAddress) -> PostgresConnection.Configuration {
        if let socket = address.socketPath {
            return .init(unixSocketPath: socket, username: address.user, password: address.password, database: address.database)
        }
        return .init(host: address.host, port: address.port, username: address.user, password: address.password,
                     database: address.database, tls: .disable)
    }

    /// One transaction; an error thrown inside it comes out as itself.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await connections.withTransaction(body)
    }

    // MARK: Listening

    /// Keeps a LISTEN connection open, reconnecting with a growing pause; after every
    /// (re)connection it yields `.resync`, since announcements made meanwhile are lost.
    private static func listen(_ address: PostgresAddress, logger: Logger, into continuation: AsyncStream<StoreSignal>.Continuation) async {
        var pause = Duration.milliseconds(100)
        var connectionID = 1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: connectionConfiguration(address),
                                                                      id: connectionID, logger: logger)
                connectionID += 1
                do {
                    try await connection.listen(on: channel) { notifications in
                        pause = .milliseconds(100)
                        continuation.yield(.resync)
                        for try await notification in notifications {
                            if let signal = StoreSignal(payload: notification.payload) { continuation.yield(signal) }
                        }
                    }
                    try? await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning("the store's listening connection failed (\(Self.describe(error))); reconnecting")
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
        }
        continuation.finish()
    }

    // MARK: Tenants and changes

    public func loadTenants() async throws -> [StoredTenant] {
        try await connections.withConnection { connection in
            var tenants: [StoredTenant] = []
            let rows = try await connection.query("SELECT id, name, motd, epoch, revision FROM tenant ORDER BY id", logger: self.logger)
            var heads: [(String, String, String, Int64, Int64)] = []
            for try await row in rows.decode((String, String, String, Int64, Int64).self) { heads.append(row) }
            for (id, name, motd, epoch, revision) in heads {
                var employees: [Employee] = []
                for try await row in try await connection.query("""
                    SELECT id, first_name, last_name, email, phone, position, team, projects, biography, photo_url, type
                    FROM employee WHERE tenant_id = \(id)
                    """, logger: self.logger).decode((String, String, String, String, String, String, String, String, String, String, String).self) {
                    let projects = (try? JSONDecoder().decode([String].self, from: Data(row.7.utf8))) ?? []
                    employees.append(Employee(id: row.0, firstName: row.1, lastName: row.2, email: row.3, phone: row.4, position: row.5,
                                              team: row.6, projects: projects, biography: row.8, photoURL: row.9,
                                              type: EmployeeType(rawValue: row.10) ?? .unspecified))
                }
                var shifts: [Shift] = []
                for try await row in try await connection.query("""
                    SELECT id, employee_id, start_ms, end_ms, role, schedule_id FROM shift WHERE tenant_id = \(id)
                    """, logger: self.logger).decode((String, String, Int64, Int64, String, String).self) {
                    shifts.append(Shift(id: row.0, employeeID: row.1, start: row.2, end: row.3, role: row.4, scheduleID: row.5))
                }
                var schedules: [ScheduleDefinition] = []
                for try await body in try await connection.query("SELECT definition FROM schedule WHERE tenant_id = \(id)",
                                                                  logger: self.logger).decode(Data.self) {
                    schedules.append(ScheduleDefinition(try Roster_V1_Schedule(serializedBytes: body)))
                }
                let history = try await Self.history(tenantID: id, after: 0, connection: connection, logger: self.logger)
                let state = RosterState(tenant: Tenant(id: id, name: name, motd: motd), employees: employees, shifts: shifts,
                                        schedules: schedules)
                tenants.append(StoredTenant(state: state, epoch: UInt64(bitPattern: epoch), revision: UInt64(revision), history: history))
            }
            return tenants
        }
    }

    public func createTenant(_ tenant: Tenant, epoch: UInt64) async throws {
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO tenant (id, name, motd, epoch, revision) VALUES (\(tenant.id), \(tenant.name), \(tenant.motd), \(Int64(bitPattern: epoch)), 0)
                """, logger: self.logger)
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')", logger: self.logger)
        }
    }

    public func commit(tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
                       outbox: OutboxWrite) async throws {
        let body = try Roster_V1_RosterChanged.with {
            $0.revision = entry.revision
            $0.committedAtMs = entry.committedAt
            $0.changes = entry.changes.map(Roster_V1_Change.init)
        }.serializedBytes() as Data
        let auditBody = try audit.map { try $0.serializedBytes() as Data }
        try await transaction { connection in
            // The row lock orders concurrent commits to one tenant across nodes.
            let rows = try await connection.query("SELECT revision FROM tenant WHERE id = \(tenantID) FOR UPDATE", logger: self.logger)
            var stored: Int64?
            for try await revision in rows.decode(Int64.self) { stored = revision }
            guard let stored else { throw StoreError.noSuchTenant(tenantID) }
            guard UInt64(stored) == entry.revision - 1 else {
                throw StoreError.revisionConflict(tenant: tenantID, stored: UInt64(stored), expected: entry.revision - 1)
            }
            for change in entry.changes { try await Self.apply(change, tenantID: tenantID, connection: connection, logger: self.logger) }
            let revision = Int64(entry.revision)
            try await connection.query("UPDATE tenant SET revision = \(revision) WHERE id = \(tenantID)", logger: self.logger)
            try await connection.query("""
                INSERT INTO change_log (tenant_id, revision, committed_at_ms, changes) VALUES (\(tenantID), \(revision), \(entry.committedAt), \(body))
                """, logger: self.logger)
            try await connection.query("DELETE FROM change_log WHERE tenant_id = \(tenantID) AND revision <= \(revision - Int64(historyLimit))",
                                       logger: self.logger)
            if let audit, let auditBody {
                try await connection.query("""
                    INSERT INTO audit (tenant_id, at_ms, kind, entry) VALUES (\(tenantID), \(audit.atMs), \(audit.kind), \(auditBody))
                    """, logger: self.logger)
            }
            try await Self.writeOutbox(outbox, tenantID: tenantID, connection: connection, logger: self.logger)
            // Delivered to the listening nodes when (and only if) this transaction commits.
            try await connection.query("SELECT pg_notify(\(Self.channel), \("c:\(entry.revision):\(tenantID)"))", logger: self.logger)
        }
    }

    public func history(tenantID: String, after revision: UInt64) async throws -> [HistoryEntry] {
        try await connections.withConnection { connection in
            try await Self.history(tenantID: tenantID, after: revision, connection: connection, logger: self.logger)
        }
    }

    private static func history(tenantID: String, after revision: UInt64, connection: PostgresConnection, logger: Logger) async throws
        -> [HistoryEntry]
    {
        var entries: [HistoryEntry] = []
        for try await (revision, committedAt, body) in try await connection.query("""
            SELECT revision, committed_at_ms, changes FROM change_log WHERE tenant_id = \(tenantID) AND revision > \(Int64(revision))
            ORDER BY revision
            """, logger: logger).decode((Int64, Int64, Data).self) {
            let wire = try Roster_V1_RosterChanged(serializedBytes: body)
            entries.append(HistoryEntry(revision: UInt64(revision), committedAt: committedAt,
                                        changes: wire.changes.compactMap(RosterChange.init)))
        }
        return entries
    }

    public func revisions() async throws -> [String: UInt64] {
        var revisions: [String: UInt64] = [:]
        for (id, revision) in try await connections.query("SELECT id, revision FROM tenant").decode((String, Int64).self) {
            revisions[id] = UInt64(revision)
        }
        return revisions
    }

    public func tenantIDs() async throws -> [String] {
        var ids: [String] = []
        for id in try await connections.query("SELECT id FROM tenant ORDER BY id").decode(String.self) { ids.append(id) }
        return ids
    }

    private static func apply(_ change: RosterChange, tenantID: String, connection: PostgresConnection, logger: Logger) async throws {
        switch change {
        case .employeeUpserted(let e):
            let projects = String(decoding: try JSONEncoder().encode(e.projects), as: UTF8.self)
            try await connection.query("""
                INSERT INTO employee (tenant_id, id, first_name, last_name, email, phone, position, team, projects, biography, photo_url, type)
                VALUES (\(tenantID), \(e.id), \(e.firstName), \(e.lastName), \(e.email), \(e.phone), \(e.position), \(e.team), \(projects),
                        \(e.biography), \(e.photoURL), \(e.type.rawValue))
                ON CONFLICT (tenant_id, id) DO UPDATE SET
                    first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
                    phone = excluded.phone, position = excluded.position, team = excluded.team,
                    projects = excluded.projects, biography = excluded.biography, photo_url = excluded.photo_url,
                    type = excluded.type
                """, logger: logger)
        case .employeeDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND employee_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM employee WHERE tenant_id = \(tenantID) AND id = \(id)", logger: logger)
        case .shiftAdded(let s):
            try await connection.query("""
                INSERT INTO shift (tenant_id, id, employee_id, start_ms, end_ms, role, schedule_id)
                VALUES (\(tenantID), \(s.id), \(s.employeeID), \(s.start), \(s.end), \(s.role), \(s.scheduleID))
                ON CONFLICT (tenant_id, id) DO UPDATE SET employee_id = excluded.employee_id,
                    start_ms = excluded.start_ms, end_ms = excluded.end_ms, role = excluded.role, schedule_id = excluded.schedule_id
                """, logger: logger)
        case .shiftDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND id = \(id)", logger: logger)
        case .motdSet(let motd):
            try await connection.query("UPDATE tenant SET motd = \(motd) WHERE id = \(tenantID)", logger: logger)
        case .scheduleUpserted(let schedule):
            let definition = try Roster_V1_Schedule(schedule).serializedBytes() as Data
            try await connection.query("""
                INSERT INTO schedule (tenant_id, id, definition) VALUES (\(tenantID), \(schedule.id), \(definition))
                ON CONFLICT (tenant_id, id) DO UPDATE SET definition = excluded.definition
                """, logger: logger)
        case .scheduleDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND schedule_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM schedule WHERE tenant_id = \(tenantID) AND id = \(id)", logger: logger)
        }
    }

    // MARK: Health and life

    public func checkWritable() async throws {
        // A read-only or recovering server (a standby) refuses this.
        try await transaction { connection in
            _ = try await connection.query("SELECT 1 FROM tenant FOR UPDATE SKIP LOCKED LIMIT 1", logger: self.logger).collect()
        }
    }

    public func close() async throws {
        listener.cancel()
        await listener.value
        await connections.close()
    }

    /// PostgresNIO hides the server's message from `description`; ours shows it.
    static func describe(_ error: any Error) -> String {
        // PSQLError's own description is a fixed "Generic description" sentence: say the cause.
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return "PostgreSQL: \(message)" }
            if let underlying = error.underlying { return describe(underlying) }
            return "PostgreSQL error \(error.code)"
        }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.last.map { "\($0.error)" } ?? error.dnsAError.map { "\($0)" } ?? "\(error)"
        }
        return "\(error)"
    }
}

extension StoreSignal {
    /// `c:REVISION:TENANT`, `n:TENANT`, `w:TENANT` or `a` (tokens or tenants).
    init?(payload: String) {
        let parts = payload.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.first {
        case "c" where parts.count == 3:
            guard let revision = UInt64(parts[1]) else { return nil }
            self = .committed(tenant: String(parts[2]), revision: revision)
        case "n" where parts.count >= 2:
            self = .noticesPublished(tenant: parts.dropFirst().joined(separator: ":"))
        case "w" where parts.count >= 2:
            self = .notificationSettingsChanged(tenant: parts.dropFirst().joined(separator: ":"))
        case "a":
            self = .accessChanged
        default:
            return nil
        }
    }
}
