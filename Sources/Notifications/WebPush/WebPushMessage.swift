import Foundation
import RosterIdentity
import RosterTLS

/// A Web Push message body (RFC 8291, on RFC 8188's `aes128gcm` content coding): the payload
/// encrypted for one subscription, with a fresh ECDH key and a fresh salt per message, as one
/// record. What a push service is handed; only the subscriber's browser or phone can read it.
public enum WebPushMessage {
    /// The record size written in the header: the whole message fits in one record.
    public static let recordSize: UInt32 = 4_096
    /// The longest payload: a record less its padding delimiter and tag, less the header (RFC
    /// 8291 §4 lets a push service refuse more than 4,096 bytes of body).
    public static let maxPayload = Int(recordSize) - 16 - 1 - (16 + 4 + 1 + 65)

    public enum Refusal: Error, Equatable {
        /// The subscription's `p256dh` is not a point on P-256, or its `auth` is not 16 bytes.
        case badSubscriptionKey
        case tooLarge
        /// OpenSSL could not make a key (it never should).
        case noKey
    }

    /// `payload` encrypted for the subscription's public key `p256dh` (65 bytes) and `auth`
    /// secret (16 bytes), with a fresh key and salt.
    public static func encrypt(_ payload: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws(Refusal) -> [UInt8] {
        guard payload.count <= maxPayload else { throw .tooLarge }
        let salt = Crypto.randomBytes(16)
        guard auth.count == 16 else { throw .badSubscriptionKey }
        let agreed: EphemeralKeyAgreement.Agreed
        do {
            agreed = try EphemeralKeyAgreement.agree(with: p256dh)
        } catch {
            throw error == .notOnCurve ? .badSubscriptionKey : .noKey
        }
        let (shared, serverPublic) = (agreed.sharedSecret, agreed.publicPoint)
        // §3.3: the auth secret and both public keys bind the key to this subscription.
        let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + serverPublic
        let inputKey = Crypto.hkdf(salt: auth, keyMaterial: shared, info: keyInfo, length: 32)
        // The content key and the nonce are two expansions of one extract (RFC 8188 §2.2, §2.3).
        let recordKey = Crypto.hkdfExtract(salt: salt, keyMaterial: inputKey)
        let contentKey = Crypto.hkdfExpand(
            pseudoRandomKey: recordKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = Crypto.hkdfExpand(
            pseudoRandomKey: recordKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // One record, so the last: the delimiter 0x02 and no padding (RFC 8188 §2).
        let sealed = Crypto.aes128GCM(key: contentKey, nonce: nonce, plaintext: payload + [0x02])
        let size = recordSize
        let header =
            salt + [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(serverPublic.count)] + serverPublic
        return header + sealed
    }
}

/// The VAPID header (RFC 8292) that says who sends a push: an ES256 JWT for the push service's
/// origin, and the server's public key.
public enum VAPID {
    /// How long a token is good for: RFC 8292 §2 allows at most 24 hours.
    public static let lifetime: Int64 = 12 * 3_600

    /// `Authorization: vapid t=JWT, k=KEY` for a push to `endpoint`, signed at `now` (seconds).
    public static func authorization(endpoint: String, subject: String, key: PrivateKey, now: Int64) -> String? {
        guard let origin = origin(of: endpoint) else { return nil }
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = #"{"aud":"\#(escaped(origin))","exp":\#(now + lifetime),"sub":"\#(escaped(subject))"}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        guard let signature = try? key.es256Signature(Array(signingInput.utf8)) else { return nil }
        return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(Base64URL.encode(key.publicPoint))"
    }

    /// `scheme://host[:port]` of an endpoint, the token's audience (§2).
    public static func origin(of endpoint: String) -> String? {
        guard let components = URLComponents(string: endpoint), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed.lowercased())" + (components.port.map { ":\($0)" } ?? "")
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
