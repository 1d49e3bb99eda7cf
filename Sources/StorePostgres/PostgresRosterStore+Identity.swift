import RosterDomain
import RosterStore

/// Sign-in settings and identity links in the shared store (schema v13, docs/SSO.md).
extension PostgresRosterStore {
    public func singleSignOn(tenantID: String) async throws -> StoredSingleSignOn? {
        let rows = try await connections.query(
            "SELECT settings, client_secret, updated_at_ms FROM single_sign_on WHERE tenant_id = \(tenantID)")
        for row in try rows.decode((String, String, Int64).self) {
            return StoredSingleSignOn(settings: row.0, clientSecret: row.1, updatedAt: row.2)
        }
        return nil
    }

    public func setSingleSignOn(tenantID: String, _ value: StoredSingleSignOn?) async throws {
        try await transaction { connection in
            guard let value else {
                try await connection.query("DELETE FROM single_sign_on WHERE tenant_id = \(tenantID)")
                return
            }
            try await connection.query(
                """
                INSERT INTO single_sign_on (tenant_id, settings, client_secret, updated_at_ms)
                VALUES (\(tenantID), \(value.settings), \(value.clientSecret), \(value.updatedAt))
                ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings,
                    client_secret = excluded.client_secret, updated_at_ms = excluded.updated_at_ms
                """)
        }
    }

    public func identityLink(tenantID: String, issuer: String, subject: String) async throws -> String? {
        let rows = try await connections.query(
            """
            SELECT employee_id FROM identity_link
            WHERE tenant_id = \(tenantID) AND issuer = \(issuer) AND subject = \(subject)
            """)
        for row in try rows.decode(String.self) { return row }
        return nil
    }

    public func linkIdentity(tenantID: String, issuer: String, subject: String, employeeID: String, at: UnixMillis)
        async throws
    {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO identity_link (tenant_id, issuer, subject, employee_id, linked_at_ms)
                VALUES (\(tenantID), \(issuer), \(subject), \(employeeID), \(at))
                ON CONFLICT (tenant_id, issuer, subject) DO UPDATE SET employee_id = excluded.employee_id,
                    linked_at_ms = excluded.linked_at_ms
                """)
            return ()
        }
    }
}
