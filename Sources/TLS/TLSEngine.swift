import COpenSSL
import NIOCore

/// One TLS session driven through two memory BIOs: ciphertext from the network is fed into
/// the read BIO, ciphertext for the network is drained from the write BIO. It does no I/O of
/// its own, so it runs on whatever event loop owns it. Not thread-safe: one owner.
final class TLSEngine {
    private let ssl: OpaquePointer
    private var networkIn: OpaquePointer
    private var networkOut: OpaquePointer
    private let context: TLSContext
    private let serverName: String?

    enum HandshakeResult { case complete, wantMore, failed(TLSError) }
    enum ReadResult { case data(ByteBuffer), wantMore, closeNotify, failed(TLSError) }

    init(context: TLSContext, serverName: String?) throws {
        guard let ssl = SSL_new(context.context) else {
            throw TLSError.configuration("SSL_new failed: \(OpenSSLErrorEntry.drain())")
        }
        guard let networkIn = BIO_new(BIO_s_mem()), let networkOut = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.configuration("BIO_new failed")
        }
        // An empty read BIO means "wait for more", not end of file.
        roster_BIO_set_mem_eof_return(networkIn, -1)
        roster_BIO_set_mem_eof_return(networkOut, -1)
        SSL_set_bio(ssl, networkIn, networkOut)  // the SSL owns both BIOs from here
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
        self.context = context
        self.serverName = serverName
        if context.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName {
                let isIP = isIPLiteral(serverName)
                // SNI only carries DNS names; IP literals are checked below all the same.
                if !isIP { roster_SSL_set_tlsext_host_name(ssl, serverName) }
                if context.verifyHostname {
                    if isIP {
                        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
                    } else {
                        SSL_set1_host(ssl, serverName)
                    }
                }
            }
        }
    }

    deinit { SSL_free(ssl) }

    /// Hands ciphertext received from the network to OpenSSL.
    func feed(_ buffer: inout ByteBuffer) {
        while buffer.readableBytes > 0 {
            let written = buffer.withUnsafeReadableBytes { raw in
                BIO_write(networkIn, raw.baseAddress, Int32(min(raw.count, Int(Int32.max))))
            }
            guard written > 0 else { return }
            buffer.moveReaderIndex(forwardBy: Int(written))
        }
    }

    func handshake() -> HandshakeResult {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .complete }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .wantMore }
        return .failed(handshakeFailure())
    }

    private func handshakeFailure() -> TLSError {
        let entries = OpenSSLErrorEntry.drain()
        if !context.isServer {
            let verify = Int32(SSL_get_verify_result(ssl))
            if verify != X509_V_OK {
                if let pinned = context.pinnedFingerprint, let presented = presentedAuthorityFingerprint(),
                    presented != pinned
                {
                    return .pinnedFingerprintChanged(host: serverName ?? "?", pinned: pinned, presented: presented)
                }
                return .certificateRejected(
                    code: verify, reason: String(cString: X509_verify_cert_error_string(Int(verify))))
            }
        }
        return TLSError.handshake(entries)
    }

    /// The last certificate of the chain the peer presented: its CA when it sends one.
    func presentedAuthorityFingerprint() -> String? { presentedChain().last?.fingerprint }

    /// The peer's certificate chain as sent (leaf first), readable even after a failed verification.
    func presentedChain() -> [Certificate] {
        guard let chain = roster_SSL_get_peer_cert_chain(ssl) else { return [] }
        return (0..<roster_sk_X509_num(chain)).compactMap { index in
            roster_sk_X509_value(chain, index).map { Certificate(retaining: $0) }
        }
    }

    /// Decrypts what is buffered; `.wantMore` when a whole record is not yet there.
    func read(allocator: ByteBufferAllocator) -> ReadResult {
        ERR_clear_error()
        var buffer = allocator.buffer(capacity: 16_384)
        var lastError: Int32 = 0
        let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { raw in
            let result = SSL_read(ssl, raw.baseAddress, Int32(raw.count))
            if result <= 0 { lastError = SSL_get_error(ssl, result); return 0 }
            return Int(result)
        }
        if count > 0 { return .data(buffer) }
        switch lastError {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .wantMore
        case SSL_ERROR_ZERO_RETURN: return .closeNotify
        default: return .failed(.recordFailed(OpenSSLErrorEntry.drain()))
        }
    }

    /// Encrypts application data into the write BIO (which grows as needed, so this never blocks).
    func write(_ buffer: ByteBuffer) -> TLSError? {
        ERR_clear_error()
        var remaining = buffer
        while remaining.readableBytes > 0 {
            let written = remaining.withUnsafeReadableBytes { raw in
                SSL_write(ssl, raw.baseAddress, Int32(min(raw.count, Int(Int32.max))))
            }
            guard written > 0 else { return .recordFailed(OpenSSLErrorEntry.drain()) }
            remaining.moveReaderIndex(forwardBy: Int(written))
        }
        return nil
    }

    /// Queues our close_notify.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Ciphertext waiting to be sent, if any.
    func drainOutput(allocator: ByteBufferAllocator) -> ByteBuffer? {
        let pending = roster_BIO_ctrl_pending(networkOut)
        guard pending > 0 else { return nil }
        var buffer = allocator.buffer(capacity: pending)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            Int(max(0, BIO_read(networkOut, raw.baseAddress, Int32(pending))))
        }
        return buffer
    }

    /// Replaces both memory BIOs with empty ones when nothing is pending in them. Memory BIOs
    /// keep the capacity they grew to, and the handshake (certificate chain) is the largest thing
    /// most connections ever carry: swapping once after it saves ~2 KB per idle connection.
    func releaseHandshakeBuffers() -> Bool {
        guard roster_BIO_ctrl_pending(networkIn) == 0, roster_BIO_ctrl_pending(networkOut) == 0,
            let freshIn = BIO_new(BIO_s_mem())
        else { return false }
        guard let freshOut = BIO_new(BIO_s_mem()) else {
            BIO_free(freshIn)
            return false
        }
        roster_BIO_set_mem_eof_return(freshIn, -1)
        roster_BIO_set_mem_eof_return(freshOut, -1)
        SSL_set_bio(ssl, freshIn, freshOut)  // frees the old pair
        networkIn = freshIn
        networkOut = freshOut
        return true
    }

    var negotiatedVersion: String { String(cString: SSL_get_version(ssl)) }

    var peerCertificate: Certificate? {
        SSL_get1_peer_certificate(ssl).map { Certificate(taking: $0) }
    }
}
