import Logging
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore
import RosterTLS

/// Told to every connection when the server shuts down.
struct GoingAwayEvent: Sendable {
    var reason: String
    var retryAfterMillis: UInt32
}

/// Told to every connection when a token stops being usable; those using it close.
struct CredentialRevokedEvent: Sendable {
    var tokenIDs: Set<String>
}

/// What every connection shares: configuration, tenants, the store's write path.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    /// The tenant a Hello with an empty tenant field selects (resolved at start).
    let defaultTenant: String
    let clock: any ServerClock
    let logger: Logger
    let serverID: String
    private let tenantsByID: NIOLockedValueBox<[String: TenantRuntime]>
    let tokens: TokenRegistry
    /// The TLS configuration new connections get; SIGHUP may replace it (`replaceTLS`), while
    /// connections already open keep the one they started with.
    private let currentTLS: NIOLockedValueBox<TLSContext?>
    var tls: TLSContext? { currentTLS.withLockedValue { $0 } }
    /// Whether this listener serves TLS (fixed for its life, unlike the certificate).
    let servesTLS: Bool
    let mutations: TenantQueues
    /// Where resolving and planning run: off the event loops and off the cooperative pool.
    let work: TenantWorkPool
    let admin: AdminOperations
    let sweepers: [LivenessSweeper]
    private let openConnections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    let authFailureBudget = NIOLockedValueBox(AuditLog.FailureBudget())
    /// Audit writes nobody waits for (a refused Hello's), counted so that a harness can tell
    /// when they are done.
    let detachedWrites = NIOLockedValueBox(0)

    /// Whether the listener is bound to a loopback address: plaintext and anonymous readers are
    /// allowed there only.
    let isLoopback: Bool

    /// What the server counts for GET /metrics; nil without an HTTP listener.
    let metrics: ServerMetrics?
    /// The HTTP listener's port, for calendar URLs; nil without one.
    let httpPort: Int?
    /// Webhooks and reminders; nil when the server runs without (tools, some tests).
    let notifier: Notifier?

    init(configuration: ServerConfiguration, defaultTenant: String, clock: any ServerClock, logger: Logger, tenants: [String: TenantRuntime],
         tokens: TokenRegistry, tls: TLSContext?, store: any RosterStore, loops: [any EventLoop], isLoopback: Bool,
         metrics: ServerMetrics? = nil, httpPort: Int? = nil, notifier: Notifier? = nil, work: TenantWorkPool? = nil,
         mutationGate: JobGate? = nil) {
        self.notifier = notifier
        self.metrics = metrics
        self.httpPort = httpPort
        self.isLoopback = isLoopback
        self.configuration = configuration
        self.defaultTenant = defaultTenant
        self.clock = clock
        self.logger = logger
        self.tenantsByID = NIOLockedValueBox(tenants)
        self.tokens = tokens
        currentTLS = NIOLockedValueBox(tls)
        servesTLS = tls != nil
        serverID = IdentifierFactory.make("srv")
        mutations = TenantQueues(gate: mutationGate)
        let limits = configuration.limits
        self.work = work ?? TenantWorkPool(threads: limits.workThreads > 0 ? limits.workThreads : max(2, System.coreCount),
                                           maxQueuedPerTenant: limits.maxQueuedWorkPerTenant)
        admin = AdminOperations(store: store, clock: clock, historyLimit: configuration.limits.historySize, metrics: metrics,
                                notifier: notifier, maxAnswerBytes: limits.maxFrameBytes - 1_024, work: self.work)
        sweepers = loops.map { LivenessSweeper(loop: $0, intervalMillis: configuration.limits.pingInterval.milliseconds) }
    }

    func tenant(_ id: String) -> TenantRuntime? { tenantsByID.withLockedValue { $0[id] } }

    func replaceTLS(_ context: TLSContext) { currentTLS.withLockedValue { $0 = context } }

    var tenants: [String: TenantRuntime] { tenantsByID.withLockedValue { $0 } }

    /// Adds tenants created while running; false for one already known.
    func addTenant(_ tenant: TenantRuntime) -> Bool {
        tenantsByID.withLockedValue { tenants in
            guard tenants[tenant.id] == nil else { return false }
            tenants[tenant.id] = tenant
            return true
        }
    }

    func sweeper(for loop: any EventLoop) -> LivenessSweeper {
        sweepers.first { $0.loop === loop }!
    }

    /// Connections accepted since start, refused ones included.
    let acceptedConnections = NIOLockedValueBox(0)

    /// Tracks a new connection; false when the limit is reached.
    func connectionOpened(_ channel: any Channel) -> Bool {
        acceptedConnections.withLockedValue { $0 += 1 }
        return openConnections.withLockedValue { open in
            guard open.count < configuration.limits.maxConnections else { return false }
            open[ObjectIdentifier(channel)] = channel
            metrics?.connectionOpened(tls: servesTLS)
            return true
        }
    }

    func connectionClosed(_ channel: any Channel) {
        if openConnections.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(channel)) }) != nil {
            metrics?.connectionClosed(tls: servesTLS)
        }
    }

    var connections: [any Channel] { openConnections.withLockedValue { Array($0.values) } }

    /// The one pipeline of a server connection (TLS when configured, then the connection handler,
    /// which also cuts the frames), used by the listener and by the fuzz target alike; past the connection limit a
    /// refusal instead. Call on the channel's loop.
    func configurePipeline(of channel: any Channel) throws {
        guard connectionOpened(channel) else {
            let refusal = WireError(.resourceExhausted, "too many connections", retryable: true)
            try channel.pipeline.syncOperations.addHandler(RefusingHandler(refusal))
            return
        }
        let limit = FrameSizeLimit(configuration.limits.handshakeMaxFrameBytes)
        if let tls {
            try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls, plaintextRefusal: RosterServer.tlsRequired))
        }
        try channel.pipeline.syncOperations.addHandler(ConnectionHandler(server: self, frameLimit: limit, channel: channel))
    }
}

/// Answers a connection the server cannot take with one Error frame, then closes it.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let refusal: WireError

    init(_ refusal: WireError) { self.refusal = refusal }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(RosterMessage.error(refusal.body).frame().encoded()))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
