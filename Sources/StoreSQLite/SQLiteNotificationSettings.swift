import Foundation
import GRDB
import RosterDomain
import RosterStore

/// The notification settings: webhooks, reminder and announcement rules, chat command secrets.
extension SQLiteRosterStore {
    public func webhooks(tenantID: String?, now: UnixMillis) async throws -> [StoredWebhook] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT w.*, (SELECT COUNT(*) FROM delivery d WHERE d.webhook_id = w.id AND d.delivered_ms = 0 AND d.due_ms <= ?2) AS pending
                    FROM webhook w WHERE ?1 IS NULL OR w.tenant_id = ?1 ORDER BY w.created_ms, w.id
                    """, arguments: [tenantID, now])
            return rows.map { row in
                var webhook = Self.webhook(from: row)
                webhook.pending = row["pending"]
                return webhook
            }
        }
    }

    public func pushSubscriptions(tenantID: String, personID: String, now: UnixMillis) async throws
        -> [StoredWebhook]
    {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT w.*, (SELECT COUNT(*) FROM delivery d WHERE d.webhook_id = w.id AND d.delivered_ms = 0 AND d.due_ms <= ?3) AS pending
                    FROM webhook w WHERE w.tenant_id = ?1 AND w.person_id = ?2 ORDER BY w.created_ms, w.id
                    """, arguments: [tenantID, personID, now])
            return rows.map { row in
                var webhook = Self.webhook(from: row)
                webhook.pending = row["pending"]
                return webhook
            }
        }
    }

    public func insertWebhook(_ webhook: StoredWebhook) async throws {
        try await pool.write { db in try Self.insert(webhook, db: db) }
    }

    static func insert(_ webhook: StoredWebhook, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO webhook (id, tenant_id, url, secret, events, schedules, created_ms, format, person_id, push_key, label)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                webhook.id, webhook.tenantID, webhook.url, webhook.secret, json(webhook.events),
                json(webhook.schedules), webhook.created, webhook.format.rawValue, webhook.personID, webhook.pushKey,
                webhook.label,
            ])
        // Events already planned for later (handoffs, reminders) are its events too.
        let planned = try Row.fetchAll(
            db, sql: "SELECT * FROM notice WHERE tenant_id = ? AND due_ms > ? ORDER BY due_ms, rowid",
            arguments: [webhook.tenantID, webhook.created]
        ).compactMap(event(from:))
        for event in planned where webhook.wants(event) {
            try db.execute(
                sql: "INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (?, ?, ?, ?)",
                arguments: [webhook.id, webhook.tenantID, event.id, event.due])
        }
    }

    /// The settings part of a revision's transaction (`NotificationSettingsWrite`).
    static func writeSettings(_ write: NotificationSettingsWrite, tenantID: String, db: Database) throws {
        for key in write.removedRules { _ = try removeRule(key, tenantID: tenantID, db: db) }
        for id in write.removedWebhooks {
            try db.execute(sql: "DELETE FROM webhook WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
        }
        for webhook in write.insertedWebhooks { try insert(webhook, db: db) }
        for webhook in write.updatedWebhooks {
            try db.execute(
                sql:
                    "UPDATE webhook SET url = ?, secret = ?, events = ?, schedules = ?, format = ? WHERE tenant_id = ? AND id = ?",
                arguments: [
                    webhook.url, webhook.secret, json(webhook.events), json(webhook.schedules),
                    webhook.format.rawValue, tenantID, webhook.id,
                ])
        }
        for rule in write.insertedRules { try insertRule(rule, tenantID: tenantID, db: db) }
    }

    public func removeWebhook(tenantID: String, id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM webhook WHERE tenant_id = ? AND id = ?", arguments: [tenantID, id])
            return db.changesCount > 0
        }
    }

    public func replaceWebhookSecret(tenantID: String, id: String, secret: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook SET secret = ? WHERE tenant_id = ? AND id = ?", arguments: [secret, tenantID, id])
        }
    }

    // Rules of every kind: one table per kind, the same three columns (`NotificationRuleTable`).

    public func rules<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String) async throws -> [Rule] {
        try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT rule FROM \(Rule.table.rawValue) WHERE tenant_id = ? ORDER BY id",
                arguments: [tenantID]
            )
            .map(Rule.stored)
        }
    }

    public func insertRule<Rule: NotificationRule>(_ rule: Rule, tenantID: String) async throws {
        try await pool.write { db in try Self.insertRule(rule, tenantID: tenantID, db: db) }
    }

    public func removeRule<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String, id: String) async throws -> Bool
    {
        try await pool.write { db in
            try Self.removeRule(NotificationRuleKey(table: Rule.table, id: id), tenantID: tenantID, db: db)
        }
    }

    static func insertRule(_ rule: any NotificationRule, tenantID: String, db: Database) throws {
        try db.execute(
            sql: "INSERT INTO \(type(of: rule).table.rawValue) (tenant_id, id, rule) VALUES (?, ?, ?)",
            arguments: [tenantID, rule.id, try rule.storedText()])
    }

    static func removeRule(_ key: NotificationRuleKey, tenantID: String, db: Database) throws -> Bool {
        try db.execute(
            sql: "DELETE FROM \(key.table.rawValue) WHERE tenant_id = ? AND id = ?", arguments: [tenantID, key.id])
        return db.changesCount > 0
    }

    public func chatCommandSecret(tenantID: String, platform: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT secret FROM chat_command WHERE tenant_id = ? AND platform = ?",
                arguments: [tenantID, platform])
        }
    }

    public func setChatCommandSecret(tenantID: String, platform: String, secret: String?) async throws {
        try await pool.write { db in
            if let secret {
                try db.execute(
                    sql: """
                        INSERT INTO chat_command (tenant_id, platform, secret) VALUES (?, ?, ?)
                        ON CONFLICT (tenant_id, platform) DO UPDATE SET secret = excluded.secret
                        """, arguments: [tenantID, platform, secret])
            } else {
                try db.execute(
                    sql: "DELETE FROM chat_command WHERE tenant_id = ? AND platform = ?",
                    arguments: [tenantID, platform])
            }
        }
    }

    public func chatCommandPlatforms(tenantID: String) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT platform FROM chat_command WHERE tenant_id = ? ORDER BY platform",
                arguments: [tenantID])
        }
    }
}
