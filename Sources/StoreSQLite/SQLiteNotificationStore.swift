import Foundation
import GRDB
import RosterDomain
import RosterStore

extension SQLiteRosterStore {

    static func json(_ list: [String]) -> String {
        String(decoding: try! JSONEncoder().encode(list), as: UTF8.self)
    }

    static func list(_ text: String) -> [String] {
        // Most lists are empty (a push subscription's events and schedules): no decoder for those.
        if text == "[]" || text.isEmpty { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// `columns`, when given, says where each column of `row` is (a query that reads thousands).
    static func webhook(from row: Row, columns: ColumnIndex? = nil) -> StoredWebhook {
        func value<Value: DatabaseValueConvertible>(_ name: String) -> Value {
            if let columns { return columns(row, name) }
            return row[name]
        }
        let disabled: Int64 = value("disabled_ms"), failing: Int64 = value("failing_since_ms")
        return StoredWebhook(
            id: value("id"), tenantID: value("tenant_id"), url: value("url"), secret: value("secret"),
            events: list(value("events")), schedules: list(value("schedules")), created: value("created_ms"),
            disabledAt: disabled == 0 ? nil : disabled, disabledReason: value("disabled_reason"),
            failingSince: failing == 0 ? nil : failing, format: WebhookFormat(rawValue: value("format")) ?? .json,
            personID: value("person_id"), pushKey: value("push_key"), label: value("label"))
    }

    static func event(from row: Row) -> NotificationEvent? {
        guard let type = NotificationType(rawValue: row["type"]) else { return nil }
        let revision: Int64 = row["revision"], planned: Int64 = row["planned"]
        return NotificationEvent(
            id: row["id"], type: type, tenantID: row["tenant_id"], revision: UInt64(revision),
            about: row["about_ms"], due: row["due_ms"], planned: planned != 0,
            scheduleIDs: list(row["schedules"]), people: list(row["people"]), payload: row["payload"],
            webhookID: row["webhook_id"])
    }

    public func settingsMark(tenantID: String) async throws -> String? { nil }

    public func laterAnnouncement(after head: DueDelivery, within window: UnixMillis) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM delivery d JOIN notice n ON n.tenant_id = d.tenant_id AND n.id = d.event_id
                    WHERE d.webhook_id = ? AND d.delivered_ms = 0 AND n.type = 'announcement' AND n.schedules = ?
                    AND n.about_ms > ? AND n.about_ms <= ? AND n.id != ?)
                    """,
                arguments: [
                    head.webhook.id, Self.json(head.event.scheduleIDs), head.event.about, head.event.about + window,
                    head.event.id,
                ]) ?? false
        }
    }

    public func plannedThrough(tenantID: String) async throws -> UnixMillis? {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT planned_through_ms FROM notice_plan WHERE tenant_id = ?", arguments: [tenantID])
        }
    }

    public func writeOutbox(tenantID: String, _ write: OutboxWrite) async throws {
        guard !write.isEmpty else { return }
        try await pool.write { db in try Self.writeOutbox(write, tenantID: tenantID, db: db) }
    }

    /// The outbox part of a transaction (also called from `commit`).
    package static func writeOutbox(_ write: OutboxWrite, tenantID: String, db: Database) throws {
        if !write.settings.isEmpty { try writeSettings(write.settings, tenantID: tenantID, db: db) }
        if let (from, schedules) = write.withdrawPlanned {
            if let assumed = write.replannedThrough,
                try Int64.fetchOne(
                    db, sql: "SELECT planned_through_ms FROM notice_plan WHERE tenant_id = ?", arguments: [tenantID])
                    != assumed
            {
                throw StoreError.planMoved(tenant: tenantID)
            }
            // ?3: a JSON array of schedule ids, or NULL for every schedule.
            let withdrawn = """
                SELECT id FROM notice WHERE tenant_id = ?1 AND planned = 1 AND due_ms >= ?2 AND sequence IS NULL
                AND (?3 IS NULL OR EXISTS (SELECT 1 FROM json_each(notice.schedules) s WHERE s.value IN (SELECT value FROM json_each(?3))))
                AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.tenant_id = ?1 AND d.event_id = notice.id AND d.attempts > 0)
                """
            let arguments: StatementArguments = [tenantID, from, schedules.map(json)]
            try db.execute(
                sql: "DELETE FROM delivery WHERE tenant_id = ?1 AND event_id IN (\(withdrawn))", arguments: arguments)
            try db.execute(
                sql: "DELETE FROM notice WHERE tenant_id = ?1 AND id IN (\(withdrawn))", arguments: arguments)
        }
        if !write.events.isEmpty {
            let webhooks = try Row.fetchAll(
                db, sql: "SELECT * FROM webhook WHERE tenant_id = ? AND disabled_ms = 0",
                arguments: [tenantID]
            ).map { webhook(from: $0) }
            for event in write.events {
                try db.execute(
                    sql: """
                        INSERT INTO notice (tenant_id, id, type, revision, about_ms, due_ms, planned, schedules, people, payload, webhook_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                        """,
                    arguments: [
                        tenantID, event.id, event.type.rawValue, Int64(event.revision), event.about, event.due,
                        event.planned ? 1 : 0, json(event.scheduleIDs), json(event.people), event.payload,
                        event.webhookID,
                    ])
                guard db.changesCount > 0 else { continue }
                for webhook in webhooks where webhook.wants(event) {
                    try db.execute(
                        sql: "INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (?, ?, ?, ?)",
                        arguments: [webhook.id, tenantID, event.id, event.due])
                }
            }
        }
        if let through = write.plannedThrough {
            try db.execute(
                sql: """
                    INSERT INTO notice_plan (tenant_id, planned_through_ms) VALUES (?, ?)
                    ON CONFLICT (tenant_id) DO UPDATE SET planned_through_ms = excluded.planned_through_ms
                    """, arguments: [tenantID, through])
        }
    }

    public func publishDue(now: UnixMillis) async throws -> (
        published: [String: [PublishedNotice]], nextDue: UnixMillis?
    ) {
        // Asked about once a second: look first, and take the write lock (which `roster-server
        // token create` and other tools also need) only when something is due.
        let (anyDue, nextDue) = try await pool.read { db in
            (
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM notice WHERE sequence IS NULL AND due_ms <= ? AND type != 'ping' AND webhook_id IS NULL)
                        """, arguments: [now]) ?? false,
                try Int64.fetchOne(
                    db,
                    sql:
                        "SELECT MIN(due_ms) FROM notice WHERE sequence IS NULL AND type != 'ping' AND webhook_id IS NULL"
                )
            )
        }
        guard anyDue else { return ([:], nextDue) }
        return try await pool.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM notice WHERE sequence IS NULL AND due_ms <= ? AND type != 'ping' AND webhook_id IS NULL ORDER BY due_ms, rowid
                    """, arguments: [now])
            var published: [String: [PublishedNotice]] = [:]
            var next: [String: UInt64] = [:]
            for row in rows {
                guard let event = Self.event(from: row) else { continue }
                let tenant = event.tenantID
                if next[tenant] == nil {
                    let last =
                        try Int64.fetchOne(
                            db, sql: "SELECT MAX(sequence) FROM notice WHERE tenant_id = ?", arguments: [tenant]) ?? 0
                    next[tenant] = UInt64(last) + 1
                }
                let sequence = next[tenant]!
                next[tenant] = sequence + 1
                try db.execute(
                    sql: "UPDATE notice SET sequence = ? WHERE tenant_id = ? AND id = ?",
                    arguments: [Int64(sequence), tenant, event.id])
                published[tenant, default: []].append(PublishedNotice(sequence: sequence, event: event))
            }
            let nextDue = try Int64.fetchOne(
                db,
                sql: "SELECT MIN(due_ms) FROM notice WHERE sequence IS NULL AND type != 'ping' AND webhook_id IS NULL")
            return (published, nextDue)
        }
    }

    public func publishedNotices(tenantID: String, limit: Int) async throws -> [PublishedNotice] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM notice WHERE tenant_id = ? AND sequence IS NOT NULL ORDER BY sequence DESC LIMIT ?
                    """, arguments: [tenantID, limit]
            ).reversed().compactMap { row in
                Self.event(from: row).map { PublishedNotice(sequence: UInt64(row["sequence"] as Int64), event: $0) }
            }
        }
    }

    public func enqueue(_ event: NotificationEvent, forWebhook webhookID: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO notice (tenant_id, id, type, revision, about_ms, due_ms, planned, schedules, people, payload, webhook_id)
                    VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
                    """,
                arguments: [
                    event.tenantID, event.id, event.type.rawValue, Int64(event.revision), event.about, event.due,
                    Self.json(event.scheduleIDs), Self.json(event.people), event.payload, webhookID,
                ])
            try db.execute(
                sql: "INSERT INTO delivery (webhook_id, tenant_id, event_id, due_ms) VALUES (?, ?, ?, ?)",
                arguments: [webhookID, event.tenantID, event.id, event.due])
        }
    }

    /// Each ready head handed out is counted as an attempt at once (`attempts + 1`): a send whose
    /// outcome never got recorded (the process died) still counts, so the next try's
    /// `Roster-Attempt` is one higher, never 1 again. `recordAttempt` then only records.
    public func deliveryHeads(now: UnixMillis, excluding busy: Set<String>) async throws -> (
        heads: [DueDelivery], nextDue: UnixMillis?
    ) {
        try await pool.write { db in
            // The webhook's id and when its head is ready come first, read by position: during a
            // handoff to thousands of phones most webhooks are busy each round, and are skipped
            // before their row is copied (reading columns by name was a tenth of the handoff's CPU).
            let cursor = try Row.fetchCursor(
                db,
                sql: """
                    SELECT w.id AS head_webhook, MAX(n.due_ms, d.next_attempt_ms) AS head_ready,
                           w.*, d.rowid AS delivery_rowid, d.attempts, d.next_attempt_ms, n.id AS event_id, n.type, n.revision, n.about_ms, n.due_ms,
                           n.planned, n.schedules AS event_schedules, n.webhook_id AS event_webhook
                    FROM webhook w
                    JOIN delivery d ON d.rowid = (
                        SELECT d2.rowid FROM delivery d2 WHERE d2.webhook_id = w.id AND d2.delivered_ms = 0
                        ORDER BY d2.due_ms, d2.rowid LIMIT 1)
                    JOIN notice n ON n.tenant_id = w.tenant_id AND n.id = d.event_id
                    WHERE w.disabled_ms = 0
                    """)
            let columns = ColumnIndex(cursor.columnNames)
            var rows: [Row] = []
            var nextDue: UnixMillis?
            while let row = try cursor.next() {
                let webhookID: String = row[0], ready: Int64 = row[1]
                guard !busy.contains(webhookID) else { continue }
                guard ready <= now else {
                    nextDue = min(nextDue ?? .max, ready)
                    continue
                }
                rows.append(row.copy())
            }
            func value<Value: DatabaseValueConvertible>(_ row: Row, _ name: String) -> Value { columns(row, name) }
            var heads: [DueDelivery] = []
            // An event's people and payload are read once, however many webhooks it is due to: a
            // handoff's names everyone it puts on duty, and reaches all their phones.
            var shared: [String: (people: [String], payload: Data)] = [:]
            for row in rows {
                let due: Int64 = value(row, "due_ms"), notBefore: Int64 = value(row, "next_attempt_ms")
                guard let type = NotificationType(rawValue: value(row, "type")) else { continue }
                let revision: Int64 = value(row, "revision"), planned: Int64 = value(row, "planned")
                let tenantID: String = value(row, "tenant_id"), eventID: String = value(row, "event_id")
                let key = tenantID + "/" + eventID
                if shared[key] == nil {
                    let read = try Row.fetchOne(
                        db, sql: "SELECT people, payload FROM notice WHERE tenant_id = ? AND id = ?",
                        arguments: [tenantID, eventID])
                    shared[key] = (Self.list(read?["people"] ?? ""), read?["payload"] ?? Data())
                }
                let event = NotificationEvent(
                    id: eventID, type: type, tenantID: tenantID, revision: UInt64(revision),
                    about: value(row, "about_ms"), due: due, planned: planned != 0,
                    scheduleIDs: Self.list(value(row, "event_schedules")), people: shared[key]?.people ?? [],
                    payload: shared[key]?.payload ?? Data(), webhookID: value(row, "event_webhook"))
                heads.append(
                    DueDelivery(
                        webhook: Self.webhook(from: row, columns: columns), event: event,
                        attempts: value(row, "attempts"), notBefore: notBefore))
                let deliveryRow: Int64 = value(row, "delivery_rowid")
                try db.cachedStatement(sql: "UPDATE delivery SET attempts = attempts + 1 WHERE rowid = ?")
                    .execute(arguments: [deliveryRow])
            }
            return (heads, nextDue)
        }
    }

    public func recordAttempt(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome) async throws {
        try await recordAttempts([(attempt, outcome)])
    }

    @discardableResult
    public func recordAttempts(_ attempts: [(DeliveryAttempt, DeliveryOutcome)]) async throws -> Set<String> {
        try await pool.write { db in
            for (attempt, outcome) in attempts { try Self.record(attempt, outcome: outcome, db: db) }
            var pending: Set<String> = []
            for webhookID in Set(attempts.map(\.0.webhookID)) {
                let more = try Bool.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT EXISTS (SELECT 1 FROM delivery d JOIN webhook w ON w.id = d.webhook_id
                                           WHERE d.webhook_id = ?1 AND d.delivered_ms = 0 AND w.disabled_ms = 0)
                            """), arguments: [webhookID])
                if more == true { pending.insert(webhookID) }
            }
            return pending
        }
    }

    static func record(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome, db: Database) throws {
        // Prepared once per connection: a handoff records thousands of outcomes with these.
        func execute(sql: String, arguments: StatementArguments) throws {
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
        }
        // The attempt takes its webhook's tenant; nothing is written for a webhook removed while
        // the request was out.
        try execute(
            sql: """
                INSERT INTO delivery_attempt (tenant_id, webhook_id, event_id, event_type, attempt, at_ms, status, error, duration_ms)
                SELECT tenant_id, id, ?, ?, ?, ?, ?, ?, ? FROM webhook WHERE id = ?
                """,
            arguments: [
                attempt.eventID, attempt.eventType, attempt.attempt, attempt.at, attempt.status, attempt.error,
                attempt.durationMillis, attempt.webhookID,
            ])
        guard db.changesCount > 0 else { return }
        switch outcome {
        case .delivered:
            try execute(
                sql: """
                    UPDATE delivery SET delivered_ms = ? WHERE webhook_id = ? AND event_id = ?
                    """, arguments: [attempt.at, attempt.webhookID, attempt.eventID])
            try execute(
                sql: "UPDATE webhook SET failing_since_ms = 0 WHERE id = ? AND failing_since_ms != 0",
                arguments: [attempt.webhookID])
        case .skipped:
            try execute(
                sql: """
                    UPDATE delivery SET delivered_ms = ? WHERE webhook_id = ? AND event_id = ?
                    """, arguments: [attempt.at, attempt.webhookID, attempt.eventID])
        case .retry(let at):
            try execute(
                sql: """
                    UPDATE delivery SET next_attempt_ms = ? WHERE webhook_id = ? AND event_id = ?
                    """, arguments: [at, attempt.webhookID, attempt.eventID])
            try execute(
                sql: "UPDATE webhook SET failing_since_ms = ? WHERE id = ? AND failing_since_ms = 0",
                arguments: [attempt.at, attempt.webhookID])
        case .disable(let reason):
            try execute(
                sql: "UPDATE webhook SET disabled_ms = ?, disabled_reason = ? WHERE id = ?",
                arguments: [attempt.at, reason, attempt.webhookID])
        case .hold(let until):
            try execute(
                sql: "UPDATE delivery SET due_ms = ? WHERE webhook_id = ? AND event_id = ?",
                arguments: [until, attempt.webhookID, attempt.eventID])
        case .remove:
            try execute(sql: "DELETE FROM webhook WHERE id = ?", arguments: [attempt.webhookID])
        }
    }

    public func deliveryAttempts(tenantID: String, webhookID: String?, limit: Int) async throws -> [DeliveryAttempt] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM delivery_attempt WHERE tenant_id = ?1 AND (?2 IS NULL OR webhook_id = ?2) ORDER BY id DESC LIMIT ?3
                    """, arguments: [tenantID, webhookID, limit]
            ).map { row in
                DeliveryAttempt(
                    webhookID: row["webhook_id"], eventID: row["event_id"], eventType: row["event_type"],
                    attempt: row["attempt"], at: row["at_ms"], status: row["status"], error: row["error"],
                    durationMillis: row["duration_ms"])
            }
        }
    }

    public func notices(tenantID: String) async throws -> [NotificationEvent] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM notice WHERE tenant_id = ? ORDER BY due_ms, rowid", arguments: [tenantID]
            )
            .compactMap(Self.event(from:))
        }
    }

    public func pruneNotices(before: UnixMillis) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM delivery_attempt WHERE at_ms < ?", arguments: [before])
            try db.execute(
                sql: "DELETE FROM delivery WHERE delivered_ms != 0 AND delivered_ms < ?", arguments: [before])
            // An event goes once no delivery of it is pending.
            try db.execute(
                sql: """
                    DELETE FROM notice WHERE due_ms < ?
                    AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.tenant_id = notice.tenant_id AND d.event_id = notice.id)
                    """, arguments: [before])
            return db.changesCount
        }
    }
}
