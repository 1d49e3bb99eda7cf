import NIOHTTP1
import RosterServerCore

/// The HTTP API of an `InboundPathHarness`'s server, without a listener: what the FuzzHTTP
/// target drives.
public final class HTTPRequestHarness: Sendable {
    private let side: HTTPSide

    public convenience init(_ harness: InboundPathHarness) { self.init(harness, pages: nil) }

    /// - Parameter pages: the web app's pages, answered after the API's routes as on the listener.
    package init(_ harness: InboundPathHarness, pages: (any HTTPPages)?) {
        side = HTTPSide(metrics: MetricsRegistry(), pages: pages)
        side.serving(harness.core, listener: nil, store: harness.store)
    }

    /// The HTTP listener's answer to a request head (method, URI, Authorization), as its
    /// handler builds the request; the status.
    public func respond(method: String, uri: String, authorization: String?) async -> Int {
        await reply(method: method, uri: uri, authorization: authorization).status
    }

    /// The whole answer (status, headers and body), so that a route or a page is tested without
    /// a port.
    package func reply(
        method: String, uri: String, authorization: String?, headers extra: [(String, String)] = [],
        body: [UInt8] = []
    ) async -> HTTPAPI.Reply {
        var headers = HTTPHeaders()
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        for (name, value) in extra { headers.add(name: name, value: value) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: uri, headers: headers)
        var request = HTTPAPI.Request(head)
        request.body = body
        return await HTTPAPI(side: side).respond(to: request)
    }
}
