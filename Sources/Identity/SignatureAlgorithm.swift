/// The JWS algorithms an ID token may be signed with (RFC 7518 §3, RFC 8037): asymmetric only.
/// `none` and the HMAC family are never among them: a provider's public key is public, so a
/// token "signed" with it as an HMAC secret proves nothing (RFC 8725 §2.1, §3.1).
public enum SignatureAlgorithm: String, Sendable, CaseIterable, Hashable {
    case rs256 = "RS256"
    case es256 = "ES256"
    case edDSA = "EdDSA"

    /// The JWK key type each algorithm needs (RFC 7518 §6.1, RFC 8037 §2).
    var keyType: String {
        switch self {
        case .rs256: "RSA"
        case .es256: "EC"
        case .edDSA: "OKP"
        }
    }
}
