import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterProtocol
import RosterTLS

/// What went wrong talking to a server.
public enum RosterClientError: Error, Sendable, CustomStringConvertible {
    /// The server answered with an Error frame.
    case server(Roster_V1_Error)
    /// The connection could not be made or was lost.
    case connectionFailed(String)
    case connectionClosed
    /// The server sent bytes that break the protocol.
    case protocolViolation(String)
    /// No answer in time.
    case timedOut
    /// TLS failed: certificate rejected, changed fingerprint, no shared version ...
    case tls(TLSError)
    /// A change was sent and no answer came (the connection closed, or the time was up): it may
    /// or may not have been made. Retrying blindly could make it twice.
    case outcomeUnknown(String)
    /// The request is larger than the server takes in one frame (its Welcome says how large);
    /// it was not sent.
    case requestTooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .outcomeUnknown(let why): return "the change was sent but \(why): it may or may not have been made"
        case .requestTooLarge(let bytes, let limit):
            return "the request is \(bytes) bytes; the server takes at most \(limit) in one frame"
        case .server(let error): return "\(error.message) (\(error.code))"
        case .connectionFailed(let why): return why
        case .connectionClosed: return "the connection was closed"
        case .protocolViolation(let why): return "protocol violation: \(why)"
        case .timedOut: return "the server did not answer in time"
        case .tls(let error): return error.description
        }
    }

    /// Retrying cannot help: bad credentials, or a certificate that will not verify.
    public var isPermanent: Bool {
        switch self {
        case .server(let error): return [.unauthenticated, .permissionDenied, .tlsRequired].contains(error.code)
        case .tls(.uncleanShutdown), .tls(.recordFailed), .tls(.closed): return false
        case .tls: return true
        default: return false
        }
    }

    /// The wire error code when the server refused.
    public var code: Roster_V1_ErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }
}

/// A frame received outside a plain request/response exchange: pushes (request id 0) and every
/// frame of a subscribe exchange (Subscribed, Snapshot or replay, Synced, or its Error).
public struct InboundMessage: Sendable {
    public var requestID: UInt32
    public var message: RosterMessage

    public init(requestID: UInt32, message: RosterMessage) {
        self.requestID = requestID
        self.message = message
    }
}

/// One connection to a Roster server: handshake, request/response by request id, pushes as an
/// AsyncStream, and liveness (ping when the server is quiet, close after 1.5 intervals).
///
/// This is the transport. `RosterClient` adds reconnecting, resuming and the cache on top.
public final class RosterConnection: Sendable {
    public let welcome: Roster_V1_Welcome
    /// Pushes and subscription frames, in arrival order. Finishes when the connection closes.
    public let inbound: AsyncStream<InboundMessage>
    private let channel: any Channel
    private let handler: NIOLoopBound<ClientFrameHandler>
    private let nextRequestID = NIOLockedValueBox<UInt32>(1)

    /// Connects and performs the handshake.
    /// - Parameter hello: version range and client name default to this build's.
    /// - Parameter tls: connect over TLS with this context; the certificate must match `host`.
    public static func connect(
        host: String, port: Int, tls: TLSContext? = nil, timeout: Duration = .seconds(10),
        hello: Roster_V1_Hello = Roster_V1_Hello(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> RosterConnection {
        var hello = hello
        if hello.minVersion == 0 && hello.maxVersion == 0 {
            hello.minVersion = WireProtocol.supportedVersions.lowerBound
            hello.maxVersion = WireProtocol.supportedVersions.upperBound
        }
        if hello.clientName.isEmpty { hello.clientName = "RosterClient" }
        if !hello.features.contains(SnapshotParts.feature) { hello.features.append(SnapshotParts.feature) }
        let (stream, continuation) = AsyncStream<InboundMessage>.makeStream()
        let channel: any Channel
        let handler: NIOLoopBound<ClientFrameHandler>
        do {
            (channel, handler) = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                try TLSHandler(context: tls, serverHostname: host))
                        }
                        let limit = FrameSizeLimit(WireProtocol.handshakeMaxFrameLength)
                        let handler = ClientFrameHandler(limit: limit, continuation: continuation)
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(limit: limit)))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                }
        } catch {
            continuation.finish()
            throw RosterClientError.connectionFailed(
                "cannot reach \(host.contains(":") ? "[\(host)]" : host):\(port): \(ConnectFailure.reason(error))")
        }
        let response: RosterMessage
        do {
            response = try await Self.exchange(
                RosterMessage.hello(hello).frame(requestID: 0), channel: channel, handler: handler,
                timeout: TimeAmount(timeout))
        } catch {
            try? await channel.close()
            throw error
        }
        guard case .welcome(let welcome) = response else {
            try? await channel.close()
            throw RosterClientError.protocolViolation("expected Welcome, got \(response.type)")
        }
        try await channel.eventLoop.submit {
            handler.value.handshakeDone(welcome: welcome)
        }.get()
        return RosterConnection(welcome: welcome, inbound: stream, channel: channel, handler: handler)
    }

    private init(
        welcome: Roster_V1_Welcome, inbound: AsyncStream<InboundMessage>, channel: any Channel,
        handler: NIOLoopBound<ClientFrameHandler>
    ) {
        self.welcome = welcome
        self.inbound = inbound
        self.channel = channel
        self.handler = handler
    }

    private func makeRequestID() -> UInt32 {
        nextRequestID.withLockedValue { id in
            defer { id = id == UInt32.max ? 1 : id + 1 }
            return id
        }
    }

    /// Sends a request and waits for its one response. An Error frame throws `.server`.
    public func request(_ message: RosterMessage, timeout: Duration = .seconds(30)) async throws -> RosterMessage {
        let requestID = makeRequestID()
        let frame = message.frame(requestID: requestID)
        // A frame over the server's limit would only get the connection closed: say so instead.
        let limit = Int(welcome.limits.maxFrameBytes)
        let bytes = Frame.headerLength + frame.body.readableBytes
        if limit > 0, bytes > limit { throw RosterClientError.requestTooLarge(bytes: bytes, limit: limit) }
        return try await Self.exchange(frame, channel: channel, handler: handler, timeout: TimeAmount(timeout))
    }

    private static func exchange(
        _ frame: Frame, channel: any Channel,
        handler: NIOLoopBound<ClientFrameHandler>, timeout: TimeAmount
    ) async throws -> RosterMessage {
        let promise = channel.eventLoop.makePromise(of: RosterMessage.self)
        channel.eventLoop.execute {
            handler.value.expectResponse(requestID: frame.requestID, promise: promise, timeout: timeout)
            channel.writeAndFlush(frame, promise: nil)
        }
        let response = try await promise.futureResult.get()
        if case .error(let error) = response { throw RosterClientError.server(error) }
        return response
    }

    /// Starts a subscription. Its frames (Subscribed, Snapshot or replayed RosterChanged,
    /// OnDutyChanged, Synced, or an Error) arrive on `inbound` with the returned request id;
    /// live events follow with request id 0.
    @discardableResult
    public func subscribe(_ request: Roster_V1_SubscribeRequest) -> UInt32 {
        let requestID = makeRequestID()
        let frame = RosterMessage.subscribe(request).frame(requestID: requestID)
        channel.writeAndFlush(frame, promise: nil)
        return requestID
    }

    /// Sends a frame as is, expecting nothing (tests, and replies such as Pong).
    /// Sends a request without waiting: its answer arrives on `inbound` with the returned id.
    @discardableResult
    public func post(_ message: RosterMessage) -> UInt32 {
        let requestID = makeRequestID()
        channel.writeAndFlush(message.frame(requestID: requestID), promise: nil)
        return requestID
    }

    public func send(_ frame: Frame) {
        channel.writeAndFlush(frame, promise: nil)
    }

    public var isActive: Bool { channel.isActive }

    public func close() async {
        try? await channel.close()
    }

    /// Completes when the connection has closed.
    public func closed() async {
        try? await channel.closeFuture.get()
    }
}

/// Routes inbound frames: responses to waiting requests, everything else to the stream.
final class ClientFrameHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let limit: FrameSizeLimit
    private let continuation: AsyncStream<InboundMessage>.Continuation
    private var pending: [UInt32: (promise: EventLoopPromise<RosterMessage>, timeout: Scheduled<Void>)] = [:]
    private var context: ChannelHandlerContext?
    private var liveness: LivenessMonitor?
    private var livenessCheck: Scheduled<Void>?
    /// Why the connection failed, for requests made after it did (e.g. a TLS handshake that
    /// failed before the first request was sent).
    private var failure: RosterClientError?
    /// Snapshots that come in parts, until their last part is in.
    private var snapshots = SnapshotAssembly()

    init(limit: FrameSizeLimit, continuation: AsyncStream<InboundMessage>.Continuation) {
        self.limit = limit
        self.continuation = continuation
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Breaks the handler ↔ context cycle when the pipeline is torn down.
    func handlerRemoved(context: ChannelHandlerContext) {
        livenessCheck?.cancel()
        self.context = nil
    }

    func expectResponse(requestID: UInt32, promise: EventLoopPromise<RosterMessage>, timeout: TimeAmount) {
        guard let context, context.channel.isActive, failure == nil else {
            promise.fail(failure ?? RosterClientError.connectionClosed)
            return
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            if let expired = self.pending.removeValue(forKey: requestID) {
                expired.promise.fail(RosterClientError.timedOut)
            }
        }
        pending[requestID] = (promise, task)
    }

    func handshakeDone(welcome: Roster_V1_Welcome) {
        limit.bytes = Int(welcome.limits.maxFrameBytes)
        let interval = Int64(welcome.limits.pingIntervalMs)
        if interval > 0 {
            liveness = LivenessMonitor(intervalMillis: interval)
            scheduleLivenessCheck()
        }
    }

    /// Liveness by receive idleness, every half interval (rule: `LivenessMonitor`).
    private func scheduleLivenessCheck() {
        guard let context, let interval = liveness?.intervalMillis else { return }
        livenessCheck = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(max(1, interval / 2))) {
            switch self.liveness?.check() ?? .none {
            case .close:
                context.close(promise: nil)
                return
            case .ping:
                context.writeAndFlush(self.wrapOutboundOut(RosterMessage.ping(.init()).frame()), promise: nil)
            case .none:
                break
            }
            self.scheduleLivenessCheck()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        liveness?.received()
        var message: RosterMessage
        do {
            guard let decoded = try RosterMessage.decode(frame) else { return }
            message = decoded
        } catch {
            failAll(RosterClientError.protocolViolation("\(error)"))
            context.close(promise: nil)
            return
        }
        if case .ping(let ping) = message {
            context.writeAndFlush(
                wrapOutboundOut(RosterMessage.pong(.with { $0.nonce = ping.nonce }).frame(requestID: frame.requestID)),
                promise: nil)
            return
        }
        if case .snapshot(let part) = message {
            guard let whole = snapshots.add(part, requestID: frame.requestID) else { return }
            message = .snapshot(whole)
        }
        if let waiting = pending.removeValue(forKey: frame.requestID) {
            waiting.timeout.cancel()
            waiting.promise.succeed(message)
            return
        }
        continuation.yield(InboundMessage(requestID: frame.requestID, message: message))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case TLSError.uncleanShutdown: failAll(.connectionClosed)
        case let error as TLSError: failAll(.tls(error))
        default: failAll(.protocolViolation("\(error)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        livenessCheck?.cancel()
        failAll(RosterClientError.connectionClosed)
        continuation.finish()
        context.fireChannelInactive()
    }

    private func failAll(_ error: RosterClientError) {
        if failure == nil { failure = error }
        let waiting = pending
        pending.removeAll()
        for (_, entry) in waiting {
            entry.timeout.cancel()
            entry.promise.fail(error)
        }
    }
}

/// A connect error as a person reads it: "connection refused", not a type dump.
enum ConnectFailure {
    static func reason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if failure.dnsAAAAError != nil && failure.dnsAError != nil && failure.connectionErrors.isEmpty {
                return "the name does not resolve"
            }
            if let first = failure.connectionErrors.first { return reason(first.error) }
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return "timed out" }
        return "\(error)"
    }
}
