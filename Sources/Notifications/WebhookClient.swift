import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterServerCore
import RosterTLS

/// Posts one webhook request and reports the response's status: one connection per request
/// (`Connection: close`), or for push services one kept open to their origin (`KeptConnections`), HTTPS through the system OpenSSL like every other TLS connection of
/// Roster, no redirects (a receiver that moved is a failure to see, not to follow), and one
/// deadline for connecting, sending and the response head.
///
/// It runs on the dispatcher's own event loop group, never on the server's: a receiver that is
/// slow or never answers costs a socket and a timer, and no client push waits for it.
///
/// Where it may connect is `addresses`' to say: the host is resolved here (on NIO's thread pool;
/// getaddrinfo blocks), every address checked, and the connection made to a checked one.
struct WebhookClient: Sendable {
    let group: any EventLoopGroup
    /// For https URLs: the system's trusted CAs (or a test's CA file).
    let tls: LazyTLS
    var addresses = WebhookAddressPolicy()
    /// Connections kept open per origin, for the requests that ask for it (push deliveries).
    var kept = KeptConnections()

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
                result = .success(
                    try await NIOThreadPool.singleton.runIfActive { try TLSContext.client(configuration) })
            } catch {
                result = .failure(error)
            }
            made.withLockedValue { $0 = result }
            return try result.get()
        }
    }

    struct Response: Sendable {
        var status: Int
        /// Read only when the request asks for it (`maxBody`).
        var body: [UInt8] = []
        /// The answer's `Retry-After` (a push service's 429), as sent.
        var retryAfter: String?
    }

    enum Failure: Error, CustomStringConvertible {
        case badURL(String)
        case timedOut
        case connection(String)
        case closedEarly
        /// The host resolves only to addresses webhooks may not reach.
        case forbiddenAddress(String)

        var description: String {
            switch self {
            case .forbiddenAddress(let why): "refused: \(why)"
            case .badURL(let why): "bad URL: \(why)"
            case .timedOut: "timed out"
            case .connection(let why): why
            case .closedEarly: "the connection closed before a response"
            }
        }
    }

    /// Checks that `text` is an http or https URL with a host, as `admin webhook add` requires:
    /// no control characters (a CR or LF would forge log lines), at most 2,000 characters, and a
    /// literal address only if `addresses` allows it (names are checked at each delivery).
    static func validate(_ text: String, addresses: WebhookAddressPolicy = WebhookAddressPolicy()) -> String? {
        if text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            return "must not contain spaces or control characters"
        }
        guard text.utf8.count <= 2_000 else { return "is longer than 2000 bytes" }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            return "must be an http:// or https:// URL"
        }
        guard let host = url.host, !host.isEmpty else { return "has no host" }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let bytes = IPRange.bytes(ofHost: bare), let why = addresses.refusal(of: bytes) {
            return "names \(addresses.explain(host: bare, address: bytes, why: why))"
        }
        return nil
    }

    /// Where a URL's requests go: scheme, host and port (the scheme's own when none is written).
    /// A stored secret belongs to this; a URL that changes it needs its secret given again.
    static func origin(of text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased()
        else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// Whether a URL's user part is `***`, as `redacted` writes it.
    static func isMasked(_ text: String) -> Bool { URLComponents(string: text)?.user == "***" }

    /// A URL as admins see it: a password in it (https://user:pass@host/) is not shown.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.user != nil || components.password != nil else {
            return text
        }
        components.user = components.user.map { _ in "***" }
        components.password = nil
        return components.string ?? text
    }

    /// Every address `host` resolves to (getaddrinfo, on NIO's thread pool), with `port`.
    static func resolve(_ host: String, port: Int) async throws(Failure) -> [(SocketAddress, [UInt8])] {
        let found: [(SocketAddress, [UInt8])]
        do {
            found = try await NIOThreadPool.singleton.runIfActive { () throws -> [(SocketAddress, [UInt8])] in
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                hints.ai_family = AF_UNSPEC
                var list: UnsafeMutablePointer<addrinfo>?
                let status = getaddrinfo(host, nil, &hints, &list)
                guard status == 0, let first = list else {
                    throw Failure.connection("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
                }
                defer { freeaddrinfo(first) }
                var addresses: [(SocketAddress, [UInt8])] = []
                var next: UnsafeMutablePointer<addrinfo>? = first
                while let entry = next?.pointee {
                    next = entry.ai_next
                    guard let raw = entry.ai_addr else { continue }
                    if entry.ai_family == AF_INET {
                        var address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                        address.sin_port = in_port_t(UInt16(port).bigEndian)
                        let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
                        addresses.append((SocketAddress(address, host: host), bytes))
                    } else if entry.ai_family == AF_INET6 {
                        var address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                        address.sin6_port = in_port_t(UInt16(port).bigEndian)
                        let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                        addresses.append((SocketAddress(address, host: host), bytes))
                    }
                }
                return addresses
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .connection("cannot resolve \(host): \(error)")
        }
        guard !found.isEmpty else { throw .connection("cannot resolve \(host): no address") }
        return found
    }

    /// What a request needs of its URL, checked (`validate`).
    struct Target: Sendable {
        var https: Bool
        /// As written (an IPv6 address in brackets), and bare (for resolving and TLS's SNI).
        var host: String
        var bare: String
        var port: Int
        /// The request line's target: the path as written (a Matrix room id's "!" and ":" may
        /// come percent-encoded, and must stay so) and the query.
        var path: String
        var hostHeader: String
        var origin: String

        init(_ text: String, addresses: WebhookAddressPolicy) throws(Failure) {
            if let problem = WebhookClient.validate(text, addresses: addresses) { throw .badURL(problem) }
            let url = URL(string: text)!
            https = url.scheme!.lowercased() == "https"
            host = url.host!
            bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            port = url.port ?? (https ? 443 : 80)
            let written = URLComponents(string: text)?.percentEncodedPath ?? url.path
            let path = written.isEmpty ? "/" : written
            self.path = url.query.map { path + "?" + $0 } ?? path
            let host = self.host
            hostHeader = url.port.map { "\(host):\($0)" } ?? host
            origin = "\(https ? "https" : "http")://\(bare.lowercased()):\(port)"
        }

        func head(method: HTTPMethod, headers: [(String, String)], length: Int, close: Bool) -> HTTPRequestHead {
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
            head.headers.add(name: "Host", value: hostHeader)
            head.headers.add(name: "Content-Length", value: "\(length)")
            if close { head.headers.add(name: "Connection", value: "close") }
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            return head
        }
    }

    /// Where to connect: the host resolved and checked now, connected to as checked.
    func destination(_ target: Target) async throws(Failure) -> SocketAddress {
        let resolved = try await Self.resolve(target.bare, port: target.port)
        guard let destination = resolved.first(where: { addresses.refusal(of: $0.1) == nil })?.0 else {
            let (_, bytes) = resolved[0]
            throw .forbiddenAddress(
                addresses.explain(host: target.bare, address: bytes, why: addresses.refusal(of: bytes) ?? ""))
        }
        return destination
    }

    /// The TLS context for an https target (nil for http).
    func tlsContext(_ target: Target) async throws(Failure) -> TLSContext? {
        guard target.https else { return nil }
        do { return try await self.tls.context() } catch { throw .connection("TLS is not available: \(error)") }
    }

    /// Posts `body` to `text`; with `keepAlive`, on a connection kept open to the URL's origin
    /// (`kept`; the answer's body is then not read), else on one of its own.
    func post(
        url text: String, method: HTTPMethod = .POST, headers: [(String, String)], body: Data,
        timeout: Duration, maxBody: Int = 0, keepAlive: Bool = false
    ) async throws(Failure) -> Response {
        if keepAlive {
            return try await post(
                url: text, on: try await reserve(url: text), method: method, headers: headers, body: body,
                timeout: timeout)
        }
        let target = try Target(text, addresses: addresses)
        let destination = try await destination(target)
        let tls = try await tlsContext(target)
        let (https, bare, host, port) = (target.https, target.bare, target.host, target.port)
        let loop = group.next()
        let promise = loop.makePromise(of: Response.self)
        let deadline = loop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(Failure.timedOut) }
        let bootstrap = Self.bootstrap(on: loop, tls: https ? tls : nil, serverHostname: bare, timeout: timeout) {
            try $0.addHandler(ResponseHandler(promise: promise, maxBody: maxBody))
        }
        let connected = bootstrap.connect(to: destination)
        connected.whenFailure {
            promise.fail(Failure.connection("cannot connect to \(host):\(port): \(Self.reason($0))"))
        }
        connected.whenSuccess { channel in
            let head = target.head(method: method, headers: headers, length: body.count, close: true)
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

    /// A client connection's setup: TLS when there is a context, HTTP/1.1, then what `add` adds.
    static func bootstrap(
        on group: any EventLoopGroup, tls: TLSContext?, serverHostname: String, timeout: Duration,
        add: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void
    ) -> ClientBootstrap {
        ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try TLSHandler(context: tls, serverHostname: serverHostname))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try add(channel.pipeline.syncOperations)
                }
            }
    }

    /// "Connection refused", not NIO's nested description of every address tried.
    static func reason(_ error: any Error) -> String {
        var error = error
        if let connection = error as? NIOConnectionError, let first = connection.connectionErrors.first?.error {
            error = first
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }

    /// Completes the promise with the response head's status (and, with `maxBody`, the body up
    /// to that many bytes: a longer one fails), or fails it when the connection ends (or errs)
    /// before then.
    private final class ResponseHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Response>
        let maxBody: Int
        private var response: Response?

        init(promise: EventLoopPromise<Response>, maxBody: Int) { (self.promise, self.maxBody) = (promise, maxBody) }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                let response = Response(
                    status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After"))
                if maxBody == 0 { promise.succeed(response) } else { self.response = response }
            case .body(let part):
                guard response != nil else { return }
                guard response!.body.count + part.readableBytes <= maxBody else {
                    response = nil
                    promise.fail(Failure.connection("the answer is larger than \(maxBody / 1024) KiB"))
                    context.close(promise: nil)
                    return
                }
                response!.body += part.readableBytesView
            case .end:
                if let response { promise.succeed(response) }
                response = nil
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
