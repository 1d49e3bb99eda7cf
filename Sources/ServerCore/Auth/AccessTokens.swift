import Foundation
import RosterDomain
import RosterProtocol
import RosterStore
import RosterTLS

/// The text a client presents: `rst_<id>_<secret>`. The id finds the stored token; the secret
/// (32 random bytes, hex) is what proves possession.
public enum AccessToken {
    public static let prefix = "rst_"

    /// A new token: the text to hand to its holder once, and what to store.
    public static func issue(
        tenantID: String, role: AccessRole, label: String = "", now: UnixMillis,
        expiresAt: UnixMillis? = nil, employeeID: String? = nil, scope: String? = nil,
        mintedBy: String? = nil
    ) -> (text: String, stored: StoredToken) {
        let id = hex(Crypto.randomBytes(6))
        let secret = hex(Crypto.randomBytes(32))
        let stored = StoredToken(
            id: id, tenantID: tenantID, role: role, secretHash: Crypto.sha256(Array(secret.utf8)),
            label: label, createdAt: now, expiresAt: expiresAt, employeeID: employeeID, scope: scope,
            mintedBy: mintedBy)
        return (prefix + id + "_" + secret, stored)
    }

    /// Splits a presented token into id and secret; nil when it is not shaped like one.
    public static func parse(_ text: String) -> (id: String, secret: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(prefix) else { return nil }
        let parts = trimmed.dropFirst(prefix.count).split(separator: "_", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}

/// Who a connection is, decided at Hello.
package struct Credential: Sendable, Equatable {
    /// Who this connection is, in a refusal: "a reader token (tok_…)" or "no token (anonymous
    /// on loopback)", so a person who gave a token learns which one and what it may do.
    var described: String {
        guard let tokenID else { return "no token (anonymous reader on loopback)" }
        return "a \(role.rawValue) token (\(tokenID))"
    }

    /// nil for an anonymous reader on a loopback listener.
    package var tokenID: String?
    package var tenantID: String
    package var role: AccessRole
    var expiresAt: UnixMillis?
    /// Who holds it (`StoredToken.employeeID`).
    package var employeeID: String? = nil
    /// The token's label, for the audit log.
    package var label: String = ""
    /// A personal token's limits (`TokenLimits`).
    package var limits: TokenLimits? = nil

    func isValid(at now: UnixMillis) -> Bool { expiresAt.map { now < $0 } ?? true }
}
