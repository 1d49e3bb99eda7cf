import Foundation
import RosterDomain

/// One answer of a source system's API, as a fetch needs it.
public struct SourceResponse: Sendable {
    public var status: Int
    /// The `Retry-After` header of a 429, as sent.
    public var retryAfter: String?
    /// The `Date` header: the source's clock when it answered (GoAlert's rotation state is true
    /// at that instant).
    public var date: String?
    public var body: Data

    public init(status: Int, retryAfter: String? = nil, date: String? = nil, body: Data) {
        (self.status, self.retryAfter, self.date, self.body) = (status, retryAfter, date, body)
    }
}

/// A request to a path and query under the API's base URL (the only place requests go): a GET,
/// or the POST of a GraphQL query (GoAlert), which reads and changes nothing either.
public struct SourceRequest: Sendable, Equatable, CustomStringConvertible {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }
    public var method: Method
    public var path: String
    /// A POST's JSON body.
    public var body: Data?
    /// What the request is for, in messages (a GraphQL operation's name).
    public var label: String?

    public static func get(_ path: String) -> SourceRequest { SourceRequest(method: .get, path: path) }

    /// A POST of `body` (JSON) to `path`.
    public static func post(_ path: String, body: Data) -> SourceRequest {
        SourceRequest(method: .post, path: path, body: body)
    }

    public var description: String { "\(method.rawValue) \(path)" + (label.map { " (\($0))" } ?? "") }
}

/// Sends one request to the source's API and gives its answer.
public typealias SourceCall = @Sendable (SourceRequest) async throws -> SourceResponse

/// Why a fetch from a source's API stopped. Nothing is written then.
public struct SourceFetchError: Error, Sendable, CustomStringConvertible {
    public var request: String
    public var message: String

    init(path: String, message: String) { (request, self.message) = ("GET \(path)", message) }
    init(_ request: SourceRequest, _ message: String) { (self.request, self.message) = ("\(request)", message) }

    public var description: String { "\(request): \(message)" }
}

extension MigrationSource {
    /// The headers every request to the source's API carries: its token, as that API wants it.
    public func apiHeaders(token: String) -> [(String, String)] {
        switch self {
        case .pagerDuty:
            [("Authorization", "Token token=\(token)"), ("Accept", "application/vnd.pagerduty+json;version=2")]
        case .opsgenie: [("Authorization", "GenieKey \(token)")]
        case .goAlert: [("Authorization", "Bearer \(token)")]
        // Grafana OnCall takes its API key as the header's whole value.
        case .grafanaOnCall: [("Authorization", token)]
        }
    }
}

extension Migration {
    /// The source's export fetched through `call`, in the shape its file has (docs/MIGRATING.md);
    /// overrides (where the API asks for a span) over `overrides`.
    public static func fetchExport(
        from source: MigrationSource, call: @escaping SourceCall, overrides: Range<UnixMillis>,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> Data {
        let fetcher = SourceFetcher(call: call, sleep: sleep)
        let export: JSONValue
        switch source {
        case .pagerDuty: export = try await fetchPagerDuty(fetcher, overrides: overrides)
        case .opsgenie: export = try await fetchOpsgenie(fetcher)
        case .goAlert: export = try await fetchGoAlert(fetcher, overrides: overrides)
        case .grafanaOnCall: export = try await fetchGrafanaOnCall(fetcher)
        }
        return try Self.encoded(export)
    }

    /// The source's own rendered list over `window` for the schedules this migration read.
    public func fetchRendered(
        call: @escaping SourceCall, window: Range<UnixMillis>,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> Data {
        let fetcher = SourceFetcher(call: call, sleep: sleep)
        let ids = scheduleIDs.keys.sorted()
        let rendered: JSONValue
        switch source {
        case .pagerDuty: rendered = try await Self.fetchPagerDutyRendered(fetcher, ids: ids, window: window)
        case .opsgenie: rendered = try await Self.fetchOpsgenieRendered(fetcher, ids: ids, window: window)
        case .goAlert: rendered = try await Self.fetchGoAlertRendered(fetcher, ids: ids, window: window)
        case .grafanaOnCall: rendered = try await Self.fetchGrafanaOnCallRendered(fetcher, ids: ids, window: window)
        }
        return try Self.encoded(rendered)
    }

    /// Keys in order, so a saved export is the same file for the same answers.
    static func encoded(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}

/// Reads a source's API as `migrate --api` does: requests that only read (GETs, and GoAlert's
/// GraphQL queries), pages followed to their end (at most `maxPages` per list), a 429 waited out
/// as its `Retry-After` says (at most `maxWaitSeconds` each, `maxRetries` per request), and any
/// other answer than 200 stopping the fetch with its status.
struct SourceFetcher: Sendable {
    static let maxPages = 1_000
    static let maxRetries = 5
    static let maxWaitSeconds = 60
    let call: SourceCall
    let sleep: @Sendable (Duration) async throws -> Void

    /// The JSON object at `path`, after any 429s.
    func object(_ path: String) async throws -> [String: JSONValue] {
        try await answer(.get(path)).object
    }

    /// The answer to `request` as a JSON object, and the source's `Date` header, after any 429s.
    func answer(_ request: SourceRequest) async throws -> (object: [String: JSONValue], date: String?) {
        var attempt = 0
        while true {
            let response = try await call(request)
            switch response.status {
            case 200:
                guard case .object(let members)? = JSONValue.parse(response.body)
                else { throw SourceFetchError(request, "the answer is not a JSON object") }
                return (members, response.date)
            case 429 where attempt < Self.maxRetries:
                attempt += 1
                try await sleep(.seconds(Self.wait(response.retryAfter)))
            case 429:
                throw SourceFetchError(request, "still rate-limited (429) after \(Self.maxRetries) waits")
            case 401, 403:
                throw SourceFetchError(request, "\(response.status): the API refused the token")
            default:
                let text = String(decoding: response.body.prefix(200), as: UTF8.self)
                throw SourceFetchError(request, "answered \(response.status): \(text)")
            }
        }
    }

    /// Seconds to wait for a `Retry-After` (seconds; absent or a date: 1), within the bound.
    static func wait(_ header: String?) -> Int {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return 1 }
        return min(seconds, maxWaitSeconds)
    }

    /// Every element of a paginated list (`?limit=&offset=`): PagerDuty says `more` while there
    /// are more, Opsgenie gives a `paging.next` link (only its offset is taken: requests go to
    /// the base URL given, never to a link's host).
    func list(_ path: String, key: String, pageSize: Int = 100) async throws -> [JSONValue] {
        var all: [JSONValue] = []
        var offset = 0
        for _ in 0..<Self.maxPages {
            let page = try await object(path + (path.contains("?") ? "&" : "?") + "limit=\(pageSize)&offset=\(offset)")
            guard case .array(let items)? = page[key] else {
                throw SourceFetchError(path: path, message: "the answer has no list \"\(key)\"")
            }
            all += items
            let more: Bool
            if case .bool(let flag)? = page["more"] {
                more = flag
            } else if case .object(let paging)? = page["paging"], case .string? = paging["next"] {
                more = true
            } else {
                more = false
            }
            guard more, !items.isEmpty else { return all }
            offset += items.count
        }
        throw SourceFetchError(path: path, message: "more than \(Self.maxPages) pages")
    }

    /// A path segment made safe: an id never changes the path it is put in.
    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
