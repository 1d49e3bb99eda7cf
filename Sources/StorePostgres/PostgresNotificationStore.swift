import Foundation
import RosterDomain
import RosterStore

/// The notification tables in PostgreSQL. Work that must happen once although every node runs
/// a dispatcher is claimed in the database: publishing takes an advisory lock (one node assigns
/// the sequences), and a webhook's head delivery is claimed with `FOR UPDATE SKIP LOCKED` and a
/// lease, so only one node sends it; events are idempotent by id either way.
extension PostgresRosterStore {
    /// How long a node's claim on a delivery holds before another node may send it (the node
    /// died mid-request). Longer than any webhook timeout.
    public static let deliveryLease: Int64 = 120_000

    static let notificationMigration = """
        CREATE TABLE webhook (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            url TEXT NOT NULL,
            secret TEXT NOT NULL,
            events TEXT NOT NULL,
            schedules TEXT NOT NULL,
            created_ms BIGINT NOT NULL,
            disabled_ms BIGINT NOT NULL DEFAULT 0,
            disabled_reason TEXT NOT NULL DEFAULT '',
            failing_since_ms BIGINT NOT NULL DEFAULT 0
        );
        CREATE TABLE notice (
            seq BIGSERIAL,
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            type TEXT NOT NULL,
            revision BIGINT NOT NULL,
            about_ms BIGINT NOT NULL,
            due_ms BIGINT NOT NULL,
            planned BOOLEAN NOT NULL,
            schedules TEXT NOT NULL,
            people TEXT NOT NULL,
            payload BYTEA NOT NULL,
            sequence BIGINT,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE INDEX notice_by_due ON notice(tenant_id, due_ms);
        CREATE INDEX notice_unpublished ON notice(due_ms) WHERE sequence IS NULL;
        CREATE INDEX notice_by_sequence ON notice(tenant_id, sequence) WHERE sequence IS NOT NULL;
        CREATE TABLE delivery (
            seq BIGSERIAL PRIMARY KEY,
            webhook_id TEXT NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
            tenant_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            due_ms BIGINT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_ms BIGINT NOT NULL DEFAULT 0,
            delivered_ms BIGINT NOT NULL DEFAULT 0,
            UNIQUE (webhook_id, event_id)
        );
        CREATE INDEX delivery_pending ON delivery(webhook_id, due_ms) WHERE delivered_ms = 0;
        CREATE INDEX delivery_by_event ON delivery(tenant_id, event_id);
        CREATE TABLE delivery_attempt (
            id BIGSERIAL PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            webhook_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            event_type TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            at_ms BIGINT NOT NULL,
            status INTEGER,
            error TEXT NOT NULL,
            duration_ms INTEGER NOT NULL
        );
        CREATE INDEX delivery_attempt_by_tenant ON delivery_attempt(tenant_id, id);
        CREATE TABLE reminder_rule (
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            rule TEXT NOT NULL,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE TABLE notice_plan (
            tenant_id TEXT PRIMARY KEY,
            planned_through_ms BIGINT NOT NULL
        )
        """

    static func json(_ list: [String]) -> String {
        String(decoding: try! JSONEncoder().encode(list), as: UTF8.self)
    }

    static func list(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    static let webhookColumns =
        "w.id, w.tenant_id, w.url, w.secret, w.events, w.schedules, w.created_ms, w.disabled_ms, w.disabled_reason, w.failing_since_ms, w.format, w.person_id, w.push_key, w.label"
    typealias WebhookRow = (
        String, String, String, String, String, String, Int64, Int64, String, Int64, String, String, String, String
    )

    static func webhook(_ row: WebhookRow) -> StoredWebhook {
        StoredWebhook(
            id: row.0, tenantID: row.1, url: row.2, secret: row.3, events: list(row.4), schedules: list(row.5),
            created: row.6,
            disabledAt: row.7 == 0 ? nil : row.7, disabledReason: row.8, failingSince: row.9 == 0 ? nil : row.9,
            format: WebhookFormat(rawValue: row.10) ?? .json, personID: row.11, pushKey: row.12, label: row.13)
    }

    static let noticeColumns =
        "n.id, n.tenant_id, n.type, n.revision, n.about_ms, n.due_ms, n.planned, n.schedules, n.people, n.payload, n.webhook_id"
    typealias NoticeRow = (String, String, String, Int64, Int64, Int64, Bool, String, String, Data, String?)
    /// `noticeColumns` without the people and the payload, which `deliveryHeads` reads once per event.
    static let headNoticeColumns =
        "n.id, n.tenant_id, n.type, n.revision, n.about_ms, n.due_ms, n.planned, n.schedules, ''::text, ''::bytea, n.webhook_id"

    static func event(_ row: NoticeRow) -> NotificationEvent? {
        guard let type = NotificationType(rawValue: row.2) else { return nil }
        return NotificationEvent(
            id: row.0, type: type, tenantID: row.1, revision: UInt64(row.3), about: row.4, due: row.5, planned: row.6,
            scheduleIDs: list(row.7), people: list(row.8), payload: row.9, webhookID: row.10)
    }

    public func settingsMark(tenantID: String) async throws -> String? {
        try await connections.withConnection { connection in
            try await Self.settingsMark(tenantID: tenantID, connection: connection)
        }
    }

    /// A digest of what a node derives a tenant's events from: its webhooks, its reminder rules
    /// and whether its planning has started.
    static func settingsMark(tenantID: String, connection: PostgresConnection) async throws -> String {
        var mark = ""
        for value in try await connection.query(
            """
            SELECT md5(coalesce((SELECT string_agg(id, ',' ORDER BY id) FROM webhook WHERE tenant_id = \(tenantID)), '')
                       || '#' || coalesce((SELECT string_agg(id || '=' || rule, ',' ORDER BY id) FROM reminder_rule
                                           WHERE tenant_id = \(tenantID)), '')
                       || '#' || coalesce((SELECT string_agg(id || '=' || rule, ',' ORDER BY id) FROM announce_rule
                                           WHERE tenant_id = \(tenantID)), '')
                       || '#' || coalesce((SELECT 'planned' FROM notice_plan WHERE tenant_id = \(tenantID)), ''))
            """
        ).decode(String.self) { mark = value }
        return mark
    }

    public func laterAnnouncement(after head: DueDelivery, within window: UnixMillis) async throws -> Bool {
        var found = false
        for value in try await connections.query(
            """
            SELECT EXISTS (SELECT 1 FROM delivery d JOIN notice n ON n.tenant_id = d.tenant_id AND n.id = d.event_id
            WHERE d.webhook_id = \(head.webhook.id) AND d.delivered_ms = 0 AND n.type = 'announcement'
            AND n.schedules = \(Self.json(head.event.scheduleIDs)) AND n.about_ms > \(head.event.about)
            AND n.about_ms <= \(head.event.about + window) AND n.id != \(head.event.id))
            """
        ).decode(Bool.self) { found = value }
        return found
    }

    public func plannedThrough(tenantID: String) async throws -> UnixMillis? {
        var through: UnixMillis?
        for value in try await connections.query(
            "SELECT planned_through_ms FROM notice_plan WHERE tenant_id = \(tenantID)"
        )
        .decode(Int64.self) { through = value }
        return through
    }

    public func writeOutbox(tenantID: String, _ write: OutboxWrite) async throws {
        guard !write.isEmpty else { return }
        try await transaction { connection in
            // Serialized with the tenant's commits on every node (which hold the same lock).
            try await connection.query("SELECT 1 FROM tenant WHERE id = \(tenantID) FOR UPDATE")
            try await Self.writeOutbox(write, tenantID: tenantID, connection: connection)
        }
    }

    /// The outbox part of a transaction (also called from `commit`).
    static func writeOutbox(_ write: OutboxWrite, tenantID: String, connection: PostgresConnection) async throws {
        if let assumed = write.settingsMark,
            try await settingsMark(tenantID: tenantID, connection: connection) != assumed
        {
            throw StoreError.settingsMoved(tenant: tenantID)
        }
        if !write.settings.isEmpty {
            try await writeSettings(write.settings, tenantID: tenantID, connection: connection)
        }
        if let (from, schedules) = write.withdrawPlanned {
            if let assumed = write.replannedThrough {
                var stored: Int64?
                for value in try await connection.query(
                    "SELECT planned_through_ms FROM notice_plan WHERE tenant_id = \(tenantID)"
                ).decode(Int64.self) { stored = value }
                guard stored == assumed else { throw StoreError.planMoved(tenant: tenantID) }
            }
            let withdrawn = """
                SELECT n.id FROM notice n WHERE n.tenant_id = $1 AND n.planned AND n.due_ms >= $2 AND n.sequence IS NULL
                AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(n.schedules::jsonb) s
                                                 WHERE s IN (SELECT jsonb_array_elements_text($3::jsonb))))
                AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.tenant_id = $1 AND d.event_id = n.id AND d.attempts > 0)
                """
            var binds = PostgresBindings()
            binds.append(tenantID)
            binds.append(from)
            binds.append(schedules.map(json))
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "DELETE FROM delivery WHERE tenant_id = $1 AND event_id IN (\(withdrawn))",
                    binds: binds))
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "DELETE FROM notice WHERE tenant_id = $1 AND id IN (\(withdrawn))",
                    binds: binds))
        }
        if !write.events.isEmpty {
            var webhooks: [StoredWebhook] = []
            for row in try await connection.query(
                """
                SELECT \(unescaped: webhookColumns) FROM webhook w WHERE w.tenant_id = \(tenantID) AND w.disabled_ms = 0
                """
            ).decode(WebhookRow.self) {
                webhooks.append(webhook(row))
            }
            for event in write.events {
                var inserted = false
                for _ in try await connection.query(
                    """
                    INSERT INTO notice (tenant_id, id, type, revision, about_ms, due_ms, planned, schedules, people, payload, webhook_id)
                    VALUES (\(tenantID), \(event.id), \(event.type.rawValue), \(Int64(event.revision)), \(event.about), \(event.due),
                            \(event.planned), \(json(event.scheduleIDs)), \(json(event.people)), \(event.payload), \(event.webhookID))
                    ON CONFLICT DO NOTHING RETURNING seq
                    """
                ).decode(Int64.self) { inserted = true }
                // Already stored (another node planned the same event): its deliveries exist.
                guard inserted else { continue }
                for webhook in webhooks where webhook.wants(event) {
                    try await connection.query(
                        """
                        INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (\(webhook.id), \(tenantID), \(event.id), \(event.due))
                        """)
                }
            }
        }
        if let through = write.plannedThrough {
            try await connection.query(
                """
                INSERT INTO notice_plan (tenant_id, planned_through_ms) VALUES (\(tenantID), \(through))
                ON CONFLICT (tenant_id) DO UPDATE SET planned_through_ms = GREATEST(notice_plan.planned_through_ms, excluded.planned_through_ms)
                """)
        }
    }

    public func publishDue(now: UnixMillis) async throws -> (
        published: [String: [PublishedNotice]], nextDue: UnixMillis?
    ) {
        try await transaction { connection in
            var nextDue: UnixMillis?
            for value in try await connection.query(
                """
                SELECT MIN(due_ms) FROM notice WHERE sequence IS NULL AND type != 'ping' AND webhook_id IS NULL
                """
            ).decode(Int64?.self) { nextDue = value }
            guard let due = nextDue, due <= now else { return ([:], nextDue) }
            // One node publishes at a time; the others find the notices published and hear of them.
            var locked = false
            for value in try await connection.query("SELECT pg_try_advisory_xact_lock(7400002)").decode(Bool.self) {
                locked = value
            }
            guard locked else { return ([:], now + 1_000) }
            var events: [NotificationEvent] = []
            for row in try await connection.query(
                """
                SELECT \(unescaped: Self.noticeColumns) FROM notice n WHERE n.sequence IS NULL AND n.due_ms <= \(now) AND n.type != 'ping' AND n.webhook_id IS NULL
                ORDER BY n.due_ms, n.seq
                """
            ).decode(NoticeRow.self) {
                if let event = Self.event(row) { events.append(event) }
            }
            var published: [String: [PublishedNotice]] = [:]
            var next: [String: UInt64] = [:]
            for event in events {
                let tenant = event.tenantID
                if next[tenant] == nil {
                    var last: Int64 = 0
                    for value in try await connection.query(
                        "SELECT MAX(sequence) FROM notice WHERE tenant_id = \(tenant)"
                    ).decode(Int64?.self) { last = value ?? 0 }
                    next[tenant] = UInt64(last) + 1
                }
                let sequence = next[tenant]!
                next[tenant] = sequence + 1
                try await connection.query(
                    "UPDATE notice SET sequence = \(Int64(sequence)) WHERE tenant_id = \(tenant) AND id = \(event.id)")
                published[tenant, default: []].append(PublishedNotice(sequence: sequence, event: event))
            }
            for tenant in published.keys {
                try await connection.query("SELECT pg_notify(\(Self.channel), \("n:\(tenant)"))")
            }
            var after: UnixMillis?
            for value in try await connection.query(
                """
                SELECT MIN(due_ms) FROM notice WHERE sequence IS NULL AND type != 'ping' AND webhook_id IS NULL
                """
            ).decode(Int64?.self) { after = value }
            return (published, after)
        }
    }

    public func publishedNotices(tenantID: String, limit: Int) async throws -> [PublishedNotice] {
        var found: [PublishedNotice] = []
        for row in try await connections.query(
            """
            SELECT \(unescaped: Self.noticeColumns), n.sequence FROM notice n WHERE n.tenant_id = \(tenantID) AND n.sequence IS NOT NULL
            ORDER BY n.sequence DESC LIMIT \(limit)
            """
        ).decode((String, String, String, Int64, Int64, Int64, Bool, String, String, Data, String?, Int64).self) {
            if let event = Self.event((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10)) {
                found.append(PublishedNotice(sequence: UInt64(row.11), event: event))
            }
        }
        return found.reversed()
    }

    public func enqueue(_ event: NotificationEvent, forWebhook webhookID: String) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO notice (tenant_id, id, type, revision, about_ms, due_ms, planned, schedules, people, payload, webhook_id)
                VALUES (\(event.tenantID), \(event.id), \(event.type.rawValue), \(Int64(event.revision)), \(event.about), \(event.due), false,
                        \(Self.json(event.scheduleIDs)), \(Self.json(event.people)), \(event.payload), \(webhookID))
                """)
            try await connection.query(
                """
                INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (\(webhookID), \(event.tenantID), \(event.id), \(event.due))
                """)
        }
    }

    public func notices(tenantID: String) async throws -> [NotificationEvent] {
        var found: [NotificationEvent] = []
        for row in try await connections.query(
            """
            SELECT \(unescaped: Self.noticeColumns) FROM notice n WHERE n.tenant_id = \(tenantID) ORDER BY n.due_ms, n.seq
            """
        ).decode(NoticeRow.self) {
            if let event = Self.event(row) { found.append(event) }
        }
        return found
    }

    public func pruneNotices(before: UnixMillis) async throws -> Int {
        try await transaction { connection in
            try await connection.query("DELETE FROM delivery_attempt WHERE at_ms < \(before)")
            try await connection.query("DELETE FROM delivery WHERE delivered_ms != 0 AND delivered_ms < \(before)")
            var count = 0
            for _ in try await connection.query(
                """
                DELETE FROM notice n WHERE n.due_ms < \(before)
                AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.tenant_id = n.tenant_id AND d.event_id = n.id) RETURNING n.id
                """
            ).decode(String.self) { count += 1 }
            return count
        }
    }
}
