import COpenSSL

/// How a client decides to trust a server.
public enum TLSTrust: Sendable, Equatable {
    /// The system's trust store (Debian: /etc/ssl/certs).
    case system
    /// The CAs in a PEM file (`--ca-file`).
    case caFile(String)
    /// One CA pinned with `roster-client trust` (DER), like an ssh known_hosts entry.
    case pinned(der: [UInt8], fingerprint: String)
    /// No verification at all: only for `roster-client trust`, which shows the fingerprint to a
    /// person before pinning it.
    case insecureProbe
}

public struct TLSServerConfiguration: Sendable {
    /// PEM: the server certificate followed by its chain.
    public var certificateChainFile: String
    public var privateKeyFile: String
    /// When set, clients must present a certificate issued by a CA in this PEM file (mTLS).
    public var clientCAFile: String?

    public init(certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
        self.clientCAFile = clientCAFile
    }
}

public struct TLSClientConfiguration: Sendable, Equatable {
    public var trust: TLSTrust = .system
    /// Check that the certificate names the host we connect to (on unless explicitly disabled).
    public var verifyHostname = true
    /// A client certificate for servers that require mTLS.
    public var certificateChainFile: String?
    public var privateKeyFile: String?

    public init(trust: TLSTrust = .system) { self.trust = trust }
}

/// An OpenSSL SSL_CTX configured once and then shared by every connection (OpenSSL allows
/// concurrent use of a configured context). TLS 1.2 minimum, 1.3 preferred, no renegotiation,
/// buffers released while idle.
// @unchecked: configured once in init, then only read (OpenSSL allows sharing an SSL_CTX).
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    public let isServer: Bool
    let verifyHostname: Bool
    let pinnedFingerprint: String?

    deinit { SSL_CTX_free(context) }

    private init(isServer: Bool, verifyHostname: Bool = false, pinnedFingerprint: String? = nil) throws {
        guard let context = SSL_CTX_new(isServer ? TLS_server_method() : TLS_client_method()) else {
            throw TLSError.configuration("SSL_CTX_new failed: \(OpenSSLErrorEntry.drain())")
        }
        self.context = context
        self.isServer = isServer
        self.verifyHostname = verifyHostname
        self.pinnedFingerprint = pinnedFingerprint
        roster_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        roster_SSL_CTX_set_hardened_options(context)
        // Idle connections keep no 16 KiB read/write buffers: what makes many idle subscribers cheap.
        roster_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
    }

    public static func server(_ configuration: TLSServerConfiguration) throws -> TLSContext {
        let tls = try TLSContext(isServer: true)
        roster_SSL_CTX_disable_resumption(tls.context)
        guard SSL_CTX_use_certificate_chain_file(tls.context, configuration.certificateChainFile) == 1 else {
            throw TLSError.configuration(
                "cannot use certificate \(configuration.certificateChainFile): \(OpenSSLErrorEntry.drain())")
        }
        guard SSL_CTX_use_PrivateKey_file(tls.context, configuration.privateKeyFile, SSL_FILETYPE_PEM) == 1,
            SSL_CTX_check_private_key(tls.context) == 1
        else {
            throw TLSError.configuration(
                "cannot use key \(configuration.privateKeyFile) with that certificate: \(OpenSSLErrorEntry.drain())")
        }
        if let clientCAFile = configuration.clientCAFile {
            guard SSL_CTX_load_verify_locations(tls.context, clientCAFile, nil) == 1 else {
                throw TLSError.configuration("cannot load client CA file \(clientCAFile): \(OpenSSLErrorEntry.drain())")
            }
            SSL_CTX_set_verify(tls.context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        return tls
    }

    public static func client(_ configuration: TLSClientConfiguration) throws -> TLSContext {
        var pinned: String?
        if case .pinned(_, let fingerprint) = configuration.trust { pinned = fingerprint }
        let tls = try TLSContext(
            isServer: false, verifyHostname: configuration.verifyHostname && configuration.trust != .insecureProbe,
            pinnedFingerprint: pinned)
        switch configuration.trust {
        case .system:
            SSL_CTX_set_default_verify_paths(tls.context)
        case .caFile(let path):
            guard SSL_CTX_load_verify_locations(tls.context, path, nil) == 1 else {
                throw TLSError.configuration("cannot load CA file \(path): \(OpenSSLErrorEntry.drain())")
            }
        case .pinned(let der, _):
            let certificate = try Certificate(der: der)
            let store = SSL_CTX_get_cert_store(tls.context)
            guard X509_STORE_add_cert(store, certificate.x509) == 1 else {
                throw TLSError.configuration("cannot trust the pinned certificate: \(OpenSSLErrorEntry.drain())")
            }
            // The pin is the anchor even when it is not self-signed (a server that sends only its leaf).
            X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        case .insecureProbe:
            break
        }
        SSL_CTX_set_verify(tls.context, configuration.trust == .insecureProbe ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nil)
        if let chain = configuration.certificateChainFile, let key = configuration.privateKeyFile {
            guard SSL_CTX_use_certificate_chain_file(tls.context, chain) == 1,
                SSL_CTX_use_PrivateKey_file(tls.context, key, SSL_FILETYPE_PEM) == 1,
                SSL_CTX_check_private_key(tls.context) == 1
            else {
                throw TLSError.configuration("cannot use client certificate \(chain): \(OpenSSLErrorEntry.drain())")
            }
        }
        return tls
    }
}
