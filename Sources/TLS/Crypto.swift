import COpenSSL

/// The few libcrypto primitives the rest of Roster needs (token hashing and comparison,
/// fingerprints), so that no other module touches OpenSSL directly.
public enum Crypto {
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "SHA-256 failed: \(OpenSSLErrorEntry.drain())")
        return Array(digest.prefix(Int(length)))
    }

    /// HMAC-SHA256 of `message` under `key` (webhook signatures).
    ///
    /// A copy of a kept context with the digest chosen: OpenSSL's one-shot `HMAC()` fetches HMAC
    /// and SHA-256 by name on every call, a tenth of a Web Push message's encryption (five each).
    public static func hmacSHA256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let key = Array(key), input = Array(message)
        guard let template = hmacTemplate?.context, let context = EVP_MAC_CTX_dup(template) else {
            preconditionFailure("HMAC-SHA256 failed: \(OpenSSLErrorEntry.drain())")
        }
        defer { EVP_MAC_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = 0
        // An empty key still needs an address: to EVP_MAC_init, no key means the one set before.
        let keyBytes = key.isEmpty ? [0] : key
        let ok =
            keyBytes.withUnsafeBytes { EVP_MAC_init(context, $0.baseAddress, key.count, nil) } == 1
            && input.withUnsafeBytes { EVP_MAC_update(context, $0.baseAddress, $0.count) } == 1
            && EVP_MAC_final(context, &digest, &length, digest.count) == 1 && length == 32
        precondition(ok, "HMAC-SHA256 failed: \(OpenSSLErrorEntry.drain())")
        return digest
    }

    /// An HMAC context with SHA-256 chosen and no key, which each HMAC copies. Only read once
    /// made (`EVP_MAC_CTX_dup` takes it as `const`), so threads share it.
    private final class MACTemplate: @unchecked Sendable {
        let context: OpaquePointer
        init?() {
            guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
            defer { EVP_MAC_free(mac) }  // the context keeps its own reference
            guard let context = EVP_MAC_CTX_new(mac) else { return nil }
            let chosen = "digest".withCString { name in
                "SHA256".withCString { value in
                    var parameters = [
                        OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: value), 0),
                        OSSL_PARAM_construct_end(),
                    ]
                    return EVP_MAC_CTX_set_params(context, &parameters)
                }
            }
            guard chosen == 1 else {
                EVP_MAC_CTX_free(context)
                return nil
            }
            self.context = context
        }
        deinit { EVP_MAC_CTX_free(context) }
    }
    private static let hmacTemplate = MACTemplate()

    /// Lower-case hexadecimal, as signatures are written in headers.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Compares in time that depends only on the length, not on where the bytes differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0 }
        }
    }

    /// AES-256-GCM: a fresh 12-byte nonce, the ciphertext, the 16-byte tag, in that order.
    public static func seal(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(key.count == 32, "AES-256 takes a 32-byte key")
        let nonce = randomBytes(12)
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: 16)
        let context = EVP_CIPHER_CTX_new()!
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0, total: Int32 = 0
        let ok =
            EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
            && EVP_EncryptUpdate(context, &output, &length, plaintext, Int32(plaintext.count)) == 1
            && {
                total = length; return true
            }()
            && output.withUnsafeMutableBufferPointer {
                EVP_EncryptFinal_ex(context, $0.baseAddress! + Int(total), &length)
            } == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        precondition(ok, "AES-256-GCM failed: \(OpenSSLErrorEntry.drain())")
        return nonce + output.prefix(Int(total + length)) + tag
    }

    /// What `seal` sealed under `key`; nil when it was sealed under another key or changed.
    public static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 32, sealed.count >= 28 else { return nil }
        let nonce = Array(sealed.prefix(12)), tag = Array(sealed.suffix(16))
        let ciphertext = Array(sealed.dropFirst(12).dropLast(16))
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        let context = EVP_CIPHER_CTX_new()!
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0, total: Int32 = 0
        var expected = tag
        let ok =
            EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
            && EVP_DecryptUpdate(context, &output, &length, ciphertext, Int32(ciphertext.count)) == 1
            && {
                total = length; return true
            }()
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &expected) == 1
            && output.withUnsafeMutableBufferPointer {
                EVP_DecryptFinal_ex(context, $0.baseAddress! + Int(total), &length)
            } == 1
        ERR_clear_error()
        return ok ? Array(output.prefix(Int(total + length))) : nil
    }

    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&bytes, Int32(count)) == 1, "RAND_bytes failed")
        return bytes
    }

    /// "AB:CD:...", the form `openssl x509 -fingerprint -sha256` prints.
    public static func colonHex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
