import Foundation
import NIOCore
import RosterDomain
import RosterProtocol
import RosterTLS

/// Where and how a `RosterClient` connects.
public struct RosterClientConfiguration: Sendable {
    /// The servers to use, in order of preference: nodes of one cluster (docs/SCALING.md).
    /// A lost connection is resumed on the next one; revisions are the shared store's, so the
    /// resume is gap-free on any node. Never empty.
    public var servers: [HostPort] {
        didSet { if servers.isEmpty { servers = oldValue } }
    }
    /// The first server's host and port.
    public var host: String {
        get { servers[0].host }
        set { servers[0].host = newValue }
    }
    public var port: Int {
        get { servers[0].port }
        set { servers[0].port = newValue }
    }
    /// Empty: the server's default tenant.
    public var tenant: String = ""
    public var token: String = ""
    /// Asked for the token before each connection, when set: a token that is renewed (a
    /// `roster-client login`'s lasts an hour). A live connection its token's expiry closes is
    /// then opened again with the next one, where it would otherwise end as refused.
    public var renewToken: (@Sendable () async -> String)?
    /// What the cache knows the credential by when the token changes (a login's id); nil: the
    /// token's own id.
    public var credentialName: String?
    /// nil connects in plaintext (loopback servers only allow that).
    public var tls: TLSClientConfiguration?
    public var clientName: String = "RosterClient"
    /// Where the cache file lives; nil keeps no cache.
    public var cacheDirectory: URL? = RosterCacheFile.defaultDirectory
    public var topics: [Roster_V1_Topic] = [.onDuty, .roster]
    /// Follow the on-duty sets of every schedule (`onDutyBySchedule`), not only the default one.
    public var allSchedules = false
    /// How long connecting, the handshake and each request may take.
    public var timeout: Duration = .seconds(10)
    public var reconnect = ReconnectPolicy()

    /// One immediate retry, then exponential backoff with full jitter up to `maxDelay`; the
    /// attempt count resets once a connection has stayed up for `stableAfter`.
    public struct ReconnectPolicy: Sendable {
        public var baseDelay: Duration = .milliseconds(500)
        public var maxDelay: Duration = .seconds(30)
        public var stableAfter: Duration = .seconds(30)

        public init() {}

        /// The delay before reconnect attempt `attempt` (1-based): a uniformly random delay in
        /// [0, min(maxDelay, baseDelay · 2^(attempt-2))], the first two within `baseDelay`. The
        /// first is random too: when a node dies, its clients reach the others spread over
        /// `baseDelay`, not all within a few milliseconds.
        public func delay(forAttempt attempt: Int) -> Duration {
            let exponent = max(0, min(attempt - 2, 30))
            let ceiling = min(maxDelay, baseDelay * (1 << exponent))
            let millis = ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000
            return .milliseconds(Int64.random(in: 0...max(0, millis)))
        }
    }

    public init(host: String, port: Int) {
        servers = [HostPort(host: host, port: port)]
    }

    /// Several nodes of one cluster, tried in this order; `servers` must not be empty.
    public init(servers: [HostPort]) {
        precondition(!servers.isEmpty, "a client needs at least one server")
        self.servers = servers
    }

    /// "HOST:PORT" (or the comma-separated list of a cluster's nodes), as the cache names the
    /// server: a cluster's nodes share one cache, as they share one history.
    public var serverName: String { servers.map(\.description).joined(separator: ",") }
}
