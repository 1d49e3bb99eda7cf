import RosterDomain
import RosterStore

/// SCIM resources and bearer tokens in the shared store (schema v14, docs/SSO.md).
extension PostgresRosterStore {
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind) async throws -> [ProvisionedResource] {
        try await resources(kind, "WHERE tenant_id = \(tenantID) AND kind = \(kind.rawValue) ORDER BY id")
    }

    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, id: String) async throws
        -> ProvisionedResource?
    {
        try await resources(kind, "WHERE tenant_id = \(tenantID) AND kind = \(kind.rawValue) AND id = \(id)").first
    }

    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, nameKey: String) async throws
        -> ProvisionedResource?
    {
        try await resources(kind, "WHERE tenant_id = \(tenantID) AND kind = \(kind.rawValue) AND name_key = \(nameKey)")
            .first
    }

    /// The resources a condition (`WHERE …`) selects.
    private func resources(_ kind: ProvisionedResource.Kind, _ condition: PostgresQuery) async throws
        -> [ProvisionedResource]
    {
        // The head has no values, so the condition's numbered parameters stay as they are.
        let rows = try await connections.query(
            PostgresQuery(
                unsafeSQL: "SELECT id, name, body, created_at_ms, updated_at_ms FROM provisioned_resource "
                    + condition.sql, binds: condition.binds))
        return try rows.decode((String, String, String, Int64, Int64).self).map {
            ProvisionedResource(kind: kind, id: $0.0, name: $0.1, body: $0.2, createdAt: $0.3, updatedAt: $0.4)
        }
    }

    public func writeProvisioning(tenantID: String, _ write: ProvisioningWrite) async throws {
        try await transaction { connection in
            try await Self.writeProvisioning(write, tenantID: tenantID, connection: connection)
        }
    }

    /// Removals first, so that a name given up and taken in one request does not collide.
    static func writeProvisioning(_ write: ProvisioningWrite, tenantID: String, connection: PostgresConnection)
        async throws
    {
        for (kind, id) in write.removed {
            try await connection.query(
                """
                DELETE FROM provisioned_resource WHERE tenant_id = \(tenantID) AND kind = \(kind.rawValue) AND id = \(id)
                """)
        }
        for resource in write.put {
            try await connection.query(
                """
                INSERT INTO provisioned_resource (tenant_id, kind, id, name, name_key, body, created_at_ms, updated_at_ms)
                VALUES (\(tenantID), \(resource.kind.rawValue), \(resource.id), \(resource.name), \(resource.nameKey),
                        \(resource.body), \(resource.createdAt), \(resource.updatedAt))
                ON CONFLICT (tenant_id, kind, id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
                    body = excluded.body, updated_at_ms = excluded.updated_at_ms
                """)
        }
    }

    public func provisioningToken(id: String) async throws -> ProvisioningToken? {
        try await provisioningTokens(where: "id", id).first
    }

    public func provisioningTokens(tenantID: String) async throws -> [ProvisioningToken] {
        try await provisioningTokens(where: "tenant_id", tenantID)
    }

    private func provisioningTokens(where column: String, _ value: String) async throws -> [ProvisioningToken] {
        let query: PostgresQuery =
            column == "id"
            ? """
            SELECT id, tenant_id, secret_sha256, label, created_at_ms, revoked_at_ms FROM provisioning_token
            WHERE id = \(value)
            """
            : """
            SELECT id, tenant_id, secret_sha256, label, created_at_ms, revoked_at_ms FROM provisioning_token
            WHERE tenant_id = \(value) ORDER BY created_at_ms, id
            """
        let rows = try await connections.query(query)
        return try rows.decode((String, String, String, String, Int64, Int64?).self).map {
            ProvisioningToken(
                id: $0.0, tenantID: $0.1, secretHash: $0.2, label: $0.3, createdAt: $0.4, revokedAt: $0.5)
        }
    }

    public func insertProvisioningToken(_ token: ProvisioningToken) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO provisioning_token (id, tenant_id, secret_sha256, label, created_at_ms, revoked_at_ms)
                VALUES (\(token.id), \(token.tenantID), \(token.secretHash), \(token.label), \(token.createdAt),
                        \(token.revokedAt))
                """)
            return ()
        }
    }

    public func revokeProvisioningToken(tenantID: String, id: String, at: UnixMillis) async throws -> Bool {
        try await transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE provisioning_token SET revoked_at_ms = \(at)
                WHERE tenant_id = \(tenantID) AND id = \(id) AND revoked_at_ms IS NULL RETURNING id
                """)
            var found = false
            for _ in try rows.decode(String.self) { found = true }
            return found
        }
    }
}
