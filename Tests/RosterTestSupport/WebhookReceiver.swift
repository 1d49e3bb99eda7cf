import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP server on 127.0.0.1 (port 0) in the test process that records every webhook
/// request and answers as the test says: a status, after a delay (longer than the server's
/// timeout to make it time out).
public final class WebhookReceiver: Sendable {
    public struct Request: Sendable {
        public var headers: [String: String]
        public var body: Data
        public var receivedAt: Date
        public var method = "POST"
        public var path = "/"

        public var eventID: String { headers["roster-event-id"] ?? "" }
        public var eventType: String { headers["roster-event"] ?? "" }
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// What to answer a request (the n-th received, from 0).
    public struct Answer: Sendable {
        public var status: Int
        public var delay: Duration

        public init(status: Int = 204, delay: Duration = .zero) { (self.status, self.delay) = (status, delay) }
    }

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)/hook" }
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    private let state: NIOLockedValueBox<[Request]>
    private let answer: NIOLockedValueBox<@Sendable (Request, Int) -> Answer>

    public var requests: [Request] { state.withLockedValue { $0 } }

    /// Changes how later requests are answered.
    public func answer(_ rule: @escaping @Sendable (Request, Int) -> Answer) { answer.withLockedValue { $0 = rule } }

    public static func start(port: Int = 0, _ rule: @escaping @Sendable (Request, Int) -> Answer = { _, _ in Answer() })
        async throws -> WebhookReceiver
    {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let state = NIOLockedValueBox<[Request]>([])
        let answer = NIOLockedValueBox<@Sendable (Request, Int) -> Answer>(rule)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Handler(state: state, answer: answer))
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
            return WebhookReceiver(channel: channel, group: group, state: state, answer: answer)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(
        channel: any Channel, group: MultiThreadedEventLoopGroup, state: NIOLockedValueBox<[Request]>,
        answer: NIOLockedValueBox<@Sendable (Request, Int) -> Answer>
    ) {
        self.channel = channel
        self.group = group
        self.state = state
        self.answer = answer
        port = channel.localAddress!.port!
    }

    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Waits until `condition` holds for the requests received, or fails after `timeout`.
    public func wait(timeout: Duration = .seconds(20), _ what: String, until condition: ([Request]) -> Bool)
        async throws
    {
        let deadline = ContinuousClock.now + timeout
        while !condition(requests) {
            guard ContinuousClock.now < deadline else {
                throw TestFailure(
                    "timed out waiting for \(what); received \(requests.map { "\($0.eventType) \($0.eventID)" })")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let state: NIOLockedValueBox<[Request]>
        let answer: NIOLockedValueBox<@Sendable (Request, Int) -> Answer>
        var headers: [String: String] = [:]
        var body = Data()
        var method = "POST", path = "/"

        init(state: NIOLockedValueBox<[Request]>, answer: NIOLockedValueBox<@Sendable (Request, Int) -> Answer>) {
            self.state = state
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                headers = Dictionary(
                    head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
                body = Data()
                (method, path) = (head.method.rawValue, head.uri)
            case .body(var bytes):
                body.append(contentsOf: bytes.readBytes(length: bytes.readableBytes) ?? [])
            case .end:
                let request = Request(headers: headers, body: body, receivedAt: Date(), method: method, path: path)
                let index = state.withLockedValue { requests in
                    requests.append(request)
                    return requests.count - 1
                }
                let reply = answer.withLockedValue { $0 }(request, index)
                let respond = { [context] in
                    let head = HTTPResponseHead(
                        version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status),
                        headers: ["Content-Length": "0", "Connection": "close"])
                    context.write(self.wrapOutboundOut(.head(head)), promise: nil)
                    context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                        context.close(promise: nil)
                    }
                }
                if reply.delay == .zero {
                    respond()
                } else {
                    context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(reply.delay)) { respond() }
                }
            }
        }
    }
}
