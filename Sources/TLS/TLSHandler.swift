import NIOCore

/// Fired inbound once the handshake completes.
public struct TLSHandshakeCompleted: Sendable {
    /// "TLSv1.3" or "TLSv1.2".
    public var negotiatedVersion: String
}

/// A SwiftNIO handler that puts TLS between the socket and the rest of the pipeline, using the
/// system OpenSSL over two memory BIOs. Plaintext flows above it, ciphertext below. Writes made
/// before the handshake completes are buffered; close sends close_notify and a peer's
/// close_notify is answered; a socket that closes without one is reported as
/// `TLSError.uncleanShutdown`. Failures reach `errorCaught` as `TLSError` and close the channel.
public final class TLSHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let engine: TLSEngine
    private var state: TLSConnectionState
    /// Writes made during the handshake, and whether each was flushed.
    private var buffered: [(data: ByteBuffer, promise: EventLoopPromise<Void>?, flushed: Bool)] = []
    /// Promises of plaintext already encrypted, completed when their ciphertext is written.
    private var encryptedPromises: [EventLoopPromise<Void>] = []
    private var closePromise: EventLoopPromise<Void>?
    private var readPending = false
    private var handshakeBuffersReleased = false
    private let plaintextRefusal: ByteBuffer?

    /// - Parameters:
    ///   - serverHostname: for clients, the name the certificate must match (and SNI).
    ///   - plaintextRefusal: sent in the clear, instead of a TLS alert, to a peer that turns out
    ///     not to speak TLS, so that a plaintext client learns why it is refused.
    public init(context: TLSContext, serverHostname: String? = nil, plaintextRefusal: ByteBuffer? = nil) throws {
        engine = try TLSEngine(context: context, serverName: serverHostname)
        state = TLSConnectionState(isClient: !context.isServer)
        self.plaintextRefusal = plaintextRefusal
    }

    /// The peer's certificate after the handshake (mTLS on the server, the server's on a client).
    public var peerCertificate: Certificate? { engine.peerCertificate }
    /// The chain the server presented, readable even after a failed verification.
    public var presentedChain: [Certificate] { engine.presentedChain() }
    public var phase: TLSConnectionState.Phase { state.phase }

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { becomeActive(context: context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        becomeActive(context: context)
        context.fireChannelActive()
    }

    private func becomeActive(context: ChannelHandlerContext) {
        switch state.channelActive() {
        case .startHandshake: advanceHandshake(context: context)
        case .awaitPeer, .none: break
        }
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var ciphertext = unwrapInboundIn(data)
        state.bytesReceived()
        engine.feed(&ciphertext)
        if state.phase == .handshaking { advanceHandshake(context: context) }
        if state.phase == .active || state.phase == .closing { readApplicationData(context: context) }
        flushCiphertext(context: context)
        if state.phase == .active && !handshakeBuffersReleased {
            handshakeBuffersReleased = engine.releaseHandshakeBuffers()
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        if readPending {
            readPending = false
            context.fireChannelReadComplete()
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        let action = state.channelInactive()
        failPending(TLSError.closed)
        if action == .reportUncleanShutdown { context.fireErrorCaught(TLSError.uncleanShutdown) }
        closePromise?.succeed()
        closePromise = nil
        context.fireChannelInactive()
    }

    // MARK: Handshake

    private func advanceHandshake(context: ChannelHandlerContext) {
        switch engine.handshake() {
        case .wantMore:
            flushCiphertext(context: context)
        case .failed(let error):
            state.handshakeFailed()
            if case .notTLS = error, let plaintextRefusal {
                _ = engine.drainOutput(allocator: context.channel.allocator)  // a TLS alert would be noise to it
                context.writeAndFlush(wrapOutboundOut(plaintextRefusal), promise: nil)
            } else {
                flushCiphertext(context: context)  // the alert tells the peer why
            }
            failPending(error)
            context.fireErrorCaught(error)
            context.close(promise: nil)
        case .complete:
            switch state.handshakeCompleted() {
            case .flushBufferedWrites:
                context.fireUserInboundEventTriggered(
                    TLSHandshakeCompleted(negotiatedVersion: engine.negotiatedVersion))
                let writes = buffered
                buffered.removeAll()
                var anyFlushed = false
                for write in writes {
                    encrypt(write.data, promise: write.promise, context: context)
                    anyFlushed = anyFlushed || write.flushed
                }
                // Unflushed writes stay encrypted until the next flush; the handshake's own
                // bytes go out now.
                if anyFlushed { flushCiphertext(context: context) } else { writeHandshakeBytes(context: context) }
            case .none:
                break
            }
        }
    }

    /// Sends handshake records without completing application write promises.
    private func writeHandshakeBytes(context: ChannelHandlerContext) {
        let promises = encryptedPromises
        encryptedPromises.removeAll()
        flushCiphertext(context: context)
        encryptedPromises = promises
    }

    // MARK: Inbound data

    private func readApplicationData(context: ChannelHandlerContext) {
        while true {
            switch engine.read(allocator: context.channel.allocator) {
            case .data(let plaintext):
                readPending = true
                context.fireChannelRead(wrapInboundOut(plaintext))
            case .wantMore:
                return
            case .closeNotify:
                switch state.closeNotifyReceived() {
                case .sendCloseNotify: sendCloseNotify(context: context)
                case .closeSocket: context.close(promise: nil)
                case .none: break
                }
                return
            case .failed(let error):
                failPending(error)
                context.fireErrorCaught(error)
                context.close(promise: nil)
                return
            }
        }
    }

    // MARK: Outbound

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let plaintext = unwrapOutboundIn(data)
        switch state.write() {
        case .buffer: buffered.append((plaintext, promise, false))
        case .encrypt: encrypt(plaintext, promise: promise, context: context)
        case .fail: promise?.fail(TLSError.closed)
        }
    }

    public func flush(context: ChannelHandlerContext) {
        switch state.phase {
        case .idle, .handshaking:
            for index in buffered.indices { buffered[index].flushed = true }
        case .active, .closing:
            flushCiphertext(context: context)
        case .closed:
            break
        }
    }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all else {
            context.close(mode: mode, promise: promise)
            return
        }
        switch state.closeRequested() {
        case .sendCloseNotify:
            closePromise = promise
            sendCloseNotify(context: context)
        case .closeSocket:
            failPending(TLSError.closed)
            context.close(promise: promise)
        case .none:
            if let promise {
                if let closePromise {
                    closePromise.futureResult.cascade(to: promise)
                } else {
                    context.close(promise: promise)
                }
            }
        }
    }

    private func encrypt(_ plaintext: ByteBuffer, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        if let error = engine.write(plaintext) {
            promise?.fail(error)
            context.fireErrorCaught(error)
            context.close(promise: nil)
            return
        }
        if let promise { encryptedPromises.append(promise) }
    }

    /// Writes and flushes whatever ciphertext OpenSSL produced; completes the promises of the
    /// plaintext it carries.
    private func flushCiphertext(context: ChannelHandlerContext) {
        guard let ciphertext = engine.drainOutput(allocator: context.channel.allocator) else {
            let promises = encryptedPromises
            encryptedPromises.removeAll()
            for promise in promises { promise.succeed() }
            return
        }
        let promises = encryptedPromises
        encryptedPromises.removeAll()
        if promises.isEmpty {
            context.writeAndFlush(wrapOutboundOut(ciphertext), promise: nil)
        } else {
            let written = context.eventLoop.makePromise(of: Void.self)
            for promise in promises { written.futureResult.cascade(to: promise) }
            context.writeAndFlush(wrapOutboundOut(ciphertext), promise: written)
        }
    }

    /// close_notify, then close the socket once it is written. Waiting for the peer's reply is
    /// not required (RFC 8446 6.1) and would let a silent peer hold the connection open.
    private func sendCloseNotify(context: ChannelHandlerContext) {
        engine.shutdown()
        let promise = closePromise
        closePromise = nil
        guard let ciphertext = engine.drainOutput(allocator: context.channel.allocator) else {
            context.close(promise: promise)
            return
        }
        let pending = encryptedPromises
        encryptedPromises.removeAll()
        context.writeAndFlush(wrapOutboundOut(ciphertext)).assumeIsolated().whenComplete { result in
            for p in pending {
                switch result {
                case .success: p.succeed()
                case .failure(let error): p.fail(error)
                }
            }
            context.close(promise: promise)
        }
    }

    private func failPending(_ error: any Error) {
        let writes = buffered
        buffered.removeAll()
        for write in writes { write.promise?.fail(error) }
        let promises = encryptedPromises
        encryptedPromises.removeAll()
        for promise in promises { promise.fail(error) }
    }
}

@available(*, unavailable)
extension TLSHandler: Sendable {}
