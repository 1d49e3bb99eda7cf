import RosterDomain

/// What keeps a `roster-client login` going past its short-lived token (docs/SSO.md): a refresh
/// secret, rotated at every use. Only SHA-256 digests are kept. The secret before the current one
/// is remembered: presented again, it was copied, and the login ends.
public struct LoginRefresh: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var employeeID: String
    public var role: AccessRole
    /// Hex SHA-256 of the current secret.
    public var secretHash: String
    /// Hex SHA-256 of the secret it replaced; nil before the first renewal.
    public var previousHash: String?
    /// The access token the last renewal (or the login) issued: revoked with the login.
    public var accessTokenID: String
    public var createdAt: UnixMillis
    /// Moves on at each renewal (a sliding lifetime).
    public var expiresAt: UnixMillis
    public var revokedAt: UnixMillis?

    public init(
        id: String, tenantID: String, employeeID: String, role: AccessRole, secretHash: String,
        previousHash: String? = nil, accessTokenID: String, createdAt: UnixMillis, expiresAt: UnixMillis,
        revokedAt: UnixMillis? = nil
    ) {
        (self.id, self.tenantID, self.employeeID, self.role) = (id, tenantID, employeeID, role)
        (self.secretHash, self.previousHash, self.accessTokenID) = (secretHash, previousHash, accessTokenID)
        (self.createdAt, self.expiresAt, self.revokedAt) = (createdAt, expiresAt, revokedAt)
    }

    public func isLive(at now: UnixMillis) -> Bool { revokedAt == nil && now < expiresAt }
}

/// The logins' refresh records. Ended ones go with the ended tokens (`pruneTokens`).
public protocol LoginRefreshStore: Sendable {
    func loginRefresh(id: String) async throws -> LoginRefresh?
    func insertLoginRefresh(_ refresh: LoginRefresh) async throws

    /// Replaces the secret if it still is `expectedHash` and the login is not revoked: false when
    /// another renewal got there first. The old secret becomes the previous one.
    func rotateLoginRefresh(
        id: String, expectedHash: String, newHash: String, accessTokenID: String, expiresAt: UnixMillis
    ) async throws -> Bool

    /// False when it was already revoked or is unknown.
    func revokeLoginRefresh(id: String, at: UnixMillis) async throws -> Bool
}

extension StoreSchema {
    /// v15: the refresh records of `roster-client login` (docs/SSO.md). The same SQL in SQLite
    /// and PostgreSQL.
    public static let loginRefreshSQL = """
        CREATE TABLE login_refresh (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            role TEXT NOT NULL,
            secret_sha256 TEXT NOT NULL,
            previous_sha256 TEXT,
            access_token_id TEXT NOT NULL,
            created_at_ms BIGINT NOT NULL,
            expires_at_ms BIGINT NOT NULL,
            revoked_at_ms BIGINT
        );
        """
}
