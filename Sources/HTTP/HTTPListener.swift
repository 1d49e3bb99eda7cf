import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTLS

/// The HTTP listener (`--http-listen`): NIOHTTP1 behind the same TLS as the protocol port when
/// not on loopback. Each request is answered by `HTTPAPI`, its heavy work on the tenant work
/// pool. Bounded like the protocol port: at most `httpMaxConnections` open (then 503 and close),
/// a deadline for the TLS handshake and each request's head and body (`httpHeaderTimeout`) and
/// for the time between requests (`httpIdleTimeout`), a cap on body bytes; HTTP/1.1 pipelining
/// is answered one request at a time (NIO's pipelining handler stops reading meanwhile).
package enum HTTPListener {
    static func waterMark(_ limits: ServerConfiguration.Limits) -> ChannelOptions.Types.WriteBufferWaterMark {
        let high = min(limits.outboundHighWaterMark, 64 << 10)
        return .init(low: high / 2, high: high)
    }

    package static func bind(
        _ address: HostPort, group: any EventLoopGroup, side: HTTPSide, tls: TLSContext?,
        limits: ServerConfiguration.Limits
    ) async throws -> any Channel {
        let api = HTTPAPI(side: side)
        side.limitStreams(limits)
        let open = NIOLockedValueBox(0)
        let timing = HTTPHandler.Timing(
            header: TimeAmount(limits.httpHeaderTimeout), idle: TimeAmount(limits.httpIdleTimeout),
            maxBodyBytes: limits.httpMaxBodyBytes)
        do {
            return try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A fixed kernel send buffer per connection (the kernel doubles it), not one that
                // grows to 4 MiB: a reader that stops reading holds little, and is seen soon.
                .childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(limits.httpSendBufferBytes))
                // What NIO queues past the kernel before a connection counts as not reading (an
                // event stream then gets nothing more): 64 KiB, or less when the protocol's
                // outbound buffer is set smaller.
                .childChannelOption(.writeBufferWaterMark, value: HTTPListener.waterMark(limits))
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let admitted = open.withLockedValue { count in
                            guard count < limits.httpMaxConnections else { return false }
                            count += 1
                            return true
                        }
                        guard admitted else {
                            side.metrics?.counters.httpRefused()
                            try channel.pipeline.syncOperations.addHandler(HTTPRefusingHandler(plaintext: tls == nil))
                            return
                        }
                        channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
                        // The server's current certificate once it serves (SIGHUP may replace it).
                        if let tls = tls.map({ side.currentTLS ?? $0 }) {
                            try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls))
                        }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPHandler(api: api, timing: timing, loop: channel.eventLoop))
                    }
                }
                .bind(host: address.host, port: address.port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerStartError.addressInUse(address.description + " (HTTP)")
        }
    }
}

/// What an HTTP connection past the cap gets: on plaintext a 503 it can read, then the close.
final class HTTPRefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let plaintext: Bool

    init(plaintext: Bool) { self.plaintext = plaintext }

    func channelActive(context: ChannelHandlerContext) {
        guard plaintext else { return context.close(promise: nil) }
        let body = "too many connections; try again shortly\n"
        let text =
            "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// One HTTP connection: gathers a request, has `HTTPAPI` answer it, writes the reply. Its one
/// timer is the deadline of what it waits for: the first request's head (TLS handshake included)
/// or the next one's (idle), or the rest of a request whose head came; a request being answered
/// has none.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Timing: Sendable {
        var header: TimeAmount
        var idle: TimeAmount
        var maxBodyBytes: Int
    }

    let api: HTTPAPI
    let timing: Timing
    let eventLoop: any EventLoop
    private var head: HTTPRequestHead?
    /// The request's body so far (a form the web app posts); at most `timing.maxBodyBytes`.
    private var body: [UInt8] = []
    private var deadline: Scheduled<Void>?
    /// Set while the connection carries an event stream (HTTPHandler+EventStream.swift).
    var stream: EventStream?
    /// The stream's place in `StreamAdmission`, from its admission to the connection's end.
    var streamTicket: StreamAdmission.Ticket?
    var context: ChannelHandlerContext?

    init(api: HTTPAPI, timing: Timing, loop: any EventLoop) {
        self.api = api
        self.timing = timing
        eventLoop = loop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(timing.header, context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endStream(context: context)
        releaseStreamTicket()
        self.context = nil
    }

    func releaseStreamTicket() {
        guard let ticket = streamTicket else { return }
        streamTicket = nil
        api.side.releaseStream(ticket)
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(timing.header, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        endStream(context: context)
        releaseStreamTicket()
        context.fireChannelInactive()
    }

    func arm(_ time: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: time) { context.close(promise: nil) }
    }

    func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A stream's connection carries nothing more from the client: another request ends it.
        if stream != nil { return context.close(promise: nil) }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            arm(timing.header, context: context)  // the rest of the request comes within it
        case .body(var part):
            guard body.count + part.readableBytes <= timing.maxBodyBytes else {
                // Too big to take: say so and close (the rest is not read).
                let reply = HTTPAPI.problem(413, "the request body is over \(timing.maxBodyBytes) bytes")
                if let head {
                    self.head = nil; write(reply, for: head, context: context, close: true)
                } else {
                    context.close(promise: nil)
                }
                return
            }
            body += part.readBytes(length: part.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            deadline?.cancel()
            deadline = nil
            var request = HTTPAPI.Request(head)
            request.body = body
            request.peer = context.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? ""
            request.peerAddress = context.channel.remoteAddress?.ipAddress ?? ""
            request.loop = context.eventLoop
            body = []
            let received = request
            let api = self.api, loop = context.eventLoop
            let promise = loop.makePromise(of: HTTPAPI.Reply.self)
            promise.completeWithTask { await api.respond(to: received) }
            promise.futureResult.assumeIsolated().whenSuccess { reply in
                self.write(reply, for: head, context: context)
            }
        }
    }

    private func write(
        _ reply: HTTPAPI.Reply, for request: HTTPRequestHead, context: ChannelHandlerContext, close: Bool = false
    ) {
        if let (tenant, ticket) = reply.eventStream {
            // Held until the connection ends (released at once if it already has).
            streamTicket = ticket
            guard context.channel.isActive else { return releaseStreamTicket() }
            return startStream(tenant, for: request, context: context)
        }
        var headers = HTTPHeaders([
            ("Content-Type", reply.contentType), ("Content-Length", "\(reply.body.count)"),
            ("Cache-Control", "no-store"),
        ])
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        let keepAlive = request.isKeepAlive && !close
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
        }
        let done = context.writeAndFlushPromise()
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if keepAlive {
            // The reply must be taken within the idle time too: a peer that never reads is closed.
            arm(timing.idle, context: context)
        } else {
            done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}

extension ChannelHandlerContext {
    fileprivate func writeAndFlushPromise() -> EventLoopPromise<Void> { eventLoop.makePromise() }
}
