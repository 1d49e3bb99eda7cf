import GRDB
import RosterDomain
import RosterStore

/// The refresh records of `roster-client login` (schema v15, docs/SSO.md).
extension SQLiteRosterStore {
    public func loginRefresh(id: String) async throws -> LoginRefresh? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM login_refresh WHERE id = ?", arguments: [id]),
                let role = AccessRole(rawValue: row["role"])
            else { return nil }
            return LoginRefresh(
                id: row["id"], tenantID: row["tenant_id"], employeeID: row["employee_id"], role: role,
                secretHash: row["secret_sha256"], previousHash: row["previous_sha256"],
                accessTokenID: row["access_token_id"], createdAt: row["created_at_ms"],
                expiresAt: row["expires_at_ms"], revokedAt: row["revoked_at_ms"])
        }
    }

    public func insertLoginRefresh(_ refresh: LoginRefresh) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO login_refresh (id, tenant_id, employee_id, role, secret_sha256, previous_sha256,
                        access_token_id, created_at_ms, expires_at_ms, revoked_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    refresh.id, refresh.tenantID, refresh.employeeID, refresh.role.rawValue, refresh.secretHash,
                    refresh.previousHash, refresh.accessTokenID, refresh.createdAt, refresh.expiresAt,
                    refresh.revokedAt,
                ])
        }
    }

    public func rotateLoginRefresh(
        id: String, expectedHash: String, newHash: String, accessTokenID: String, expiresAt: UnixMillis
    ) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE login_refresh SET previous_sha256 = secret_sha256, secret_sha256 = ?,
                        access_token_id = ?, expires_at_ms = ?
                    WHERE id = ? AND secret_sha256 = ? AND revoked_at_ms IS NULL
                    """, arguments: [newHash, accessTokenID, expiresAt, id, expectedHash])
            return db.changesCount > 0
        }
    }

    public func revokeLoginRefresh(id: String, at: UnixMillis) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE login_refresh SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL",
                arguments: [at, id])
            return db.changesCount > 0
        }
    }
}
