import GRDB

/// The notification tables (webhooks, the outbox, deliveries, rules), added to the store's
/// migrations as v7.
extension SQLiteRosterStore {
    package static func registerNotificationMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-notifications") { db in
            try db.execute(
                sql: """
                    CREATE TABLE webhook (
                        id TEXT PRIMARY KEY,
                        tenant_id TEXT NOT NULL,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        events TEXT NOT NULL,            -- JSON array of types; empty: all
                        schedules TEXT NOT NULL,         -- JSON array of schedule ids; empty: all
                        created_ms INTEGER NOT NULL,
                        disabled_ms INTEGER NOT NULL DEFAULT 0,
                        disabled_reason TEXT NOT NULL DEFAULT '',
                        failing_since_ms INTEGER NOT NULL DEFAULT 0
                    );
                    -- The outbox: every event, written in the transaction that caused it (or, for
                    -- time-driven ones, before it is due). `planned` ones may be withdrawn until attempted.
                    CREATE TABLE notice (
                        tenant_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        type TEXT NOT NULL,
                        revision INTEGER NOT NULL,
                        about_ms INTEGER NOT NULL,
                        due_ms INTEGER NOT NULL,
                        planned INTEGER NOT NULL,
                        schedules TEXT NOT NULL,
                        people TEXT NOT NULL,
                        payload BLOB NOT NULL,
                        -- Set when it falls due and is published to NOTICES subscribers: per tenant, 1, 2, ...
                        sequence INTEGER,
                        PRIMARY KEY (tenant_id, id)
                    );
                    CREATE INDEX notice_by_due ON notice(tenant_id, due_ms);
                    CREATE INDEX notice_unpublished ON notice(due_ms) WHERE sequence IS NULL;
                    CREATE INDEX notice_by_sequence ON notice(tenant_id, sequence) WHERE sequence IS NOT NULL;
                    -- One row per event and webhook; the rowid orders events of equal due time.
                    CREATE TABLE delivery (
                        webhook_id TEXT NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
                        tenant_id TEXT NOT NULL,
                        event_id TEXT NOT NULL,
                        due_ms INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_ms INTEGER NOT NULL DEFAULT 0,
                        delivered_ms INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (webhook_id, event_id)
                    );
                    CREATE INDEX delivery_pending ON delivery(webhook_id, due_ms) WHERE delivered_ms = 0;
                    CREATE INDEX delivery_by_event ON delivery(tenant_id, event_id);
                    CREATE TABLE delivery_attempt (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        tenant_id TEXT NOT NULL,
                        webhook_id TEXT NOT NULL,
                        event_id TEXT NOT NULL,
                        event_type TEXT NOT NULL,
                        attempt INTEGER NOT NULL,
                        at_ms INTEGER NOT NULL,
                        status INTEGER,
                        error TEXT NOT NULL,
                        duration_ms INTEGER NOT NULL
                    );
                    CREATE INDEX delivery_attempt_by_tenant ON delivery_attempt(tenant_id, id);
                    CREATE TABLE reminder_rule (
                        tenant_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        rule TEXT NOT NULL,              -- a ReminderRule as JSON
                        PRIMARY KEY (tenant_id, id)
                    );
                    CREATE TABLE notice_plan (
                        tenant_id TEXT PRIMARY KEY,
                        planned_through_ms INTEGER NOT NULL
                    );
                    """)
        }
    }
}
