import COpenSSL

/// RFC 8291's key agreement for one Web Push message: a fresh P-256 key pair used once, and the
/// x coordinate of its product with the subscriber's public point (ECDH, SEC 1 §3.3.1).
///
/// On OpenSSL's curve arithmetic (EC_POINT), not through EVP keys: made per message, an EVP key
/// pair and its derive context copied the curve's group three times, fetched the key exchange by
/// name and compared groups, which cost half as much again as the two scalar multiplications.
/// The multiplications are OpenSSL's own, the same calls its ECDH and key generation make.
public enum EphemeralKeyAgreement {
    public struct Agreed: Sendable {
        /// The fresh key's public point, uncompressed (0x04, X, Y: 65 bytes).
        public var publicPoint: [UInt8]
        /// The shared x coordinate, 32 bytes.
        public var sharedSecret: [UInt8]
    }

    public enum Failure: Error, Equatable {
        /// The peer's bytes are not an uncompressed point on P-256.
        case notOnCurve
        /// OpenSSL could not make the key or multiply (out of memory; it never should).
        case openSSL
    }

    /// P-256's group, made once. OpenSSL reads a group from many threads at once: every call
    /// here takes it as `const`.
    private final class Curve: @unchecked Sendable {
        let group: OpaquePointer
        init?() {
            guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { return nil }
            self.group = group
        }
        deinit { EC_GROUP_free(group) }
    }
    private static let curve = Curve()

    /// A fresh key agreed with `peer`, an uncompressed P-256 point, which must be on the curve
    /// (an invalid-curve point is never multiplied).
    ///
    /// The peer is checked for being on the curve, which is all P-256 needs: its order is prime
    /// (cofactor 1), so every point on it other than infinity is in the group.
    public static func agree(with peer: [UInt8]) throws(Failure) -> Agreed {
        guard peer.count == 65, peer.first == 0x04 else { throw .notOnCurve }
        guard let group = curve?.group, let order = EC_GROUP_get0_order(group), let context = BN_CTX_new() else {
            throw .openSSL
        }
        defer { BN_CTX_free(context) }
        let theirs = EC_POINT_new(group), ours = EC_POINT_new(group), product = EC_POINT_new(group)
        // The private scalar in OpenSSL's secure form: cleared when freed.
        let scalar = BN_secure_new(), x = BN_new()
        defer {
            EC_POINT_free(theirs)
            EC_POINT_clear_free(ours)
            EC_POINT_clear_free(product)
            BN_clear_free(scalar)
            BN_clear_free(x)
        }
        guard let theirs, let ours, let product, let scalar, let x else { throw .openSSL }
        guard EC_POINT_oct2point(group, theirs, peer, peer.count, context) == 1,
            EC_POINT_is_at_infinity(group, theirs) == 0, EC_POINT_is_on_curve(group, theirs, context) == 1
        else {
            ERR_clear_error()
            throw .notOnCurve
        }
        // A scalar in [1, n-1], as OpenSSL's key generation draws it.
        repeat {
            guard BN_priv_rand_range_ex(scalar, order, 0, context) == 1 else {
                ERR_clear_error()
                throw .openSSL
            }
        } while BN_is_zero(scalar) == 1
        var publicPoint = [UInt8](repeating: 0, count: 65)
        var secret = [UInt8](repeating: 0, count: 32)
        guard EC_POINT_mul(group, ours, scalar, nil, nil, context) == 1,
            EC_POINT_point2oct(group, ours, POINT_CONVERSION_UNCOMPRESSED, &publicPoint, 65, context) == 65,
            EC_POINT_mul(group, product, nil, theirs, scalar, context) == 1,
            EC_POINT_get_affine_coordinates(group, product, x, nil, context) == 1,
            BN_bn2binpad(x, &secret, 32) == 32
        else {
            ERR_clear_error()
            throw .openSSL
        }
        return Agreed(publicPoint: publicPoint, sharedSecret: secret)
    }
}
