import COpenSSL
import Foundation

/// An X.509 certificate held by OpenSSL.
// @unchecked: an immutable handle; OpenSSL allows reading an X509 from several threads.
public final class Certificate: @unchecked Sendable {
    let x509: OpaquePointer

    init(taking x509: OpaquePointer) { self.x509 = x509 }

    /// Adopts a borrowed pointer by taking a reference of our own.
    init(retaining x509: OpaquePointer) {
        X509_up_ref(x509)
        self.x509 = x509
    }

    deinit { X509_free(x509) }

    public convenience init(pem: String) throws {
        guard let x509 = try withMemoryBIO(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSError.configuration("not a PEM certificate")
        }
        self.init(taking: x509)
    }

    public convenience init(der: [UInt8]) throws {
        let x509 = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let x509 else { throw TLSError.configuration("not a DER certificate") }
        self.init(taking: x509)
    }

    /// Every certificate in a PEM file, in order.
    public static func load(pemFile path: String) throws -> [Certificate] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TLSError.configuration("cannot read \(path)")
        }
        return try withMemoryBIO(text) { bio in
            var certificates: [Certificate] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(Certificate(taking: x509)) }
            ERR_clear_error()  // the loop ends on "no start line"
            guard !certificates.isEmpty else { throw TLSError.configuration("no certificate in \(path)") }
            return certificates
        }
    }

    public var der: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &out)
        guard length > 0, let out else { return [] }
        defer { roster_OPENSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    public var pem: String {
        withOutputBIO { PEM_write_bio_X509($0, x509) }
    }

    /// SHA-256 over the DER encoding, as "SHA256:AB:CD:...".
    public var fingerprint: String { "SHA256:" + Crypto.colonHex(Crypto.sha256(der)) }

    public var subject: String {
        guard let name = X509_get_subject_name(x509), let text = X509_NAME_oneline(name, nil, 0) else { return "?" }
        defer { roster_OPENSSL_free(text) }
        return String(cString: text)
    }

    public var notAfter: Date? {
        guard let time = X509_get0_notAfter(x509) else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }

    /// Whether the certificate is valid for `name` (a DNS name or an IP address literal).
    public func matches(name: String) -> Bool {
        if X509_check_ip_asc(x509, name, 0) == 1 { return true }
        return X509_check_host(x509, name, name.utf8.count, 0, nil) == 1
    }
}

/// A private key held by OpenSSL.
// @unchecked: an immutable handle; OpenSSL allows using an EVP_PKEY from several threads.
public final class PrivateKey: @unchecked Sendable {
    let key: OpaquePointer

    init(taking key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// A new ECDSA P-256 key (a tenant's VAPID key, a certificate's). Web Push's key per
    /// message is not one of these: EphemeralKeyAgreement makes it on a kept group.
    public static func generate() throws -> PrivateKey {
        guard let key = roster_EVP_EC_gen_p256() else {
            throw TLSError.configuration("key generation failed: \(OpenSSLErrorEntry.drain())")
        }
        return PrivateKey(taking: key)
    }

    public convenience init(pem: String) throws {
        guard let key = try withMemoryBIO(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSError.configuration("not a PEM private key")
        }
        self.init(taking: key)
    }

    public var pem: String {
        withOutputBIO { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    /// The P-256 public point, uncompressed: 0x04, X and Y (32 bytes each). For a key set a
    /// benchmark publishes as a provider would.
    public var publicPoint: [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        _ = EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &length)
        return Array(point.prefix(length))
    }

    /// An ECDSA signature with SHA-256 of `data`, as JWS's ES256 writes it: R and S, 32 bytes each.
    public func es256Signature(_ data: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw TLSError.configuration("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
            EVP_DigestSign(context, nil, &length, data, data.count) == 1
        else { throw TLSError.configuration("signing failed: \(OpenSSLErrorEntry.drain())") }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, data, data.count) == 1 else {
            throw TLSError.configuration("signing failed: \(OpenSSLErrorEntry.drain())")
        }
        var cursor: UnsafePointer<UInt8>? = der.withUnsafeBufferPointer { $0.baseAddress }
        guard
            let signature = der.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
                cursor = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, length)
            })
        else { throw TLSError.configuration("not an ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        raw.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(r, buffer.baseAddress, 32)
            _ = BN_bn2binpad(s, buffer.baseAddress! + 32, 32)
        }
        return raw
    }
}

/// Issues the certificates a server generates for itself (`--tls` with no certificate given)
/// and that tests need: a CA, and leaf certificates it signs.
public enum CertificateIssuer {
    public struct Issued: Sendable {
        public var certificate: Certificate
        public var key: PrivateKey

        public init(certificate: Certificate, key: PrivateKey) {
            self.certificate = certificate
            self.key = key
        }
    }

    public enum Usage: Sendable { case server, client }

    /// A self-signed CA certificate.
    public static func makeAuthority(
        commonName: String, notBefore: Date = Date(timeIntervalSinceNow: -3600),
        notAfter: Date = Date(timeIntervalSinceNow: 10 * 365 * 86_400)
    ) throws -> Issued {
        let key = try PrivateKey.generate()
        let x509 = try build(commonName: commonName, publicKey: key, notBefore: notBefore, notAfter: notAfter)
        let extensions = [
            (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
            (NID_key_usage, "critical,keyCertSign,cRLSign"),
            (NID_subject_key_identifier, "hash"),
        ]
        try finish(x509, issuer: x509, signer: key, extensions: extensions)
        return Issued(certificate: Certificate(taking: x509), key: key)
    }

    /// A leaf certificate for `names` (DNS names or IP literals), signed by `authority`.
    public static func makeLeaf(
        names: [String], usage: Usage = .server, signedBy authority: Issued,
        notBefore: Date = Date(timeIntervalSinceNow: -3600),
        notAfter: Date = Date(timeIntervalSinceNow: 825 * 86_400)
    ) throws -> Issued {
        let key = try PrivateKey.generate()
        let x509 = try build(
            commonName: names.first ?? "roster", publicKey: key, notBefore: notBefore, notAfter: notAfter)
        var extensions = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, usage == .server ? "serverAuth" : "clientAuth"),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
        ]
        if !names.isEmpty {
            let alternatives = names.map { name in
                isIPLiteral(name) ? "IP:\(name)" : "DNS:\(name)"
            }
            extensions.append((NID_subject_alt_name, alternatives.joined(separator: ",")))
        }
        try finish(x509, issuer: authority.certificate.x509, signer: authority.key, extensions: extensions)
        return Issued(certificate: Certificate(taking: x509), key: key)
    }

    private static func build(commonName: String, publicKey: PrivateKey, notBefore: Date, notAfter: Date) throws
        -> OpaquePointer
    {
        guard let x509 = X509_new() else { throw TLSError.configuration("X509_new failed") }
        X509_set_version(x509, 2)
        let serial = Crypto.randomBytes(16).enumerated().map { $0.offset == 0 ? $0.element & 0x7f : $0.element }
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509))
        BN_free(number)
        ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970))
        ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970))
        X509_set_pubkey(x509, publicKey.key)
        let name = X509_get_subject_name(x509)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, "Roster", -1, -1, 0)
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        return x509
    }

    private static func finish(
        _ x509: OpaquePointer, issuer: OpaquePointer, signer: PrivateKey,
        extensions: [(Int32, String)]
    ) throws {
        X509_set_issuer_name(x509, X509_get_subject_name(issuer))
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, x509, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw TLSError.configuration("extension \(value): \(OpenSSLErrorEntry.drain())")
            }
            X509_add_ext(x509, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(x509, signer.key, EVP_sha256()) > 0 else {
            throw TLSError.configuration("signing failed: \(OpenSSLErrorEntry.drain())")
        }
    }
}

func withMemoryBIO<T>(_ text: String, _ body: (OpaquePointer) throws -> T) throws -> T {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBytes { raw in
        guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
            throw TLSError.configuration("BIO_new_mem_buf failed")
        }
        defer { BIO_free(bio) }
        return try body(bio)
    }
}

func withOutputBIO(_ body: (OpaquePointer) -> Int32) -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { return "" }
    defer { BIO_free(bio) }
    guard body(bio) == 1 else { return "" }
    var data: UnsafeMutablePointer<CChar>?
    let length = roster_BIO_get_mem_data(bio, &data)
    guard length > 0, let data else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
}

/// An IPv4 or IPv6 address literal, as opposed to a DNS name (certificates and SNI treat them apart).
func isIPLiteral(_ name: String) -> Bool {
    name.contains(":") || (!name.isEmpty && name.allSatisfy { $0.isNumber || $0 == "." })
}
