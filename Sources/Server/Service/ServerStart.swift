import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterHTTP
import RosterNotifications
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTLS

/// How a server starts: each step that takes hold of something adds a `ServerPart` that lets
/// go of it, so a failed start undoes exactly what was done, and a graceful shutdown stops the
/// parts in reverse order of this list:
///
/// 1. the listening socket (bound first, autoRead off, so a busy address fails before anything
///    is written), 2. the data directory's lock, 3. the store, 4. the HTTP socket, 5. the work
/// pool, 6. the webhook outbox, 7. the per-tenant change queues, 8. the liveness sweepers,
/// 9. on-duty tracking, 10. the connections (GoingAway, grace, close), 11. the periodic work.
extension RosterServer {
    /// Starts every part; on failure stops those started and throws.
    func start() async throws -> [ServerPart] {
        let problems = configuration.problems
        guard problems.isEmpty else { throw ServerStartError.invalidConfiguration(problems) }
        if let fittingNote {
            if fittingNote.warn { logger.warning("\(fittingNote.text)") } else { logger.info("\(fittingNote.text)") }
        }
        var parts = StartedParts()
        do {
            try await start(into: &parts)
            return parts.all
        } catch {
            await parts.stopAll()
            running.withLockedValue { $0 = nil }
            throw error
        }
    }

    private func start(into parts: inout StartedParts) async throws {
        // The listener accepts nothing until its connections' state exists (autoRead off until then).
        let pending = NIOLockedValueBox<ProtocolConnections?>(nil)
        let channel = try await bind(pending)
        parts.add(ServerPart("listening socket", stop: { try? await channel.close() }))
        // Loopback is what the socket is bound to, not what the name looks like: a name such as
        // "127.example.com" may resolve anywhere.
        let isLoopback = channel.localAddress.map(ServerConfiguration.isLoopback) ?? false
        guard configuration.tls != nil || isLoopback else {
            throw ServerStartError.insecureListener(host: configuration.listen.host)
        }

        // One process owns a data directory: a second server, or a restore, is refused while
        // this one runs.
        let dataDirectory = DataDirectory(configuration.dataDirectory)
        let lock = try await NIOThreadPool.singleton.runIfActive { try DataDirectoryLock(dataDirectory) }
        parts.add(ServerPart("data directory lock", stop: { lock.release() }))
        if givenStore == nil && configuration.store == nil && !dataDirectory.hasDatabase {
            // A first start that fails (a busy HTTP port, a bad certificate) leaves no database.
            let database = dataDirectory.database
            parts.onFailedStart {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            }
        }
        let store = try await openStore(dataDirectory)
        // A store the caller gave is closed when the server stops, but left open when it fails to
        // start (the caller still holds it).
        let startedFully = NIOLockedValueBox(givenStore == nil)
        parts.add(ServerPart("store", stop: { if startedFully.withLockedValue({ $0 }) { try? await store.close() } }))

        var tls: TLSContext?
        if let settings = configuration.tls {
            // Reading and generating keys and certificates is blocking file and CPU work.
            let host = configuration.listen.host, logger = self.logger
            tls = try await NIOThreadPool.singleton.runIfActive {
                try ServerTLS.makeContext(settings, dataDirectory: dataDirectory, host: host, logger: logger)
            }
        }
        let httpChannel = try await bindHTTP(tls: tls, parts: &parts)

        let (tenants, defaultTenant) = try await loadTenants(store)
        let work = TenantWorkPool(
            threads: configuration.limits.workThreads > 0 ? configuration.limits.workThreads : max(2, System.coreCount),
            maxQueuedPerTenant: configuration.limits.maxQueuedWorkPerTenant)
        parts.add(ServerPart("work pool", stop: { await work.shutdown() }))
        let resolvedWeeks = ResolvedWeeks()
        let loops = Array(group.makeIterator())
        var runtimes: [String: TenantRuntime] = [:]
        for tenant in tenants {
            runtimes[tenant.state.tenant.id] = TenantRuntime(
                stored: tenant, clock: clock, historyLimit: configuration.limits.historySize,
                loops: loops, metrics: http?.metrics?.counters, work: work,
                resolvedWeeks: resolvedWeeks)
        }
        let tokens = TokenRegistry(
            try await initialTokens(store: store, dataDirectory: dataDirectory, tenant: defaultTenant))
        let keyFile = configuration.secretsKeyFile ?? dataDirectory.secretsKey
        let defaultKey = configuration.secretsKeyFile == nil
        let (sealer, keyMadeNow) = try await NIOThreadPool.singleton.runIfActive {
            if defaultKey { try dataDirectory.create() }
            let existed = FileManager.default.fileExists(atPath: keyFile)
            return (try SecretSealer.load(path: keyFile), !existed)
        }
        // A server in loopback development mode may post to loopback (a receiver on the same host).
        let notifier = Notifier(
            store: store, settings: configuration.notifications, clock: clock, logger: logger, work: work,
            allowLoopback: isLoopback, sealer: sealer)
        parts.add(
            ServerPart(
                "webhook outbox", work: { await notifier.dispatcher.run() },
                stop: { await notifier.dispatcher.shutdown() }))
        // A key that opens none of the store's secrets (a restore without it) would make every
        // webhook and slash command fail later, silently: refuse to start instead, and keep no
        // key that was made just now.
        let unreadable = try await notifier.unreadableSecrets(tenantIDs: Array(runtimes.keys))
        if unreadable > 0 {
            if keyMadeNow {
                try? await NIOThreadPool.singleton.runIfActive { try FileManager.default.removeItem(atPath: keyFile) }
            }
            throw ServerStartError.secretsKeyMismatch(keyFile: keyFile, unreadable: unreadable, madeNow: keyMadeNow)
        }
        try await notifier.load(tenantIDs: Array(runtimes.keys))
        for tenant in runtimes.values {
            tenant.restoreNotices(
                try await store.publishedNotices(tenantID: tenant.id, limit: TenantRuntime.keptNotices))
        }

        let core = ServerCore(
            configuration: configuration, defaultTenant: defaultTenant, clock: clock, logger: logger, tenants: runtimes,
            tokens: tokens, store: store, metrics: http?.metrics?.counters, httpPort: httpChannel?.localAddress?.port,
            notifications: notifier, work: work, resolvedWeeks: resolvedWeeks,
            singleSignOn: SingleSignOn(transport: notifier.identityTransport, sealer: sealer))
        let listener = ProtocolConnections(
            core: core, tls: tls, loops: loops,
            isLoopback: isLoopback && !configuration.noDevelopmentMode)
        parts.add(ServerPart("change queues", stop: { await core.mutations.finish() }))
        notifier.dispatcher.onPublished { [weak core] tenantID, notices in
            core?.tenant(tenantID)?.publishNotices(notices)
        }
        if dataDirectory.deliveriesPaused {
            notifier.dispatcher.setPaused(true)
            logger.warning(
                """
                webhook deliveries are paused: this data directory was restored from a backup, and its copy must not send \
                the webhooks the original sent. Once this is the server in use: roster-server deliveries resume --data-dir \
                \(configuration.dataDirectory), then SIGHUP (systemctl reload) or a restart
                """)
        }
        for sweeper in listener.sweepers { sweeper.loop.execute { sweeper.start() } }
        parts.add(
            ServerPart(
                "liveness sweepers",
                stop: {
                    for sweeper in listener.sweepers { try? await sweeper.loop.submit { sweeper.stop() }.get() }
                }))
        for tenant in runtimes.values { tenant.startOnDutyTracking() }
        parts.add(
            ServerPart("on-duty tracking", stop: { for tenant in core.tenants.values { tenant.stopOnDutyTracking() } }))

        var demo: DemoRoster?
        if configuration.demo, let tenant = runtimes[ServerConfiguration.demoTenant] {
            demo = DemoRoster(tenant: tenant, core: core)
            try await demo?.seedIfEmpty()
        }
        // The tenants' zones' tz files, read here off the cooperative pool: a chat post or a
        // feed labelled later, in an async context, reads none (a zone added later is read on
        // its first label).
        let zones = Set(core.tenants.values.flatMap { $0.view.state.schedules.values.map(\.zone) })
        try? await NIOThreadPool.singleton.runIfActive { ZoneAbbreviations.preload(zones) }
        running.withLockedValue {
            $0 = Running(listener: listener, notifier: notifier, channel: channel, http: httpChannel)
        }
        http?.serving(core, listener: listener, store: store)
        pending.withLockedValue { $0 = listener }
        try await channel.setOption(.autoRead, value: true).get()
        parts.add(connections(listener, channel: channel, http: httpChannel))
        startedFully.withLockedValue { $0 = true }
        for part in periodicParts(listener: listener, store: store, demo: demo) { parts.add(part) }

        let address = channel.localAddress?.text ?? "?"
        logger.info(
            "listening on \(address)\(tls == nil ? "" : " (TLS)")", metadata: ["tenants": "\(runtimes.keys.sorted())"])
        if isLoopback && configuration.noDevelopmentMode {
            logger.notice("loopback listener with development mode off: every client needs a token")
        } else if isLoopback {
            logger.notice(
                """
                loopback listener: \(tls == nil ? "plaintext and " : "")anonymous reads are allowed (development mode); \
                changes need an admin token (\(dataDirectory.adminToken) if this node started the store, \
                or one from roster-server token create)
                """)
        }
        SystemdNotify.send("READY=1\nSTATUS=listening on \(address)")
    }

    private func openStore(_ dataDirectory: DataDirectory) async throws -> any RosterStore {
        if let givenStore { return givenStore }
        guard let location = configuration.store else { return try await dataDirectory.openStore() }
        // The data directory still holds the TLS files and the first admin token.
        try await NIOThreadPool.singleton.runIfActive { try dataDirectory.create() }
        let store = try await location.open(with: configuration.storeDrivers)
        logger.info("store \(location)")
        return store
    }

    /// The HTTP listener, up before the tenants load, so that /livez answers and /readyz says
    /// "starting"; nil without one.
    private func bindHTTP(tls: TLSContext?, parts: inout StartedParts) async throws -> (any Channel)? {
        guard let http, let address = configuration.httpListen else { return nil }
        let channel = try await HTTPListener.bind(
            address, group: group, side: http, tls: tls, limits: configuration.limits)
        parts.add(ServerPart("HTTP socket", stop: { try? await channel.close() }))
        let loopback = channel.localAddress.map(ServerConfiguration.isLoopback) ?? false
        guard tls != nil || loopback else { throw ServerStartError.insecureListener(host: address.host) }
        http.isLoopback = loopback
        http.developmentMode = loopback && !configuration.noDevelopmentMode
        let scheme = tls == nil ? "http" : "https"
        let webApp = channel.localAddress.map { "\(scheme)://\($0.text)/" } ?? "?"
        logger.info(
            "HTTP on \(channel.localAddress?.text ?? "?") (health, metrics, /v1; docs/HTTP.md); the web app: \(webApp)")
        return channel
    }

    /// Every stored tenant and the one an empty Hello selects; the default tenant (and with
    /// `--demo` the demo's) is created when missing: a first start makes `default`, named
    /// Default (`demo`, named after the demo company, with `--demo`).
    private func loadTenants(_ store: any RosterStore) async throws -> (tenants: [StoredTenant], defaultTenant: String)
    {
        let stored = try await store.loadTenants()
        let ids = stored.map(\.state.tenant.id)
        let defaultTenant = ServerConfiguration.defaultTenant(
            configured: configuration.defaultTenant, demo: configuration.demo, stored: ids)
        var missing = ids.contains(defaultTenant) ? [] : [defaultTenant]
        if configuration.demo, !ids.contains(ServerConfiguration.demoTenant),
            defaultTenant != ServerConfiguration.demoTenant
        {
            missing.append(ServerConfiguration.demoTenant)
        }
        guard !missing.isEmpty else { return (stored, defaultTenant) }
        for id in missing {
            let name =
                switch id {
                case ServerConfiguration.demoTenant where configuration.demo: DemoRoster.tenantName
                case ServerConfiguration.firstTenant: "Default"
                default: id
                }
            do {
                try await store.createTenant(Tenant(id: id, name: name), epoch: UInt64.random(in: 1...UInt64.max))
                logger.info("created tenant \(id)")
            } catch {
                // Another node sharing the store may have created it at the same moment.
                guard try await store.tenantIDs().contains(id) else { throw error }
            }
        }
        return (try await store.loadTenants(), defaultTenant)
    }

    /// The clients' side of a shutdown: no new connections, GoingAway to every open one (each
    /// with its own retry delay within the grace period, so they do not all reconnect to the
    /// next server at once), the grace period, then closed.
    private func connections(_ listener: ProtocolConnections, channel: any Channel, http httpChannel: (any Channel)?)
        -> ServerPart
    {
        let grace = configuration.limits.shutdownGrace.milliseconds
        let (http, logger) = (self.http, self.logger)
        return ServerPart(
            "connections",
            stop: {
                let children = listener.connections
                SystemdNotify.send("STOPPING=1")
                http?.stopping()
                logger.info("shutting down: GoingAway to \(children.count) connections, grace \(grace) ms")
                try? await channel.close()
                try? await httpChannel?.close()
                for channel in children {
                    let retryAfter = UInt32.random(in: UInt32(grace)...UInt32(grace * 3))
                    channel.pipeline.fireUserInboundEventTriggered(
                        GoingAwayEvent(reason: "server shutting down", retryAfterMillis: retryAfter))
                }
                if !children.isEmpty { try? await Task.sleep(for: .milliseconds(grace)) }
                for channel in children { try? await channel.close() }
            })
    }

    /// The stored tokens; at first start, also an admin token for the default tenant, written to
    /// DATA_DIR/admin.token (mode 0600) for `roster-client --token-file`.
    private func initialTokens(store: any RosterStore, dataDirectory: DataDirectory, tenant: String) async throws
        -> [StoredToken]
    {
        let existing = try await store.loadTokens()
        guard existing.isEmpty else { return existing }
        let (text, token) = AccessToken.issue(
            tenantID: tenant, role: .admin, label: "initial admin token",
            now: clock.now())
        try await store.insertToken(token)
        try await store.appendAudit(
            tenantID: token.tenantID, AuditLog.token(AuditLog.Kind.tokenCreated, token, at: clock.now()))
        let path = dataDirectory.adminToken
        try await NIOThreadPool.singleton.runIfActive { try PrivateFile.write(text + "\n", to: path) }
        logger.notice("wrote an admin token for tenant \(tenant) to \(path)")
        return [token]
    }

    /// Binds with autoRead off: connections wait in the kernel's backlog until `pending` is set.
    private func bind(_ pending: NIOLockedValueBox<ProtocolConnections?>) async throws -> any Channel {
        let limits = configuration.limits
        do {
            return try await bootstrap(pending, limits: limits).bind(
                host: configuration.listen.host, port: configuration.listen.port
            ).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerStartError.addressInUse(configuration.listen.description)
        }
    }

    private func bootstrap(_ pending: NIOLockedValueBox<ProtocolConnections?>, limits: ServerConfiguration.Limits)
        -> ServerBootstrap
    {
        ServerBootstrap(group: group)
            .serverChannelOption(.autoRead, value: false)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            // NIO keeps each connection's last receive buffer for its next read, so the first
            // size is what every idle subscriber holds: 64 bytes fit a Hello and a Subscribe (a
            // larger read grows the next buffer at once).
            .childChannelOption(
                .recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 64, maximum: 65536)
            )
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: limits.outboundLowWaterMark, high: limits.outboundHighWaterMark)
            )
            .childChannelInitializer { channel in
                guard let listener = pending.withLockedValue({ $0 }) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                return channel.eventLoop.makeCompletedFuture { try listener.configurePipeline(of: channel) }
            }
    }
}
