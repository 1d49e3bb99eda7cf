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
    public static func hmacSHA256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let key = Array(key), input = Array(message)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { rawKey in
            input.withUnsafeBytes { raw in
                HMAC(EVP_sha256(), rawKey.baseAddress, Int32(rawKey.count), raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                     raw.count, &digest, &length)
            }
        }
        precondition(result != nil, "HMAC-SHA256 failed: \(OpenSSLErrorEntry.drain())")
        return Array(digest.prefix(Int(length)))
    }

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
