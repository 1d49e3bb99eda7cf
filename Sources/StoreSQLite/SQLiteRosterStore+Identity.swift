import GRDB
import RosterDomain
import RosterStore

/// Sign-in settings and identity links (schema v13, docs/SSO.md).
extension SQLiteRosterStore {
    public func singleSignOn(tenantID: String) async throws -> StoredSingleSignOn? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM single_sign_on WHERE tenant_id = ?", arguments: [tenantID]).map {
                StoredSingleSignOn(
                    settings: $0["settings"], clientSecret: $0["client_secret"], updatedAt: $0["updated_at_ms"])
            }
        }
    }

    public func setSingleSignOn(tenantID: String, _ value: StoredSingleSignOn?) async throws {
        try await pool.write { db in
            guard let value else {
                try db.execute(sql: "DELETE FROM single_sign_on WHERE tenant_id = ?", arguments: [tenantID])
                return
            }
            try db.execute(
                sql: """
                    INSERT INTO single_sign_on (tenant_id, settings, client_secret, updated_at_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings,
                        client_secret = excluded.client_secret, updated_at_ms = excluded.updated_at_ms
                    """, arguments: [tenantID, value.settings, value.clientSecret, value.updatedAt])
        }
    }

    public func identityLink(tenantID: String, issuer: String, subject: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT employee_id FROM identity_link WHERE tenant_id = ? AND issuer = ? AND subject = ?",
                arguments: [tenantID, issuer, subject])
        }
    }

    public func linkIdentity(tenantID: String, issuer: String, subject: String, employeeID: String, at: UnixMillis)
        async throws
    {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO identity_link (tenant_id, issuer, subject, employee_id, linked_at_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, issuer, subject) DO UPDATE SET employee_id = excluded.employee_id,
                        linked_at_ms = excluded.linked_at_ms
                    """, arguments: [tenantID, issuer, subject, employeeID, at])
        }
    }
}
