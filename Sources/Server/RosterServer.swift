import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol

/// What every connection shares: configuration, tenants, the store's write path.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let clock: any ServerClock
    let logger: Logger
    let serverID: String
    let tenants: [String: TenantRuntime]
    let mutations: MutationQueue
    let admin: AdminOperations
    let sweepers: [LivenessSweeper]
    private let openConnections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    init(configuration: ServerConfiguration, clock: any ServerClock, logger: Logger, tenants: [String: TenantRuntime],
         store: any RosterStore, loops: [any EventLoop]) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.tenants = tenants
        serverID = IdentifierFactory.make("srv")
        mutations = MutationQueue()
        admin = AdminOperations(store: store, clock: clock, historyLimit: configuration.limits.historySize)
        sweepers = loops.map { LivenessSweeper(loop: $0, intervalMillis: configuration.limits.pingIntervalMillis) }
    }

    func sweeper(for loop: any EventLoop) -> LivenessSweeper {
        sweepers.first { $0.loop === loop }!
    }

    /// Tracks a new connection; false when the limit is reached.
    func connectionOpened(_ channel: any Channel) -> Bool {
        openConnections.withLockedValue { open in
            guard open.count < configuration.limits.maxConnections else { return false }
            open[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func connectionClosed(_ channel: any Channel) {
        _ = openConnections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var connections: [any Channel] { openConnections.withLockedValue { Array($0.values) } }
}

/// The Roster server: loads every tenant from the store, listens for clients, pushes on-duty
/// changes at shift boundaries and after admin changes, and shuts down gracefully.
public final class RosterServer: Sendable {
    private let configuration: ServerConfiguration
    private let group: any EventLoopGroup
    private let ownsGroup: Bool
    private let logger: Logger
    private let clock: any ServerClock
    private let store: any RosterStore
    private let started = NIOLockedValueBox<Started?>(nil)

    private struct Started: @unchecked Sendable {
        var context: ServerContext
        var channel: any Channel
        var progress: RepeatedTask
        var demo: DemoRoster?
    }

    /// - Parameters:
    ///   - clock: the wall clock; tests pass a `ManualClock`.
    ///   - store: storage; defaults to SQLite at `DATA_DIR/roster.sqlite`.
    public init(configuration: ServerConfiguration, clock: (any ServerClock)? = nil, store: (any RosterStore)? = nil,
                group: (any EventLoopGroup)? = nil, logger: Logger = Logger(label: "roster.server")) throws {
        self.configuration = configuration
        self.ownsGroup = group == nil
        self.group = group ?? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        self.logger = logger
        self.clock = clock ?? SystemClock(loop: self.group.next())
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        self.store = try store ?? SQLiteRosterStore(path: configuration.dataDirectory + "/roster.sqlite")
    }

    /// The bound port (useful with port 0).
    public var port: Int? { started.withLockedValue { $0?.channel.localAddress?.port } }

    /// Loads tenants, creates the default (and demo) tenant on first start, and starts listening.
    public func start() async throws {
        var stored = try await store.loadTenants()
        if !stored.contains(where: { $0.state.tenant.id == configuration.defaultTenant }) {
            let name = configuration.demo ? DemoRoster.tenantName : configuration.defaultTenant
            let epoch = UInt64.random(in: 1...UInt64.max)
            try await store.createTenant(Tenant(id: configuration.defaultTenant, name: name), epoch: epoch)
            stored = try await store.loadTenants()
            logger.info("created tenant \(configuration.defaultTenant)")
        }
        let loops = Array(group.makeIterator())
        var tenants: [String: TenantRuntime] = [:]
        for tenant in stored {
            tenants[tenant.state.tenant.id] = TenantRuntime(stored: tenant, clock: clock,
                                                            historyLimit: configuration.limits.historySize, loops: loops)
        }
        let context = ServerContext(configuration: configuration, clock: clock, logger: logger, tenants: tenants, store: store,
                                    loops: loops)
        for sweeper in context.sweepers { sweeper.loop.execute { sweeper.start() } }
        for tenant in tenants.values { tenant.startOnDutyTracking() }

        var demo: DemoRoster?
        if configuration.demo, let tenant = tenants[configuration.defaultTenant] {
            let roster = DemoRoster(tenant: tenant, context: context)
            try await roster.seedIfEmpty()
            roster.keepRolling()
            demo = roster
        }

        let limits = configuration.limits
        let channel: any Channel
        do {
            channel = try await bind(context: context)
        } catch {
            // Undo the partial start so that start() may be called again.
            demo?.stop()
            for tenant in tenants.values { tenant.stopOnDutyTracking() }
            for sweeper in context.sweepers { sweeper.loop.execute { sweeper.stop() } }
            await context.mutations.finish()
            throw error
        }

        let allTenants = tenants
        let progress = group.next().scheduleRepeatedTask(
            initialDelay: .milliseconds(limits.progressIntervalMillis), delay: .milliseconds(limits.progressIntervalMillis)
        ) { _ in
            for tenant in allTenants.values { tenant.sendProgress(idleFor: .milliseconds(limits.progressIntervalMillis)) }
        }
        started.withLockedValue { $0 = Started(context: context, channel: channel, progress: progress, demo: demo) }
        let address = channel.localAddress.map { "\($0)" } ?? "?"
        logger.info("listening on \(address)", metadata: ["tenants": "\(tenants.keys.sorted())"])
        if let host = channel.localAddress, ConnectionHandler.isLoopback(host) {
            logger.notice("loopback listener: plaintext, anonymous reads, and admin changes from local clients are allowed (development mode)")
        }
    }

    private func bind(context: ServerContext) async throws -> any Channel {
        let limits = configuration.limits
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
            .childChannelOption(.writeBufferWaterMark,
                                value: .init(low: limits.outboundLowWaterMark, high: limits.outboundHighWaterMark))
            .childChannelInitializer { channel in
                guard context.connectionOpened(channel) else {
                    let refusal = WireError(.resourceExhausted, "too many connections", retryable: true)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusingHandler(refusal))
                    }
                }
                let limit = FrameSizeLimit(limits.handshakeMaxFrameBytes)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(limit: limit)))
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionHandler(server: context, frameLimit: limit, channel: channel))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
    }

    /// Sends GoingAway to every client, waits the grace period, closes everything and the store.
    public func shutdown() async {
        guard let started = started.withLockedValue({ value -> Started? in defer { value = nil }; return value }) else { return }
        let grace = configuration.limits.shutdownGraceMillis
        let children = started.context.connections
        logger.info("shutting down: GoingAway to \(children.count) connections, grace \(grace) ms")
        started.progress.cancel()
        started.demo?.stop()
        try? await started.channel.close()
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
        try? await store.close()
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
