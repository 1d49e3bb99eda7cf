import RosterDomain

/// A tenant's sign-in with its identity provider as the store keeps it (docs/SSO.md): the
/// settings as JSON (`SingleSignOnSettings`) and the client secret sealed (`SecretSealer`).
public struct StoredSingleSignOn: Sendable, Equatable {
    public var settings: String
    public var clientSecret: String
    public var updatedAt: UnixMillis

    public init(settings: String, clientSecret: String, updatedAt: UnixMillis) {
        (self.settings, self.clientSecret, self.updatedAt) = (settings, clientSecret, updatedAt)
    }
}

/// Sign-in settings and the people's links to their provider's accounts. A person is found by
/// (tenant, issuer, subject): never by subject alone, so another provider's `sub` never lands
/// on someone else.
public protocol IdentityStore: ProvisioningStore, LoginRefreshStore {
    func singleSignOn(tenantID: String) async throws -> StoredSingleSignOn?

    /// Stores (or, with nil, removes) the tenant's sign-in settings.
    func setSingleSignOn(tenantID: String, _ value: StoredSingleSignOn?) async throws

    /// The person linked to (issuer, subject) in the tenant, if any.
    func identityLink(tenantID: String, issuer: String, subject: String) async throws -> String?

    /// Links (issuer, subject) to `employeeID` (replacing an earlier link of the same pair).
    func linkIdentity(tenantID: String, issuer: String, subject: String, employeeID: String, at: UnixMillis)
        async throws
}

extension StoreSchema {
    /// v13: sign-in settings and identity links (docs/SSO.md). The same SQL in SQLite and PostgreSQL.
    public static let identitySQL = """
        CREATE TABLE single_sign_on (
            tenant_id TEXT PRIMARY KEY,
            settings TEXT NOT NULL,
            client_secret TEXT NOT NULL,
            updated_at_ms BIGINT NOT NULL
        );
        CREATE TABLE identity_link (
            tenant_id TEXT NOT NULL,
            issuer TEXT NOT NULL,
            subject TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            linked_at_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant_id, issuer, subject)
        );
        """
}

/// A SCIM resource as its provider last sent it (docs/SSO.md, "Directory sync with SCIM"). A
/// User's id is the person's id; the directory itself holds what Roster shows of them.
public struct ProvisionedResource: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case user = "User", group = "Group"
    }

    public var kind: Kind
    public var id: String
    /// userName or displayName as given; unique in the tenant and kind, ignoring case.
    public var name: String
    /// The resource's attributes as JSON (no id, no meta).
    public var body: String
    public var createdAt: UnixMillis
    public var updatedAt: UnixMillis

    public init(kind: Kind, id: String, name: String, body: String, createdAt: UnixMillis, updatedAt: UnixMillis) {
        (self.kind, self.id, self.name, self.body) = (kind, id, name, body)
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt)
    }
}

/// The SCIM resources a provisioning request writes, in the transaction of the revision it
/// makes (or alone when the directory does not change).
public struct ProvisioningWrite: Sendable {
    public var put: [ProvisionedResource] = []
    public var removed: [(kind: ProvisionedResource.Kind, id: String)] = []

    public init(put: [ProvisionedResource] = [], removed: [(kind: ProvisionedResource.Kind, id: String)] = []) {
        (self.put, self.removed) = (put, removed)
    }

    public var isEmpty: Bool { put.isEmpty && removed.isEmpty }
}

/// A tenant's SCIM bearer token as stored: the SHA-256 of its secret, never the secret. Kept
/// apart from `token` so that no node (an older one included) reads it as a protocol token.
public struct ProvisioningToken: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    /// The secret's SHA-256 in hex.
    public var secretHash: String
    public var label: String
    public var createdAt: UnixMillis
    public var revokedAt: UnixMillis?

    public init(
        id: String, tenantID: String, secretHash: String, label: String, createdAt: UnixMillis,
        revokedAt: UnixMillis? = nil
    ) {
        (self.id, self.tenantID, self.secretHash, self.label) = (id, tenantID, secretHash, label)
        (self.createdAt, self.revokedAt) = (createdAt, revokedAt)
    }
}

/// What SCIM provisioning keeps besides the directory.
public protocol ProvisioningStore: Sendable {
    /// Every resource of `kind` in the tenant.
    func provisioned(tenantID: String, kind: ProvisionedResource.Kind) async throws -> [ProvisionedResource]

    /// One resource by id, or by its name as `ProvisionedResource.nameKey` folds it: what a write
    /// and a provider's `userName eq` lookup read, instead of every resource.
    func provisioned(tenantID: String, kind: ProvisionedResource.Kind, id: String) async throws
        -> ProvisionedResource?
    func provisioned(tenantID: String, kind: ProvisionedResource.Kind, nameKey: String) async throws
        -> ProvisionedResource?

    /// `write` alone, for a request that changes no person.
    func writeProvisioning(tenantID: String, _ write: ProvisioningWrite) async throws

    func provisioningToken(id: String) async throws -> ProvisioningToken?
    func provisioningTokens(tenantID: String) async throws -> [ProvisioningToken]
    func insertProvisioningToken(_ token: ProvisioningToken) async throws
    /// False when no such token of the tenant is unrevoked.
    func revokeProvisioningToken(tenantID: String, id: String, at: UnixMillis) async throws -> Bool
}

extension StoreSchema {
    /// v14: SCIM resources and bearer tokens (docs/SSO.md), and people deactivated rather than
    /// removed. The same SQL in SQLite and PostgreSQL.
    public static let provisioningSQL = """
        ALTER TABLE employee ADD COLUMN deactivated INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE provisioned_resource (
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at_ms BIGINT NOT NULL,
            updated_at_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant_id, kind, id)
        );
        CREATE UNIQUE INDEX provisioned_resource_name ON provisioned_resource (tenant_id, kind, name_key);
        CREATE TABLE provisioning_token (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            secret_sha256 TEXT NOT NULL,
            label TEXT NOT NULL,
            created_at_ms BIGINT NOT NULL,
            revoked_at_ms BIGINT
        );
        """
}

extension ProvisioningStore {
    /// The resources of `kind` with these ids that exist: one read each for a few, else all.
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, ids: Set<String>) async throws
        -> [String: ProvisionedResource]
    {
        if ids.count > 20 {
            return Dictionary(
                try await provisioned(tenantID: tenantID, kind: kind).filter { ids.contains($0.id) }.map { ($0.id, $0) }
            ) { first, _ in first }
        }
        var found: [String: ProvisionedResource] = [:]
        for id in ids {
            if let one = try await provisioned(tenantID: tenantID, kind: kind, id: id) { found[id] = one }
        }
        return found
    }
}

extension ProvisionedResource {
    /// What `name` is unique by: case folded, as SCIM compares userName and displayName.
    public var nameKey: String { name.lowercased() }
}
