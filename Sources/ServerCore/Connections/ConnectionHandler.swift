import Logging
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol

/// One client connection, as an adapter: it decodes, asks `ConnectionStateMachine` what to
/// do, and runs the answer through `run(_:)`; every write goes through `write(_:flush:)`,
/// except the last Error frame of a connection being failed (`failAndClose`, a lingering close). The
/// decisions (handshake, limits, expiry, slow consumers, closing) are the machine's.
/// Confined to the channel's event loop.
///
/// Input is taken only as fast as the peer takes output: while the channel is not writable (its
/// outbound buffer is past the high-water mark), frames already read wait and no more are read
/// (the channel's read requests are held here); one read's frames are worked through at most
/// `framesPerTurn` at a time, so other connections on the loop are served in between. Queries
/// are answered on the tenant work pool and count against `max_in_flight`.
///
/// Subscribing and the `PushSink` side are in ConnectionHandler+Subscriptions.swift; the members
/// without `private` here are the ones it shares.
final class ConnectionHandler: ChannelDuplexHandler, PushSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The listener, and through it the core: one reference per connection (idle subscribers
    /// should cost as little as possible).
    let listener: ProtocolConnections
    var core: ServerCore { listener.core }
    private let frameLimit: FrameSizeLimit
    /// Frames are cut here rather than by a ByteToMessageHandler in front: an idle connection
    /// then keeps no decoder object and no emptied read buffer (about 0.7 KB of each idle
    /// subscriber). `pendingBytes` holds what was read and not yet worked through (frames waiting
    /// for the peer to read, or the start of a frame still arriving), nil otherwise.
    private var decoder: FrameDecoder
    private var pendingBytes: ByteBuffer?
    /// Whole frames wait in `pendingBytes`: no more input is read until they are worked through.
    var inputWaiting = false
    /// The channel asked to read while input was waiting: passed on once it is not.
    private var readHeld = false
    /// Set while a turn to work through waiting input is scheduled on the loop.
    private var turnScheduled = false
    /// Read by jobs on the work pool: a query whose connection is gone is not worked out.
    private var openFlag: ConnectionOpen?
    /// After a frame error the connection is closing; what still arrives is discarded.
    private var inboundFailed = false
    var machine: ConnectionStateMachine
    var context: ChannelHandlerContext?
    /// The channel's writability as its last WritabilityChanged event said: the push path reads
    /// this instead of asking the channel for every subscriber.
    var isWritable = true
    private(set) var eventLoop: any EventLoop
    /// The tenant the credential opened, once active.
    var tenant: TenantRuntime?
    var subscriptions = ConnectionSubscriptions()
    private var helloDeadline: Scheduled<Void>?
    var writeStallDeadline: Scheduled<Void>?
    private var liveness: LivenessMonitor
    /// Set while pushes were written and not yet flushed.
    var flushPending = false
    /// The client listed the "snapshot-parts" feature in its Hello.
    private var takesSnapshotParts = false

    /// Per-connection log metadata is built when something is logged (rarely), not held by every
    /// connection: an idle subscriber should cost as little memory as possible.
    var logger: Logger { core.logger }
    var logMetadata: Logger.Metadata {
        ["peer": "\(context?.channel.remoteAddress?.text ?? "?")", "tenant": "\(tenant?.id ?? "")"]
    }

    /// The peer as the audit log records it ("203.0.113.7:51234"); "" when unknown.
    private var peerAddress: String { context?.channel.remoteAddress?.text ?? "" }

    init(listener: ProtocolConnections, frameLimit: FrameSizeLimit, channel: any Channel) {
        self.listener = listener
        self.frameLimit = frameLimit
        decoder = FrameDecoder(limit: frameLimit)
        eventLoop = channel.eventLoop
        let limits = listener.core.configuration.limits
        machine = ConnectionStateMachine(
            limits: .init(
                maxSubscriptions: limits.maxSubscriptionsPerConnection, maxInFlight: limits.maxInFlightRequests,
                allowsAnonymous: listener.isLoopback, defaultTenant: listener.core.defaultTenant))
        liveness = LivenessMonitor(intervalMillis: limits.pingInterval.milliseconds)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// The context holds this handler and this handler holds the context: break the cycle, or
    /// every closed connection would keep both alive.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        subscriptions.removeAll(on: eventLoop)  // already done if the channel went inactive first
    }

    func channelActive(context: ChannelHandlerContext) {
        let timeout = core.configuration.limits.helloTimeout, millis = timeout.milliseconds
        helloDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) {
            self.run(self.machine.helloDeadlinePassed(afterMillis: millis))
        }
        listener.sweeper(for: context.eventLoop).add(self)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        openFlag?.close()
        helloDeadline?.cancel()
        helloDeadline = nil
        writeStallDeadline?.cancel()
        writeStallDeadline = nil
        listener.sweeper(for: context.eventLoop).remove(self)
        subscriptions.removeAll(on: context.eventLoop)
        machine.closed()
        listener.connectionClosed(context.channel)
        pendingBytes = nil  // a stream that ends inside a frame: the partial frame is discarded
        inputWaiting = false
        context.fireChannelInactive()
    }

    /// Called by this loop's `LivenessSweeper` every half interval.
    func checkLiveness(now: NIODeadline) {
        guard machine.credential != nil else { return }  // before Hello, the Hello deadline applies
        run(
            machine.livenessCheck(
                now: core.clock.now(), liveness: liveness.check(now: now),
                nonce: UInt64(now.uptimeNanoseconds)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? ProtocolError {
            run(machine.protocolError(WireError(error), requestID: 0))
        } else {
            logger.debug("connection error: \(error)", metadata: logMetadata)
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let revoked = event as? CredentialRevokedEvent {
            run(machine.credentialsRevoked(revoked.tokenIDs))
        } else if let goingAway = event as? GoingAwayEvent {
            run(machine.goingAway(reason: goingAway.reason, retryAfterMillis: goingAway.retryAfterMillis))
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !inboundFailed else { return }
        var bytes = unwrapInboundIn(data)
        if var pending = pendingBytes {
            pendingBytes = nil
            pending.writeBuffer(&bytes)
            bytes = pending
        }
        pendingBytes = bytes
        workThroughInput()
    }

    /// Outbound: the channel asks for more input. Held while read frames wait.
    func read(context: ChannelHandlerContext) {
        if inputWaiting {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// Works through the frames read so far: while the peer takes what it is sent, at most
    /// `framesPerTurn` now (the rest on a later turn of the loop). What stays is a partial frame
    /// (more is read), or whole frames waiting for writability (nothing more is read).
    func workThroughInput() {
        var worked = 0
        let perTurn = core.configuration.limits.framesPerTurn
        while self.context != nil, !inboundFailed, var bytes = pendingBytes {
            guard isWritable, worked < perTurn else {
                inputWaiting = true
                if isWritable { scheduleTurn() }  // else channelWritabilityChanged resumes
                return
            }
            let frame: Frame?
            do {
                frame = try decoder.decodeFrame(from: &bytes)
            } catch {
                inboundFailed = true
                pendingBytes = nil
                run(machine.protocolError(WireError(error), requestID: 0))
                return
            }
            guard let frame else {
                // A frame still arriving: keep only its bytes, and read on.
                bytes.discardReadBytes()
                pendingBytes = bytes
                break
            }
            pendingBytes = bytes.readableBytes > 0 ? bytes : nil
            worked += 1
            received(frame)
        }
        inputWaiting = false
        if readHeld, let context {
            readHeld = false
            context.read()
        }
    }

    private func scheduleTurn() {
        guard !turnScheduled else { return }
        turnScheduled = true
        eventLoop.assumeIsolated().execute {
            self.turnScheduled = false
            self.workThroughInput()
        }
    }

    /// One whole frame from the peer.
    private func received(_ frame: Frame) {
        liveness.received()
        core.metrics?.received(rawType: frame.rawType)
        let message: RosterMessage
        do {
            guard let decoded = try RosterMessage.decode(frame) else { return }  // unknown but ignorable
            message = decoded
        } catch {
            run(machine.protocolError(WireError(error), requestID: frame.requestID))
            return
        }
        run(machine.received(message, requestID: frame.requestID, now: core.clock.now()))
    }

    // MARK: Running the machine's actions

    func run(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .none:
            break
        case .authenticate(let hello, let version, let requestID):
            helloDeadline?.cancel()
            helloDeadline = nil  // a cancelled task still holds its promise: ~130 bytes per idle connection
            takesSnapshotParts = hello.features.contains(SnapshotParts.feature)
            let now = core.clock.now()
            let credential = hello.token.isEmpty ? nil : core.tokens.authenticate(hello.token, now: now)
            let action = machine.authenticated(
                hello, tokenCredential: credential, tenantExists: { self.core.tenant($0) != nil },
                version: version, requestID: requestID)
            if case .rejectAuthentication = action {
                core.metrics?.authenticationFailed()
                core.auditAuthenticationFailure(hello, address: peerAddress, at: now)
            }
            run(action)
        case .sendWelcome(let version, let credential, let requestID):
            welcome(version: version, credential: credential, requestID: requestID)
        case .rejectAuthentication(let requestID):
            // One answer for every cause, and only after a delay, so guessing learns nothing and goes slowly.
            logger.info("authentication failed", metadata: logMetadata)
            eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(core.configuration.limits.authFailureDelay)) {
                self.failAndClose(WireError(.unauthenticated, "authentication failed"), requestID: requestID)
            }
        case .send(let message, let requestID):
            write(message.frame(requestID: requestID), flush: true)
        case .sendError(let error, let requestID):
            write(ConnectionReplies.error(error, requestID: requestID), flush: true)
        case .failAndClose(let error, let requestID):
            logger.info(
                "closing connection: \(error.body.message)",
                metadata: logMetadata.merging(["code": "\(error.body.code)"]) { current, _ in current })
            failAndClose(error, requestID: requestID)
        case .answerOnDutyNow(let requestID):
            if let tenant { write(tenant.onDutyNowFrame(requestID: requestID, now: core.clock.now()), flush: true) }
        case .answerQuery(let message, let requestID):
            guard let tenant else { return }
            let now = core.clock.now(), partsLimit = snapshotPartsLimit, open = connectionOpen
            let maxFrameBytes = core.configuration.limits.maxFrameBytes
            // In slices: a long final schedule gives its thread back between them.
            let step = tenant.answerStepper(
                message, requestID: requestID, now: now, snapshotPartsLimit: partsLimit,
                maxFrameBytes: maxFrameBytes)
            core.work.submitSliced(tenant.id, lane: .of(message), on: eventLoop) { () -> [Frame]? in
                // A query whose connection has gone is not worked out (nor its other slices).
                guard open.isOpen else { return [] }
                return step()
            }.assumeIsolated().whenComplete { result in
                self.machine.requestFinished()
                switch result {
                case .success(let frames):
                    for (index, frame) in frames.enumerated() { self.write(frame, flush: index == frames.count - 1) }
                case .failure:
                    self.write(ConnectionReplies.error(AdminOperations.busy, requestID: requestID), flush: true)
                }
            }
        case .subscribe(let request, let id, let topics, let requestID):
            subscribe(request, id: id, topics: topics, requestID: requestID)
        case .unsubscribe(let id, let requestID):
            subscriptions.remove(id, on: eventLoop)
            write(RosterMessage.unsubscribed(.with { $0.subscriptionID = id }).frame(requestID: requestID), flush: true)
        case .enqueueMutation(let message, let requestID):
            enqueue(message, requestID: requestID)
        case .close:
            context?.close(promise: nil)
        }
    }

    /// The flag pool jobs read to skip a query of a closed connection, made with the first query
    /// (an idle subscriber keeps none).
    private var connectionOpen: ConnectionOpen {
        if let made = openFlag { return made }
        let made = ConnectionOpen()
        openFlag = made
        return made
    }

    /// The frame limit to split snapshots by, when this client takes them in parts.
    var snapshotPartsLimit: Int? { takesSnapshotParts ? core.configuration.limits.maxFrameBytes : nil }

    /// The one write path: every frame this connection sends goes through here (answers and
    /// replies as a `Frame`, pushes already encoded once for all their subscribers as bytes).
    func write(_ frame: Frame, flush: Bool) {
        guard let context else { return }
        core.metrics?.sent(frame)
        write(frame.encoded(allocator: context.channel.allocator), flush: flush)
    }

    func write(_ bytes: ByteBuffer, flush: Bool) {
        guard let context else { return }
        context.write(wrapOutboundOut(bytes), promise: nil)
        if flush { context.flush() }
    }

    /// Writes the Error frame and closes with a lingering close (see `writeErrorAndLinger`).
    func failAndClose(_ error: WireError, requestID: UInt32) {
        core.metrics?.sent(ConnectionReplies.error(error, requestID: requestID))
        context?.writeErrorAndLinger(
            ConnectionReplies.error(error, requestID: requestID).encoded(),
            isTLS: listener.servesTLS, linger: Self.linger)
    }

    /// How long a closing connection keeps reading (and discarding) after its Error frame.
    static let linger = TimeAmount.seconds(2)

    private func welcome(version: UInt32, credential: Credential, requestID: UInt32) {
        guard let tenant = core.tenant(credential.tenantID) else { return }
        self.tenant = tenant
        frameLimit.bytes = core.configuration.limits.maxFrameBytes
        logger.debug(
            "handshake done", metadata: logMetadata.merging(["role": "\(credential.role)"]) { current, _ in current })
        write(
            ConnectionReplies.welcome(
                version: version, credential: credential, view: tenant.view, serverID: core.serverID,
                limits: core.configuration.limits,
                features: takesSnapshotParts ? [SnapshotParts.feature] : [], requestID: requestID), flush: true)
    }

    private func enqueue(_ message: RosterMessage, requestID: UInt32) {
        guard let tenant else { return }
        core.perform(message, on: tenant, actor: Caller(machine.credential, address: peerAddress), loop: eventLoop)
            .assumeIsolated().whenSuccess { result in
                self.machine.requestFinished()
                switch result {
                case .success(let answer): self.write(answer.frame(requestID: requestID), flush: true)
                case .failure(let error): self.write(ConnectionReplies.error(error, requestID: requestID), flush: true)
                }
            }
    }

}

/// Whether a connection is still open, for work that runs off its event loop.
final class ConnectionOpen: Sendable {
    private let open = NIOLockedValueBox(true)
    var isOpen: Bool { open.withLockedValue { $0 } }
    func close() { open.withLockedValue { $0 = false } }
}
