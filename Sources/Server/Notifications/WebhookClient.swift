import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterTLS

/// Posts one webhook request and reports the response's status: one connection per request
/// (`Connection: close`), HTTPS through the system OpenSSL like every other TLS connection of
/// Roster, no redirects (a receiver that moved is a failure to see, not to follow), and one
/// deadline for connecting, sending and the response head.
///
/// It runs on the dispatcher's own event loop group, never on the server's: a receiver that is
/// slow or never answers costs a socket and a timer, and no client push waits for it.
struct WebhookClient: Sendable {
    let group: any EventLoopGroup
    /// For https URLs: the system's trusted CAs (or a test's CA file).
    let tls: LazyTLS

    /// A client TLS context made on first use, on a thread of NIOThreadPool (it reads the CA file).
    final class LazyTLS: Sendable {
        private let configuration: TLSClientConfiguration
        private let made = NIOLockedValueBox<Result<TLSContext, any Error>?>(nil)

        init(_ configuration: TLSClientConfiguration) { self.configuration = configuration }

        func context() async throws -> TLSContext {
            if let made = made.withLockedValue({ $0 }) { return try made.get() }
            let configuration = self.configuration
            let result: Result<TLSContext, any Error>
            do {
                result = .success(try await NIOThreadPool.singleton.runIfActive { try TLSContext.client(configuration) })
            } catch {
                result = .failure(error)
            }
            made.withLockedValue { $0 = result }
            return try result.get()
        }
    }

    struct Response: Sendable {
        var status: Int
    }

    enum Failure: Error, CustomStringConvertible {
        case badURL(String)
        case timedOut
        case connection(String)
        case closedEarly

        var description: String {
            switch self {
            case .badURL(let why): "bad URL: \(why)"
            case .timedOut: "timed out"
            case .connection(let why): why
            case .closedEarly: "the connection closed before a response"
            }
        }
    }

    /// Checks that `text` is an http or https URL with a host, as `admin webhook add` requires.
    static func validate(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "must be an http:// or https:// URL"
        }
        guard let host = url.host, !host.isEmpty else { return "has no host" }
        return nil
    }

    func post(url text: String, headers: [(String, String)], body: Data, timeout: Duration) async throws(Failure) -> Response {
        if let problem = Self.validate(text) { throw .badURL(problem) }
        let url = URL(string: text)!
        let https = url.scheme!.lowercased() == "https"
        let host = url.host!
        let port = url.port ?? (https ? 443 : 80)
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { path + "?" + $0 } ?? path
        var context: TLSContext?
        if https {
            do { context = try await self.tls.context() } catch { throw .connection("TLS is not available: \(error)") }
        }
        let tls = context
        let loop = group.next()
        let promise = loop.makePromise(of: Response.self)
        let deadline = loop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(Failure.timedOut) }
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if https, let tls {
                        try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls, serverHostname: host))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseHandler(promise: promise))
                }
            }
        let connected = bootstrap.connect(host: host, port: port)
        connected.whenFailure { promise.fail(Failure.connection("cannot connect to \(host):\(port): \(Self.reason($0))")) }
        connected.whenSuccess { channel in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target)
            head.headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
            head.headers.add(name: "Content-Length", value: "\(body.count)")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
        do {
            let response = try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                promise.fail(CancellationError())
            }
            deadline.cancel()
            return response
        } catch let failure as Failure {
            deadline.cancel()
            throw failure
        } catch {
            deadline.cancel()
            throw .connection("\(error)")
        }
    }

    /// "Connection refused", not NIO's nested description of every address tried.
    private static func reason(_ error: any Error) -> String {
        var error = error
        if let connection = error as? NIOConnectionError, let first = connection.connectionErrors.first?.error { error = first }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }

    /// Completes the promise with the response head's status, or fails it when the connection
    /// ends (or errs) before one.
    private final class ResponseHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Response>

        init(promise: EventLoopPromise<Response>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                promise.succeed(Response(status: Int(head.status.code)))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(Failure.closedEarly)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(Failure.connection("\(error)"))
            context.close(promise: nil)
        }
    }
}
