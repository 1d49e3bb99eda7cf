import Foundation

/// One route of a table: a method, a path pattern and what answers it. The API (`HTTPAPI.routes`)
/// and the web app (`WebApp.routes`) each keep one table; a path that a route matches with
/// another method is 405 with the methods it does take (`Allow`), derived from the same table,
/// and the OpenAPI document's paths are checked against the API's (`HTTPRouteTests`).
package struct HTTPRoute<Handler: Sendable>: Sendable {
    /// A path segment: a literal, or a parameter (not empty) that may end in a fixed suffix
    /// (`{token}.ics`).
    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String, suffix: String = "")
    }

    package let method: String
    package let path: [Segment]
    package let handler: Handler

    package init(_ method: String, _ path: [Segment], _ handler: Handler) {
        (self.method, self.path, self.handler) = (method, path, handler)
    }

    /// A pattern written as segments, nil for a parameter (the web app's pages).
    package init(_ method: String, _ path: [String?], _ handler: Handler) {
        self.init(method, path.map { $0.map(Segment.literal) ?? .parameter("") }, handler)
    }

    /// A path this route matches, each parameter `value` (and its suffix): for tests.
    package func example(_ value: String) -> String {
        "/"
            + path.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(_, let suffix): value + suffix
                }
            }.joined(separator: "/")
    }

    /// The path as OpenAPI writes it: `/v1/people/{person}/next`.
    package var template: String {
        "/"
            + path.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name, let suffix): "{\(name)}\(suffix)"
                }
            }.joined(separator: "/")
    }

    /// The parameters' values when `parts` (the path's segments after the first "/", percent-
    /// decoded) match the pattern; nil otherwise.
    package func parameters(_ parts: [String]) -> [String]? {
        guard parts.count == path.count else { return nil }
        var values: [String] = []
        for (segment, part) in zip(path, parts) {
            switch segment {
            case .literal(let text):
                guard part == text else { return nil }
            case .parameter(_, let suffix):
                guard part.count > suffix.count, part.hasSuffix(suffix) else { return nil }
                values.append(String(part.dropLast(suffix.count)))
            }
        }
        return values
    }
}

/// What a table answers for a request.
package enum HTTPRouteMatch<Handler: Sendable> {
    /// The route and its parameters' values.
    case found(Handler, [String])
    /// The path is a route's, the method none of its: the methods it takes, for `Allow`.
    case wrongMethod(allowed: [String])
    case notFound
}

extension Array {
    /// The route of this table for `method` and `path` (HEAD is GET without the body).
    package func route<Handler>(_ method: String, _ path: String) -> HTTPRouteMatch<Handler>
    where Element == HTTPRoute<Handler> {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).removingPercentEncoding ?? String($0)
        }
        let asked = method == "HEAD" ? "GET" : method
        var allowed = Set<String>()
        for route in self {
            guard let values = route.parameters(parts) else { continue }
            if route.method == asked { return .found(route.handler, values) }
            allowed.insert(route.method)
            if route.method == "GET" { allowed.insert("HEAD") }
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed.sorted())
    }
}
