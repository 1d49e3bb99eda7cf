import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A push service on 127.0.0.1 that answers every request 201 at once and notes when each
/// arrived whole: the far end of `push-handoff`, on its own event loop thread so that it never
/// takes the server's core.
final class PushSink: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let arrivals: NIOLockedValueBox<[UInt64]>

    private init(
        port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel, arrivals: NIOLockedValueBox<[UInt64]>
    ) {
        (self.port, self.group, self.channel, self.arrivals) = (port, group, channel, arrivals)
    }

    static func start() async throws -> PushSink {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let arrivals = NIOLockedValueBox<[UInt64]>([])
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 4096)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                        try channel.pipeline.syncOperations.addHandler(Answer(arrivals: arrivals))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            guard let port = channel.localAddress?.port else { throw BenchError("the push sink has no port") }
            return PushSink(port: port, group: group, channel: channel, arrivals: arrivals)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// When each request arrived (`nanos()`), in order.
    var arrived: [UInt64] { arrivals.withLockedValue { $0 } }

    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let arrivals: NIOLockedValueBox<[UInt64]>
        private var keepAlive = true

        init(arrivals: NIOLockedValueBox<[UInt64]>) { self.arrivals = arrivals }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): keepAlive = head.isKeepAlive
            case .body: break
            case .end:
                let at = nanos()
                arrivals.withLockedValue { $0.append(at) }
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "0")
                headers.add(name: "Location", value: "/m/1")
                let head = HTTPResponseHead(version: .http1_1, status: .created, headers: headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                let (keepAlive, bound) = (keepAlive, NIOLoopBound(context, eventLoop: context.eventLoop))
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { bound.value.close(promise: nil) }
                }
            }
        }
    }
}
