import COpenSSL
import RosterDomain

#if canImport(Glibc)
    import Glibc
#endif

/// A provider's public signing key, as its JWKS publishes it (RFC 7517), held as an OpenSSL key.
/// Only what can verify a JWS Roster accepts is built: RSA of 2,048 bits or more, EC on P-256,
/// Ed25519. Immutable once built; OpenSSL's verification on a shared EVP_PKEY is thread-safe.
public final class VerificationKey: @unchecked Sendable {
    /// The JWK's `kid`, if it has one.
    public let keyID: String?
    /// The one algorithm this key verifies (its `alg` when the JWK names one, else its type's).
    public let algorithm: SignatureAlgorithm
    private let key: OpaquePointer

    /// The smallest RSA modulus accepted (RFC 7518 §3.3 requires 2,048 bits).
    public static let minimumRSABits: Int32 = 2_048
    /// The largest: verification cost grows with the modulus, and no provider uses more.
    public static let maximumRSABits: Int32 = 8_192

    private init(keyID: String?, algorithm: SignatureAlgorithm, key: OpaquePointer) {
        (self.keyID, self.algorithm, self.key) = (keyID, algorithm, key)
    }

    deinit { EVP_PKEY_free(key) }

    /// The key a JWK describes, or why it is not one Roster verifies with.
    static func make(_ jwk: JSONValue) -> Result<VerificationKey, KeyProblem> {
        guard case .object = jwk else { return .failure(.init("is not a JSON object")) }
        guard let type = jwk["kty"]?.string else { return .failure(.init("has no kty")) }
        if let use = jwk["use"] { guard use.string == "sig" else { return .failure(.init("is not for signatures")) } }
        let keyID = jwk["kid"]?.string
        let algorithm: SignatureAlgorithm
        if let named = jwk["alg"] {
            guard let text = named.string, let known = SignatureAlgorithm(rawValue: text) else {
                return .failure(.init("is for \(named.string ?? "an unnamed algorithm"), which Roster does not accept"))
            }
            algorithm = known
        } else {
            switch type {
            case "RSA": algorithm = .rs256
            case "EC": algorithm = .es256
            case "OKP": algorithm = .edDSA
            default: return .failure(.init("is of type \(type), which Roster does not verify with"))
            }
        }
        guard algorithm.keyType == type else {
            return .failure(.init("is of type \(type), not for \(algorithm.rawValue)"))
        }
        let built: OpaquePointer?
        switch algorithm {
        case .rs256:
            guard let n = member(jwk, "n"), let e = member(jwk, "e"), !n.isEmpty, !e.isEmpty, e.count <= 8 else {
                return .failure(.init("has no usable n and e"))
            }
            built = fromData(type: "RSA") { parameters in
                parameters.number(OSSL_PKEY_PARAM_RSA_N, n) && parameters.number(OSSL_PKEY_PARAM_RSA_E, e)
            }
        case .es256:
            guard jwk["crv"]?.string == "P-256" else { return .failure(.init("is not on the P-256 curve")) }
            guard let x = member(jwk, "x"), let y = member(jwk, "y"), x.count == 32, y.count == 32 else {
                return .failure(.init("has no usable x and y"))
            }
            let point: [UInt8] = [0x04] + x + y
            built = fromData(type: "EC") { parameters in
                parameters.text(OSSL_PKEY_PARAM_GROUP_NAME, "P-256")
                    && parameters.octets(OSSL_PKEY_PARAM_PUB_KEY, point)
            }
        case .edDSA:
            guard jwk["crv"]?.string == "Ed25519" else { return .failure(.init("is not an Ed25519 key")) }
            guard let x = member(jwk, "x"), x.count == 32 else { return .failure(.init("has no usable x")) }
            built = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, x, x.count)
        }
        guard let built else {
            ERR_clear_error()
            return .failure(
                .init(
                    algorithm == .es256 ? "is not a point on P-256" : "is not a valid \(algorithm.rawValue) public key")
            )
        }
        let key = VerificationKey(keyID: keyID, algorithm: algorithm, key: built)
        if algorithm == .rs256 {
            let bits = EVP_PKEY_get_bits(built)
            guard bits >= minimumRSABits, bits <= maximumRSABits else {
                return .failure(
                    .init("is an RSA key of \(bits) bits (\(minimumRSABits) to \(maximumRSABits) are accepted)"))
            }
        }
        if algorithm == .es256 {
            // A point off the curve would let a forger choose the answer (invalid-curve attacks).
            let context = EVP_PKEY_CTX_new_from_pkey(nil, built, nil)
            defer { EVP_PKEY_CTX_free(context) }
            guard let context, EVP_PKEY_public_check(context) == 1 else {
                ERR_clear_error()
                return .failure(.init("is a point that is not on P-256"))
            }
        }
        return .success(key)
    }

    /// Whether `signature` is this key's signature of `message` (the JWS signing input).
    func verifies(_ signature: [UInt8], of message: ArraySlice<UInt8>) -> Bool {
        let signature: [UInt8]? = algorithm == .es256 ? Self.derFromRaw(signature) : signature
        guard let signature, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        let digest = algorithm == .edDSA ? nil : EVP_sha256()
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
        return message.withUnsafeBytes { raw in
            EVP_DigestVerify(
                context, signature, signature.count, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        } == 1
    }

    /// JWS writes an ECDSA signature as R and S of 32 bytes each (RFC 7518 §3.4); OpenSSL reads DER.
    private static func derFromRaw(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, 32, nil) else { return nil }
        guard let s = raw[32...].withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, 32, nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &output)
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    private static func member(_ jwk: JSONValue, _ name: String) -> [UInt8]? {
        jwk[name]?.string.flatMap { Base64URL.decode($0) }
    }

    /// A public key of `type` from the parameters `push` adds (OpenSSL 3's provider interface).
    private static func fromData(type: String, _ push: (KeyParameters) -> Bool) -> OpaquePointer? {
        guard let builder = KeyParameters() else { return nil }
        guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder.builder) else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, roster_EVP_PKEY_PUBLIC_KEY(), parameters) == 1
        else { return nil }
        return key
    }
}

/// An OSSL_PARAM_BLD and what it points to: the builder keeps names, texts, buffers and numbers
/// by reference until OSSL_PARAM_BLD_to_param, so each is copied here and freed with the builder.
private final class KeyParameters {
    let builder: OpaquePointer
    private var pinned: [UnsafeMutableRawPointer] = []
    private var numbers: [OpaquePointer] = []

    init?() {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        numbers.forEach { BN_free($0) }
        pinned.forEach { free($0) }
    }

    private func pin(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        pinned.append(UnsafeMutableRawPointer(copy))
        return copy
    }

    /// A big-endian unsigned integer.
    func number(_ name: String, _ bytes: [UInt8]) -> Bool {
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
        numbers.append(number)
        return OSSL_PARAM_BLD_push_BN(builder, pin(name), number) == 1
    }

    func text(_ name: String, _ value: String) -> Bool {
        OSSL_PARAM_BLD_push_utf8_string(builder, pin(name), pin(value), 0) == 1
    }

    func octets(_ name: String, _ bytes: [UInt8]) -> Bool {
        let copy = malloc(max(bytes.count, 1))!
        pinned.append(copy)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return OSSL_PARAM_BLD_push_octet_string(builder, pin(name), copy, bytes.count) == 1
    }
}

/// Why one JWK was not taken (the others of its set still are).
struct KeyProblem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
