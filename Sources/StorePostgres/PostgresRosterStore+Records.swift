import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

/// Tokens, the audit log and calendar feeds in the shared store.
extension PostgresRosterStore {
    // MARK: Tokens

    public func loadTokens() async throws -> [StoredToken] {
        var tokens: [StoredToken] = []
        let rows = try await connections.query(
            """
            SELECT id, tenant_id, role, secret_sha256, label, created_at_ms, expires_at_ms, revoked_at_ms, employee_id, scope, minted_by
            FROM token ORDER BY created_at_ms, id
            """)
        for row in try rows.decode(
            (String, String, String, Data, String, Int64, Int64?, Int64?, String?, String?, String?).self)
        {
            // A role this node does not know (a newer node's) grants nothing here, never a reader's.
            guard let role = AccessRole(rawValue: row.2) else { continue }
            tokens.append(
                StoredToken(
                    id: row.0, tenantID: row.1, role: role,
                    secretHash: [UInt8](row.3), label: row.4, createdAt: row.5, expiresAt: row.6,
                    revokedAt: row.7, employeeID: row.8, scope: row.9, mintedBy: row.10))
        }
        return tokens
    }

    public func insertToken(_ token: StoredToken) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO token (id, tenant_id, role, secret_sha256, label, created_at_ms, expires_at_ms, revoked_at_ms, employee_id, scope,
                                   minted_by)
                VALUES (\(token.id), \(token.tenantID), \(token.role.rawValue), \(Data(token.secretHash)), \(token.label), \(token.createdAt),
                        \(token.expiresAt), \(token.revokedAt), \(token.employeeID), \(token.scope), \(token.mintedBy))
                """)
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')")
        }
    }

    public func revokeToken(id: String, at: UnixMillis) async throws -> Bool {
        try await transaction { connection in
            try await connection.query(
                "UPDATE token SET revoked_at_ms = \(at) WHERE id = \(id) AND revoked_at_ms IS NULL")
            var found = false
            for _ in try await connection.query("SELECT 1 FROM token WHERE id = \(id)").decode(Int32.self) {
                found = true
            }
            // Every node closes the token's connections as soon as it hears this.
            try await connection.query("SELECT pg_notify(\(Self.channel), 'a')")
            return found
        }
    }

    // MARK: Audit

    public func appendAudit(tenantID: String, _ entry: Roster_V1_AuditEntry) async throws {
        let body = try entry.serializedBytes() as Data
        _ = try await connections.query(
            "INSERT INTO audit (tenant_id, at_ms, kind, entry) VALUES (\(tenantID), \(entry.atMs), \(entry.kind), \(body))"
        )
    }

    public func auditEntries(
        tenantID: String, since: UnixMillis, limit: Int,
        matching: @escaping @Sendable (Roster_V1_AuditEntry) -> Bool
    ) async throws
        -> (entries: [Roster_V1_AuditEntry], truncated: Bool)
    {
        let rows = try await connections.query(
            """
            SELECT id, entry FROM audit WHERE tenant_id = \(tenantID) AND at_ms >= \(since) ORDER BY at_ms DESC, id DESC
            """)
        var found: [Roster_V1_AuditEntry] = []
        var truncated = false
        for (id, body) in try rows.decode((Int64, Data).self) {
            guard !truncated else { break }
            var entry = try Roster_V1_AuditEntry(serializedBytes: body)
            entry.id = UInt64(id)
            guard matching(entry) else { continue }
            if found.count == limit { truncated = true; continue }
            found.append(entry)
        }
        return (found, truncated)
    }

    public func pruneAudit(before: UnixMillis) async throws -> Int {
        var count = 0
        for _ in try await connections.query("DELETE FROM audit WHERE at_ms < \(before) RETURNING id").decode(
            Int64.self)
        { count += 1 }
        return count
    }

    public func pruneTokens(before: UnixMillis) async throws -> Int {
        var count = 0
        for _ in try await connections.query(
            "DELETE FROM token WHERE expires_at_ms < \(before) OR revoked_at_ms < \(before) RETURNING id"
        ).decode(String.self) { count += 1 }
        _ = try await connections.query(
            "DELETE FROM login_refresh WHERE expires_at_ms < \(before) OR revoked_at_ms < \(before)")
        return count
    }

    // MARK: Calendar feeds

    public func calendarEvents(tenantID: String, feed: String) async throws -> [CalendarEvent] {
        var events: [CalendarEvent] = []
        for text in try await connections.query(
            """
            SELECT event FROM calendar_event WHERE tenant_id = \(tenantID) AND feed = \(feed)
            """
        ).decode(String.self) {
            events.append(try JSONDecoder().decode(CalendarEvent.self, from: Data(text.utf8)))
        }
        return events
    }

    public func saveCalendarEvents(tenantID: String, feed: String, store events: [CalendarEvent], forget: [String])
        async throws
    {
        let encoded = try events.map { ($0.uid, String(decoding: try JSONEncoder().encode($0), as: UTF8.self)) }
        try await transaction { connection in
            for (uid, event) in encoded {
                try await connection.query(
                    """
                    INSERT INTO calendar_event (tenant_id, feed, uid, event) VALUES (\(tenantID), \(feed), \(uid), \(event))
                    ON CONFLICT (tenant_id, feed, uid) DO UPDATE SET event = excluded.event
                    """)
            }
            for uid in forget {
                try await connection.query(
                    "DELETE FROM calendar_event WHERE tenant_id = \(tenantID) AND feed = \(feed) AND uid = \(uid)")
            }
        }
    }
}
