import Foundation

/// One answer of a source system's API, as a fetch needs it.
public struct SourceResponse: Sendable {
    public var status: Int
    /// The `Retry-After` header of a 429, as sent.
    public var retryAfter: String?
    public var body: Data

    public init(status: Int, retryAfter: String? = nil, body: Data) {
        (self.status, self.retryAfter, self.body) = (status, retryAfter, body)
    }
}

/// A GET of a path and query under the API's base URL (the only place requests go).
public typealias SourceGet = @Sendable (_ pathAndQuery: String) async throws -> SourceResponse

/// Why a fetch from a source's API stopped. Nothing is written then.
public struct SourceFetchError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public var description: String { "GET \(path): \(message)" }
}

/// Reads a source's API as `migrate --api` does: read-only GETs, pages followed to their end
/// (at most `maxPages` per list), a 429 waited out as its `Retry-After` says (at most
/// `maxWaitSeconds` each, `maxRetries` per request), and any other answer than 200 stopping the
/// fetch with its status.
struct SourceFetcher: Sendable {
    static let maxPages = 1_000
    static let maxRetries = 5
    static let maxWaitSeconds = 60
    let get: SourceGet
    let sleep: @Sendable (Duration) async throws -> Void

    /// The JSON object at `path`, after any 429s.
    func object(_ path: String) async throws -> [String: JSONValue] {
        var attempt = 0
        while true {
            let response = try await get(path)
            switch response.status {
            case 200:
                guard case .object(let members)? = JSONValue.parse(response.body)
                else { throw SourceFetchError(path: path, message: "the answer is not a JSON object") }
                return members
            case 429 where attempt < Self.maxRetries:
                attempt += 1
                try await sleep(.seconds(Self.wait(response.retryAfter)))
            case 429:
                throw SourceFetchError(path: path, message: "still rate-limited (429) after \(Self.maxRetries) waits")
            case 401, 403:
                throw SourceFetchError(path: path, message: "\(response.status): the API refused the token")
            default:
                let text = String(decoding: response.body.prefix(200), as: UTF8.self)
                throw SourceFetchError(path: path, message: "answered \(response.status): \(text)")
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

extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let items): try container.encode(items)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}
