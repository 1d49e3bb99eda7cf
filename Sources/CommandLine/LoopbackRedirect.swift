import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// `roster-client login --browser`: a listener on 127.0.0.1, any free port, for the one request
/// the browser makes when the web app sends it back with the login's code (RFC 8252 §7.3). It
/// answers `GET /callback?...&state=STATE` (this login's state) with a page saying to go back to
/// the terminal and hands the query to `wait`; another state is a 400 and changes nothing
/// (another local program cannot end the login), anything else a 404. Bounded: 8 connections at once (more are closed), 10 s to
/// send a request, 8 KiB of request head, and `wait`'s deadline closes it outright.
final class LoopbackRedirect: Sendable {
    static let maxConnections = 8
    static let requestTimeout = TimeAmount.seconds(10)

    private let channel: any Channel
    let port: Int
    private let answer: EventLoopPromise<[String: String]>

    private init(channel: any Channel, port: Int, answer: EventLoopPromise<[String: String]>) {
        (self.channel, self.port, self.answer) = (channel, port, answer)
    }

    var redirectURI: String { "http://127.0.0.1:\(port)/callback" }

    static func start(state: String) async throws -> LoopbackRedirect {
        let group = MultiThreadedEventLoopGroup.singleton
        let answer = group.next().makePromise(of: [String: String].self)
        let connections = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 8)
            .childChannelInitializer { child in
                let admitted = connections.withLockedValue { count in
                    guard count < maxConnections else { return false }
                    count += 1
                    return true
                }
                guard admitted else { return child.close() }
                child.closeFuture.whenComplete { _ in connections.withLockedValue { $0 -= 1 } }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: false, withErrorHandling: true)
                    try child.pipeline.syncOperations.addHandler(
                        IdleStateHandler(readTimeout: requestTimeout))
                    try child.pipeline.syncOperations.addHandler(CallbackHandler(answer: answer, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw LoopbackFailure("the loopback listener has no port")
        }
        return LoopbackRedirect(channel: channel, port: port, answer: answer)
    }

    /// The query the browser brought back, or a failure once `timeout` has passed.
    func wait(timeout: Duration) async throws -> [String: String] {
        let answer = self.answer
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(timeout.components.seconds)) {
            answer.fail(LoopbackFailure("nobody allowed the login in time"))
        }
        defer { deadline.cancel() }
        return try await answer.futureResult.get()
    }

    func close() async {
        answer.fail(LoopbackFailure("closed"))
        try? await channel.close()
    }
}

struct LoopbackFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One request on the loopback listener.
private final class CallbackHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let answer: EventLoopPromise<[String: String]>
    private let state: String
    private var uri: String?

    init(answer: EventLoopPromise<[String: String]>, state: String) { (self.answer, self.state) = (answer, state) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): uri = head.method == .GET && head.uri.utf8.count <= 8_192 ? head.uri : nil
        case .body: break
        case .end:
            let components = uri.flatMap { URLComponents(string: $0) }
            guard let components, components.path == "/callback" else {
                return respond(context, .notFound, "Not found.")
            }
            var fields: [String: String] = [:]
            for item in components.queryItems ?? [] where item.value != nil && fields[item.name] == nil {
                fields[item.name] = item.value
            }
            guard fields["state"] == state else { return respond(context, .badRequest, "Not this login.") }
            answer.succeed(fields)
            respond(
                context, .ok,
                fields["code"] != nil
                    ? "roster-client got the login: go back to your terminal." : "The login was refused.")
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ text: String) {
        let body = "<!doctype html><meta charset=\"utf-8\"><title>roster-client</title><p>\(text)</p>"
        var head = HTTPResponseHead(version: .http1_1, status: status)
        head.headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        head.headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        head.headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
