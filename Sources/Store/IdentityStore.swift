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
public protocol IdentityStore: Sendable {
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
