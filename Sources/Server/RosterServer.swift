import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterTLS
import ServiceLifecycle

/// Why a server would not start.
public enum ServerStartError: Error, CustomStringConvertible {
    /// A non-loopback listener without TLS.
    case insecureListener(host: String)
    /// Another process listens on the address.
    case addressInUse(String)
    /// Settings out of their range, each said.
    case invalidConfiguration([String])

    public var description: String {
        switch self {
        case .insecureListener(let host):
            return """
                refusing to listen on \(host) without TLS: only loopback listeners may serve plaintext. \
                Add --tls (a certificate is generated in the data dir) or --tls-cert/--tls-key.
                """
        case .addressInUse(let address):
            return "\(address) is already in use (another roster-server, or another program, listens there)"
        case .invalidConfiguration(let problems):
            return "the configuration is not valid: " + problems.joined(separator: "; ")
        }
    }
}

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

    init(configuration: ServerConfiguration, clock: any ServerClock, logger: Logger, tenants: [String: TenantRuntime],
         tokens: TokenRegistry, tls: TLSContext?, store: any RosterStore, loops: [any EventLoop], isLoopback: Bool,
         metrics: ServerMetrics? = nil, httpPort: Int? = nil, notifier: Notifier? = nil, work: TenantWorkPool? = nil) {
        self.notifier = notifier
        self.metrics = metrics
        self.httpPort = httpPort
        self.isLoopback = isLoopback
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.tenantsByID = NIOLockedValueBox(tenants)
        self.tokens = tokens
        currentTLS = NIOLockedValueBox(tls)
        servesTLS = tls != nil
        serverID = IdentifierFactory.make("srv")
        mutations = TenantQueues()
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

/// The Roster server: loads every tenant from the store, listens for clients, pushes on-duty
/// changes at shift boundaries and after admin changes, and shuts down gracefully.
///
/// A swift-service-lifecycle `Service`: run it in a `ServiceGroup`, whose graceful shutdown
/// (SIGTERM, SIGINT) ends it. `start()` may be called first to learn the bound port.
public final class RosterServer: Service, Sendable {
    private let configuration: ServerConfiguration
    private let group: any EventLoopGroup
    private let ownsGroup: Bool
    private let logger: Logger
    private let clock: any ServerClock
    /// The store given to `init`; nil opens SQLite in the data directory at `start`.
    private let givenStore: (any RosterStore)?
    private let started = NIOLockedValueBox<Started?>(nil)

    private struct Started: Sendable {
        var context: ServerContext
        var store: any RosterStore
        var channel: any Channel
        var http: (any Channel)?
        var demo: DemoRoster?
    }

    /// The HTTP side: its metrics are counted from the start; nil without `httpListen`.
    private let http: HTTPSide?
    private let httpChannel = NIOLockedValueBox<(any Channel)?>(nil)
    /// The data directory's lock, held from start to the end of shutdown.
    private let dataLock = NIOLockedValueBox<DataDirectoryLock?>(nil)

    /// The HTTP side, for tests of what it reads.
    var httpSideForTests: HTTPSide? { http }

    /// The HTTP listener's port (port 0 in tests picks one), once started.
    public var httpPort: Int? { httpChannel.withLockedValue { $0?.localAddress?.port } }

    /// - Parameters:
    ///   - clock: the wall clock; tests pass a `ManualClock`.
    ///   - store: storage; defaults to SQLite at `DATA_DIR/roster.sqlite`.
    ///
    /// Nothing is touched on disk before `start` has bound the listener.
    public init(configuration: ServerConfiguration, clock: (any ServerClock)? = nil, store: (any RosterStore)? = nil,
                group: (any EventLoopGroup)? = nil, logger: Logger = Logger(label: "roster.server")) {
        var configuration = configuration
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 1 << 40,
           let fitted = configuration.limits.fitted(toOpenFiles: Int(clamping: limit.rlim_cur)) {
            configuration.limits = fitted.limits
            fittingNote = fitted.note
        } else {
            fittingNote = nil
        }
        self.configuration = configuration
        self.ownsGroup = group == nil
        self.group = group ?? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        self.logger = logger
        self.clock = clock ?? SystemClock(loop: self.group.next())
        self.givenStore = store
        http = configuration.httpListen == nil ? nil : HTTPSide(metrics: ServerMetrics())
    }

    /// Why the connection caps are lower than configured (the open-file limit), said at start.
    private let fittingNote: String?

    /// The bound port (useful with port 0).
    public var port: Int? { started.withLockedValue { $0?.channel.localAddress?.port } }

    /// Binds the listener, then opens the data directory, loads tenants (creating the default
    /// and demo tenant on first start) and starts accepting. A busy address fails before
    /// anything is written to the data directory.
    public func start() async throws {
        let problems = configuration.problems
        guard problems.isEmpty else { throw ServerStartError.invalidConfiguration(problems) }
        if let fittingNote { logger.warning("\(fittingNote)") }
        // The listener accepts nothing until the context exists (autoRead off until then).
        let pending = NIOLockedValueBox<ServerContext?>(nil)
        let channel = try await bind(context: pending)
        // Loopback is what the socket is bound to, not what the name looks like: a name such as
        // "127.example.com" may resolve anywhere.
        let isLoopback = channel.localAddress.map(ServerConfiguration.isLoopback) ?? false
        guard configuration.tls != nil || isLoopback else {
            try? await channel.close()
            throw ServerStartError.insecureListener(host: configuration.listen.host)
        }
        // One process owns a data directory: a second server, or a restore, is refused while
        // this one runs.
        let dataDirectory = DataDirectory(configuration.dataDirectory)
        let createsDatabase: Bool
        do {
            let lock = try await NIOThreadPool.singleton.runIfActive { try DataDirectoryLock(dataDirectory) }
            dataLock.withLockedValue { $0 = lock }
            createsDatabase = givenStore == nil && configuration.store == nil && !dataDirectory.hasDatabase
        } catch {
            try? await channel.close()
            throw error
        }
        let store: any RosterStore
        do {
            if let givenStore {
                store = givenStore
            } else if let location = configuration.store {
                // The data directory still holds the TLS files and the first admin token.
                let dataDirectory = DataDirectory(configuration.dataDirectory)
                try await NIOThreadPool.singleton.runIfActive { try dataDirectory.create() }
                store = try await location.open(with: configuration.storeDrivers)
                logger.info("store \(location)")
            } else {
                store = try await DataDirectory(configuration.dataDirectory).openStore()
            }
        } catch {
            try? await channel.close()
            releaseDataDirectory()
            throw error
        }
        do {
            try await open(channel: channel, store: store, pending: pending, isLoopback: isLoopback)
        } catch {
            try? await channel.close()
            if let http = httpChannel.withLockedValue({ value -> (any Channel)? in defer { value = nil }; return value }) {
                try? await http.close()
            }
            if givenStore == nil { try? await store.close() }
            // A first start that failed (a busy HTTP port, a bad certificate) leaves no database.
            if createsDatabase {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dataDirectory.database + suffix) }
            }
            releaseDataDirectory()
            throw error
        }
    }

    private func releaseDataDirectory() {
        dataLock.withLockedValue { value in
            value?.release()
            value = nil
        }
    }

    private func open(channel: any Channel, store: any RosterStore, pending: NIOLockedValueBox<ServerContext?>,
                      isLoopback: Bool) async throws {
        let dataDirectory = DataDirectory(configuration.dataDirectory)
        var tls: TLSContext?
        if let settings = configuration.tls {
            // Reading and generating keys and certificates is blocking file and CPU work.
            let host = configuration.listen.host, logger = self.logger
            tls = try await NIOThreadPool.singleton.runIfActive {
                try ServerTLS.makeContext(settings, dataDirectory: dataDirectory, host: host, logger: logger)
            }
        }
        if let http, let address = configuration.httpListen {
            // Up before the tenants load, so that /livez answers and /readyz says "starting".
            let channel = try await HTTPListener.bind(address, group: group, side: http, tls: tls, limits: configuration.limits)
            httpChannel.withLockedValue { $0 = channel }
            let httpLoopback = channel.localAddress.map(ServerConfiguration.isLoopback) ?? false
            guard tls != nil || httpLoopback else {
                try? await channel.close()
                throw ServerStartError.insecureListener(host: address.host)
            }
            http.isLoopback = httpLoopback
            logger.info("HTTP on \(channel.localAddress.map { "\($0)" } ?? "?") (health, metrics, /v1; docs/HTTP.md)")
        }
        var stored = try await store.loadTenants()
        if !stored.contains(where: { $0.state.tenant.id == configuration.defaultTenant }) {
            let name = configuration.demo ? DemoRoster.tenantName : configuration.defaultTenant
            let epoch = UInt64.random(in: 1...UInt64.max)
            do {
                try await store.createTenant(Tenant(id: configuration.defaultTenant, name: name), epoch: epoch)
                logger.info("created tenant \(configuration.defaultTenant)")
            } catch {
                // Another node sharing the store may have created it at the same moment.
                guard try await store.tenantIDs().contains(configuration.defaultTenant) else { throw error }
            }
            stored = try await store.loadTenants()
        }
        let loops = Array(group.makeIterator())
        let work = TenantWorkPool(threads: configuration.limits.workThreads > 0 ? configuration.limits.workThreads : max(2, System.coreCount),
                                  maxQueuedPerTenant: configuration.limits.maxQueuedWorkPerTenant)
        var tenants: [String: TenantRuntime] = [:]
        for tenant in stored {
            tenants[tenant.state.tenant.id] = TenantRuntime(stored: tenant, clock: clock,
                                                            historyLimit: configuration.limits.historySize, loops: loops,
                                                            metrics: http?.metrics, work: work)
        }
        let tokens: TokenRegistry
        do {
            tokens = TokenRegistry(try await initialTokens(store: store, dataDirectory: dataDirectory))
        } catch {
            await work.shutdown()
            throw error
        }
        let sealer: SecretSealer
        do {
            let keyFile = configuration.secretsKeyFile ?? dataDirectory.secretsKey
            let defaultKey = configuration.secretsKeyFile == nil
            sealer = try await NIOThreadPool.singleton.runIfActive {
                if defaultKey { try dataDirectory.create() }
                return try SecretSealer.load(path: keyFile)
            }
        } catch {
            await work.shutdown()
            throw error
        }
        // A server in loopback development mode may post to loopback (a receiver on the same host).
        let notifier = Notifier(store: store, settings: configuration.notifications, clock: clock, logger: logger, work: work,
                                allowLoopback: isLoopback, sealer: sealer)
        do {
            try await notifier.load(tenantIDs: Array(tenants.keys))
            for tenant in tenants.values {
                tenant.restoreNotices(try await store.publishedNotices(tenantID: tenant.id, limit: TenantRuntime.keptNotices))
            }
        } catch {
            await notifier.dispatcher.shutdown()
            await work.shutdown()
            throw error
        }
        let context = ServerContext(configuration: configuration, clock: clock, logger: logger, tenants: tenants,
                                    tokens: tokens, tls: tls, store: store, loops: loops, isLoopback: isLoopback,
                                    metrics: http?.metrics, httpPort: httpChannel.withLockedValue { $0?.localAddress?.port },
                                    notifier: notifier, work: work)
        notifier.dispatcher.onPublished { [weak context] tenantID, notices in context?.tenant(tenantID)?.publishNotices(notices) }
        if DataDirectory(configuration.dataDirectory).deliveriesPaused {
            notifier.dispatcher.setPaused(true)
            logger.warning("""
                webhook deliveries are paused: this data directory was restored from a backup, and its copy must not send \
                the webhooks the original sent. Once this is the server in use: roster-server deliveries resume --data-dir \
                \(configuration.dataDirectory), then SIGHUP (systemctl reload) or a restart
                """)
        }
        for sweeper in context.sweepers { sweeper.loop.execute { sweeper.start() } }
        for tenant in tenants.values { tenant.startOnDutyTracking() }

        var demo: DemoRoster?
        if configuration.demo, let tenant = tenants[configuration.defaultTenant] {
            let roster = DemoRoster(tenant: tenant, context: context)
            do {
                try await roster.seedIfEmpty()
            } catch {
                for tenant in tenants.values { tenant.stopOnDutyTracking() }
                for sweeper in context.sweepers { sweeper.loop.execute { sweeper.stop() } }
                await context.mutations.finish()
                await context.work.shutdown()
                await notifier.dispatcher.shutdown()
                throw error
            }
            demo = roster
        }
        started.withLockedValue {
            $0 = Started(context: context, store: store, channel: channel, http: httpChannel.withLockedValue { $0 }, demo: demo)
        }
        http?.serving(context, store: store)
        pending.withLockedValue { $0 = context }
        try await channel.setOption(.autoRead, value: true).get()
        let address = channel.localAddress.map { "\($0)" } ?? "?"
        logger.info("listening on \(address)\(tls == nil ? "" : " (TLS)")", metadata: ["tenants": "\(tenants.keys.sorted())"])
        if isLoopback {
            logger.notice("""
                loopback listener: \(tls == nil ? "plaintext and " : "")anonymous reads are allowed (development mode); \
                changes need an admin token (\(dataDirectory.adminToken) if this node started the store, \
                or one from roster-server token create)
                """)
        }
        SystemdNotify.send("READY=1\nSTATUS=listening on \(address)")
    }

    /// SIGHUP: reads the certificate and key again (the files given, or the generated ones,
    /// re-issued if due). New connections get the new certificate; open connections keep
    /// theirs and are not dropped. A file that does not load leaves the old certificate in
    /// place and throws. Does nothing without TLS.
    /// SIGHUP: webhook deliveries resume once `deliveries resume` has removed the marker.
    public func reloadDeliveryPause() {
        guard let dispatcher = started.withLockedValue({ $0?.context.notifier?.dispatcher }), dispatcher.isPaused,
              !DataDirectory(configuration.dataDirectory).deliveriesPaused else { return }
        dispatcher.setPaused(false)
        logger.notice("webhook deliveries resumed")
    }

    public func reloadCertificates() async throws {
        guard let settings = configuration.tls, let context = started.withLockedValue({ $0?.context }) else { return }
        let dataDirectory = DataDirectory(configuration.dataDirectory)
        let host = configuration.listen.host, logger = self.logger
        let fresh = try await NIOThreadPool.singleton.runIfActive {
            try ServerTLS.makeContext(settings, dataDirectory: dataDirectory, host: host, logger: logger)
        }
        context.replaceTLS(fresh)
        logger.notice("reloaded the TLS certificate: new connections get it, open ones keep theirs")
    }

    /// Runs the server until the service group shuts down gracefully or the task is cancelled:
    /// starts it (unless `start` already did), runs the periodic work as child tasks (progress
    /// frames, re-reading tokens and tenants, the demo roller), then sends GoingAway and stops.
    /// An error in a child task ends the run with that error, after the same shutdown.
    public func run() async throws {
        if started.withLockedValue({ $0 == nil }) { try await start() }
        guard let running = started.withLockedValue({ $0 }) else { return }
        let context = running.context, store = running.store, demo = running.demo
        let limits = configuration.limits, loops = Array(group.makeIterator())
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { tasks in
                    tasks.addTask {
                        try await Self.repeatedly(every: limits.progressInterval) {
                            for tenant in context.tenants.values { tenant.sendProgress(idleFor: TimeAmount(limits.progressInterval)) }
                        }
                    }
                    tasks.addTask {
                        try await Self.repeatedly(every: limits.tokenRefresh) {
                            // A failed read is retried on the next tick; admin changes do not depend on it.
                            do {
                                try await Self.refresh(context: context, store: store, loops: loops)
                            } catch is CancellationError {
                                // The server is stopping: not a failed read.
                            } catch {
                                context.logger.warning("could not re-read tokens and tenants: \(error)")
                            }
                        }
                    }
                    tasks.addTask {
                        await context.pruneAudit()
                        try await Self.repeatedly(every: .seconds(3600)) { await context.pruneAudit() }
                    }
                    if let demo { tasks.addTask { try await demo.run() } }
                    if let signals = store.signals {
                        // A shared store: follow the other nodes' commits, and compare revisions
                        // now and then in case an announcement was lost.
                        tasks.addTask {
                            await context.follow(signals) {
                                do {
                                    try await Self.refresh(context: context, store: store, loops: loops)
                                } catch is CancellationError {
                                    // The server is stopping: not a failed read.
                                } catch {
                                    context.logger.warning("could not re-read tokens and tenants: \(error)")
                                }
                            }
                        }
                        tasks.addTask { try await Self.repeatedly(every: limits.storeSync) { await context.compareRevisions() } }
                    }
                    if let notifier = context.notifier {
                        tasks.addTask { await notifier.dispatcher.run() }
                        tasks.addTask {
                            await context.planNotifications()
                            try await Self.repeatedly(every: notifier.settings.planAhead / 3) { await context.planNotifications() }
                        }
                    }
                }
            }
        } catch is CancellationError {
        } catch {
            logger.error("stopping: \(error)")
            await shutdown()
            throw error
        }
        await shutdown()
    }

    private static func repeatedly(every interval: Duration, _ body: @Sendable () async -> Void) async throws {
        while true {
            try await Task.sleep(for: interval)
            await body()
        }
    }

    /// The stored tokens; at first start, also an admin token for the default tenant, written to
    /// DATA_DIR/admin.token (mode 0600) for `roster-client --token-file`.
    private func initialTokens(store: any RosterStore, dataDirectory: DataDirectory) async throws -> [StoredToken] {
        let existing = try await store.loadTokens()
        guard existing.isEmpty else { return existing }
        let (text, token) = AccessToken.issue(tenantID: configuration.defaultTenant, role: .admin, label: "initial admin token",
                                              now: clock.now())
        try await store.insertToken(token)
        try await store.appendAudit(tenantID: token.tenantID, AuditLog.token(AuditLog.Kind.tokenCreated, token, at: clock.now()))
        let path = dataDirectory.adminToken
        try await NIOThreadPool.singleton.runIfActive { try PrivateFile.write(text + "\n", to: path) }
        logger.notice("wrote an admin token for tenant \(configuration.defaultTenant) to \(path)")
        return [token]
    }

    /// Picks up tokens and tenants changed by `roster-server token|tenant ...` while running, and
    /// closes the connections of tokens that were revoked.
    private static func refresh(context: ServerContext, store: any RosterStore, loops: [any EventLoop]) async throws {
        let revoked = context.tokens.replace(with: try await store.loadTokens())
        if !revoked.isEmpty {
            context.logger.notice("tokens revoked: \(revoked.joined(separator: ", ")); closing their connections")
            let event = CredentialRevokedEvent(tokenIDs: Set(revoked))
            for channel in context.connections { channel.pipeline.fireUserInboundEventTriggered(event) }
        }
        let known = Set(context.tenants.keys)
        let ids = try await store.tenantIDs()
        guard ids.contains(where: { !known.contains($0) }) else { return }
        for stored in try await store.loadTenants() where !known.contains(stored.state.tenant.id) {
            let runtime = TenantRuntime(stored: stored, clock: context.clock,
                                        historyLimit: context.configuration.limits.historySize, loops: loops,
                                        metrics: context.metrics, work: context.work)
            if context.addTenant(runtime) {
                runtime.startOnDutyTracking()
                context.logger.notice("serving new tenant \(runtime.id)")
            }
        }
    }

    /// Binds with autoRead off: connections wait in the kernel's backlog until `context` is set.
    private func bind(context pending: NIOLockedValueBox<ServerContext?>) async throws -> any Channel {
        let limits = configuration.limits
        do {
            return try await bootstrap(pending, limits: limits).bind(host: configuration.listen.host, port: configuration.listen.port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerStartError.addressInUse(configuration.listen.description)
        }
    }

    private func bootstrap(_ pending: NIOLockedValueBox<ServerContext?>, limits: ServerConfiguration.Limits) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.autoRead, value: false)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            // NIO keeps each connection's last receive buffer for its next read, so the first
            // size is what every idle subscriber holds: 64 bytes fit a Hello and a Subscribe (a
            // larger read grows the next buffer at once).
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 64, maximum: 65536))
            .childChannelOption(.writeBufferWaterMark,
                                value: .init(low: limits.outboundLowWaterMark, high: limits.outboundHighWaterMark))
            .childChannelInitializer { channel in
                guard let context = pending.withLockedValue({ $0 }) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                return channel.eventLoop.makeCompletedFuture { try context.configurePipeline(of: channel) }
            }
    }

    /// Connections accepted since `start`.
    public var acceptedConnections: Int {
        started.withLockedValue { $0?.context.acceptedConnections.withLockedValue { $0 } } ?? 0
    }

    /// Bytes each open connection has queued for writing and not yet handed to the kernel: what
    /// a slow consumer costs the server (bounded by the outbound high-water mark plus one frame).
    public func queuedOutboundBytes() async -> [Int] {
        guard let context = started.withLockedValue({ $0?.context }) else { return [] }
        var queued: [Int] = []
        for channel in context.connections {
            if let bytes = try? await channel.getOption(.bufferedWritableBytes).get() { queued.append(bytes) }
        }
        return queued
    }

    /// What a plaintext client on a TLS port gets: an Error frame it can read.
    static let tlsRequired = RosterMessage.error(
        WireError(.tlsRequired, "this port requires TLS: connect with --tls or --ca-file, or pin the server with `roster-client trust`").body
    ).frame().encoded()

    /// Sends GoingAway to every client, waits the grace period, closes everything and the store.
    /// Also closes a server whose `start` succeeded but that never ran.
    func shutdown() async {
        guard let started = started.withLockedValue({ value -> Started? in defer { value = nil }; return value }) else { return }
        let grace = configuration.limits.shutdownGrace.milliseconds
        let children = started.context.connections
        SystemdNotify.send("STOPPING=1")
        http?.stopping()
        logger.info("shutting down: GoingAway to \(children.count) connections, grace \(grace) ms")
        try? await started.channel.close()
        try? await started.http?.close()
        for tenant in started.context.tenants.values { tenant.stopOnDutyTracking() }
        // Each client gets its own retry delay within the grace window, so they do not all
        // reconnect to the next server at the same instant.
        for channel in children {
            let retryAfter = UInt32.random(in: UInt32(grace)...UInt32(grace * 3))
            channel.pipeline.fireUserInboundEventTriggered(GoingAwayEvent(reason: "server shutting down", retryAfterMillis: retryAfter))
        }
        if !children.isEmpty { try? await Task.sleep(for: .milliseconds(grace)) }
        for channel in children { try? await channel.close() }
        for sweeper in started.context.sweepers { try? await sweeper.loop.submit { sweeper.stop() }.get() }
        await started.context.mutations.finish()
        await started.context.work.shutdown()
        await started.context.notifier?.dispatcher.shutdown()
        try? await started.store.close()
        releaseDataDirectory()
        // Nothing may schedule on the loops once they are gone: stop the clock's watchdog first.
        if let clock = clock as? SystemClock { clock.stop() }
        if ownsGroup { try? await group.shutdownGracefully() }
        logger.info("stopped")
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
