import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

/// Webhook deliveries: leasing the next due one per webhook, and recording each attempt.
extension PostgresRosterStore {
    public func deliveryHeads(now: UnixMillis, excluding busy: Set<String>) async throws -> (
        heads: [DueDelivery], nextDue: UnixMillis?
    ) {
        try await transaction { connection in
            // Each enabled webhook's oldest undelivered event; a head another node is sending is
            // locked (skipped) or leased (not ready yet). `d.delivered_ms = 0` again outside the
            // subquery: a row locked after another node's attempt committed is checked again as
            // it is now (the subquery keeps this statement's older snapshot), so a head that node
            // delivered meanwhile is not sent a second time.
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.webhookColumns), d.seq, d.attempts, d.next_attempt_ms, \(unescaped: Self.headNoticeColumns)
                FROM webhook w
                JOIN delivery d ON d.seq = (SELECT d2.seq FROM delivery d2 WHERE d2.webhook_id = w.id AND d2.delivered_ms = 0
                                            ORDER BY d2.due_ms, d2.seq LIMIT 1)
                JOIN notice n ON n.tenant_id = w.tenant_id AND n.id = d.event_id
                WHERE w.disabled_ms = 0 AND d.delivered_ms = 0
                FOR UPDATE OF d SKIP LOCKED
                """)
            typealias HeadRow = (
                String, String, String, String, String, String, Int64, Int64, String, Int64, String, String, String,
                String, Int64, Int32, Int64,
                String, String, String, Int64, Int64, Int64, Bool, String, String, Data, String?
            )
            var heads: [DueDelivery] = []
            var claimed: [Int64] = []
            var nextDue: UnixMillis?
            for row in try rows.decode(HeadRow.self) where !busy.contains(row.0) {
                let notBefore = row.16, due = row.22
                let ready = max(due, notBefore)
                guard ready <= now else {
                    nextDue = min(nextDue ?? .max, ready)
                    continue
                }
                guard
                    let event = Self.event(
                        (row.17, row.18, row.19, row.20, row.21, row.22, row.23, row.24, row.25, row.26, row.27))
                else { continue }
                heads.append(
                    DueDelivery(
                        webhook: Self.webhook(
                            (
                                row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11,
                                row.12, row.13
                            )),
                        event: event, attempts: Int(row.15), notBefore: notBefore))
                claimed.append(row.14)
            }
            // The claim: no other node sends these until the attempt is recorded or the lease ends.
            // It counts as an attempt at once, so a node that takes over from one that died says
            // `Roster-Attempt: 2`, never 1 again; `recordAttempt` then only records.
            for seq in claimed {
                try await connection.query(
                    """
                    UPDATE delivery SET next_attempt_ms = \(now + Self.deliveryLease), attempts = attempts + 1 WHERE seq = \(seq)
                    """)
            }
            // An event's people and payload are read once, however many webhooks it is due to: a
            // handoff's names everyone it puts on duty, and reaches all their phones.
            var shared: [String: (people: [String], payload: Data)] = [:]
            for index in heads.indices {
                let event = heads[index].event
                let key = event.tenantID + "/" + event.id
                if shared[key] == nil {
                    for row in try await connection.query(
                        "SELECT people, payload FROM notice WHERE tenant_id = \(event.tenantID) AND id = \(event.id)"
                    ).decode((String, Data).self) {
                        shared[key] = (Self.list(row.0), row.1)
                    }
                }
                heads[index].event.people = shared[key]?.people ?? []
                heads[index].event.payload = shared[key]?.payload ?? Data()
            }
            return (heads, nextDue)
        }
    }

    public func recordAttempt(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome) async throws {
        try await recordAttempts([(attempt, outcome)])
    }

    @discardableResult
    public func recordAttempts(_ attempts: [(DeliveryAttempt, DeliveryOutcome)]) async throws -> Set<String> {
        try await transaction { connection in
            for (attempt, outcome) in attempts {
                try await Self.record(attempt, outcome: outcome, connection: connection)
            }
            var pending: Set<String> = []
            for webhookID in Set(attempts.map(\.0.webhookID)) {
                for more in try await connection.query(
                    """
                    SELECT EXISTS (SELECT 1 FROM delivery d JOIN webhook w ON w.id = d.webhook_id
                                   WHERE d.webhook_id = \(webhookID) AND d.delivered_ms = 0 AND w.disabled_ms = 0)
                    """
                ).decode(Bool.self) where more { pending.insert(webhookID) }
            }
            return pending
        }
    }

    static func record(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome, connection: PostgresConnection)
        async throws
    {
        var tenant: String?
        for id in try await connection.query("SELECT tenant_id FROM webhook WHERE id = \(attempt.webhookID)")
            .decode(String.self)
        { tenant = id }
        guard let tenantID = tenant else { return }  // removed while the request was out
        try await connection.query(
            """
            INSERT INTO delivery_attempt (tenant_id, webhook_id, event_id, event_type, attempt, at_ms, status, error, duration_ms)
            VALUES (\(tenantID), \(attempt.webhookID), \(attempt.eventID), \(attempt.eventType), \(attempt.attempt), \(attempt.at),
                    \(attempt.status), \(attempt.error), \(attempt.durationMillis))
            """)
        switch outcome {
        case .delivered:
            try await connection.query(
                """
                UPDATE delivery SET delivered_ms = \(attempt.at), next_attempt_ms = 0
                WHERE webhook_id = \(attempt.webhookID) AND event_id = \(attempt.eventID)
                """)
            try await connection.query("UPDATE webhook SET failing_since_ms = 0 WHERE id = \(attempt.webhookID)")
        case .skipped:
            try await connection.query(
                """
                UPDATE delivery SET delivered_ms = \(attempt.at), next_attempt_ms = 0
                WHERE webhook_id = \(attempt.webhookID) AND event_id = \(attempt.eventID)
                """)
        case .retry(let at):
            try await connection.query(
                """
                UPDATE delivery SET next_attempt_ms = \(at)
                WHERE webhook_id = \(attempt.webhookID) AND event_id = \(attempt.eventID)
                """)
            try await connection.query(
                """
                UPDATE webhook SET failing_since_ms = \(attempt.at) WHERE id = \(attempt.webhookID) AND failing_since_ms = 0
                """)
        case .disable(let reason):
            try await connection.query(
                """
                UPDATE delivery SET next_attempt_ms = 0
                WHERE webhook_id = \(attempt.webhookID) AND event_id = \(attempt.eventID)
                """)
            try await connection.query(
                """
                UPDATE webhook SET disabled_ms = \(attempt.at), disabled_reason = \(reason) WHERE id = \(attempt.webhookID)
                """)
        case .hold(let until):
            // The lease is lifted too: the delivery is due again at `until`, not at the lease's end.
            try await connection.query(
                """
                UPDATE delivery SET due_ms = \(until), next_attempt_ms = 0
                WHERE webhook_id = \(attempt.webhookID) AND event_id = \(attempt.eventID)
                """)
        case .remove:
            try await connection.query("DELETE FROM webhook WHERE id = \(attempt.webhookID)")
            try await Self.announceSettings(tenantID: tenantID, connection: connection)
        }
    }

    public func deliveryAttempts(tenantID: String, webhookID: String?, limit: Int) async throws -> [DeliveryAttempt] {
        var found: [DeliveryAttempt] = []
        for row in try await connections.query(
            """
            SELECT webhook_id, event_id, event_type, attempt, at_ms, status, error, duration_ms FROM delivery_attempt
            WHERE tenant_id = \(tenantID) AND (\(webhookID)::text IS NULL OR webhook_id = \(webhookID)) ORDER BY id DESC LIMIT \(limit)
            """
        ).decode((String, String, String, Int32, Int64, Int32?, String, Int32).self) {
            found.append(
                DeliveryAttempt(
                    webhookID: row.0, eventID: row.1, eventType: row.2, attempt: Int(row.3), at: row.4,
                    status: row.5.map(Int.init), error: row.6, durationMillis: Int(row.7)))
        }
        return found
    }
}
