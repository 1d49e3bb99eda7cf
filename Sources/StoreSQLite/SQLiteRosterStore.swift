import Foundation
import GRDB
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterStore

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a commit that has
/// returned survives a crash of the process or of the machine.
public final class SQLiteRosterStore: RosterStore {
    package let pool: DatabasePool

    /// Opens (creating if needed, mode 0600) the database at `path` and migrates it. Blocking:
    /// from async code use `DataDirectory.openStore()` or `SQLiteRosterStore.open(path:)`.
    public init(path: String) throws {
        try PrivateFile.createEmpty(path)
        var configuration = Configuration()
        // The server and `roster-server token|tenant ...` write the same file: one waits for the
        // other's transaction (milliseconds) instead of failing with "database is locked".
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        let applied = try pool.read { db in try Self.migrator.appliedIdentifiers(db) }
        let unknown = StoreSchema.unknown(applied: Array(applied))
        guard unknown.isEmpty else {
            try? pool.close()
            throw StoreError.schemaNewer(unknown: unknown)
        }
        try Self.migrator.migrate(pool)
    }

    /// Opens the database on a thread of NIOThreadPool, not on the caller's.
    public static func open(path: String) async throws -> SQLiteRosterStore {
        try await NIOThreadPool.singleton.runIfActive { try SQLiteRosterStore(path: path) }
    }

    public func loadTokens() async throws -> [StoredToken] {
        try await pool.read { db in
            // A role this node does not know (a newer node's) grants nothing here, never a reader's.
            try Row.fetchAll(db, sql: "SELECT * FROM token ORDER BY created_at_ms, id").compactMap { row in
                guard let role = AccessRole(rawValue: row["role"]) else { return nil }
                return StoredToken(
                    id: row["id"], tenantID: row["tenant_id"], role: role,
                    secretHash: [UInt8](row["secret_sha256"] as Data), label: row["label"],
                    createdAt: row["created_at_ms"], expiresAt: row["expires_at_ms"], revokedAt: row["revoked_at_ms"],
                    employeeID: row["employee_id"], scope: row["scope"], mintedBy: row["minted_by"])
            }
        }
    }

    public func insertToken(_ token: StoredToken) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO token (id, tenant_id, role, secret_sha256, label, created_at_ms, expires_at_ms, revoked_at_ms,
                                       employee_id, scope, minted_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.id, token.tenantID, token.role.rawValue, Data(token.secretHash), token.label,
                    token.createdAt, token.expiresAt, token.revokedAt, token.employeeID, token.scope, token.mintedBy,
                ])
        }
    }

    public func revokeToken(id: String, at: UnixMillis) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE token SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL", arguments: [at, id])
            return try Bool.fetchOne(db, sql: "SELECT 1 FROM token WHERE id = ?", arguments: [id]) ?? false
        }
    }

    public func tenantIDs() async throws -> [String] {
        try await pool.read { db in try String.fetchAll(db, sql: "SELECT id FROM tenant ORDER BY id") }
    }

    public func loadTenants() async throws -> [StoredTenant] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tenant ORDER BY id").map { row in
                let id: String = row["id"]
                let employees = try Row.fetchAll(db, sql: "SELECT * FROM employee WHERE tenant_id = ?", arguments: [id])
                    .map(Self.employee(from:))
                let shifts = try Row.fetchAll(db, sql: "SELECT * FROM shift WHERE tenant_id = ?", arguments: [id]).map {
                    row in
                    Shift(
                        id: row["id"], employeeID: row["employee_id"], start: row["start_ms"], end: row["end_ms"],
                        role: row["role"],
                        scheduleID: row["schedule_id"])
                }
                let schedules = try Row.fetchAll(
                    db, sql: "SELECT definition FROM schedule WHERE tenant_id = ?", arguments: [id]
                )
                .map { row in ScheduleDefinition(try Roster_V1_Schedule(serializedBytes: row["definition"] as Data)) }
                let timeOff = try Row.fetchAll(db, sql: "SELECT * FROM time_off WHERE tenant_id = ?", arguments: [id])
                    .map { row in
                        TimeOff(
                            id: row["id"], employeeID: row["employee_id"], start: row["start_ms"], end: row["end_ms"],
                            reason: row["reason"],
                            source: row["source"], author: row["author"])
                    }
                let holidays = try Row.fetchAll(
                    db, sql: "SELECT * FROM holiday_calendar WHERE tenant_id = ?", arguments: [id]
                ).map { row in
                    HolidaySet(name: row["name"], days: (row["days"] as String).split(separator: ",").map(String.init))
                }
                let escalation = try Self.escalationRecords(tenantID: id, db: db)
                let history = try Row.fetchAll(
                    db, sql: "SELECT * FROM change_log WHERE tenant_id = ? ORDER BY revision", arguments: [id]
                ).map(Self.historyEntry(from:))
                let tenant = Tenant(id: id, name: row["name"], motd: row["motd"])
                return StoredTenant(
                    state: RosterState(
                        tenant: tenant, employees: employees, shifts: shifts, schedules: schedules,
                        timeOff: timeOff, holidays: holidays, escalationPolicies: escalation.policies,
                        services: escalation.services),
                    epoch: UInt64(bitPattern: row["epoch"]), revision: UInt64(row["revision"] as Int64),
                    history: history)
            }
        }
    }

    public func createTenant(_ tenant: Tenant, epoch: UInt64) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO tenant (id, name, motd, epoch, revision) VALUES (?, ?, ?, ?, 0)",
                arguments: [tenant.id, tenant.name, tenant.motd, Int64(bitPattern: epoch)])
        }
    }

    public func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
        outbox: OutboxWrite, duty: DutyRecordWrite, provisioning: ProvisioningWrite
    ) async throws {
        let body =
            try Roster_V1_RosterChanged.with {
                $0.revision = entry.revision
                $0.committedAtMs = entry.committedAt
                $0.changes = entry.changes.map(Roster_V1_Change.init)
            }.serializedBytes() as Data
        try await pool.write { db in
            // The revision is the store's: another writer of the same file may have committed first.
            try db.execute(
                sql: "UPDATE tenant SET revision = ? WHERE id = ? AND revision = ?",
                arguments: [Int64(entry.revision), tenantID, Int64(entry.revision) - 1])
            if db.changesCount == 0 {
                guard
                    let stored = try Int64.fetchOne(
                        db, sql: "SELECT revision FROM tenant WHERE id = ?", arguments: [tenantID])
                else {
                    throw StoreError.noSuchTenant(tenantID)
                }
                throw StoreError.revisionConflict(
                    tenant: tenantID, stored: UInt64(stored), expected: entry.revision - 1)
            }
            for change in entry.changes { try Self.apply(change, tenantID: tenantID, db: db) }
            try db.execute(
                sql: "INSERT INTO change_log (tenant_id, revision, committed_at_ms, changes) VALUES (?, ?, ?, ?)",
                arguments: [tenantID, Int64(entry.revision), entry.committedAt, body])
            try db.execute(
                sql: "DELETE FROM change_log WHERE tenant_id = ? AND revision <= ?",
                arguments: [tenantID, Int64(entry.revision) - Int64(historyLimit)])
            if let audit { try Self.insert(audit, tenantID: tenantID, db: db) }
            try Self.writeOutbox(outbox, tenantID: tenantID, db: db)
            try Self.writeDuty(duty, tenantID: tenantID, db: db)
            try Self.writeProvisioning(provisioning, tenantID: tenantID, db: db)
        }
    }

    public func history(tenantID: String, after revision: UInt64) async throws -> [HistoryEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM change_log WHERE tenant_id = ? AND revision > ? ORDER BY revision",
                arguments: [tenantID, Int64(revision)]
            ).map(Self.historyEntry(from:))
        }
    }

    public func revisions() async throws -> [String: UInt64] {
        try await pool.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, revision FROM tenant").map { row in
                    (row["id"] as String, UInt64(row["revision"] as Int64))
                })
        }
    }

    private static func historyEntry(from row: Row) throws -> HistoryEntry {
        let wire = try Roster_V1_RosterChanged(serializedBytes: row["changes"] as Data)
        return HistoryEntry(
            revision: UInt64(row["revision"] as Int64), committedAt: row["committed_at_ms"],
            changes: wire.changes.compactMap(RosterChange.init))
    }

    public func appendAudit(tenantID: String, _ entry: Roster_V1_AuditEntry) async throws {
        try await pool.write { db in try Self.insert(entry, tenantID: tenantID, db: db) }
    }

    private static func insert(_ entry: Roster_V1_AuditEntry, tenantID: String, db: Database) throws {
        try db.execute(
            sql: "INSERT INTO audit (tenant_id, at_ms, kind, entry) VALUES (?, ?, ?, ?)",
            arguments: [tenantID, entry.atMs, entry.kind, try entry.serializedBytes() as Data])
    }

    public func auditEntries(
        tenantID: String, since: UnixMillis, limit: Int,
        matching: @escaping @Sendable (Roster_V1_AuditEntry) -> Bool
    ) async throws
        -> (entries: [Roster_V1_AuditEntry], truncated: Bool)
    {
        try await pool.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, entry FROM audit WHERE tenant_id = ? AND at_ms >= ? ORDER BY at_ms DESC, id DESC
                    """, arguments: [tenantID, since])
            var found: [Roster_V1_AuditEntry] = []
            while let row = try rows.next() {
                var entry = try Roster_V1_AuditEntry(serializedBytes: row["entry"] as Data)
                entry.id = UInt64(row["id"] as Int64)
                guard matching(entry) else { continue }
                if found.count == limit { return (found, true) }
                found.append(entry)
            }
            return (found, false)
        }
    }

    public func calendarEvents(tenantID: String, feed: String) async throws -> [CalendarEvent] {
        try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT event FROM calendar_event WHERE tenant_id = ? AND feed = ?",
                arguments: [tenantID, feed]
            )
            .map { try JSONDecoder().decode(CalendarEvent.self, from: Data($0.utf8)) }
        }
    }

    public func saveCalendarEvents(tenantID: String, feed: String, store events: [CalendarEvent], forget: [String])
        async throws
    {
        let encoded = try events.map { ($0.uid, String(decoding: try JSONEncoder().encode($0), as: UTF8.self)) }
        try await pool.write { db in
            for (uid, event) in encoded {
                try db.execute(
                    sql: """
                        INSERT INTO calendar_event (tenant_id, feed, uid, event) VALUES (?, ?, ?, ?)
                        ON CONFLICT (tenant_id, feed, uid) DO UPDATE SET event = excluded.event
                        """, arguments: [tenantID, feed, uid, event])
            }
            for uid in forget {
                try db.execute(
                    sql: "DELETE FROM calendar_event WHERE tenant_id = ? AND feed = ? AND uid = ?",
                    arguments: [tenantID, feed, uid])
            }
        }
    }

    public func checkWritable() async throws {
        // BEGIN IMMEDIATE takes SQLite's write lock: it fails on a read-only file or directory.
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "ROLLBACK")
        }
    }

    public func pruneAudit(before: UnixMillis) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM audit WHERE at_ms < ?", arguments: [before])
            return db.changesCount
        }
    }

    public func pruneTokens(before: UnixMillis) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM token WHERE expires_at_ms < ? OR revoked_at_ms < ?", arguments: [before, before])
            let tokens = db.changesCount
            try db.execute(
                sql: "DELETE FROM login_refresh WHERE expires_at_ms < ? OR revoked_at_ms < ?",
                arguments: [before, before])
            return tokens
        }
    }

    /// Gives every tenant a new epoch (a restored store: its revisions are another history's).
    /// Blocking.
    package func renewEpochsBlocking() throws {
        try pool.write { db in
            for id in try String.fetchAll(db, sql: "SELECT id FROM tenant") {
                try db.execute(
                    sql: "UPDATE tenant SET epoch = ? WHERE id = ?",
                    arguments: [Int64(bitPattern: UInt64.random(in: 1...UInt64.max)), id])
            }
        }
    }

    /// `close()` for callers already on a thread of their own. Everything written is moved from
    /// the WAL into the database file first: a restore moves the file alone, and SQLite's own
    /// checkpoint at close is skipped when a read-only connection of the pool closes last.
    package func closeBlocking() throws {
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
    }

    /// Closing waits for reads and writes in progress: a blocking call, so it runs on a thread
    /// of NIOThreadPool (on the concurrency pool it could block every thread of it).
    public func close() async throws {
        try await NIOThreadPool.singleton.runIfActive { [pool] in try pool.close() }
    }

    private static func apply(_ change: RosterChange, tenantID: String, db: Database) throws {
        switch change {
        case .employeeUpserted(let e):
            let projects = String(decoding: try JSONEncoder().encode(e.projects), as: UTF8.self)
            try db.execute(
                sql: """
                    INSERT INTO employee (tenant_id, id, first_name, last_name, email, phone, position, team, projects,
                                          biography, photo_url, type, chat, deactivated)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, id) DO UPDATE SET
                        first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
                        phone = excluded.phone, position = excluded.position, team = excluded.team,
                        projects = excluded.projects, biography = excluded.biography, photo_url = excluded.photo_url,
                        type = excluded.type, chat = excluded.chat, deactivated = excluded.deactivated
                    """,
                arguments: [
                    tenantID, e.id, e.firstName, e.lastName, e.email, e.phone, e.position, e.team, projects,
                    e.biography, e.photoURL, e.type.rawValue, StoreSchema.chatColumn(e.chat),
                    e.deactivated ? 1 : 0,
                ])
        case .employeeDeleted(let id):
            try db.execute(sql: "DELETE FROM shift WHERE tenant_id = ? AND employee_id = ?", arguments: [tenantID, id])
            try db.execute(
                sql: "DELETE FROM time_off WHERE tenant_id = ? AND employee_id = ?", arguments: [tenantID, id])
            try db.execute(sql: "DELETE FROM employee WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
        case .shiftAdded(let s):
            try db.execute(
                sql: """
                    INSERT INTO shift (tenant_id, id, employee_id, start_ms, end_ms, role, schedule_id) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, id) DO UPDATE SET employee_id = excluded.employee_id,
                        start_ms = excluded.start_ms, end_ms = excluded.end_ms, role = excluded.role,
                        schedule_id = excluded.schedule_id
                    """, arguments: [tenantID, s.id, s.employeeID, s.start, s.end, s.role, s.scheduleID])
        case .shiftDeleted(let id):
            try db.execute(sql: "DELETE FROM shift WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
        case .motdSet(let motd):
            try db.execute(sql: "UPDATE tenant SET motd = ? WHERE id = ?", arguments: [motd, tenantID])
        case .scheduleUpserted(let schedule):
            let definition = try Roster_V1_Schedule(schedule).serializedBytes() as Data
            try db.execute(
                sql: """
                    INSERT INTO schedule (tenant_id, id, definition) VALUES (?, ?, ?)
                    ON CONFLICT (tenant_id, id) DO UPDATE SET definition = excluded.definition
                    """, arguments: [tenantID, schedule.id, definition])
        case .scheduleDeleted(let id):
            try db.execute(sql: "DELETE FROM shift WHERE tenant_id = ? AND schedule_id = ?", arguments: [tenantID, id])
            try db.execute(sql: "DELETE FROM schedule WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
        case .timeOffSet(let t):
            try db.execute(
                sql: """
                    INSERT INTO time_off (tenant_id, id, employee_id, start_ms, end_ms, reason, source, author) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, id) DO UPDATE SET employee_id = excluded.employee_id, start_ms = excluded.start_ms,
                        end_ms = excluded.end_ms, reason = excluded.reason, source = excluded.source, author = excluded.author
                    """, arguments: [tenantID, t.id, t.employeeID, t.start, t.end, t.reason, t.source, t.author])
        case .timeOffDeleted(let id):
            try db.execute(sql: "DELETE FROM time_off WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
        case .holidaysSet(let calendar):
            try db.execute(
                sql: """
                    INSERT INTO holiday_calendar (tenant_id, name, days) VALUES (?, ?, ?)
                    ON CONFLICT (tenant_id, name) DO UPDATE SET days = excluded.days
                    """, arguments: [tenantID, calendar.name, calendar.days.joined(separator: ",")])
        case .holidaysDeleted(let name):
            try db.execute(
                sql: "DELETE FROM holiday_calendar WHERE tenant_id = ? AND name = ?", arguments: [tenantID, name])
        case .escalationPolicySet, .escalationPolicyDeleted, .serviceSet, .serviceDeleted:
            try applyEscalation(change, tenantID: tenantID, db: db)
        }
    }

    private static func employee(from row: Row) throws -> Employee {
        let projects = try JSONDecoder().decode([String].self, from: Data((row["projects"] as String).utf8))
        return Employee(
            id: row["id"], firstName: row["first_name"], lastName: row["last_name"], email: row["email"],
            phone: row["phone"], position: row["position"], team: row["team"], projects: projects,
            biography: row["biography"], photoURL: row["photo_url"],
            type: EmployeeType(rawValue: row["type"]) ?? .unspecified, chat: StoreSchema.chatHandles(row["chat"]),
            deactivated: (row["deactivated"] as Int64) != 0)
    }
}
