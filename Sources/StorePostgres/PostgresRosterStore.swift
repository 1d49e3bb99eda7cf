import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
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
    /// The listening connection's own thread: it waits on its socket for as long as the store is open.
    private let listenerThread = NIOThreadPool(numberOfThreads: 1)
    private let listening = NIOLockedValueBox(true)
    private let listener: Task<Void, Never>
    private let signalStream: AsyncStream<StoreSignal>
    let address: PostgresAddress

    private init(address: PostgresAddress, logger: Logger) {
        self.address = address
        let parameters = Self.connectionParameters(address)
        connections = PostgresConnections(parameters: parameters, server: address.description, limit: 8)
        let (stream, continuation) = AsyncStream<StoreSignal>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        signalStream = stream
        listenerThread.start()
        let (thread, listening) = (listenerThread, self.listening)
        listener = Task {
            _ = try? await thread.runIfActive {
                Self.listen(parameters, logger: logger, into: continuation) { listening.withLockedValue { $0 } }
            }
            continuation.finish()
        }
    }

    /// Connects, migrates the schema to this build's (under an advisory lock, so nodes starting
    /// together take turns) and refuses a schema newer than it.
    /// A database that does not answer in time (still starting beside the node, or busy) is
    /// tried again for up to `startWindow`, each attempt logged; one that refuses (a wrong
    /// password, no such database) fails at once.
    public static func open(
        _ address: PostgresAddress, logger: Logger = Logger(label: "roster.postgres"),
        startWindow: Duration = .seconds(30)
    ) async throws -> PostgresRosterStore {
        let giveUp = ContinuousClock.now + startWindow
        var pause = Duration.milliseconds(250)
        while true {
            let store = PostgresRosterStore(address: address, logger: logger)
            do {
                try await store.migrate()
                return store
            } catch let error as PostgresConnections.StoreUnavailable
                where error.timedOut && ContinuousClock.now + pause < giveUp
            {
                try? await store.close()
                logger.warning("\(error.description); trying again")
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(4))
            } catch {
                try? await store.close()
                throw error
            }
        }
    }

    public var signals: AsyncStream<StoreSignal>? { signalStream }

    /// libpq's connection keywords for `address`. TCP keepalives let a node notice a database
    /// host that vanished without closing its connections (the listening one waits for ever).
    static func connectionParameters(_ address: PostgresAddress) -> [(String, String)] {
        var parameters = [
            ("host", address.socketDirectory ?? address.host), ("port", "\(address.port)"), ("user", address.user),
            ("dbname", address.database), ("application_name", "roster-server"),
            ("sslmode", address.sslMode ?? "prefer"),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
        ]
        if let password = address.password { parameters.append(("password", password)) }
        return parameters
    }

    /// One transaction; an error thrown inside it comes out as itself.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        try await connections.withTransaction(body)
    }

    // MARK: Tenants and changes

    public func loadTenants() async throws -> [StoredTenant] {
        try await connections.withConnection { connection in
            var tenants: [StoredTenant] = []
            let rows = try await connection.query("SELECT id, name, motd, epoch, revision FROM tenant ORDER BY id")
            var heads: [(String, String, String, Int64, Int64)] = []
            for row in try rows.decode((String, String, String, Int64, Int64).self) { heads.append(row) }
            for (id, name, motd, epoch, revision) in heads {
                var employees: [Employee] = []
                for row in try await connection.query(
                    """
                    SELECT id, first_name, last_name, email, phone, position, team, projects, biography, photo_url, type, chat,
                           deactivated
                    FROM employee WHERE tenant_id = \(id)
                    """
                ).decode(
                    (
                        String, String, String, String, String, String, String, String, String, String, String, String,
                        Int32
                    )
                    .self)
                {
                    let projects = (try? JSONDecoder().decode([String].self, from: Data(row.7.utf8))) ?? []
                    employees.append(
                        Employee(
                            id: row.0, firstName: row.1, lastName: row.2, email: row.3, phone: row.4, position: row.5,
                            team: row.6, projects: projects, biography: row.8, photoURL: row.9,
                            type: EmployeeType(rawValue: row.10) ?? .unspecified, chat: StoreSchema.chatHandles(row.11),
                            deactivated: row.12 != 0)
                    )
                }
                var shifts: [Shift] = []
                for row in try await connection.query(
                    """
                    SELECT id, employee_id, start_ms, end_ms, role, schedule_id FROM shift WHERE tenant_id = \(id)
                    """
                ).decode((String, String, Int64, Int64, String, String).self) {
                    shifts.append(
                        Shift(id: row.0, employeeID: row.1, start: row.2, end: row.3, role: row.4, scheduleID: row.5))
                }
                var schedules: [ScheduleDefinition] = []
                for body in try await connection.query("SELECT definition FROM schedule WHERE tenant_id = \(id)")
                    .decode(Data.self)
                {
                    schedules.append(ScheduleDefinition(try Roster_V1_Schedule(serializedBytes: body)))
                }
                var timeOff: [TimeOff] = []
                for row in try await connection.query(
                    """
                    SELECT id, employee_id, start_ms, end_ms, reason, source, author FROM time_off WHERE tenant_id = \(id)
                    """
                ).decode((String, String, Int64, Int64, String, String, String).self) {
                    timeOff.append(
                        TimeOff(
                            id: row.0, employeeID: row.1, start: row.2, end: row.3, reason: row.4, source: row.5,
                            author: row.6))
                }
                var holidays: [HolidaySet] = []
                for row in try await connection.query("SELECT name, days FROM holiday_calendar WHERE tenant_id = \(id)")
                    .decode((String, String).self)
                {
                    holidays.append(HolidaySet(name: row.0, days: row.1.split(separator: ",").map(String.init)))
                }
                let escalation = try await Self.escalationRecords(tenantID: id, connection: connection)
                let history = try await Self.history(tenantID: id, after: 0, connection: connection)
                let state = RosterState(
                    tenant: Tenant(id: id, name: name, motd: motd), employees: employees, shifts: shifts,
                    schedules: schedules, timeOff: timeOff, holidays: holidays,
                    escalationPolicies: escalation.policies, services: escalation.services)
                tenants.append(
                    StoredTenant(
                        state: state, epoch: UInt64(bitPattern: epoch), revision: UInt64(revision), history: history))
            }
            return tenants
        }
    }

    public func createTenant(_ tenant: Tenant, epoch: UInt64) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO tenant (id, name, motd, epoch, revision) VALUES (\(tenant.id), \(tenant.name), \(tenant.motd), \(Int64(bitPattern: epoch)), 0)
                """)
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')")
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
        let auditBody = try audit.map { try $0.serializedBytes() as Data }
        try await transaction { connection in
            // The row lock orders concurrent commits to one tenant across nodes.
            let rows = try await connection.query("SELECT revision FROM tenant WHERE id = \(tenantID) FOR UPDATE")
            var stored: Int64?
            for revision in try rows.decode(Int64.self) { stored = revision }
            guard let stored else { throw StoreError.noSuchTenant(tenantID) }
            guard UInt64(stored) == entry.revision - 1 else {
                throw StoreError.revisionConflict(
                    tenant: tenantID, stored: UInt64(stored), expected: entry.revision - 1)
            }
            for change in entry.changes { try await Self.apply(change, tenantID: tenantID, connection: connection) }
            let revision = Int64(entry.revision)
            try await connection.query("UPDATE tenant SET revision = \(revision) WHERE id = \(tenantID)")
            try await connection.query(
                """
                INSERT INTO change_log (tenant_id, revision, committed_at_ms, changes) VALUES (\(tenantID), \(revision), \(entry.committedAt), \(body))
                """)
            try await connection.query(
                "DELETE FROM change_log WHERE tenant_id = \(tenantID) AND revision <= \(revision - Int64(historyLimit))"
            )
            if let audit, let auditBody {
                try await connection.query(
                    """
                    INSERT INTO audit (tenant_id, at_ms, kind, entry) VALUES (\(tenantID), \(audit.atMs), \(audit.kind), \(auditBody))
                    """)
            }
            try await Self.writeOutbox(outbox, tenantID: tenantID, connection: connection)
            try await Self.writeDuty(duty, tenantID: tenantID, connection: connection)
            try await Self.writeProvisioning(provisioning, tenantID: tenantID, connection: connection)
            // Delivered to the listening nodes when (and only if) this transaction commits.
            try await connection.query("SELECT pg_notify(\(Self.channel), \("c:\(entry.revision):\(tenantID)"))")
        }
    }

    public func history(tenantID: String, after revision: UInt64) async throws -> [HistoryEntry] {
        try await connections.withConnection { connection in
            try await Self.history(tenantID: tenantID, after: revision, connection: connection)
        }
    }

    private static func history(tenantID: String, after revision: UInt64, connection: PostgresConnection) async throws
        -> [HistoryEntry]
    {
        var entries: [HistoryEntry] = []
        for (revision, committedAt, body) in try await connection.query(
            """
            SELECT revision, committed_at_ms, changes FROM change_log WHERE tenant_id = \(tenantID) AND revision > \(Int64(revision))
            ORDER BY revision
            """
        ).decode((Int64, Int64, Data).self) {
            let wire = try Roster_V1_RosterChanged(serializedBytes: body)
            entries.append(
                HistoryEntry(
                    revision: UInt64(revision), committedAt: committedAt,
                    changes: wire.changes.compactMap(RosterChange.init)))
        }
        return entries
    }

    public func revisions() async throws -> [String: UInt64] {
        var revisions: [String: UInt64] = [:]
        for (id, revision) in try await connections.query("SELECT id, revision FROM tenant").decode(
            (String, Int64).self)
        {
            revisions[id] = UInt64(revision)
        }
        return revisions
    }

    public func tenantIDs() async throws -> [String] {
        var ids: [String] = []
        for id in try await connections.query("SELECT id FROM tenant ORDER BY id").decode(String.self) {
            ids.append(id)
        }
        return ids
    }

    private static func apply(_ change: RosterChange, tenantID: String, connection: PostgresConnection) async throws {
        switch change {
        case .employeeUpserted(let e):
            let projects = String(decoding: try JSONEncoder().encode(e.projects), as: UTF8.self)
            try await connection.query(
                """
                INSERT INTO employee (tenant_id, id, first_name, last_name, email, phone, position, team, projects, biography, photo_url, type,
                                      chat, deactivated)
                VALUES (\(tenantID), \(e.id), \(e.firstName), \(e.lastName), \(e.email), \(e.phone), \(e.position), \(e.team), \(projects),
                        \(e.biography), \(e.photoURL), \(e.type.rawValue), \(StoreSchema.chatColumn(e.chat)), \(Int32(e.deactivated ? 1 : 0)))
                ON CONFLICT (tenant_id, id) DO UPDATE SET
                    first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
                    phone = excluded.phone, position = excluded.position, team = excluded.team,
                    projects = excluded.projects, biography = excluded.biography, photo_url = excluded.photo_url,
                    type = excluded.type, chat = excluded.chat, deactivated = excluded.deactivated
                """)
        case .employeeDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND employee_id = \(id)")
            try await connection.query("DELETE FROM time_off WHERE tenant_id = \(tenantID) AND employee_id = \(id)")
            try await connection.query("DELETE FROM employee WHERE tenant_id = \(tenantID) AND id = \(id)")
        case .shiftAdded(let s):
            try await connection.query(
                """
                INSERT INTO shift (tenant_id, id, employee_id, start_ms, end_ms, role, schedule_id)
                VALUES (\(tenantID), \(s.id), \(s.employeeID), \(s.start), \(s.end), \(s.role), \(s.scheduleID))
                ON CONFLICT (tenant_id, id) DO UPDATE SET employee_id = excluded.employee_id,
                    start_ms = excluded.start_ms, end_ms = excluded.end_ms, role = excluded.role, schedule_id = excluded.schedule_id
                """)
        case .shiftDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND id = \(id)")
        case .motdSet(let motd):
            try await connection.query("UPDATE tenant SET motd = \(motd) WHERE id = \(tenantID)")
        case .scheduleUpserted(let schedule):
            let definition = try Roster_V1_Schedule(schedule).serializedBytes() as Data
            try await connection.query(
                """
                INSERT INTO schedule (tenant_id, id, definition) VALUES (\(tenantID), \(schedule.id), \(definition))
                ON CONFLICT (tenant_id, id) DO UPDATE SET definition = excluded.definition
                """)
        case .scheduleDeleted(let id):
            try await connection.query("DELETE FROM shift WHERE tenant_id = \(tenantID) AND schedule_id = \(id)")
            try await connection.query("DELETE FROM schedule WHERE tenant_id = \(tenantID) AND id = \(id)")
        case .timeOffSet(let t):
            try await connection.query(
                """
                INSERT INTO time_off (tenant_id, id, employee_id, start_ms, end_ms, reason, source, author)
                VALUES (\(tenantID), \(t.id), \(t.employeeID), \(t.start), \(t.end), \(t.reason), \(t.source), \(t.author))
                ON CONFLICT (tenant_id, id) DO UPDATE SET employee_id = excluded.employee_id, start_ms = excluded.start_ms,
                    end_ms = excluded.end_ms, reason = excluded.reason, source = excluded.source, author = excluded.author
                """)
        case .timeOffDeleted(let id):
            try await connection.query("DELETE FROM time_off WHERE tenant_id = \(tenantID) AND id = \(id)")
        case .holidaysSet(let calendar):
            let days = calendar.days.joined(separator: ",")
            try await connection.query(
                """
                INSERT INTO holiday_calendar (tenant_id, name, days) VALUES (\(tenantID), \(calendar.name), \(days))
                ON CONFLICT (tenant_id, name) DO UPDATE SET days = excluded.days
                """)
        case .holidaysDeleted(let name):
            try await connection.query("DELETE FROM holiday_calendar WHERE tenant_id = \(tenantID) AND name = \(name)")
        case .escalationPolicySet, .escalationPolicyDeleted, .serviceSet, .serviceDeleted:
            try await applyEscalation(change, tenantID: tenantID, connection: connection)
        }
    }

    // MARK: Health and life

    public func checkWritable() async throws {
        // A read-only or recovering server (a standby) refuses this.
        _ = try await transaction { connection in
            try await connection.query("SELECT 1 FROM tenant FOR UPDATE SKIP LOCKED LIMIT 1")
        }
    }

    public func close() async throws {
        listening.withLockedValue { $0 = false }
        await listener.value
        try? await listenerThread.shutdownGracefully()
        await connections.close()
    }

    /// What went wrong, in the words of PostgreSQL or libpq.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as LibPQConnection.Failure: return error.description
        case is LibPQConnection.Timeout: return "PostgreSQL did not answer in time"
        default: return "\(error)"
        }
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
