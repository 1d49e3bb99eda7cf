import Foundation
import RosterDomain

/// A provider's published signing keys (`jwks_uri`, RFC 7517 §5). Keys Roster cannot verify
/// with (encryption keys, other curves, short RSA moduli) are left out and said why, so one odd
/// key never stops sign-in with the others.
public struct JSONWebKeySet: Sendable {
    /// The largest JWKS document read; providers publish a few keys of a few hundred bytes.
    public static let maxBytes = 256 * 1024
    /// The most keys read from one document.
    public static let maxKeys = 64

    public let keys: [VerificationKey]
    /// Each key left out: its `kid` (or index) and why.
    public let skipped: [String]

    public init(keys: [VerificationKey], skipped: [String] = []) {
        (self.keys, self.skipped) = (keys, skipped)
    }

    /// The set `data` describes, or why it is not a key set at all.
    public static func parse(_ data: some Collection<UInt8>) throws(IdentityError) -> JSONWebKeySet {
        guard data.count <= maxBytes else { throw IdentityError("the provider's JWKS is larger than 256 KiB") }
        guard let document = JSONValue.parse(Data(data)), case .array(let entries)? = document["keys"] else {
            throw IdentityError("the provider's JWKS is not a JSON object with a \"keys\" list")
        }
        guard entries.count <= maxKeys else { throw IdentityError("the provider's JWKS has more than \(maxKeys) keys") }
        var keys: [VerificationKey] = []
        var skipped: [String] = []
        for (index, entry) in entries.enumerated() {
            switch VerificationKey.make(entry) {
            case .success(let key): keys.append(key)
            case .failure(let problem): skipped.append("key \(entry["kid"]?.string ?? "#\(index)") \(problem.message)")
            }
        }
        guard !keys.isEmpty else {
            throw IdentityError(
                "the provider's JWKS has no key Roster can verify with (RS256, ES256 or EdDSA)"
                    + (skipped.isEmpty ? "" : ": " + skipped.joined(separator: "; ")))
        }
        return JSONWebKeySet(keys: keys, skipped: skipped)
    }

    /// The keys that may have signed a token with `keyID` and `algorithm`: the one with that
    /// `kid`, or, for a token without one, every key of the algorithm.
    func candidates(keyID: String?, algorithm: SignatureAlgorithm) -> [VerificationKey] {
        keys.filter { $0.algorithm == algorithm && (keyID == nil || $0.keyID == keyID) }
    }
}

/// A problem with what the identity provider published or answered, in words for the person
/// who configures sign-in.
public struct IdentityError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
