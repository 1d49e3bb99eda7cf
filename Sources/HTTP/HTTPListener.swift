import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTLS

/// What the HTTP listener knows of its server: nothing while starting (health says so), then
/// the server's core and its protocol listener (whose TLS, replaced on SIGHUP, this listener
/// shares); its metrics from the first moment.
package final class HTTPSide: Sendable {
    package enum Readiness: Equatable { case ready, notReady(String) }

    package let metrics: MetricsRegistry?
    private let state = NIOLockedValueBox<(core: ServerCore?, listener: ProtocolConnections?, store: (any RosterStore)?, stopping: Bool)>(
        (nil, nil, nil, false))
    private let loopback = NIOLockedValueBox(false)

    /// The web app's pages, asked for what no API route takes; nil: none.
    package let pages: (any HTTPPages)?

    package init(metrics: MetricsRegistry?, pages: (any HTTPPages)? = nil) {
        self.metrics = metrics
        self.pages = pages
    }

    /// What a request's Authorization header says: a usable token's tenant, a refused token, or
    /// nothing (nil).
    package enum Credential: Equatable { case token(tenantID: String, tokenID: String?), refused }

    /// Whose data a reading request (the event stream) gets, by the protocol's rule: a signed-in
    /// session's or a bearer token's tenant anywhere; without, the default tenant on loopback.
    package enum Reader {
        /// The tenant, and who reads it (`StreamAdmission.principal`).
        case tenant(TenantRuntime, principal: String)
        /// The tenants are not loaded yet, or the server is stopping.
        case starting
        /// A token was sent and refused.
        case refused
        /// No token, off loopback.
        case signInNeeded
    }

    package func reader(_ request: HTTPAPI.Request) -> Reader {
        guard let core = context else { return .starting }
        if let (tenant, tokenID) = pages?.sessionTenant(request, side: self) {
            return .tenant(tenant, principal: StreamAdmission.principal(tokenID: tokenID))
        }
        switch credential(request) {
        case .token(let tenantID, let tokenID)?:
            return core.tenant(tenantID).map { .tenant($0, principal: StreamAdmission.principal(tokenID: tokenID)) } ?? .refused
        case .refused?: return .refused
        case nil:
            guard isLoopback else { return .signInNeeded }
            return core.tenant(core.defaultTenant).map { .tenant($0, principal: StreamAdmission.principal(tokenID: nil)) } ?? .starting
        }
    }

    /// The open event streams (`GET /v1/events`), closed when the server stops.
    private let streams = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    /// Who holds how many of them (set from the listener's limits when it binds).
    private let admission = NIOLockedValueBox(StreamAdmission(limits: HTTPSide.streamLimits(ServerConfiguration.Limits())))

    static func streamLimits(_ limits: ServerConfiguration.Limits) -> StreamAdmission.Limits {
        .init(perPrincipal: limits.httpMaxStreamsPerClient, perAddress: limits.httpMaxStreamsPerClient,
              total: StreamAdmission.Limits.total(forConnections: limits.httpMaxConnections))
    }

    /// The listener's limits, before its first connection.
    func limitStreams(_ limits: ServerConfiguration.Limits) {
        admission.withLockedValue { $0 = StreamAdmission(limits: Self.streamLimits(limits)) }
    }

    func admitStream(principal: String, address: String) -> Result<StreamAdmission.Ticket, StreamAdmission.Refusal> {
        admission.withLockedValue { $0.admit(principal: principal, address: address) }
    }

    func releaseStream(_ ticket: StreamAdmission.Ticket) { admission.withLockedValue { $0.release(ticket) } }

    func streamOpened(_ channel: any Channel) { streams.withLockedValue { $0[ObjectIdentifier(channel)] = channel } }
    func streamClosed(_ channel: any Channel) { _ = streams.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) } }

    package func credential(_ request: HTTPAPI.Request) -> Credential? {
        guard let header = request.authorization, header.lowercased().hasPrefix("bearer ") else { return nil }
        guard let core = context, let credential = core.tokens.authenticate(String(header.dropFirst(7)), now: core.clock.now()) else {
            metrics?.counters.authenticationFailed()
            return .refused
        }
        return .token(tenantID: credential.tenantID, tokenID: credential.tokenID)
    }

    /// Whether the listener is bound to a loopback address (development: every metric is shown).
    package var isLoopback: Bool {
        get { loopback.withLockedValue { $0 } }
        set { loopback.withLockedValue { $0 = newValue } }
    }

    /// Which tenant-labelled series a scrape gets.
    enum ReadingScope: Sendable {
        case all, tenant(String), serverOnly
    }

    /// Coverage gaps per tenant, walked at most once a minute or revision (a minutely rotation
    /// has 10,080 handoffs in a week).
    private let gaps = NIOLockedValueBox<[String: (revision: UInt64, at: UnixMillis, count: Int)]>([:])

    private func coverageGaps(_ tenant: TenantRuntime, revision: UInt64, now: UnixMillis) -> Int {
        if let cached = gaps.withLockedValue({ $0[tenant.id] }), cached.revision == revision, now - cached.at < 60_000 {
            return cached.count
        }
        let count = tenant.schedulesWithCoverageGap(now: now)
        gaps.withLockedValue { $0[tenant.id] = (revision, now, count) }
        return count
    }

    package var context: ServerCore? { state.withLockedValue { $0.stopping ? nil : $0.core } }

    /// The TLS new connections get: the protocol listener's current one.
    var currentTLS: TLSContext? { state.withLockedValue { $0.listener?.tls } }

    package func serving(_ core: ServerCore, listener: ProtocolConnections?, store: any RosterStore) {
        state.withLockedValue { $0.core = core; $0.listener = listener; $0.store = store }
    }
    /// The server stops: not ready any more, and the event streams close (their pages reconnect
    /// to whichever server answers next).
    package func stopping() {
        state.withLockedValue { $0.stopping = true }
        for channel in streams.withLockedValue({ Array($0.values) }) { channel.close(promise: nil) }
    }

    /// Ready: every tenant loaded and the store takes writes (a write lock taken and given back).
    package func readiness() async -> Readiness {
        let (context, store, stopping) = state.withLockedValue { ($0.core, $0.store, $0.stopping) }
        if stopping { return .notReady("stopping") }
        guard context != nil, let store else { return .notReady("starting: the tenants are not loaded yet") }
        do {
            try await store.checkWritable()
        } catch {
            return .notReady("the store does not take writes: \(error)")
        }
        return .ready
    }

    /// The gauges read at scrape time: each tenant's revision, and per schedule the people on
    /// duty and the seconds until the next handoff.
    func readings(_ scope: ReadingScope = .all) -> [MetricsRegistry.Reading] {
        guard let context else { return [] }
        let now = context.clock.now()
        var readings: [MetricsRegistry.Reading] = []
        for tenant in context.tenants.values.sorted(by: { $0.id < $1.id }) {
            switch scope {
            case .all: break
            case .tenant(let id): guard tenant.id == id else { continue }
            case .serverOnly: continue
            }
            let view = tenant.view
            readings.append(.init(name: "roster_revision", help: "The tenant's current revision.",
                                  labels: [("tenant", tenant.id)], value: Double(view.revision)))
            for schedule in view.state.sortedSchedules {
                guard let index = view.indexes[schedule.id] else { continue }
                let lookup = index.lookup(at: now)
                let labels = [("tenant", tenant.id), ("schedule", schedule.name)]
                readings.append(.init(name: "roster_on_duty_people", help: "People on duty on the schedule now.",
                                      labels: labels, value: Double(lookup.current.count)))
                if let until = lookup.until {
                    readings.append(.init(name: "roster_next_handoff_seconds", help: "Seconds until the schedule's on-duty set next changes.",
                                          labels: labels, value: Double(until - now) / 1000))
                }
            }
            let quality = context.scheduleQuality.withLockedValue { $0[tenant.id]?.reports } ?? [:]
            for schedule in view.state.sortedSchedules {
                guard let measured = quality[schedule.id] else { continue }
                let labels = [("tenant", tenant.id), ("schedule", schedule.name)]
                readings.append(.init(name: "roster_schedule_coverage_percent", help: "Covered share of the last 28 days (report quality; measured at most an hour ago).",
                                      labels: labels, value: measured.coverage))
                readings.append(.init(name: "roster_schedule_gaps", help: "Stretches with nobody on duty in the last 28 days.",
                                      labels: labels, value: Double(measured.gaps.count)))
                readings.append(.init(name: "roster_schedule_equity", help: "100 - 100*stddev/mean of participants' hours, last 28 days.",
                                      labels: labels, value: measured.equity))
                readings.append(.init(name: "roster_schedule_balance", help: "Grafana OnCall's pairwise min/max balance, last 28 days.",
                                      labels: labels, value: measured.balance))
            }
            readings.append(.init(name: "roster_schedules_with_coverage_gap",
                                  help: "Schedules with nobody on duty at some moment of the next 7 days.",
                                  labels: [("tenant", tenant.id)], value: Double(coverageGaps(tenant, revision: view.revision, now: now))))
        }
        return readings
    }
}

/// The HTTP listener (`--http-listen`): NIOHTTP1 behind the same TLS as the protocol port when
/// not on loopback. Each request is answered by `HTTPAPI`, its heavy work on the tenant work
/// pool. Bounded like the protocol port: at most `httpMaxConnections` open (then 503 and close),
/// a deadline for the TLS handshake and each request's head and body (`httpHeaderTimeout`) and
/// for the time between requests (`httpIdleTimeout`), a cap on body bytes; HTTP/1.1 pipelining
/// is answered one request at a time (NIO's pipelining handler stops reading meanwhile).
package enum HTTPListener {
    static func waterMark(_ limits: ServerConfiguration.Limits) -> ChannelOptions.Types.WriteBufferWaterMark {
        let high = min(limits.outboundHighWaterMark, 64 << 10)
        return .init(low: high / 2, high: high)
    }

    package static func bind(_ address: HostPort, group: any EventLoopGroup, side: HTTPSide, tls: TLSContext?,
                             limits: ServerConfiguration.Limits) async throws -> any Channel {
        let api = HTTPAPI(side: side)
        side.limitStreams(limits)
        let open = NIOLockedValueBox(0)
        let timing = HTTPHandler.Timing(header: TimeAmount(limits.httpHeaderTimeout), idle: TimeAmount(limits.httpIdleTimeout),
                                        maxBodyBytes: limits.httpMaxBodyBytes)
        do {
            return try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // A fixed kernel send buffer per connection (the kernel doubles it), not one that
                // grows to 4 MiB: a reader that stops reading holds little, and is seen soon.
                .childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(limits.httpSendBufferBytes))
                // What NIO queues past the kernel before a connection counts as not reading (an
                // event stream then gets nothing more): 64 KiB, or less when the protocol's
                // outbound buffer is set smaller.
                .childChannelOption(.writeBufferWaterMark, value: HTTPListener.waterMark(limits))
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let admitted = open.withLockedValue { count in
                            guard count < limits.httpMaxConnections else { return false }
                            count += 1
                            return true
                        }
                        guard admitted else {
                            side.metrics?.counters.httpRefused()
                            try channel.pipeline.syncOperations.addHandler(HTTPRefusingHandler(plaintext: tls == nil))
                            return
                        }
                        channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
                        // The server's current certificate once it serves (SIGHUP may replace it).
                        if let tls = tls.map({ side.currentTLS ?? $0 }) {
                            try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls))
                        }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(HTTPHandler(api: api, timing: timing, loop: channel.eventLoop))
                    }
                }
                .bind(host: address.host, port: address.port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerStartError.addressInUse(address.description + " (HTTP)")
        }
    }
}

/// What an HTTP connection past the cap gets: on plaintext a 503 it can read, then the close.
final class HTTPRefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let plaintext: Bool

    init(plaintext: Bool) { self.plaintext = plaintext }

    func channelActive(context: ChannelHandlerContext) {
        guard plaintext else { return context.close(promise: nil) }
        let body = "too many connections; try again shortly\n"
        let text = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// One HTTP connection: gathers a request, has `HTTPAPI` answer it, writes the reply. Its one
/// timer is the deadline of what it waits for: the first request's head (TLS handshake included)
/// or the next one's (idle), or the rest of a request whose head came; a request being answered
/// has none.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Timing: Sendable {
        var header: TimeAmount
        var idle: TimeAmount
        var maxBodyBytes: Int
    }

    let api: HTTPAPI
    let timing: Timing
    let eventLoop: any EventLoop
    private var head: HTTPRequestHead?
    /// The request's body so far (a form the web app posts); at most `timing.maxBodyBytes`.
    private var body: [UInt8] = []
    private var deadline: Scheduled<Void>?
    /// Set while the connection carries an event stream (HTTPHandler+EventStream.swift).
    var stream: EventStream?
    /// The stream's place in `StreamAdmission`, from its admission to the connection's end.
    var streamTicket: StreamAdmission.Ticket?
    var context: ChannelHandlerContext?

    init(api: HTTPAPI, timing: Timing, loop: any EventLoop) {
        self.api = api
        self.timing = timing
        eventLoop = loop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(timing.header, context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endStream(context: context)
        releaseStreamTicket()
        self.context = nil
    }

    func releaseStreamTicket() {
        guard let ticket = streamTicket else { return }
        streamTicket = nil
        api.side.releaseStream(ticket)
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(timing.header, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        endStream(context: context)
        releaseStreamTicket()
        context.fireChannelInactive()
    }

    func arm(_ time: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: time) { context.close(promise: nil) }
    }

    func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A stream's connection carries nothing more from the client: another request ends it.
        if stream != nil { return context.close(promise: nil) }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            arm(timing.header, context: context)  // the rest of the request comes within it
        case .body(var part):
            guard body.count + part.readableBytes <= timing.maxBodyBytes else {
                // Too big to take: say so and close (the rest is not read).
                let reply = HTTPAPI.problem(413, "the request body is over \(timing.maxBodyBytes) bytes")
                if let head { self.head = nil; write(reply, for: head, context: context, close: true) } else { context.close(promise: nil) }
                return
            }
            body += part.readBytes(length: part.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            deadline?.cancel()
            deadline = nil
            var request = HTTPAPI.Request(head)
            request.body = body
            request.peer = context.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? ""
            request.peerAddress = context.channel.remoteAddress?.ipAddress ?? ""
            request.loop = context.eventLoop
            body = []
            let received = request
            let api = self.api, loop = context.eventLoop
            let promise = loop.makePromise(of: HTTPAPI.Reply.self)
            promise.completeWithTask { await api.respond(to: received) }
            promise.futureResult.assumeIsolated().whenSuccess { reply in
                self.write(reply, for: head, context: context)
            }
        }
    }

    private func write(_ reply: HTTPAPI.Reply, for request: HTTPRequestHead, context: ChannelHandlerContext, close: Bool = false) {
        if let (tenant, ticket) = reply.eventStream {
            // Held until the connection ends (released at once if it already has).
            streamTicket = ticket
            guard context.channel.isActive else { return releaseStreamTicket() }
            return startStream(tenant, for: request, context: context)
        }
        var headers = HTTPHeaders([("Content-Type", reply.contentType), ("Content-Length", "\(reply.body.count)"),
                                   ("Cache-Control", "no-store")])
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        let keepAlive = request.isKeepAlive && !close
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: request.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
        }
        let done = context.writeAndFlushPromise()
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
        if keepAlive {
            // The reply must be taken within the idle time too: a peer that never reads is closed.
            arm(timing.idle, context: context)
        } else {
            done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}

extension ChannelHandlerContext {
    fileprivate func writeAndFlushPromise() -> EventLoopPromise<Void> { eventLoop.makePromise() }
}

extension TenantRuntime {
    /// How many schedules have nobody on duty at some moment of the next 7 days. The default
    /// schedule counts only when it has one-off shifts (a tenant that plans with schedules
    /// leaves it empty).
    func schedulesWithCoverageGap(now: UnixMillis) -> Int {
        let view = self.view
        let week: UnixMillis = 7 * 86_400_000
        let defaultInUse = view.state.shifts.values.contains { $0.scheduleID.isEmpty || $0.scheduleID == ScheduleDefinition.defaultID }
        return view.indexes.filter { id, index in
            (id != ScheduleDefinition.defaultID || defaultInUse) && index.firstGap(from: now, to: now + week) != nil
        }.count
    }
}
