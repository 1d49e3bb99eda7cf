import RosterDomain
import RosterProtocol

/// What a token lets its holder do. Readers query and subscribe; admins may also change the plan;
/// a calendar token reads one iCalendar feed and nothing else (`StoredToken.scope` says which).
public enum AccessRole: String, Sendable, CaseIterable {
    case reader, admin, calendar

    package var wire: Roster_V1_Role { self == .admin ? .admin : .reader }
}

/// A token as stored: never the secret itself, only its SHA-256.
public struct StoredToken: Sendable, Equatable {
    /// The public part, shown by `token list` and used by `token revoke`.
    public var id: String
    public var tenantID: String
    public var role: AccessRole
    public var secretHash: [UInt8]
    public var label: String
    public var createdAt: UnixMillis
    public var expiresAt: UnixMillis?
    public var revokedAt: UnixMillis?
    /// The employee who holds the token, if it says: a reader may then put themselves on duty on
    /// schedules that allow it.
    public var employeeID: String?
    /// A calendar token's feed: "schedule:ID" or "person:ID".
    public var scope: String?
    /// The token a calendar token was minted with (GetCalendar): the feed stops when it does.
    public var mintedBy: String?

    public init(
        id: String, tenantID: String, role: AccessRole, secretHash: [UInt8], label: String = "",
        createdAt: UnixMillis, expiresAt: UnixMillis? = nil, revokedAt: UnixMillis? = nil, employeeID: String? = nil,
        scope: String? = nil, mintedBy: String? = nil
    ) {
        self.employeeID = employeeID
        self.scope = scope
        self.mintedBy = mintedBy
        self.id = id
        self.tenantID = tenantID
        self.role = role
        self.secretHash = secretHash
        self.label = label
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    public func isUsable(at now: UnixMillis) -> Bool {
        revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
    }
}
