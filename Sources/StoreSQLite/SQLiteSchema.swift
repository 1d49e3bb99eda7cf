import GRDB
import RosterStore

/// The SQLite schema, one migration per version; `StoreSchema` lists the versions every store knows.
extension SQLiteRosterStore {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tenant (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        motd TEXT NOT NULL DEFAULT '',
                        epoch INTEGER NOT NULL,
                        revision INTEGER NOT NULL DEFAULT 0
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
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL,
                        role TEXT NOT NULL,
                        PRIMARY KEY (tenant_id, id)
                    );
                    CREATE INDEX shift_by_employee ON shift(tenant_id, employee_id);
                    -- One row per committed revision; `changes` is a RosterChanged protobuf body.
                    CREATE TABLE change_log (
                        tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                        revision INTEGER NOT NULL,
                        committed_at_ms INTEGER NOT NULL,
                        changes BLOB NOT NULL,
                        PRIMARY KEY (tenant_id, revision)
                    );
                    """)
        }
        migrator.registerMigration("v2-tokens") { db in
            try db.execute(
                sql: """
                    -- Only the SHA-256 of a token's secret is kept; the secret is shown once, at creation.
                    CREATE TABLE token (
                        id TEXT PRIMARY KEY NOT NULL,
                        tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                        role TEXT NOT NULL,
                        secret_sha256 BLOB NOT NULL,
                        label TEXT NOT NULL DEFAULT '',
                        created_at_ms INTEGER NOT NULL,
                        expires_at_ms INTEGER,
                        revoked_at_ms INTEGER
                    );
                    """)
        }
        migrator.registerMigration("v3-schedules") { db in
            // Every shift made before schedules existed belongs to the default schedule ('').
            try db.execute(
                sql: """
                    ALTER TABLE shift ADD COLUMN schedule_id TEXT NOT NULL DEFAULT '';
                    -- `definition` is a Schedule protobuf body: layers, rotations and overrides change
                    -- together, one row per schedule, as one revision changes them.
                    CREATE TABLE schedule (
                        tenant_id TEXT NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
                        id TEXT NOT NULL,
                        definition BLOB NOT NULL,
                        PRIMARY KEY (tenant_id, id)
                    );
                    """)
        }
        migrator.registerMigration("v4-token-employee") { db in
            try db.execute(sql: "ALTER TABLE token ADD COLUMN employee_id TEXT")
        }
        migrator.registerMigration("v5-audit") { db in
            try db.execute(
                sql: """
                    -- `entry` is an AuditEntry protobuf body; kind and time are columns for pruning and
                    -- reading by time. No foreign key: an auth failure may name a tenant that is gone.
                    CREATE TABLE audit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        tenant_id TEXT NOT NULL,
                        at_ms INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        entry BLOB NOT NULL
                    );
                    CREATE INDEX audit_by_tenant_time ON audit(tenant_id, at_ms);
                    CREATE INDEX audit_by_time ON audit(at_ms);
                    """)
        }
        migrator.registerMigration("v6-calendar") { db in
            try db.execute(
                sql: """
                    -- A calendar token's feed: 'schedule:ID' or 'person:ID'.
                    ALTER TABLE token ADD COLUMN scope TEXT;
                    -- What each feed last published, so that a changed shift gets a higher SEQUENCE and a
                    -- removed one stays as CANCELLED for a while. `event` is a CalendarEvent as JSON.
                    CREATE TABLE calendar_event (
                        tenant_id TEXT NOT NULL,
                        feed TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        event TEXT NOT NULL,
                        PRIMARY KEY (tenant_id, feed, uid)
                    );
                    """)
        }
        registerNotificationMigration(&migrator)
        migrator.registerMigration("v8-token-minted-by") { db in
            // The token that minted a calendar token: the feed stops when that one does.
            try db.execute(sql: "ALTER TABLE token ADD COLUMN minted_by TEXT")
        }
        migrator.registerMigration("v9-duty-record") { db in
            try db.execute(sql: StoreSchema.dutyRecordSQL)
        }
        migrator.registerMigration("v10-chat") { db in
            try db.execute(sql: StoreSchema.chatSQL)
        }
        migrator.registerMigration("v11-time-off") { db in
            try db.execute(sql: StoreSchema.timeOffSQL)
        }
        migrator.registerMigration("v12-escalation") { db in
            try db.execute(sql: StoreSchema.escalationSQL)
        }
        migrator.registerMigration("v13-identity") { db in
            try db.execute(sql: StoreSchema.identitySQL)
        }
        migrator.registerMigration("v14-provisioning") { db in
            try db.execute(sql: StoreSchema.provisioningSQL)
        }
        migrator.registerMigration("v15-login-refresh") { db in
            try db.execute(sql: StoreSchema.loginRefreshSQL)
        }
        migrator.registerMigration("v16-push") { db in
            try db.execute(sql: StoreSchema.pushSQL)
        }
        return migrator
    }
}
