import NIOCore
import NIOPosix

/// An event-stream reader (`GET /v1/events`) that does the least a browser would: send the
/// request, wait for `hello`, then count `onduty` events by arrival, without parsing the rest.
final class CountingEventStream: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let recorder: PushRecorder
    private var seen = 0
    private var ready = false
    /// The last bytes of the previous read: an event's name may be split across two reads.
    private var tail = ""

    init(recorder: PushRecorder) { self.recorder = recorder }

    func channelActive(context: ChannelHandlerContext) {
        let request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = nanos()
        let text = tail + String(buffer: unwrapInboundIn(data))
        if !ready, text.contains("event: hello") {
            ready = true
            recorder.subscriberReady()
        }
        if ready {
            var searchFrom = text.startIndex
            while let found = text.range(of: "event: onduty", range: searchFrom..<text.endIndex) {
                recorder.record(push: seen, at: now) { Array("event: onduty".utf8) }
                seen += 1
                searchFrom = found.upperBound
            }
            // Keep what could be the start of a name cut by the read's end, never a whole one.
            let rest = text[searchFrom...]
            tail = String(rest.suffix(12))
        }
    }
}

/// Opens `count` event streams on the HTTP port, 256 connects at a time, and waits for every
/// `hello`.
func openEventStreams(count: Int, port: Int, group: any EventLoopGroup, recorder: PushRecorder) async throws
    -> [any Channel]
{
    let bootstrap = ClientBootstrap(group: group)
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(CountingEventStream(recorder: recorder))
            }
        }
    return try await connectInBatches(
        count: count, port: port, bootstrap: bootstrap, recorder: recorder,
        waitingFor: "event streams said hello")
}
