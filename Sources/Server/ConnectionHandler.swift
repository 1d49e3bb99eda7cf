import Logging
import NIOCore
import RosterDomain
import RosterProtocol

/// Told to every connection when the server shuts down.
struct GoingAwayEvent: Sendable {
    var reason: String
    var retryAfterMillis: UInt32
}

/// One client connection: handshake, request dispatch, subscriptions, liveness and the
/// slow-consumer policy. Confined to the channel's event loop.
///
/// States: awaiting Hello (4 KiB frame limit, Hello deadline) → active (negotiated limit) →
/// closing (after an error, GoingAway or close). Protocol errors are answered with an Error
/// frame and the connection is closed; request errors are answered and the connection stays.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private enum State {
        case awaitingHello
        case active(Session)
        case closing
    }

    private struct Session {
        var tenant: TenantRuntime
        var credential: Credential
    }

    private let server: ServerContext
    private let frameLimit: FrameSizeLimit
    /// Per-connection log metadata is built when something is logged (rarely), not held by every
    /// connection: an idle subscriber should cost as little memory as possible.
    private var logger: Logger { server.logger }
    private var tenantID = ""
    private var logMetadata: Logger.Metadata {
        ["peer": "\(context?.channel.remoteAddress.map { "\($0)" } ?? "?")", "tenant": "\(tenantID)"]
    }
    private var state = State.awaitingHello
    private var context: ChannelHandlerContext?
    private(set) var eventLoop: any EventLoop

    private var helloDeadline: Scheduled<Void>?
    private var liveness: LivenessMonitor
    private var inFlight = 0
    private var subscriptions: [UInt64: Subscription] = [:]
    private var nextSubscriptionID: UInt64 = 1

    /// Set while pushes were written and not yet flushed.
    private var flushPending = false
    /// The latest on-duty frame per subscription that could not be written (slow consumer).
    private var coalescedOnDuty: [UInt64: ByteBuffer] = [:]
    private var writeStallDeadline: Scheduled<Void>?

    init(server: ServerContext, frameLimit: FrameSizeLimit, channel: any Channel) {
        self.server = server
        self.frameLimit = frameLimit
        eventLoop = channel.eventLoop
        liveness = LivenessMonitor(intervalMillis: server.configuration.limits.pingIntervalMillis)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The context holds this handler and this handler holds the context: break the cycle, or
    /// every closed connection would keep both alive.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        let limits = server.configuration.limits
        helloDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(limits.helloTimeoutMillis)) {
            self.fail(WireError(.deadlineExceeded, "no Hello within \(limits.helloTimeoutMillis) ms"))
        }
        server.sweeper(for: context.eventLoop).add(self)
        context.fireChannelActive()
    }

    /// Called by this loop's `LivenessSweeper` every half interval (rule: `LivenessMonitor`).
    /// Before Hello, the Hello deadline is what applies.
    func checkLiveness(now: NIODeadline) {
        guard case .active(let session) = state else { return }
        guard session.credential.isValid(at: server.clock.now()) else {
            fail(WireError(.unauthenticated, "the token has expired"))
            return
        }
        switch liveness.check(now: now) {
        case .none:
            break
        case .ping:
            send(.ping(.with { $0.nonce = UInt64(now.uptimeNanoseconds) }))
        case .close(let quiet):
            fail(WireError(.deadlineExceeded, "nothing received for \(quiet) ms"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        helloDeadline?.cancel()
        server.sweeper(for: context.eventLoop).remove(self)
        writeStallDeadline?.cancel()
        for subscription in subscriptions.values {
            subscription.tenant.fanout(on: context.eventLoop).remove(subscription)
        }
        subscriptions.removeAll()
        state = .closing
        server.connectionClosed(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .closing = state, error is ProtocolError {
            return  // lingering after an error frame: what the peer still sends is discarded
        }
        if let error = error as? ProtocolError {
            fail(WireError(error))
        } else {
            logger.debug("connection error: \(error)", metadata: logMetadata)
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let revoked = event as? CredentialRevokedEvent {
            if case .active(let session) = state, let id = session.credential.tokenID, revoked.tokenIDs.contains(id) {
                fail(WireError(.unauthenticated, "the token was revoked"))
            }
        } else if let goingAway = event as? GoingAwayEvent {
            send(.goingAway(.with {
                $0.reason = goingAway.reason
                $0.retryAfterMs = goingAway.retryAfterMillis
            }))
            state = .closing
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Answers with an Error frame, then closes once it is written.
    private func fail(_ error: WireError, requestID: UInt32 = 0) {
        guard let context, context.channel.isActive else { return }
        if case .closing = state {
            context.close(promise: nil)
            return
        }
        state = .closing
        logger.info("closing connection: \(error.body.message)",
                    metadata: logMetadata.merging(["code": "\(error.body.code)"]) { current, _ in current })
        var body = error.body
        body.requestID = requestID
        writeErrorAndLinger(body, requestID: requestID, context: context)
    }

    /// How long a closing connection keeps reading (and discarding) after its Error frame.
    static let lingerMillis: Int64 = 2_000

    /// Writes the Error frame, then closes gracefully: a lingering close, as nginx and Apache do.
    /// Closing a socket that still has unread input makes the kernel send a reset, which can
    /// destroy the Error frame before the peer reads it; so on plaintext the server half-closes
    /// (FIN after the frame), reads and discards until the peer closes, and closes fully after
    /// `lingerMillis` at the latest. Over TLS the handler's close_notify ends the stream instead.
    private func writeErrorAndLinger(_ body: Roster_V1_Error, requestID: UInt32, context: ChannelHandlerContext) {
        let isTLS = server.tls != nil
        context.writeAndFlush(wrapOutboundOut(RosterMessage.error(body).frame(requestID: requestID).encoded()))
            .assumeIsolated().whenComplete { _ in
                guard !isTLS else {
                    context.close(promise: nil)
                    return
                }
                let halfClosed = context.eventLoop.makePromise(of: Void.self)
                context.close(mode: .output, promise: halfClosed)
                halfClosed.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Self.lingerMillis)) {
                    context.close(promise: nil)
                }
            }
    }

    private func send(_ message: RosterMessage, requestID: UInt32 = 0) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(message.frame(requestID: requestID).encoded(allocator: context.channel.allocator)),
                              promise: nil)
    }

    private func sendError(_ error: WireError, requestID: UInt32) {
        var body = error.body
        body.requestID = requestID
        send(.error(body), requestID: requestID)
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .closing = state { return }  // lingering: discard
        let frame = unwrapInboundIn(data)
        liveness.received()
        let message: RosterMessage
        do {
            guard let decoded = try RosterMessage.decode(frame) else { return }  // unknown but ignorable
            message = decoded
        } catch {
            fail(WireError(error), requestID: frame.requestID)
            return
        }
        switch state {
        case .closing:
            return
        case .awaitingHello:
            guard case .hello(let hello) = message else {
                fail(WireError(.protocolViolation, "the first frame must be Hello, not \(message.type)"), requestID: frame.requestID)
                return
            }
            handshake(hello, requestID: frame.requestID)
        case .active(let session):
            // Id 0 is reserved for frames tied to no request: pushes, and liveness pings.
            if frame.requestID == 0, message.type != .ping, message.type != .pong {
                fail(WireError(.protocolViolation, "request id 0 is reserved for pushes and pings; number requests from 1"))
                return
            }
            dispatch(message, requestID: frame.requestID, session: session)
        }
    }

    private func handshake(_ hello: Roster_V1_Hello, requestID: UInt32) {
        helloDeadline?.cancel()
        let supported = WireProtocol.supportedVersions
        guard hello.minVersion <= hello.maxVersion, hello.maxVersion >= supported.lowerBound,
              hello.minVersion <= supported.upperBound else {
            fail(WireError(.unsupportedVersion,
                           "versions \(hello.minVersion)...\(hello.maxVersion) offered; this server speaks \(supported.lowerBound)...\(supported.upperBound)"),
                 requestID: requestID)
            return
        }
        let version = min(hello.maxVersion, supported.upperBound)
        guard let credential = authenticate(hello), let tenant = server.tenant(credential.tenantID) else {
            // One answer for every cause (unknown token, wrong secret, expired, revoked, other
            // tenant), and only after a delay, so that guessing learns nothing and goes slowly.
            state = .closing
            let delay = server.configuration.limits.authFailureDelayMillis
            logger.info("authentication failed", metadata: logMetadata)
            eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) {
                guard let context = self.context, context.channel.isActive else { return }
                var body = WireError(.unauthenticated, "authentication failed").body
                body.requestID = requestID
                self.writeErrorAndLinger(body, requestID: requestID, context: context)
            }
            return
        }
        let tenantID = credential.tenantID
        let role = credential.role.wire
        state = .active(Session(tenant: tenant, credential: credential))
        let limits = server.configuration.limits
        frameLimit.bytes = limits.maxFrameBytes
        self.tenantID = tenantID
        logger.debug("handshake done", metadata: logMetadata.merging(["client": "\(hello.clientName)", "role": "\(role)"]) { current, _ in current })
        let view = tenant.view
        send(.welcome(.with {
            $0.version = version
            $0.serverID = server.serverID
            $0.epoch = view.epoch
            $0.revision = view.revision
            $0.limits = .with {
                $0.maxFrameBytes = UInt32(limits.maxFrameBytes)
                $0.pingIntervalMs = UInt32(limits.pingIntervalMillis)
                $0.maxSubscriptions = UInt32(limits.maxSubscriptionsPerConnection)
                $0.maxInFlight = UInt32(limits.maxInFlightRequests)
            }
            $0.tenant = Roster_V1_Tenant(view.state.tenant)
            $0.role = role
        }), requestID: requestID)
    }

    /// A token decides tenant and role; with none, a loopback listener admits an anonymous reader.
    private func authenticate(_ hello: Roster_V1_Hello) -> Credential? {
        let now = server.clock.now()
        if hello.token.isEmpty {
            guard server.isLoopback else { return nil }
            return Credential(tokenID: nil, tenantID: hello.tenant.isEmpty ? server.configuration.defaultTenant : hello.tenant,
                              role: .reader)
        }
        guard let credential = server.tokens.authenticate(hello.token, now: now) else { return nil }
        // A token only ever opens its own tenant.
        guard hello.tenant.isEmpty || hello.tenant == credential.tenantID else { return nil }
        return credential
    }

    /// Checked before every event written to a subscriber, not only at subscribe time.
    private func mayReceiveEvents() -> Bool {
        guard case .active(let session) = state else { return false }
        if session.credential.expiresAt != nil && !session.credential.isValid(at: server.clock.now()) {
            fail(WireError(.unauthenticated, "the token has expired"))
            return false
        }
        return true
    }

    private func dispatch(_ message: RosterMessage, requestID: UInt32, session: Session) {
        switch message {
        case .ping(let ping):
            send(.pong(.with { $0.nonce = ping.nonce }), requestID: requestID)
        case .pong:
            break
        case .getOnDuty(let query) where !query.hasAtMs:
            // The hottest query: answered from the tenant's cached encoding.
            let body = session.tenant.onDutyNowBody(now: server.clock.now())
            context?.writeAndFlush(wrapOutboundOut(Frame(type: .onDuty, requestID: requestID, body: body).encoded()), promise: nil)
        case .getOnDuty, .listEmployees, .search, .getEmployee, .listShifts, .getSnapshot:
            switch Queries.answer(message, view: session.tenant.view, now: server.clock.now()) {
            case .success(let answer): send(answer, requestID: requestID)
            case .failure(let error): sendError(error, requestID: requestID)
            }
        case .subscribe(let request):
            // Authorization at subscribe time; `mayReceiveEvents` repeats it for every event.
            guard session.credential.isValid(at: server.clock.now()) else {
                fail(WireError(.unauthenticated, "the token has expired"), requestID: requestID)
                return
            }
            subscribe(request, requestID: requestID, tenant: session.tenant)
        case .unsubscribe(let request):
            guard let subscription = subscriptions.removeValue(forKey: request.subscriptionID) else {
                sendError(WireError(.notFound, "no subscription \(request.subscriptionID)"), requestID: requestID)
                return
            }
            subscription.tenant.fanout(on: eventLoop).remove(subscription)
            coalescedOnDuty[subscription.id] = nil
            send(.unsubscribed(.with { $0.subscriptionID = request.subscriptionID }), requestID: requestID)
        case .upsertEmployee, .deleteEmployee, .addShift, .deleteShift, .setMotd, .importData:
            guard session.credential.role == .admin else {
                sendError(WireError(.permissionDenied, "changing the plan needs an admin token"), requestID: requestID)
                return
            }
            guard inFlight < server.configuration.limits.maxInFlightRequests else {
                sendError(WireError(.resourceExhausted, "too many requests in flight", retryable: true), requestID: requestID)
                return
            }
            inFlight += 1
            let promise = eventLoop.makePromise(of: Result<Roster_V1_MutationResult, WireError>.self)
            let admin = server.admin, tenant = session.tenant
            let queued = server.mutations.submit { promise.succeed(await admin.perform(message, on: tenant)) }
            if !queued { promise.succeed(.failure(WireError(.unavailable, "the server is shutting down", retryable: true))) }
            promise.futureResult.assumeIsolated().whenSuccess { result in
                self.inFlight -= 1
                switch result {
                case .success(let done): self.send(.mutationResult(done), requestID: requestID)
                case .failure(let error): self.sendError(error, requestID: requestID)
                }
            }
        case .hello:
            fail(WireError(.protocolViolation, "Hello was already received"), requestID: requestID)
        default:
            fail(WireError(.protocolViolation, "\(message.type) is sent by servers, not clients"), requestID: requestID)
        }
    }

    // MARK: Subscriptions

    private func subscribe(_ request: Roster_V1_SubscribeRequest, requestID: UInt32, tenant: TenantRuntime) {
        guard subscriptions.count < server.configuration.limits.maxSubscriptionsPerConnection else {
            sendError(WireError(.resourceExhausted,
                                "at most \(server.configuration.limits.maxSubscriptionsPerConnection) subscriptions per connection"),
                      requestID: requestID)
            return
        }
        let topics = Set(request.topics.filter { $0 == .onDuty || $0 == .roster })
        guard !topics.isEmpty else {
            sendError(WireError(.invalidArgument, "name at least one topic: ON_DUTY or ROSTER"), requestID: requestID)
            return
        }
        let subscription = Subscription(id: nextSubscriptionID, topics: topics, filter: request.filter, connection: self,
                                        tenant: tenant)
        let start: TenantRuntime.SubscribeStart, revision: UInt64, epoch: UInt64, onDuty: OnDutyPush
        do {
            (start, revision, epoch, onDuty) = try tenant.subscribe(
                subscription, sinceRevision: request.hasSinceRevision ? request.sinceRevision : nil,
                epoch: request.hasSinceRevision ? request.epoch : nil)
        } catch {
            guard case .resyncRequired(let oldest, let reason) = error else { return }
            var wire = WireError(.resyncRequired, "resync required: \(reason)")
            wire.body.oldestRevision = oldest
            sendError(wire, requestID: requestID)
            return
        }
        nextSubscriptionID += 1
        subscriptions[subscription.id] = subscription
        guard let context else { return }
        func write(_ message: RosterMessage) {
            context.write(wrapOutboundOut(message.frame(requestID: requestID).encoded(allocator: context.channel.allocator)),
                          promise: nil)
        }
        write(.subscribed(.with {
            $0.subscriptionID = subscription.id
            $0.epoch = epoch
            $0.revision = revision
        }))
        let filter = request.filter.isEmpty ? nil : request.filter
        switch start {
        case .snapshot(let state):
            if topics.contains(.roster) {
                write(.snapshot(PushEncoding.snapshot(state, epoch: epoch, revision: revision, filter: filter)))
            }
        case .replay(let entries):
            if topics.contains(.roster) {
                for entry in entries {
                    if let changed = PushEncoding.rosterChanged(entry: entry, epoch: epoch, filter: filter, previous: nil,
                                                                current: onDuty.state) {
                        write(.rosterChanged(changed))
                    }
                }
            }
        }
        if topics.contains(.onDuty), let initial = PushEncoding.onDutyChanged(onDuty, filter: filter) {
            write(.onDutyChanged(initial))
        }
        write(.synced(.with {
            $0.subscriptionID = subscription.id
            $0.epoch = epoch
            $0.revision = revision
        }))
        context.flush()
        subscription.lastSentAt = .now()
    }

    // MARK: Pushes (called by LoopFanout on this loop)

    func pushRoster(_ frame: ByteBuffer, for subscription: Subscription, touched: inout [ConnectionHandler]) {
        guard let context, context.channel.isActive, mayReceiveEvents() else { return }
        if subscription.needsResync { return }
        guard context.channel.isWritable else {
            // A revision can't be coalesced away: stop this subscription's roster stream and end it
            // with RESYNC_REQUIRED once drained; the client resumes from its last revision.
            subscription.needsResync = true
            armWriteStallDeadline()
            return
        }
        write(frame, for: subscription, touched: &touched)
    }

    func pushOnDuty(_ frame: ByteBuffer, for subscription: Subscription, touched: inout [ConnectionHandler]) {
        guard let context, context.channel.isActive, mayReceiveEvents() else { return }
        guard context.channel.isWritable else {
            // On-duty is state: keep only the latest for when the connection drains.
            coalescedOnDuty[subscription.id] = frame
            armWriteStallDeadline()
            return
        }
        write(frame, for: subscription, touched: &touched)
    }

    func pushProgress(_ frame: ByteBuffer, for subscription: Subscription, touched: inout [ConnectionHandler]) {
        guard let context, context.channel.isActive, context.channel.isWritable, !subscription.needsResync,
              mayReceiveEvents() else { return }
        write(frame, for: subscription, touched: &touched)
    }

    private func write(_ frame: ByteBuffer, for subscription: Subscription, touched: inout [ConnectionHandler]) {
        context?.write(wrapOutboundOut(frame), promise: nil)
        subscription.lastSentAt = .now()
        if !flushPending {
            flushPending = true
            touched.append(self)
        }
    }

    func flushPushes() {
        flushPending = false
        context?.flush()
    }

    private func armWriteStallDeadline() {
        guard writeStallDeadline == nil else { return }
        let deadline = server.configuration.limits.writeDeadlineMillis
        writeStallDeadline = eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(deadline)) {
            self.logger.warning("slow consumer: writes stalled for \(deadline) ms, disconnecting", metadata: self.logMetadata)
            self.context?.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeStallDeadline?.cancel()
            writeStallDeadline = nil
            for (id, frame) in coalescedOnDuty where subscriptions[id] != nil {
                context.write(wrapOutboundOut(frame), promise: nil)
            }
            coalescedOnDuty.removeAll()
            for subscription in subscriptions.values where subscription.needsResync {
                subscription.tenant.fanout(on: eventLoop).remove(subscription)
                subscriptions[subscription.id] = nil
                var wire = WireError(.resyncRequired, "events were dropped for a slow consumer; resume from your last revision",
                                     retryable: true)
                wire.body.subscriptionID = subscription.id
                context.write(wrapOutboundOut(RosterMessage.error(wire.body).frame().encoded()), promise: nil)
            }
            context.flush()
        }
        context.fireChannelWritabilityChanged()
    }
}
