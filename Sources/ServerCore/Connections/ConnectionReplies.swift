import NIOCore
import RosterDomain
import RosterProtocol

/// The frames a connection answers with that are more than one line to build: Welcome, errors
/// with their request id, the resync notice for a slow consumer. Kept apart so that
/// `ConnectionHandler` is only an adapter.
enum ConnectionReplies {
    /// An Error frame that carries its request id in the header and in the body.
    static func error(_ error: WireError, requestID: UInt32) -> Frame {
        var body = error.body
        body.requestID = requestID
        return RosterMessage.error(body).frame(requestID: requestID)
    }

    /// The handshake's answer: the negotiated version, the tenant's revision and the limits
    /// this connection now has.
    static func welcome(
        version: UInt32, credential: Credential, view: TenantRuntime.View, serverID: String,
        limits: ServerConfiguration.Limits, features: [String], requestID: UInt32
    ) -> Frame {
        RosterMessage.welcome(
            .with {
                $0.version = version
                $0.serverID = serverID
                $0.epoch = view.epoch
                $0.revision = view.revision
                $0.limits = .with {
                    $0.maxFrameBytes = UInt32(limits.maxFrameBytes)
                    $0.pingIntervalMs = UInt32(limits.pingInterval.milliseconds)
                    $0.maxSubscriptions = UInt32(limits.maxSubscriptionsPerConnection)
                    $0.maxInFlight = UInt32(limits.maxInFlightRequests)
                }
                $0.tenant = Roster_V1_Tenant(view.state.tenant)
                $0.role = credential.role.wire
                $0.features = features
            }
        ).frame(requestID: requestID)
    }

    /// Why a subscription could not resume from the revision it asked for.
    static func refusal(_ refusal: TenantRuntime.SubscribeRefusal, requestID: UInt32) -> Frame {
        switch refusal {
        case .resyncRequired(let oldest, let reason):
            var wire = WireError(.resyncRequired, "resync required: \(reason)")
            wire.body.oldestRevision = oldest
            return error(wire, requestID: requestID)
        case .aheadOfThisNode(let requested, let held, let oldest):
            // The store holds nothing newer (or there is one node): the client's revision is gone.
            return Self.refusal(
                .resyncRequired(
                    oldestResumable: oldest, reason: "revision \(requested) is newer than the server's \(held)"),
                requestID: requestID)
        case .unknownSchedule(let name):
            return error(WireError(.notFound, "schedule \"\(name)\" not found"), requestID: requestID)
        case .unknownPerson(let name):
            return error(WireError(.notFound, "employee \"\(name)\" not found"), requestID: requestID)
        case .unknownEscalation(let what):
            return error(WireError(.notFound, "\(what) not found"), requestID: requestID)
        }
    }

    /// A resume this node cannot serve yet: it could not read the revisions the client has from
    /// the shared store. Retryable, so the client keeps its newer state instead of taking an
    /// older snapshot (docs/SCALING.md).
    static func behind(requested: UInt64, held: UInt64, requestID: UInt32) -> Frame {
        error(
            WireError(
                .unavailable,
                "this node holds revision \(held) and could not yet read revision \(requested) from the store; try again",
                retryable: true), requestID: requestID)
    }

    /// Ends a subscription whose events were dropped while its consumer was slow.
    static func slowConsumerResync(subscriptionID: UInt64) -> Frame {
        var wire = WireError(
            .resyncRequired, "events were dropped for a slow consumer; resume from your last revision",
            retryable: true)
        wire.body.subscriptionID = subscriptionID
        return error(wire, requestID: 0)
    }
}

extension ChannelHandlerContext {
    /// Writes the Error frame, then closes gracefully: a lingering close, as nginx and Apache
    /// do. Closing a socket that still has unread input makes the kernel send a reset, which can
    /// destroy the Error frame before the peer reads it; so on plaintext this half-closes (FIN
    /// after the frame), reads and discards until the peer closes, and closes fully after
    /// `linger` at the latest. Over TLS the TLS handler's close_notify ends the stream instead.
    ///
    /// The close at `linger` is armed at once, not after the write: a write that never
    /// completes (a TLS handshake the peer left half-done buffers it) must not keep the
    /// connection open.
    func writeErrorAndLinger(_ frame: ByteBuffer, isTLS: Bool, linger: TimeAmount) {
        guard channel.isActive else { return }
        let context = self
        context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
        writeAndFlush(NIOAny(frame)).assumeIsolated().whenComplete { _ in
            guard !isTLS else {
                context.close(promise: nil)
                return
            }
            let halfClosed = context.eventLoop.makePromise(of: Void.self)
            context.close(mode: .output, promise: halfClosed)
            halfClosed.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
        }
    }
}
