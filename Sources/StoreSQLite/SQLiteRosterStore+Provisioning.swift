import GRDB
import RosterDomain
import RosterStore

/// SCIM resources and bearer tokens (schema v14, docs/SSO.md).
extension SQLiteRosterStore {
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind) async throws -> [ProvisionedResource] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM provisioned_resource WHERE tenant_id = ? AND kind = ? ORDER BY id",
                arguments: [tenantID, kind.rawValue]
            ).map {
                ProvisionedResource(
                    kind: kind, id: $0["id"], name: $0["name"], body: $0["body"], createdAt: $0["created_at_ms"],
                    updatedAt: $0["updated_at_ms"])
            }
        }
    }

    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, id: String) async throws
        -> ProvisionedResource?
    {
        try await provisioned(tenantID: tenantID, kind: kind, column: "id", value: id)
    }

    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, nameKey: String) async throws
        -> ProvisionedResource?
    {
        try await provisioned(tenantID: tenantID, kind: kind, column: "name_key", value: nameKey)
    }

    private func provisioned(tenantID: String, kind: ProvisionedResource.Kind, column: String, value: String)
        async throws -> ProvisionedResource?
    {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM provisioned_resource WHERE tenant_id = ? AND kind = ? AND \(column) = ?",
                arguments: [tenantID, kind.rawValue, value]
            ).map {
                ProvisionedResource(
                    kind: kind, id: $0["id"], name: $0["name"], body: $0["body"], createdAt: $0["created_at_ms"],
                    updatedAt: $0["updated_at_ms"])
            }
        }
    }

    public func writeProvisioning(tenantID: String, _ write: ProvisioningWrite) async throws {
        try await pool.write { db in try Self.writeProvisioning(write, tenantID: tenantID, db: db) }
    }

    /// Removals first, so that a name given up and taken in one request does not collide.
    static func writeProvisioning(_ write: ProvisioningWrite, tenantID: String, db: Database) throws {
        for (kind, id) in write.removed {
            try db.execute(
                sql: "DELETE FROM provisioned_resource WHERE tenant_id = ? AND kind = ? AND id = ?",
                arguments: [tenantID, kind.rawValue, id])
        }
        for resource in write.put {
            try db.execute(
                sql: """
                    INSERT INTO provisioned_resource
                        (tenant_id, kind, id, name, name_key, body, created_at_ms, updated_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, kind, id) DO UPDATE SET name = excluded.name,
                        name_key = excluded.name_key, body = excluded.body, updated_at_ms = excluded.updated_at_ms
                    """,
                arguments: [
                    tenantID, resource.kind.rawValue, resource.id, resource.name, resource.nameKey, resource.body,
                    resource.createdAt, resource.updatedAt,
                ])
        }
    }

    public func provisioningToken(id: String) async throws -> ProvisioningToken? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM provisioning_token WHERE id = ?", arguments: [id]).map(
                Self.provisioningToken)
        }
    }

    public func provisioningTokens(tenantID: String) async throws -> [ProvisioningToken] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM provisioning_token WHERE tenant_id = ? ORDER BY created_at_ms, id",
                arguments: [tenantID]
            ).map(Self.provisioningToken)
        }
    }

    private static func provisioningToken(_ row: Row) -> ProvisioningToken {
        ProvisioningToken(
            id: row["id"], tenantID: row["tenant_id"], secretHash: row["secret_sha256"], label: row["label"],
            createdAt: row["created_at_ms"], revokedAt: row["revoked_at_ms"])
    }

    public func insertProvisioningToken(_ token: ProvisioningToken) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO provisioning_token (id, tenant_id, secret_sha256, label, created_at_ms, revoked_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [token.id, token.tenantID, token.secretHash, token.label, token.createdAt, token.revokedAt])
        }
    }

    public func revokeProvisioningToken(tenantID: String, id: String, at: UnixMillis) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE provisioning_token SET revoked_at_ms = ?
                    WHERE tenant_id = ? AND id = ? AND revoked_at_ms IS NULL
                    """, arguments: [at, tenantID, id])
            return db.changesCount > 0
        }
    }
}
