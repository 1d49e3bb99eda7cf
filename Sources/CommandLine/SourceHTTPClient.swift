import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterDomain
import RosterMigration
import RosterTLS

/// The requests of `migrate --api` (GETs, and GoAlert's GraphQL POSTs): one connection per request, HTTPS through the system OpenSSL
/// (as every TLS connection of Roster), a deadline for the whole answer, a cap on its size, and
/// no redirect followed: the token goes to the URL given and nowhere else. Plain http only to a
/// loopback address (a test's fake API), never with a token across a network.
public struct SourceHTTPClient: Sendable {
    public let base: URL
    let headers: [(String, String)]
    let tls: TLSContext?
    let timeout: TimeAmount

    /// The largest answer read (PagerDuty's pages of 100 are well under a megabyte).
    public static let maxBodyBytes = 16 * 1_048_576

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks `text` and prepares TLS (reading the CAs blocks: call it off the cooperative pool).
    public init(base text: String, headers: [(String, String)], caFile: String?, timeout: Duration = .seconds(30))
        throws(Failure)
    {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.user == nil, url.query == nil
        else { throw Failure(description: "\(text): not an http(s) URL of an API such as https://api.pagerduty.com") }
        if scheme == "http", !HostPort.isLoopback(host: host) {
            throw Failure(description: "\(text): the token would cross the network in the clear; use https")
        }
        (self.base, self.headers, self.timeout) = (url, headers, TimeAmount(timeout))
        if scheme == "https" {
            do {
                tls = try TLSContext.client(TLSClientConfiguration(trust: caFile.map { .caFile($0) } ?? .system))
            } catch {
                throw Failure(description: "TLS is not available: \(error)")
            }
        } else {
            tls = nil
        }
    }

    /// `request` sent to its path and query under the base URL's path.
    public func send(_ request: SourceRequest) async throws -> SourceResponse {
        let pathAndQuery = request.path
        let https = tls != nil
        let host = base.host!
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let port = base.port ?? (https ? 443 : 80)
        let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        let target = prefix + pathAndQuery
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: SourceResponse.self)
        let deadline = loop.scheduleTask(in: timeout) {
            promise.fail(Failure(description: "\(request): no answer within the deadline"))
        }
        let tls = self.tls
        let connected = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try TLSHandler(context: tls, serverHostname: bare))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: promise, request: "\(request)"))
                }
            }
            .connect(host: bare, port: port)
        connected.whenFailure {
            promise.fail(Failure(description: "cannot connect to \(host):\(port): \($0)"))
        }
        let headers = self.headers
        connected.whenSuccess { channel in
            var head = HTTPRequestHead(version: .http1_1, method: request.method == .post ? .POST : .GET, uri: target)
            head.headers.add(name: "Host", value: base.port.map { "\(host):\($0)" } ?? host)
            head.headers.add(name: "Connection", value: "close")
            head.headers.add(name: "User-Agent", value: "roster-client migrate")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            if let body = request.body {
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: String(body.count))
            }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if let body = request.body {
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
        defer { deadline.cancel() }
        return try await promise.futureResult.get()
    }

    /// The answer's status, Retry-After, Date and body (at most `maxBodyBytes`); a redirect fails.
    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<SourceResponse>
        let request: String
        var head: HTTPResponseHead?
        var body = ByteBuffer()

        init(promise: EventLoopPromise<SourceResponse>, request: String) {
            (self.promise, self.request) = (promise, request)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                if (300..<400).contains(head.status.code) {
                    promise.fail(
                        Failure(
                            description: "\(request): redirected (\(head.status.code)); not followed: the token goes "
                                + "only to the URL given"))
                    context.close(promise: nil)
                    return
                }
                self.head = head
            case .body(var part):
                guard body.readableBytes + part.readableBytes <= SourceHTTPClient.maxBodyBytes else {
                    promise.fail(Failure(description: "\(request): the answer is larger than 16 MiB"))
                    context.close(promise: nil)
                    return
                }
                body.writeBuffer(&part)
            case .end:
                guard let head else { return }
                promise.succeed(
                    SourceResponse(
                        status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After"),
                        date: head.headers.first(name: "Date"), body: Data(body.readableBytesView)))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(Failure(description: "\(request): the connection closed before the answer ended"))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(Failure(description: "\(request): \(error)"))
            context.close(promise: nil)
        }
    }
}
