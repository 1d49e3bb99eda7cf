import Foundation
import RosterDomain
import RosterStore

/// The notification settings: webhooks, reminder and announcement rules, chat command secrets.
extension PostgresRosterStore {
    public func webhooks(tenantID: String?, now: UnixMillis) async throws -> [StoredWebhook] {
        try await webhooks(
            """
            SELECT \(unescaped: Self.webhookColumns),
                   (SELECT COUNT(*) FROM delivery d WHERE d.webhook_id = w.id AND d.delivered_ms = 0 AND d.due_ms <= \(now))
            FROM webhook w WHERE \(tenantID)::text IS NULL OR w.tenant_id = \(tenantID) ORDER BY w.created_ms, w.id
            """)
    }

    public func pushSubscriptions(tenantID: String, personID: String, now: UnixMillis) async throws
        -> [StoredWebhook]
    {
        try await webhooks(
            """
            SELECT \(unescaped: Self.webhookColumns),
                   (SELECT COUNT(*) FROM delivery d WHERE d.webhook_id = w.id AND d.delivered_ms = 0 AND d.due_ms <= \(now))
            FROM webhook w WHERE w.tenant_id = \(tenantID) AND w.person_id = \(personID) ORDER BY w.created_ms, w.id
            """)
    }

    /// Webhooks as `query` selects them: the webhook's columns, then its pending count.
    private func webhooks(_ query: PostgresQuery) async throws -> [StoredWebhook] {
        var found: [StoredWebhook] = []
        for row in try await connections.query(query).decode(
            (
                String, String, String, String, String, String, Int64, Int64, String, Int64, String, String, String,
                String, Int64
            ).self
        ) {
            var webhook = Self.webhook(
                (
                    row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11, row.12,
                    row.13
                ))
            webhook.pending = Int(row.14)
            found.append(webhook)
        }
        return found
    }

    public func insertWebhook(_ webhook: StoredWebhook) async throws {
        try await transaction { connection in
            try await Self.insert(webhook, connection: connection)
            try await Self.announceSettings(tenantID: webhook.tenantID, connection: connection)
        }
    }

    static func insert(_ webhook: StoredWebhook, connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO webhook (id, tenant_id, url, secret, events, schedules, created_ms, format, person_id, push_key, label)
            VALUES (\(webhook.id), \(webhook.tenantID), \(webhook.url), \(webhook.secret), \(Self.json(webhook.events)),
                    \(Self.json(webhook.schedules)), \(webhook.created), \(webhook.format.rawValue),
                    \(webhook.personID), \(webhook.pushKey), \(webhook.label))
            """)
        var planned: [NotificationEvent] = []
        for row in try await connection.query(
            """
            SELECT \(unescaped: Self.noticeColumns) FROM notice n WHERE n.tenant_id = \(webhook.tenantID) AND n.due_ms > \(webhook.created)
            ORDER BY n.due_ms, n.seq
            """
        ).decode(NoticeRow.self) {
            if let event = Self.event(row) { planned.append(event) }
        }
        for event in planned where webhook.wants(event) {
            try await connection.query(
                """
                INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (\(webhook.id), \(webhook.tenantID), \(event.id), \(event.due))
                """)
        }
    }

    /// The settings part of a revision's transaction (`NotificationSettingsWrite`).
    static func writeSettings(_ write: NotificationSettingsWrite, tenantID: String, connection: PostgresConnection)
        async throws
    {
        for key in write.removedRules { _ = try await removeRule(key, tenantID: tenantID, connection: connection) }
        for id in write.removedWebhooks {
            try await connection.query("DELETE FROM webhook WHERE tenant_id = \(tenantID) AND id = \(id)")
        }
        for webhook in write.insertedWebhooks { try await insert(webhook, connection: connection) }
        for webhook in write.updatedWebhooks {
            try await connection.query(
                """
                UPDATE webhook SET url = \(webhook.url), secret = \(webhook.secret), events = \(json(webhook.events)),
                schedules = \(json(webhook.schedules)), format = \(webhook.format.rawValue) WHERE tenant_id = \(tenantID) AND id = \(webhook.id)
                """)
        }
        for rule in write.insertedRules { try await insertRule(rule, tenantID: tenantID, connection: connection) }
        try await announceSettings(tenantID: tenantID, connection: connection)
    }

    /// The other nodes read the tenant's webhooks and reminder rules again when they hear this.
    static func announceSettings(tenantID: String, connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(channel), \("w:\(tenantID)"))")
    }

    public func removeWebhook(tenantID: String, id: String) async throws -> Bool {
        try await transaction { connection in
            var removed = false
            for _ in try await connection.query(
                "DELETE FROM webhook WHERE tenant_id = \(tenantID) AND id = \(id) RETURNING id"
            ).decode(String.self) { removed = true }
            try await Self.announceSettings(tenantID: tenantID, connection: connection)
            return removed
        }
    }

    public func replaceWebhookSecret(tenantID: String, id: String, secret: String) async throws {
        _ = try await connections.query(
            "UPDATE webhook SET secret = \(secret) WHERE tenant_id = \(tenantID) AND id = \(id)")
    }

    // Rules of every kind: one table per kind, the same three columns (`NotificationRuleTable`).
    // A change is announced to the other nodes in its transaction.

    public func rules<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String) async throws -> [Rule] {
        try await connections.query(
            "SELECT rule FROM \(unescaped: Rule.table.rawValue) WHERE tenant_id = \(tenantID) ORDER BY id"
        )
        .decode(String.self).map(Rule.stored)
    }

    public func insertRule<Rule: NotificationRule>(_ rule: Rule, tenantID: String) async throws {
        try await transaction { connection in
            try await Self.insertRule(rule, tenantID: tenantID, connection: connection)
            try await Self.announceSettings(tenantID: tenantID, connection: connection)
        }
    }

    public func removeRule<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String, id: String) async throws -> Bool
    {
        try await transaction { connection in
            let removed = try await Self.removeRule(
                NotificationRuleKey(table: Rule.table, id: id), tenantID: tenantID, connection: connection)
            try await Self.announceSettings(tenantID: tenantID, connection: connection)
            return removed
        }
    }

    static func insertRule(_ rule: any NotificationRule, tenantID: String, connection: PostgresConnection) async throws
    {
        let text = try rule.storedText()
        try await connection.query(
            "INSERT INTO \(unescaped: type(of: rule).table.rawValue) (tenant_id, id, rule) VALUES (\(tenantID), \(rule.id), \(text))"
        )
    }

    static func removeRule(_ key: NotificationRuleKey, tenantID: String, connection: PostgresConnection) async throws
        -> Bool
    {
        try await !connection.query(
            "DELETE FROM \(unescaped: key.table.rawValue) WHERE tenant_id = \(tenantID) AND id = \(key.id) RETURNING id"
        )
        .decode(String.self).isEmpty
    }

    public func chatCommandSecret(tenantID: String, platform: String) async throws -> String? {
        var secret: String?
        for value in try await connections.query(
            "SELECT secret FROM chat_command WHERE tenant_id = \(tenantID) AND platform = \(platform)"
        )
        .decode(String.self) { secret = value }
        return secret
    }

    public func setChatCommandSecret(tenantID: String, platform: String, secret: String?) async throws {
        if let secret {
            _ = try await connections.query(
                """
                INSERT INTO chat_command (tenant_id, platform, secret) VALUES (\(tenantID), \(platform), \(secret))
                ON CONFLICT (tenant_id, platform) DO UPDATE SET secret = excluded.secret
                """)
        } else {
            _ = try await connections.query(
                "DELETE FROM chat_command WHERE tenant_id = \(tenantID) AND platform = \(platform)")
        }
    }

    public func chatCommandPlatforms(tenantID: String) async throws -> [String] {
        try await connections.query("SELECT platform FROM chat_command WHERE tenant_id = \(tenantID) ORDER BY platform")
            .decode(String.self)
    }
}
