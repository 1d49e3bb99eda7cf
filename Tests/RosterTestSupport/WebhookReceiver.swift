import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterTLS

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
        /// The sender's port: requests with the same came on the same connection.
        public var peerPort = 0

        public var eventID: String { headers["roster-event-id"] ?? "" }
        public var eventType: String { headers["roster-event"] ?? "" }
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// What to answer a request (the n-th received, from 0).
    public struct Answer: Sendable {
        public var status: Int
        public var delay: Duration
        public var connection: Connection

        /// What becomes of the connection after the answer.
        public enum Connection: Sendable {
            /// `Connection: close`, then closed.
            case close
            /// Kept open for the next request (HTTP/1.1 keep-alive).
            case keep
            /// Closed without saying so (as a server ending an idle connection does).
            case dropSilently
        }

        public init(status: Int = 204, delay: Duration = .zero, connection: Connection = .close) {
            (self.status, self.delay, self.connection) = (status, delay, connection)
        }
    }

    /// How requests are answered: a struct's field, since a function as a lock box's value is
    /// wrapped in more thunks by every read (OutboxDispatcher.Hooks says why).
    struct Rule: Sendable { var answer: @Sendable (Request, Int) -> Answer }

    public let port: Int
    public let https: Bool
    public var url: String { "\(https ? "https" : "http")://127.0.0.1:\(port)/hook" }
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    private let state: NIOLockedValueBox<[Request]>
    private let stopped = NIOLockedValueBox(false)
    private let answer: NIOLockedValueBox<Rule>

    public var requests: [Request] { state.withLockedValue { $0 } }

    /// Changes how later requests are answered.
    public func answer(_ rule: @escaping @Sendable (Request, Int) -> Answer) {
        answer.withLockedValue { $0.answer = rule }
    }

    /// With `tls`, it serves HTTPS (a TestPKI server context).
    public static func start(
        port: Int = 0, tls: TLSContext? = nil,
        _ rule: @escaping @Sendable (Request, Int) -> Answer = { _, _ in Answer() }
    ) async throws -> WebhookReceiver {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let state = NIOLockedValueBox<[Request]>([])
        let answer = NIOLockedValueBox(Rule(answer: rule))
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls { try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls)) }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Handler(state: state, answer: answer))
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
            return WebhookReceiver(channel: channel, group: group, state: state, answer: answer, https: tls != nil)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(
        channel: any Channel, group: MultiThreadedEventLoopGroup, state: NIOLockedValueBox<[Request]>,
        answer: NIOLockedValueBox<Rule>, https: Bool
    ) {
        self.https = https
        self.channel = channel
        self.group = group
        self.state = state
        self.answer = answer
        port = channel.localAddress!.port!
    }

    /// Stops it; again does nothing (an event loop group shut down twice never says it is done).
    public func stop() async {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
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
        let answer: NIOLockedValueBox<Rule>
        var headers: [String: String] = [:]
        var body = Data()
        var method = "POST", path = "/"
        var peerPort = 0

        init(state: NIOLockedValueBox<[Request]>, answer: NIOLockedValueBox<Rule>) {
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
                peerPort = context.remoteAddress?.port ?? 0
            case .body(var bytes):
                body.append(contentsOf: bytes.readBytes(length: bytes.readableBytes) ?? [])
            case .end:
                let request = Request(
                    headers: headers, body: body, receivedAt: Date(), method: method, path: path, peerPort: peerPort)
                let index = state.withLockedValue { requests in
                    requests.append(request)
                    return requests.count - 1
                }
                let reply = answer.withLockedValue { $0.answer }(request, index)
                let respond = { [context] in
                    let head = HTTPResponseHead(
                        version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status),
                        headers: reply.connection == .close
                            ? ["Content-Length": "0", "Connection": "close"] : ["Content-Length": "0"])
                    context.write(self.wrapOutboundOut(.head(head)), promise: nil)
                    context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                        if reply.connection != .keep { context.close(promise: nil) }
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
