import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// Everything a server can be told. Defaults are what `roster-server serve` uses.
public struct ServerConfiguration: Sendable {
    /// Where to listen. Port 0 picks a free port (tests); the bound port is `RosterServer.port`.
    /// Whether it is loopback is decided on the address the socket is bound to, never on this
    /// name (`isLoopback(_:)`).
    public var listen = HostPort(host: "127.0.0.1", port: 7400)
    public var dataDirectory: String
    /// The database; nil: SQLite in the data directory. PostgreSQL lets several nodes share one
    /// store (docs/SCALING.md); the data directory still holds the TLS files and the first admin token.
    public var store: StoreLocation?
    /// The drivers `store` may need beyond SQLite (roster-server passes PostgreSQL's).
    public var storeDrivers = StoreDrivers()
    /// Create the demo tenant (once) and keep its plan rolling.
    public var demo: Bool = false
    /// Development mode off: a loopback listener then wants tokens as any other does (for a
    /// server behind a reverse proxy or a tunnel on the same host).
    public var noDevelopmentMode: Bool = false
    /// The HTTP listener (health, metrics, the on-call JSON API; docs/HTTP.md); nil: none.
    /// Metrics are counted only when it is on. `roster-server serve` listens on 127.0.0.1:7480.
    public var httpListen: HostPort?
    /// The tenant a Hello with an empty tenant field selects, created at start if missing; nil:
    /// the store's own (`ServerConfiguration.defaultTenant(configured:demo:stored:)`).
    public var defaultTenant: String?
    /// The window of a calendar feed: this many days back and ahead.
    public var calendarDaysBack = 30
    public var calendarDaysAhead = 90
    /// How long audit entries are kept (pruned hourly): a little over a year, so that a yearly
    /// review still sees the whole year.
    public var auditRetention: Duration = .seconds(400 * 86_400)

    /// The key webhook secrets are sealed with (`SecretSealer`); nil: DATA_DIR/secrets.key.
    /// Nodes sharing a store need the same one.
    public var secretsKeyFile: String?

    /// The log level (`logLevels`) and whether log lines are JSON objects: the executable sets up
    /// logging from them (the library logs through swift-log, as its caller bootstraps it).
    public var logLevel = "info"
    public var logJSON = false
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// nil serves plaintext, which only a loopback listener may do.
    public var tls: TLSSettings?

    public struct TLSSettings: Sendable {
        /// PEM files; both nil means "generate a CA and certificate in DATA_DIR/tls".
        public var certificateChainFile: String?
        public var privateKeyFile: String?
        /// Require client certificates issued by a CA in this file (mTLS).
        public var clientCAFile: String?
        /// More names for the generated certificate (DNS names or IP addresses).
        public var names: [String] = []

        public init() {}
    }

    /// Loopback listeners serve plaintext and anonymous reads for local development; every other
    /// address requires TLS and a token. Decided on the bound socket address, never on the name.
    public static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4):
            return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes == Array(repeating: 0, count: 15) + [1] { return true }  // ::1
            // ::ffff:127.x.y.z, an IPv4 loopback address mapped into IPv6.
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        default:
            return false
        }
    }

    public var limits = Limits()

    /// Webhook delivery and notice planning (docs/NOTIFICATIONS.md).
    public var notifications = NotificationSettings()

    public struct NotificationSettings: Sendable {
        /// The first retry waits about this long; each later one twice as long (with jitter),
        /// at most `retryCap`.
        public var retryBase: Duration = .seconds(10)
        public var retryCap: Duration = .seconds(3600)
        /// An endpoint failing for this long is disabled.
        public var retryBudget: Duration = .seconds(86_400)
        /// A request that has not been answered in this time has failed.
        public var requestTimeout: Duration = .seconds(10)
        /// A delivery that waited longer than this in its destination's lane is not sent: its
        /// webhook's head is read anew, as the webhook then is (docs/NOTIFICATIONS.md).
        public var laneWait: Duration = .seconds(60)
        /// Time-driven events (handoffs, reminders, gaps) are written to the outbox this far ahead.
        public var planAhead: Duration = .seconds(900)
        /// `shifts.changed` compares each person's shifts over this many days ahead.
        public var changeHorizonDays = 28
        /// `coverage.gap` looks this many days ahead.
        public var gapDays = 7
        /// Address ranges webhooks may reach besides public addresses (`WebhookAddressPolicy`).
        public var webhookAllow: [IPRange] = []
        /// The language of chat posts and `/oncall` answers: en, de, fr or es (`Language`).
        public var chatLanguage = "en"
        /// Who runs this server, for push services (the VAPID `sub`, RFC 8292): a `mailto:` or
        /// `https:` URL a push service's operator can reach about a misbehaving sender.
        public var pushContact = "mailto:roster@localhost"
        /// The web app's public address (`--web-url`), without a trailing slash: an ntfy
        /// notice's click target is built on it; without it, ntfy notices lead nowhere.
        public var webURL: String?

        public init() {}
    }

    public struct Limits: Sendable {
        public var maxConnections: Int = 50_000
        public var maxFrameBytes: Int = WireProtocol.defaultMaxFrameLength
        public var handshakeMaxFrameBytes: Int = WireProtocol.handshakeMaxFrameLength
        public var maxSubscriptionsPerConnection: Int = 16
        public var maxInFlightRequests: Int = 64
        /// Revisions kept for resume.
        public var historySize: Int = 10_000
        public var helloTimeout: Duration = .seconds(5)
        public var pingInterval: Duration = .seconds(15)
        /// Idle subscribers get a Progress bookmark this often.
        public var progressInterval: Duration = .seconds(10)
        /// Outbound bytes queued per connection before it counts as a slow consumer.
        public var outboundHighWaterMark: Int = 1 << 20
        public var outboundLowWaterMark: Int = 256 << 10
        /// A slow consumer whose writes stall this long is disconnected.
        public var writeDeadline: Duration = .seconds(10)
        /// How long clients get after GoingAway before the server closes their connections.
        public var shutdownGrace: Duration = .seconds(2)
        /// A failed authentication is answered after this long, slowing down guessing.
        public var authFailureDelay: Duration = .milliseconds(250)
        /// How often the token and tenant tables are re-read for changes made by `roster-server token ...`.
        public var tokenRefresh: Duration = .seconds(1)
        /// On a shared store, how often a node compares its revisions with the store's, in case
        /// an announcement of another node's commit was lost.
        public var storeSync: Duration = .seconds(2)
        /// Threads that resolve schedules and plan changes (`TenantWorkPool`); 0: one per core,
        /// at least two.
        public var workThreads: Int = 0
        /// Jobs one tenant may have waiting for those threads; past it, RESOURCE_EXHAUSTED.
        public var maxQueuedWorkPerTenant: Int = 256
        /// Frames one connection's read is worked through before the event loop serves others.
        public var framesPerTurn: Int = 32
        /// HTTP connections open at once; past it a new one is answered 503 and closed.
        public var httpMaxConnections: Int = 1_024
        /// Event streams (`GET /v1/events`) one token, or one peer address, holds at once; past it
        /// 429. All streams together take at most three quarters of `httpMaxConnections`.
        public var httpMaxStreamsPerClient: Int = 8
        /// Time an HTTP connection has for its TLS handshake and a request's head and body.
        public var httpHeaderTimeout: Duration = .seconds(10)
        /// Time an HTTP connection may stay open between requests.
        public var httpIdleTimeout: Duration = .seconds(60)
        /// Bytes of a request body (no route takes one; more closes the connection).
        public var httpMaxBodyBytes: Int = 64 << 10
        /// SO_SNDBUF of each HTTP connection, fixed rather than autotuned up to 4 MiB, so that a
        /// reader that stops reading pins little and is seen soon.
        public var httpSendBufferBytes: Int = 64 << 10

        public init() {}
    }

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }
}

extension ServerConfiguration.Limits {
    /// Descriptors kept for everything that is not a client: the store, files, webhooks, logs.
    static let reservedDescriptors = 128

    /// These limits within `openFiles` descriptors (the process's RLIMIT_NOFILE): a connection
    /// cap the process cannot hold would fail the store's reads and every listener when it is
    /// reached, not refuse the one extra client. The HTTP listener keeps its cap or a sixteenth
    /// of what there is, whichever is less; the protocol listener gets the rest. nil: they fit.
    package func fitted(toOpenFiles openFiles: Int) -> (limits: Self, note: String)? {
        let available = max(32, openFiles - Self.reservedDescriptors)
        guard maxConnections + httpMaxConnections > available else { return nil }
        var fitted = self
        fitted.httpMaxConnections = max(8, min(httpMaxConnections, available / 16))
        fitted.maxConnections = max(8, min(maxConnections, available - fitted.httpMaxConnections))
        return (
            fitted,
            """
            the open-file limit (\(openFiles)) holds \(fitted.maxConnections) protocol and \(fitted.httpMaxConnections) HTTP \
            connections, not the \(maxConnections) and \(httpMaxConnections) configured: raise it (ulimit -n, LimitNOFILE=) for more
            """
        )
    }
}

extension ServerConfiguration {
    /// The tenant `--demo` fills.
    public static let demoTenant = "demo"
    /// The tenant a store made without `--demo` starts with.
    public static let firstTenant = "default"

    /// The tenant an empty Hello selects: the one configured; else `demo` when the demo runs or
    /// the store has that tenant (stores made before `default` existed called their first tenant
    /// `demo`, and their clients, tokens and caches are bound to it); else `default`.
    public static func defaultTenant(configured: String?, demo: Bool, stored: [String]) -> String {
        if let configured { return configured }
        if demo || stored.contains(demoTenant) { return demoTenant }
        return firstTenant
    }
}
