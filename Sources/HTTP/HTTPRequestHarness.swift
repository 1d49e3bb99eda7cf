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
        var headers = HTTPHeaders()
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: uri, headers: headers)
        return await HTTPAPI(side: side).respond(to: HTTPAPI.Request(head)).status
    }
}
