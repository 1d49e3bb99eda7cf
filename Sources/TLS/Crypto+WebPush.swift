import COpenSSL

/// What Web Push needs of OpenSSL beyond signing and its key agreement (docs/PUSH.md): RFC
/// 8291's HKDF and AES-128-GCM.
extension Crypto {
    /// HKDF with SHA-256 (RFC 5869): extract with `salt`, then expand with `info` to `length`
    /// bytes (at most 32: one block, all Web Push needs).
    public static func hkdf(salt: [UInt8], keyMaterial: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        hkdfExpand(pseudoRandomKey: hkdfExtract(salt: salt, keyMaterial: keyMaterial), info: info, length: length)
    }

    /// HKDF's extract step (RFC 5869 §2.2): the pseudorandom key several expansions share.
    public static func hkdfExtract(salt: [UInt8], keyMaterial: [UInt8]) -> [UInt8] {
        hmacSHA256(key: salt, message: keyMaterial)
    }

    /// HKDF's expand step (§2.3) for one block: at most 32 bytes.
    public static func hkdfExpand(pseudoRandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length <= 32, "one HKDF block")
        return Array(hmacSHA256(key: pseudoRandomKey, message: info + [0x01]).prefix(length))
    }

    /// AES-128-GCM with the given key and nonce: the ciphertext, then the 16-byte tag.
    public static func aes128GCM(key: [UInt8], nonce: [UInt8], plaintext: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && nonce.count == 12, "AES-128-GCM takes a 16-byte key and a 12-byte nonce")
        let context = EVP_CIPHER_CTX_new()!
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0, final: Int32 = 0
        let ok =
            EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1
            && EVP_EncryptUpdate(context, &output, &written, plaintext, Int32(plaintext.count)) == 1
            && output.withUnsafeMutableBufferPointer {
                EVP_EncryptFinal_ex(context, $0.baseAddress! + Int(written), &final) == 1
            }
            && output.withUnsafeMutableBufferPointer {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, $0.baseAddress! + plaintext.count) == 1
            }
        precondition(ok, "AES-128-GCM failed: \(OpenSSLErrorEntry.drain())")
        return output
    }
}
