/// Who asks for a change or a read: overrides record the author (the token's id), the audit log
/// the token, its label and the peer's address; a token may name the person who holds it.
public struct Caller: Sendable, Hashable {
    public var tokenID: String?
    /// The token's label (or its id when it has none), or what the server itself is doing.
    public var name: String
    public var address: String
    public var isAdmin: Bool
    public var employeeID: String?
    /// A personal token's limits; nil: the token's role alone decides.
    public var limits: TokenLimits?

    public init(
        tokenID: String?, name: String, address: String = "", isAdmin: Bool, employeeID: String? = nil,
        limits: TokenLimits? = nil
    ) {
        self.limits = limits
        self.tokenID = tokenID
        self.name = name
        self.address = address
        self.isAdmin = isAdmin
        self.employeeID = employeeID
    }

    /// What an override or a cover request records as its author.
    public var author: String { tokenID ?? "anonymous" }
}
