import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterHTTP
import RosterNotifications
import RosterServerCore
import RosterStore
import RosterTLS
import RosterWeb
import ServiceLifecycle

/// The Roster server: loads every tenant from the store, listens for clients, pushes on-duty
/// changes at shift boundaries and after admin changes, and shuts down gracefully.
///
/// A swift-service-lifecycle `Service`: run it in a `ServiceGroup`, whose graceful shutdown
/// (SIGTERM, SIGINT) ends it. Its own parts (store, work pool, webhook outbox, on-duty
/// tracking, listeners, periodic work) are services of a group inside it, started in order and
/// stopped in reverse (`ServerStart.swift` lists them). `listening` says where it listens once
/// it has started.
public final class RosterServer: Service, Sendable {
    let configuration: ServerConfiguration
    let group: any EventLoopGroup
    private let ownsGroup: Bool
    let logger: Logger
    let clock: any ServerClock
    /// The store given to `init`; nil opens SQLite in the data directory at start.
    let givenStore: (any RosterStore)?
    /// Why the connection caps are lower than configured (the open-file limit), said at start:
    /// a warning when the operator set a cap the limit cannot hold, a note when it was the default.
    let fittingNote: (text: String, warn: Bool)?
    /// What a running server's reloads and counters read; nil before start and after stop.
    let running = NIOLockedValueBox<Running?>(nil)
    private let startOutcome = StartOutcome()

    struct Running: Sendable {
        var listener: ProtocolConnections
        var notifier: Notifier
        var channel: any Channel
        var http: (any Channel)?
    }

    /// The HTTP side: its metrics are counted from the start; nil without `httpListen`.
    let http: HTTPSide?

    /// The HTTP side, for tests of what it reads.
    var httpSideForTests: HTTPSide? { http }

    /// The webhook outbox's dispatcher while running, for tests that wait for its rounds.
    package var outboxForTests: OutboxDispatcher? { running.withLockedValue { $0?.notifier.dispatcher } }

    /// - Parameters:
    ///   - clock: the wall clock; tests pass a `ManualClock`.
    ///   - store: storage; defaults to SQLite at `DATA_DIR/roster.sqlite`.
    ///
    /// Nothing is touched on disk before `run` has bound the listener.
    public init(
        configuration: ServerConfiguration, clock: (any ServerClock)? = nil, store: (any RosterStore)? = nil,
        group: (any EventLoopGroup)? = nil, logger: Logger = Logger(label: "roster.server")
    ) {
        var configuration = configuration
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 1 << 40,
            let fitted = configuration.limits.fitted(toOpenFiles: Int(clamping: limit.rlim_cur))
        {
            let defaults = ServerConfiguration.Limits()
            let defaultCaps =
                configuration.limits.maxConnections == defaults.maxConnections
                && configuration.limits.httpMaxConnections == defaults.httpMaxConnections
            configuration.limits = fitted.limits
            fittingNote = (fitted.note, !defaultCaps)
        } else {
            fittingNote = nil
        }
        self.configuration = configuration
        self.ownsGroup = group == nil
        self.group = group ?? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        self.logger = logger
        self.clock = clock ?? SystemClock(loop: self.group.next())
        self.givenStore = store
        http = configuration.httpListen == nil ? nil : HTTPSide(metrics: MetricsRegistry(), pages: WebApp())
    }

    /// Where the server listens, once `run` has started it (port 0 picks a port); throws what
    /// kept it from starting.
    public var listening: ListeningAddresses {
        get async throws { try await startOutcome.value }
    }

    /// The bound port while running (useful with port 0); nil otherwise.
    public var port: Int? { running.withLockedValue { $0?.channel.localAddress?.port } }

    /// The HTTP listener's port while running; nil otherwise or without one.
    public var httpPort: Int? { running.withLockedValue { $0?.http?.localAddress?.port } }

    /// Starts the server's parts, runs them until the service group shuts down gracefully (or
    /// the task is cancelled), then stops them in reverse order: GoingAway to every client,
    /// the grace period, the work pool, the store. An error in a part ends the run with that
    /// error, after the same shutdown. A server that cannot start throws why, from here and
    /// from `listening`.
    public func run() async throws {
        let parts: [ServerPart]
        do {
            parts = try await start()
        } catch {
            startOutcome.settle(.failure(error))
            await releaseThreads()
            throw error
        }
        let addresses = running.withLockedValue { running in
            ListeningAddresses(
                port: running?.channel.localAddress?.port ?? 0, httpPort: running?.http?.localAddress?.port)
        }
        startOutcome.settle(.success(addresses))
        var groupLogger = logger
        groupLogger.logLevel = max(logger.logLevel, .notice)  // its own start and stop lines are noise here
        let services = ServiceGroup(
            configuration: .init(
                services: parts.map {
                    .init(
                        service: $0, successTerminationBehavior: .ignore,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                logger: groupLogger))
        var failure: (any Error)?
        do { try await services.run() } catch { failure = error }
        running.withLockedValue { $0 = nil }
        await releaseThreads()
        if let failure {
            logger.error("stopped by: \(failure)")
            throw failure
        }
        logger.info("stopped")
    }

    /// The clock's watchdog, then the event loops this server made.
    private func releaseThreads() async {
        // Nothing may schedule on the loops once they are gone: stop the clock's watchdog first.
        if let clock = clock as? SystemClock { clock.stop() }
        if ownsGroup { try? await group.shutdownGracefully() }
    }

    /// One duty-record round now, as the hourly one does (`DutyRecord`): tests call it after
    /// moving their clock.
    public func recordDuty() async {
        guard let core = running.withLockedValue({ $0?.listener.core }) else { return }
        await core.recordDuty()
    }

    /// SIGHUP: webhook deliveries resume once `deliveries resume` has removed the marker.
    public func reloadDeliveryPause() {
        guard let dispatcher = running.withLockedValue({ $0?.notifier.dispatcher }), dispatcher.isPaused,
            !DataDirectory(configuration.dataDirectory).deliveriesPaused
        else { return }
        dispatcher.setPaused(false)
        logger.notice("webhook deliveries resumed")
    }

    /// SIGHUP: reads the certificate and key again (the files given, or the generated ones,
    /// re-issued if due). New connections get the new certificate; open connections keep
    /// theirs and are not dropped. A file that does not load leaves the old certificate in
    /// place and throws. Does nothing without TLS.
    public func reloadCertificates() async throws {
        guard let settings = configuration.tls, let listener = running.withLockedValue({ $0?.listener }) else { return }
        let dataDirectory = DataDirectory(configuration.dataDirectory)
        let host = configuration.listen.host, logger = self.logger
        let fresh = try await NIOThreadPool.singleton.runIfActive {
            try ServerTLS.makeContext(settings, dataDirectory: dataDirectory, host: host, logger: logger)
        }
        listener.replaceTLS(fresh)
        logger.notice("reloaded the TLS certificate: new connections get it, open ones keep theirs")
    }

    /// Connections accepted since start.
    public var acceptedConnections: Int {
        running.withLockedValue { $0?.listener.acceptedConnections.withLockedValue { $0 } } ?? 0
    }

    /// Bytes each open connection has queued for writing and not yet handed to the kernel: what
    /// a slow consumer costs the server (bounded by the outbound high-water mark plus one frame).
    public func queuedOutboundBytes() async -> [Int] {
        guard let listener = running.withLockedValue({ $0?.listener }) else { return [] }
        var queued: [Int] = []
        for channel in listener.connections {
            if let bytes = try? await channel.getOption(.bufferedWritableBytes).get() { queued.append(bytes) }
        }
        return queued
    }
}
