import Foundation
import Logging
import PostgresNIO
import RosterDomain
import RosterProtocol
import RosterServer

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

    // MARK: Schema

    /// How long the schema's migration may take: DDL over a big store, or on a loaded host,
    /// takes longer than the 15 s a steady-state statement gets.
    static let migrationLimit: Duration = .seconds(300)

    func migrate() async throws {
        try await connections.withTransaction(limit: Self.migrationLimit) { connection in
            // One node migrates at a time; the others wait and then find nothing to do.
            try await connection.query("SELECT pg_advisory_xact_lock(7400001)", logger: self.logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS roster_schema (version TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: self.logger)
            var applied: [String] = []
            for try await version in try await connection.query("SELECT version FROM roster_schema", logger: self.logger).decode(String.self) {
                applied.append(version)
            }
            let unknown = StoreSchema.unknown(applied: applied)
            guard unknown.isEmpty else { throw StoreError.schemaNewer(unknown: unknown) }
            for version in StoreSchema.versions where !applied.contains(version) {
                guard let sql = Self.migrations[version] else { fatalError("no PostgreSQL migration for schema version \(version)") }
                for statement in sql.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
                try await connection.query("INSERT INTO roster_schema (version) VALUES (\(version))", logger: self.logger)
            }
        }
    }

    /// The schema versions of `StoreSchema.versions` in PostgreSQL's SQL. Millisecond instants
    /// are BIGINT, protobuf bodies BYTEA, lists JSON text (as in SQLite).
    static let migrations: [String: String] = [
        "v1": """
            CREATE TABLE tenant (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                motd TEXT NOT NULL DEFAULT '',
                epoch BIGINT NOT NULL,
                revision BIGINT NOT NULL DEFAULT 0
            );
            CREATE TABLE employee (
                tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                email TEXT NOT NULL,
                phone TEXT NOT NULL,
                position TEXT NOT NULL,
                team TEXT NOT NULL,
                projects TEXT NOT NULL,
                biography TEXT NOT NULL,
                photo_url TEXT NOT NULL,
                type TEXT NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );
            CREATE TABLE shift (
                tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                employee_id TEXT NOT NULL,
                start_ms BIGINT NOT NULL,
                end_ms BIGINT NOT NULL,
                role TEXT NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX shift_by_employee ON shift(tenant_id, employee_id);
            CREATE TABLE change_log (
                tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                revision BIGINT NOT NULL,
                committed_at_ms BIGINT NOT NULL,
                changes BYTEA NOT NULL,
                PRIMARY KEY (tenant_id, revision)
            )
            """,
        "v2-tokens": """
            CREATE TABLE token (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                secret_sha256 BYTEA NOT NULL,
                label TEXT NOT NULL DEFAULT '',
                created_at_ms BIGINT NOT NULL,
                expires_at_ms BIGINT,
                revoked_at_ms BIGINT
            )
            """,
        "v3-schedules": """
            ALTER TABLE shift ADD COLUMN schedule_id TEXT NOT NULL DEFAULT '';
            CREATE TABLE schedule (
                tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                definition BYTEA NOT NULL,
                PRIMARY KEY (tenant_id, id)
            )
            """,
        "v4-token-employee": "ALTER TABLE token ADD COLUMN employee_id TEXT",
        "v5-audit": """
            CREATE TABLE audit (
                id BIGSERIAL PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                at_ms BIGINT NOT NULL,
                kind TEXT NOT NULL,
                entry BYTEA NOT NULL
            );
            CREATE INDEX audit_by_tenant_time ON audit(tenant_id, at_ms);
            CREATE INDEX audit_by_time ON audit(at_ms)
            """,
        "v6-calendar": """
            ALTER TABLE token ADD COLUMN scope TEXT;
            CREATE TABLE calendar_event (
                tenant_id TEXT NOT NULL,
                feed TEXT NOT NULL,
                uid TEXT NOT NULL,
                event TEXT NOT NULL,
                PRIMARY KEY (tenant_id, feed, uid)
            )
            """,
        "v7-notifications": notificationMigration,
        "v8-token-minted-by": "ALTER TABLE token ADD COLUMN minted_by TEXT",
    ]

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

    // MARK: Tokens

    public func loadTokens() async throws -> [StoredToken] {
        var tokens: [StoredToken] = []
        let rows = try await connections.query("""
            SELECT id, tenant_id, role, secret_sha256, label, created_at_ms, expires_at_ms, revoked_at_ms, employee_id, scope, minted_by
            FROM token ORDER BY created_at_ms, id
            """)
        for row in try rows.decode((String, String, String, Data, String, Int64, Int64?, Int64?, String?, String?, String?).self) {
            tokens.append(StoredToken(id: row.0, tenantID: row.1, role: AccessRole(rawValue: row.2) ?? .reader,
                                      secretHash: [UInt8](row.3), label: row.4, createdAt: row.5, expiresAt: row.6,
                                      revokedAt: row.7, employeeID: row.8, scope: row.9, mintedBy: row.10))
        }
        return tokens
    }

    public func insertToken(_ token: StoredToken) async throws {
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO token (id, tenant_id, role, secret_sha256, label, created_at_ms, expires_at_ms, revoked_at_ms, employee_id, scope,
                                   minted_by)
                VALUES (\(token.id), \(token.tenantID), \(token.role.rawValue), \(Data(token.secretHash)), \(token.label), \(token.createdAt),
                        \(token.expiresAt), \(token.revokedAt), \(token.employeeID), \(token.scope), \(token.mintedBy))
                """, logger: self.logger)
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')", logger: self.logger)
        }
    }

    public func revokeToken(id: String, at: UnixMillis) async throws -> Bool {
        try await transaction { connection in
            try await connection.query("UPDATE token SET revoked_at_ms = \(at) WHERE id = \(id) AND revoked_at_ms IS NULL", logger: self.logger)
            var found = false
            for try await _ in try await connection.query("SELECT 1 FROM token WHERE id = \(id)", logger: self.logger).decode(Int32.self) {
                found = true
            }
            // Every node closes the token's connections as soon as it hears this.
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')", logger: self.logger)
            return found
        }
    }

    // MARK: Audit

    public func appendAudit(tenantID: String, _ entry: Roster_V1_AuditEntry) async throws {
        let body = try entry.serializedBytes() as Data
        _ = try await connections.query("INSERT INTO audit (tenant_id, at_ms, kind, entry) VALUES (\(tenantID), \(entry.atMs), \(entry.kind), \(body))")
    }

    public func auditEntries(tenantID: String, since: UnixMillis, limit: Int,
                             matching: @escaping @Sendable (Roster_V1_AuditEntry) -> Bool) async throws
        -> (entries: [Roster_V1_AuditEntry], truncated: Bool)
    {
        let rows = try await connections.query("""
            SELECT id, entry FROM audit WHERE tenant_id = \(tenantID) AND at_ms >= \(since) ORDER BY at_ms DESC, id DESC
            """)
        var found: [Roster_V1_AuditEntry] = []
        var truncated = false
        for (id, body) in try rows.decode((Int64, Data).self) {
            guard !truncated else { break }
            var entry = try Roster_V1_AuditEntry(serializedBytes: body)
            entry.id = UInt64(id)
            guard matching(entry) else { continue }
            if found.count == limit { truncated = true; continue }
            found.append(entry)
        }
        return (found, truncated)
    }

    public func pruneAudit(before: UnixMillis) async throws -> Int {
        var count = 0
        for _ in try await connections.query("DELETE FROM audit WHERE at_ms < \(before) RETURNING id").decode(Int64.self) { count += 1 }
        return count
    }

    // MARK: Calendar feeds

    public func calendarEvents(tenantID: String, feed: String) async throws -> [CalendarEvent] {
        var events: [CalendarEvent] = []
        for text in try await connections.query("""
            SELECT event FROM calendar_event WHERE tenant_id = \(tenantID) AND feed = \(feed)
            """).decode(String.self) {
            events.append(try JSONDecoder().decode(CalendarEvent.self, from: Data(text.utf8)))
        }
        return events
    }

    public func saveCalendarEvents(tenantID: String, feed: String, store events: [CalendarEvent], forget: [String]) async throws {
        let encoded = try events.map { ($0.uid, String(decoding: try JSONEncoder().encode($0), as: UTF8.self)) }
        try await transaction { connection in
            for (uid, event) in encoded {
                try await connection.query("""
                    INSERT INTO calendar_event (tenant_id, feed, uid, event) VALUES (\(tenantID), \(feed), \(uid), \(event))
                    ON CONFLICT (tenant_id, feed, uid) DO UPDATE SET event = excluded.event
                    """, logger: self.logger)
            }
            for uid in forget {
                try await connection.query("DELETE FROM calendar_event WHERE tenant_id = \(tenantID) AND feed = \(feed) AND uid = \(uid)",
                                           logger: self.logger)
            }
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
