import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

/// The PostgreSQL schema: migrations applied in order under an advisory lock, so nodes starting
/// together migrate once.
extension PostgresRosterStore {
    // MARK: Schema

    /// How long the schema's migration may take: DDL over a big store, or on a loaded host,
    /// takes longer than the 15 s a steady-state statement gets.
    static let migrationLimit: Duration = .seconds(300)

    func migrate() async throws {
        try await connections.withTransaction(limit: Self.migrationLimit) { connection in
            // One node migrates at a time; the others wait and then find nothing to do.
            try await connection.query("SELECT pg_advisory_xact_lock(7400001)")
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS roster_schema (version TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            var applied: [String] = []
            for version in try await connection.query("SELECT version FROM roster_schema").decode(String.self) {
                applied.append(version)
            }
            let unknown = StoreSchema.unknown(applied: applied)
            guard unknown.isEmpty else { throw StoreError.schemaNewer(unknown: unknown) }
            for version in StoreSchema.versions where !applied.contains(version) {
                guard let sql = Self.migrations[version] else {
                    fatalError("no PostgreSQL migration for schema version \(version)")
                }
                for statement in sql.components(separatedBy: ";\n")
                where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try await connection.query(PostgresQuery(unsafeSQL: statement))
                }
                try await connection.query("INSERT INTO roster_schema (version) VALUES (\(version))")
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
        "v9-duty-record": StoreSchema.dutyRecordSQL,
        "v10-chat": StoreSchema.chatSQL,
        "v11-time-off": StoreSchema.timeOffSQL,
        "v12-escalation": StoreSchema.escalationSQL,
        "v13-identity": StoreSchema.identitySQL,
        "v14-provisioning": StoreSchema.provisioningSQL,
        "v15-login-refresh": StoreSchema.loginRefreshSQL,
        "v16-push": StoreSchema.pushSQL,
    ]
}
