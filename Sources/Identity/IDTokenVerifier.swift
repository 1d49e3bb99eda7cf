import Foundation
import RosterDomain
import RosterTLS

/// What the relying party expects of one sign-in's ID token.
public struct IDTokenExpectation: Sendable {
    /// The issuer exactly as configured (and as discovery answered it).
    public var issuer: String
    public var clientID: String
    /// The nonce this sign-in sent in its authorization request; nil for the device grant, which
    /// sends none (RFC 8628: the token comes straight from the token endpoint to the server).
    public var nonce: String?
    /// The algorithms accepted: Roster's allowlist, narrowed to those the provider says it signs
    /// ID tokens with (`id_token_signing_alg_values_supported`).
    public var algorithms: Set<SignatureAlgorithm>

    public init(
        issuer: String, clientID: String, nonce: String?,
        algorithms: Set<SignatureAlgorithm> = Set(SignatureAlgorithm.allCases)
    ) {
        (self.issuer, self.clientID, self.nonce, self.algorithms) = (issuer, clientID, nonce, algorithms)
    }
}

/// An ID token that passed every check: who signed in, and the claims the tenant maps.
public struct IDTokenClaims: Sendable {
    public let issuer: String
    public let subject: String
    public let claims: [String: JSONValue]

    public init(issuer: String, subject: String, claims: [String: JSONValue]) {
        (self.issuer, self.subject, self.claims) = (issuer, subject, claims)
    }

    /// The claim at `path`: a member name as it is (some providers put dots in names), else
    /// dotted steps into nested objects (`realm_access.roles`).
    public func value(at path: String) -> JSONValue? {
        if let whole = claims[path] { return whole }
        var current: JSONValue = .object(claims)
        for step in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current[String(step)] else { return nil }
            current = next
        }
        return current
    }

    /// The claim at `path` as text; nil when absent or not text.
    public func text(at path: String) -> String? { value(at: path)?.string }

    /// The claim at `path` as a list of texts (a single text counts as a list of one).
    public func texts(at path: String) -> [String] {
        switch value(at: path) {
        case .string(let text)?: [text]
        case .array(let items)?: items.compactMap(\.string)
        default: []
        }
    }

    /// Whether the provider vouches for the e-mail address (OIDC Core §5.1): only then may a
    /// sign-in be linked to an existing person by it.
    public var emailVerified: Bool {
        switch claims["email_verified"] {
        case .bool(let verified)?: verified
        // Some providers write the boolean as text.
        case .string(let text)?: text == "true"
        default: false
        }
    }
}

/// Why an ID token was refused: each case a message of its own (the sign-in page and the
/// `auth.failed` audit entry say it), never the provider's or OpenSSL's error stack.
public enum IDTokenRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge
    case malformed(String)
    case encrypted
    case unsigned
    case symmetric(String)
    case algorithmNotAllowed(String)
    case criticalHeader
    case unknownKey(String?)
    case badSignature
    case wrongIssuer(String)
    case wrongAudience
    case wrongAuthorizedParty
    case missingTime(String)
    case expired
    case issuedInFuture
    case nonceMismatch
    case missingSubject

    public var description: String {
        switch self {
        case .tooLarge: "the ID token is larger than \(IDTokenVerifier.maxTokenBytes / 1024) KiB"
        case .malformed(let what): "the ID token is not a signed JWT: \(what)"
        case .encrypted: "the ID token is encrypted (JWE); Roster accepts signed ID tokens only"
        case .unsigned: "the ID token is not signed (alg none)"
        case .symmetric(let algorithm):
            "the ID token is signed with \(algorithm), a shared-secret algorithm; Roster accepts only a provider's public-key signatures"
        case .algorithmNotAllowed(let algorithm):
            "the ID token is signed with \(algorithm), which this sign-in does not accept (RS256, ES256 or EdDSA, as the provider offers them)"
        case .criticalHeader: "the ID token has critical header parameters Roster does not understand"
        case .unknownKey(let keyID):
            "the ID token is signed with a key the provider does not publish (kid \(keyID.map { "\"\($0)\"" } ?? "absent"))"
        case .badSignature: "the ID token's signature does not verify with the provider's key"
        case .wrongIssuer(let issuer): "the ID token was issued by \(issuer), not by the configured issuer"
        case .wrongAudience: "the ID token is not for this client (aud does not name the client id)"
        case .wrongAuthorizedParty: "the ID token was issued to another client (azp)"
        case .missingTime(let claim): "the ID token has no valid \(claim) time"
        case .expired: "the ID token has expired (check this host's clock if that seems wrong)"
        case .issuedInFuture: "the ID token is issued in the future (check this host's clock)"
        case .nonceMismatch: "the ID token's nonce is not this sign-in's: a replayed or foreign token"
        case .missingSubject: "the ID token names no subject (sub)"
        }
    }

    /// The case's name, as audit entries and tests name the refusal.
    public var code: String {
        switch self {
        case .tooLarge: "tooLarge"
        case .encrypted: "encrypted"
        case .unsigned: "unsigned"
        case .criticalHeader: "criticalHeader"
        case .badSignature: "badSignature"
        case .wrongAudience: "wrongAudience"
        case .wrongAuthorizedParty: "wrongAuthorizedParty"
        case .expired: "expired"
        case .issuedInFuture: "issuedInFuture"
        case .nonceMismatch: "nonceMismatch"
        case .missingSubject: "missingSubject"
        case .malformed: "malformed"
        case .symmetric: "symmetric"
        case .algorithmNotAllowed: "algorithmNotAllowed"
        case .unknownKey: "unknownKey"
        case .wrongIssuer: "wrongIssuer"
        case .missingTime: "missingTime"
        }
    }

    /// Whether fetching the provider's keys again may help: a key rotated since they were cached.
    public var mayBeNewKey: Bool { if case .unknownKey = self { true } else { false } }
}

/// OIDC Core §3.1.3.7's checks of an ID token, in its order, for the authorization code flow.
public enum IDTokenVerifier {
    /// The largest token read (providers' ID tokens are 1–3 KiB; a groups claim can add more).
    public static let maxTokenBytes = 16 * 1024
    /// How far this host's clock and the provider's may disagree.
    public static let maxSkewSeconds: Int64 = 60

    public static func verify(
        _ token: String, keys: JSONWebKeySet, expecting: IDTokenExpectation, now: Int64
    ) throws(IDTokenRefusal) -> IDTokenClaims {
        let bytes = Array(token.utf8)
        guard bytes.count <= maxTokenBytes else { throw .tooLarge }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count == 5 { throw .encrypted }
        guard parts.count == 3 else { throw .malformed("it has \(parts.count) parts, not 3") }
        guard let headerBytes = Base64URL.decode(Substring(decoding: parts[0], as: UTF8.self)),
            case .object(let header)? = JSONValue.parse(Data(headerBytes))
        else { throw .malformed("its header is not base64url JSON") }
        guard let algorithmName = header["alg"]?.string else { throw .malformed("its header names no alg") }
        if algorithmName.lowercased() == "none" { throw .unsigned }
        if algorithmName.hasPrefix("HS") { throw .symmetric(algorithmName) }
        guard let algorithm = SignatureAlgorithm(rawValue: algorithmName), expecting.algorithms.contains(algorithm)
        else {
            throw .algorithmNotAllowed(algorithmName)
        }
        if header["crit"] != nil { throw .criticalHeader }
        guard let signature = Base64URL.decode(Substring(decoding: parts[2], as: UTF8.self)), !signature.isEmpty else {
            throw .malformed("its signature is not base64url")
        }
        let keyID: String?
        switch header["kid"] {
        case nil: keyID = nil
        case .string(let text)?: keyID = text
        default: throw .malformed("its kid is not text")
        }
        let candidates = keys.candidates(keyID: keyID, algorithm: algorithm)
        guard !candidates.isEmpty else { throw .unknownKey(keyID) }
        // The signing input is the first two parts as sent, with the dot between them.
        let signingInput = bytes[..<(parts[0].count + 1 + parts[1].count)]
        guard candidates.contains(where: { $0.verifies(signature, of: signingInput) }) else { throw .badSignature }

        guard let payloadBytes = Base64URL.decode(Substring(decoding: parts[1], as: UTF8.self)),
            case .object(let claims)? = JSONValue.parse(Data(payloadBytes))
        else { throw .malformed("its payload is not base64url JSON") }
        guard let issuer = claims["iss"]?.string, issuer == expecting.issuer else {
            throw .wrongIssuer(claims["iss"]?.string ?? "nobody")
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one)?: audiences = [one]
        case .array(let many)?: audiences = many.compactMap(\.string)
        default: audiences = []
        }
        guard audiences.contains(expecting.clientID) else { throw .wrongAudience }
        if let party = claims["azp"] {
            guard party.string == expecting.clientID else { throw .wrongAuthorizedParty }
        } else if audiences.count > 1 {
            throw .wrongAuthorizedParty
        }
        guard let expires = seconds(claims["exp"]) else { throw .missingTime("exp") }
        guard now < expires + maxSkewSeconds else { throw .expired }
        guard let issued = seconds(claims["iat"]) else { throw .missingTime("iat") }
        guard issued <= now + maxSkewSeconds else { throw .issuedInFuture }
        if let expected = expecting.nonce {
            guard let nonce = claims["nonce"]?.string, Crypto.constantTimeEqual(Array(nonce.utf8), Array(expected.utf8))
            else { throw .nonceMismatch }
        }
        guard let subject = claims["sub"]?.string, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .missingSubject
        }
        return IDTokenClaims(issuer: issuer, subject: subject, claims: claims)
    }

    /// A NumericDate (RFC 7519 §2): whole seconds within a range no real token leaves.
    private static func seconds(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value, number.isFinite, number >= 0, number < 1e11 else { return nil }
        return Int64(number)
    }
}
