import COpenSSL

/// One entry of OpenSSL's thread-local error queue.
public struct OpenSSLErrorEntry: Sendable, Equatable, CustomStringConvertible {
    public var code: UInt
    /// The reason part of the code (e.g. `SSL_R_WRONG_VERSION_NUMBER`).
    public var reason: Int32 { ERR_GET_REASON(code) }
    public var description: String

    /// Drains the calling thread's OpenSSL error queue. Call right after a failed OpenSSL call.
    static func drain() -> [OpenSSLErrorEntry] {
        var entries: [OpenSSLErrorEntry] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            entries.append(
                OpenSSLErrorEntry(
                    code: code,
                    description: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            )
        }
        return entries
    }
}

/// Why a TLS connection or configuration failed. The cases are the ones a user can act on; the
/// OpenSSL details ride along for logs.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A certificate, key or CA file could not be used.
    case configuration(String)
    /// The peer's certificate was rejected: expired, unknown CA, wrong hostname ... (`code` is
    /// OpenSSL's X509_V_ERR_* value).
    case certificateRejected(code: Int32, reason: String)
    /// The host's certificate authority is not the one pinned with `roster-client trust`.
    case pinnedFingerprintChanged(host: String, pinned: String, presented: String)
    /// The peer offered only protocol versions below TLS 1.2, or none we share.
    case protocolVersionRefused([OpenSSLErrorEntry])
    /// The peer does not speak TLS (plaintext to a TLS port, or TLS to a plaintext port).
    case notTLS([OpenSSLErrorEntry])
    /// The peer presented no certificate where one is required (mTLS).
    case peerCertificateRequired([OpenSSLErrorEntry])
    /// Any other handshake failure.
    case handshakeFailed([OpenSSLErrorEntry])
    /// Decrypting or encrypting application data failed.
    case recordFailed([OpenSSLErrorEntry])
    /// The connection ended without close_notify (a ragged EOF): data may have been truncated.
    case uncleanShutdown
    /// A write after the connection started closing.
    case closed

    public var description: String {
        func details(_ entries: [OpenSSLErrorEntry]) -> String {
            entries.isEmpty ? "" : " (" + entries.map(\.description).joined(separator: "; ") + ")"
        }
        switch self {
        case .configuration(let why): return "TLS configuration: \(why)"
        case .certificateRejected(_, let reason): return "the server's certificate was rejected: \(reason)"
        case .pinnedFingerprintChanged(let host, let pinned, let presented):
            return """
                WARNING: the certificate authority of \(host) has CHANGED.
                  pinned:    \(pinned)
                  presented: \(presented)
                Someone may be intercepting the connection, or the server's certificates were regenerated.
                If you trust the change, run `roster-client trust \(host):PORT --replace`.
                """
        case .protocolVersionRefused(let entries):
            return "no shared TLS version (TLS 1.2 or newer is required)\(details(entries))"
        case .notTLS(let entries): return "the peer does not speak TLS (a plaintext port?)\(details(entries))"
        case .peerCertificateRequired(let entries): return "a client certificate is required\(details(entries))"
        case .handshakeFailed(let entries): return "TLS handshake failed\(details(entries))"
        case .recordFailed(let entries): return "TLS record error\(details(entries))"
        case .uncleanShutdown: return "the TLS connection ended without close_notify"
        case .closed: return "the TLS connection is closing"
        }
    }

    /// Classifies a failed handshake from OpenSSL's error queue.
    static func handshake(_ entries: [OpenSSLErrorEntry]) -> TLSError {
        let reasons = Set(entries.map(\.reason))
        if !reasons.isDisjoint(with: [
            SSL_R_WRONG_VERSION_NUMBER, SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST,
            SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_RECORD_LENGTH_MISMATCH,
            SSL_R_UNEXPECTED_EOF_WHILE_READING,
        ]) {
            return .notTLS(entries)
        }
        if !reasons.isDisjoint(with: [
            SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION,
            SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_VERSION_TOO_LOW,
        ]) {
            return .protocolVersionRefused(entries)
        }
        if !reasons.isDisjoint(with: [SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE, SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED])
        {
            return .peerCertificateRequired(entries)
        }
        return .handshakeFailed(entries)
    }
}
