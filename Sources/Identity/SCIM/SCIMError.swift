import RosterDomain

/// A refused SCIM request: its HTTP status, the `scimType` RFC 7644 §3.12 names for it, and a
/// sentence for the provider's log.
public struct SCIMError: Error, Sendable, Equatable {
    public var status: Int
    public var scimType: String?
    public var detail: String

    public init(_ status: Int, _ scimType: String?, _ detail: String) {
        (self.status, self.scimType, self.detail) = (status, scimType, detail)
    }

    public static func invalidValue(_ detail: String) -> SCIMError { SCIMError(400, "invalidValue", detail) }
    public static func invalidSyntax(_ detail: String) -> SCIMError { SCIMError(400, "invalidSyntax", detail) }
    public static func invalidFilter(_ detail: String) -> SCIMError { SCIMError(400, "invalidFilter", detail) }
    public static func invalidPath(_ detail: String) -> SCIMError { SCIMError(400, "invalidPath", detail) }
    public static func noTarget(_ detail: String) -> SCIMError { SCIMError(400, "noTarget", detail) }
    public static func uniqueness(_ detail: String) -> SCIMError { SCIMError(409, "uniqueness", detail) }
    public static func notFound(_ detail: String) -> SCIMError { SCIMError(404, nil, detail) }

    /// The error as RFC 7644 §3.12 writes it.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "schemas": .array([.string(SCIMSchema.error)]), "status": .string(String(status)),
            "detail": .string(detail),
        ]
        if let scimType { members["scimType"] = .string(scimType) }
        return .object(members)
    }
}
