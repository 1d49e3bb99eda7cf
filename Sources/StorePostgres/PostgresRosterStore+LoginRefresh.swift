import RosterDomain
import RosterStore

/// The refresh records of `roster-client login` in the shared store (schema v15, docs/SSO.md).
extension PostgresRosterStore {
    public func loginRefresh(id: String) async throws -> LoginRefresh? {
        let rows = try await connections.query(
            """
            SELECT id, tenant_id, employee_id, role, secret_sha256, previous_sha256, access_token_id,
                created_at_ms, expires_at_ms, revoked_at_ms
            FROM login_refresh WHERE id = \(id)
            """)
        return try rows.decode((String, String, String, String, String, String?, String, Int64, Int64, Int64?).self)
            .compactMap { row -> LoginRefresh? in
                guard let role = AccessRole(rawValue: row.3) else { return nil }
                return LoginRefresh(
                    id: row.0, tenantID: row.1, employeeID: row.2, role: role, secretHash: row.4, previousHash: row.5,
                    accessTokenID: row.6, createdAt: row.7, expiresAt: row.8, revokedAt: row.9)
            }.first
    }

    public func insertLoginRefresh(_ refresh: LoginRefresh) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO login_refresh (id, tenant_id, employee_id, role, secret_sha256, previous_sha256,
                    access_token_id, created_at_ms, expires_at_ms, revoked_at_ms)
                VALUES (\(refresh.id), \(refresh.tenantID), \(refresh.employeeID), \(refresh.role.rawValue),
                    \(refresh.secretHash), \(refresh.previousHash), \(refresh.accessTokenID), \(refresh.createdAt),
                    \(refresh.expiresAt), \(refresh.revokedAt))
                """)
            return ()
        }
    }

    public func rotateLoginRefresh(
        id: String, expectedHash: String, newHash: String, accessTokenID: String, expiresAt: UnixMillis
    ) async throws -> Bool {
        try await changedOneRow(
            """
            UPDATE login_refresh SET previous_sha256 = secret_sha256, secret_sha256 = \(newHash),
                access_token_id = \(accessTokenID), expires_at_ms = \(expiresAt)
            WHERE id = \(id) AND secret_sha256 = \(expectedHash) AND revoked_at_ms IS NULL RETURNING id
            """)
    }

    public func revokeLoginRefresh(id: String, at: UnixMillis) async throws -> Bool {
        try await changedOneRow(
            "UPDATE login_refresh SET revoked_at_ms = \(at) WHERE id = \(id) AND revoked_at_ms IS NULL RETURNING id")
    }

    private func changedOneRow(_ query: PostgresQuery) async throws -> Bool {
        try await transaction { connection in
            var found = false
            for _ in try await connection.query(query).decode(String.self) { found = true }
            return found
        }
    }
}
