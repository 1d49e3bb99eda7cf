import NIOCore
import RosterDomain
import RosterProtocol

/// Every decision about one client connection, as a value: the handshake (version and
/// credentials), what each request is allowed to do, the in-flight and subscription limits,
/// credential expiry, the slow-consumer rules and closing. Its methods take what happened and
/// return what to do; `ConnectionHandler` only decodes, asks, and runs the answer. Tested on its
/// own (postgres-nio's `ConnectionStateMachine` is the model).
///
/// States: awaiting Hello → active (after Welcome) → closing (after an error that ends the
/// connection, GoingAway, or a close). Nothing but closing happens after closing.
package struct ConnectionStateMachine {
    struct Limits: Equatable {
        var maxSubscriptions: Int
        var maxInFlight: Int
        /// Whether anonymous readers are allowed (a loopback listener).
        var allowsAnonymous: Bool
        var defaultTenant: String
    }

    enum State: Equatable {
        case awaitingHello
        case active(Credential)
        case closing
    }

    /// What the handler does next.
    enum Action: Equatable {
        case none
        /// Look the token up (the registry is the server's), then call `authenticated`.
        case authenticate(Roster_V1_Hello, version: UInt32, requestID: UInt32)
        case sendWelcome(version: UInt32, credential: Credential, requestID: UInt32)
        /// One generic UNAUTHENTICATED, after the server's delay, then close.
        case rejectAuthentication(requestID: UInt32)
        case send(RosterMessage, requestID: UInt32)
        case sendError(WireError, requestID: UInt32)
        /// An Error frame, then a (lingering) close.
        case failAndClose(WireError, requestID: UInt32)
        /// "Who is on duty now", from the tenant's cached encoding.
        case answerOnDutyNow(requestID: UInt32)
        case answerQuery(RosterMessage, requestID: UInt32)
        case subscribe(
            Roster_V1_SubscribeRequest, subscriptionID: UInt64, topics: Set<Roster_V1_Topic>, requestID: UInt32)
        case unsubscribe(subscriptionID: UInt64, requestID: UInt32)
        case enqueueMutation(RosterMessage, requestID: UInt32)
        case close
    }

    /// What to do with one push for one subscription.
    enum PushAction: Equatable {
        /// Write it; the fan-out flushes the connection once it has written all of its frames.
        case write
        /// Write and flush it now: the connection's only subscription, so nothing else in this
        /// fan-out is for it.
        case writeAndFlush
        /// Not delivered and not to be (the subscription's roster stream awaits its resync,
        /// or the connection is not taking events).
        case drop
        /// The connection cannot take it now: keep only the latest on-duty frame.
        case coalesce
        /// A revision cannot be coalesced: end this subscription's stream with RESYNC_REQUIRED
        /// once the connection drains.
        case resyncWhenDrained
    }

    package enum PushKind { case roster, onDuty, notice, progress, escalation }

    private(set) var state = State.awaitingHello
    /// The active credential's expiry, kept apart so that the push path reads it without
    /// copying the credential.
    private var credentialExpiry: UnixMillis?
    let limits: Limits
    private(set) var inFlight = 0
    private(set) var subscriptions = SubscriptionIDs()
    private var nextSubscriptionID: UInt64 = 1
    /// Held-back on-duty frames and owed resyncs (the rule the event stream follows too).
    private(set) var slowConsumer = SlowConsumerPolicy()

    init(limits: Limits) {
        self.limits = limits
    }

    var credential: Credential? {
        if case .active(let credential) = state { return credential }
        return nil
    }

    // MARK: Handshake

    mutating func helloDeadlinePassed(afterMillis millis: Int64) -> Action {
        guard case .awaitingHello = state else { return .none }
        return closing(WireError(.deadlineExceeded, "no Hello within \(millis) ms"), requestID: 0)
    }

    /// After `authenticate`: `tokenCredential` is the registry's answer for the Hello's token
    /// (nil: unknown, wrong, expired or revoked), `tenantExists` says whether the server serves a
    /// tenant. The rules: a token opens only its own tenant; with no token, a loopback listener
    /// admits an anonymous reader of the named (or default) tenant, others nobody. Every failure
    /// gets the same answer.
    mutating func authenticated(
        _ hello: Roster_V1_Hello, tokenCredential: Credential?, tenantExists: (String) -> Bool,
        version: UInt32, requestID: UInt32
    ) -> Action {
        guard case .awaitingHello = state else { return .none }
        let credential: Credential?
        if hello.token.isEmpty {
            credential =
                limits.allowsAnonymous
                ? Credential(
                    tokenID: nil, tenantID: hello.tenant.isEmpty ? limits.defaultTenant : hello.tenant, role: .reader)
                : nil
        } else {
            credential = tokenCredential.flatMap { hello.tenant.isEmpty || hello.tenant == $0.tenantID ? $0 : nil }
        }
        guard let credential, tenantExists(credential.tenantID) else {
            state = .closing
            return .rejectAuthentication(requestID: requestID)
        }
        state = .active(credential)
        credentialExpiry = credential.expiresAt
        return .sendWelcome(version: version, credential: credential, requestID: requestID)
    }

    // MARK: Requests

    /// A decoded frame arrived.
    mutating func received(_ message: RosterMessage, requestID: UInt32, now: UnixMillis) -> Action {
        switch state {
        case .closing:
            return .none
        case .awaitingHello:
            guard case .hello(let hello) = message else {
                return closing(
                    WireError(.protocolViolation, "the first frame must be Hello, not \(message.type)"),
                    requestID: requestID)
            }
            let supported = WireProtocol.supportedVersions
            guard hello.minVersion <= hello.maxVersion, hello.maxVersion >= supported.lowerBound,
                hello.minVersion <= supported.upperBound
            else {
                return closing(
                    WireError(
                        .unsupportedVersion,
                        """
                        versions \(hello.minVersion)...\(hello.maxVersion) offered; \
                        this server speaks \(supported.lowerBound)...\(supported.upperBound)
                        """), requestID: requestID)
            }
            return .authenticate(hello, version: min(hello.maxVersion, supported.upperBound), requestID: requestID)
        case .active(let credential):
            // A token that expired ends the connection at its next request, not at the next sweep.
            if let expiry = credentialExpiry, now >= expiry { return expired(requestID: requestID) }
            // Id 0 is reserved for frames tied to no request: pushes, and liveness pings.
            if requestID == 0, message.type != .ping, message.type != .pong {
                return closing(
                    WireError(
                        .protocolViolation, "request id 0 is reserved for pushes and pings; number requests from 1"),
                    requestID: 0)
            }
            return dispatch(message, requestID: requestID, credential: credential, now: now)
        }
    }

    /// Admits a request by its rule in `ProtocolRequests`: who may send it, then where it goes;
    /// what runs off the loop counts in flight.
    private mutating func dispatch(
        _ message: RosterMessage, requestID: UInt32, credential: Credential,
        now: UnixMillis
    ) -> Action {
        guard let rule = ProtocolRequests.rule(message) else {
            if case .hello = message {
                return closing(WireError(.protocolViolation, "Hello was already received"), requestID: requestID)
            }
            return closing(
                WireError(.protocolViolation, "\(message.type) is sent by servers, not clients"), requestID: requestID)
        }
        if let refusal = ProtocolRequests.refusal(rule.who, message, credential: credential) {
            return .sendError(refusal, requestID: requestID)
        }
        guard rule.path != .onLoop else {
            return onLoop(message, requestID: requestID, credential: credential, now: now)
        }
        guard inFlight < limits.maxInFlight else {
            return .sendError(
                WireError(.resourceExhausted, "too many requests in flight", retryable: true), requestID: requestID)
        }
        inFlight += 1
        return rule.path == .query
            ? .answerQuery(message, requestID: requestID) : .enqueueMutation(message, requestID: requestID)
    }

    /// The requests answered on the connection's loop.
    private mutating func onLoop(_ message: RosterMessage, requestID: UInt32, credential: Credential, now: UnixMillis)
        -> Action
    {
        switch message {
        case .ping(let ping):
            return .send(.pong(.with { $0.nonce = ping.nonce }), requestID: requestID)
        case .getOnDuty:
            return .answerOnDutyNow(requestID: requestID)
        case .subscribe(let request):
            // Authorization at subscribe time; `deliver` repeats it for every event.
            guard credential.isValid(at: now) else { return expired(requestID: requestID) }
            guard subscriptions.count < limits.maxSubscriptions else {
                return .sendError(
                    WireError(.resourceExhausted, "at most \(limits.maxSubscriptions) subscriptions per connection"),
                    requestID: requestID)
            }
            let topics = Set(
                request.topics.filter { $0 == .onDuty || $0 == .roster || $0 == .notices || $0 == .escalation })
            guard !topics.isEmpty else {
                return .sendError(
                    WireError(.invalidArgument, "name at least one topic: ON_DUTY, ROSTER, NOTICES or ESCALATION"),
                    requestID: requestID)
            }
            if topics.contains(.escalation), request.services.isEmpty, request.escalationPolicies.isEmpty {
                return .sendError(
                    WireError(
                        .invalidArgument, "ESCALATION follows services or escalation policies: name at least one"),
                    requestID: requestID)
            }
            let id = nextSubscriptionID
            return .subscribe(request, subscriptionID: id, topics: topics, requestID: requestID)
        case .unsubscribe(let request):
            guard subscriptions.remove(request.subscriptionID) != nil else {
                return .sendError(
                    WireError(.notFound, "no subscription \(request.subscriptionID)"), requestID: requestID)
            }
            slowConsumer.forget(request.subscriptionID)
            return .unsubscribe(subscriptionID: request.subscriptionID, requestID: requestID)
        default:
            // A pong, and nothing else the table puts on the loop.
            return .none
        }
    }

    /// The tenant accepted the subscription from `subscribe` (it was not refused for resync).
    mutating func subscribed(_ subscriptionID: UInt64) {
        subscriptions.insert(subscriptionID)
        nextSubscriptionID = max(nextSubscriptionID, subscriptionID + 1)
    }

    /// A request from `enqueueMutation` or `answerQuery` has been answered.
    mutating func requestFinished() {
        inFlight = max(0, inFlight - 1)
    }

    // MARK: Credentials and liveness

    /// The one expiry rule, for the liveness sweep, subscribing and every event.
    private mutating func expired(requestID: UInt32) -> Action {
        closing(WireError(.unauthenticated, "the token has expired"), requestID: requestID)
    }

    /// The liveness sweep's turn: expiry first, then the liveness rule's verdict.
    mutating func livenessCheck(now: UnixMillis, liveness: LivenessMonitor.Action, nonce: UInt64) -> Action {
        guard case .active(let credential) = state else { return .none }
        guard credential.isValid(at: now) else { return expired(requestID: 0) }
        switch liveness {
        case .none: return .none
        case .ping: return .send(.ping(.with { $0.nonce = nonce }), requestID: 0)
        case .close(let quiet):
            return closing(WireError(.deadlineExceeded, "nothing received for \(quiet) ms"), requestID: 0)
        }
    }

    mutating func credentialsRevoked(_ tokenIDs: Set<String>) -> Action {
        guard case .active(let credential) = state, let id = credential.tokenID, tokenIDs.contains(id) else {
            return .none
        }
        return closing(WireError(.unauthenticated, "the token was revoked"), requestID: 0)
    }

    mutating func goingAway(reason: String, retryAfterMillis: UInt32) -> Action {
        guard state != .closing else { return .none }
        state = .closing
        return .send(
            .goingAway(
                .with {
                    $0.reason = reason
                    $0.retryAfterMs = retryAfterMillis
                }), requestID: 0)
    }

    /// A decoding error: it ends the connection, unless it is already closing (then what the
    /// peer still sends is discarded while the close lingers).
    mutating func protocolError(_ error: WireError, requestID: UInt32) -> Action {
        closing(error, requestID: requestID)
    }

    mutating func closed() {
        state = .closing
        subscriptions.removeAll()
        slowConsumer = SlowConsumerPolicy()
    }

    private mutating func closing(_ error: WireError, requestID: UInt32) -> Action {
        if state == .closing { return .none }
        state = .closing
        return .failAndClose(error, requestID: requestID)
    }

    // MARK: Pushes and slow consumers

    /// Whether this connection may be given events at all, run once per subscriber per push: nil
    /// when pushes may be written, else what to do instead (nothing before Hello or while
    /// closing; close on an expired credential, at the first event after expiry).
    mutating func pushRefusal(now: UnixMillis) -> Action? {
        guard case .active = state else { return Action.none }
        guard let expiry = credentialExpiry, now >= expiry else { return nil }
        return expired(requestID: 0)
    }

    /// What to do with a push for `subscriptionID` given whether the channel is writable
    /// (`SlowConsumerPolicy`); a write is flushed at once when it is the connection's only
    /// subscription.
    mutating func push(_ kind: PushKind, to subscriptionID: UInt64, writable: Bool) -> PushAction {
        guard subscriptions.contains(subscriptionID) else { return .drop }
        switch slowConsumer.push(kind, to: subscriptionID, writable: writable) {
        case .write: return subscriptions.count == 1 ? .writeAndFlush : .write
        case .drop: return .drop
        case .coalesce: return .coalesce
        case .resyncWhenDrained: return .resyncWhenDrained
        }
    }

    /// The connection drained: which held on-duty frames to write, and which subscriptions to
    /// end with RESYNC_REQUIRED (they are no longer this connection's).
    mutating func drained() -> (flushCoalesced: Set<UInt64>, endWithResync: Set<UInt64>) {
        let (coalesced, resync) = slowConsumer.drained()
        let flush = coalesced.filter(subscriptions.contains)
        let ended = resync.filter(subscriptions.contains)
        for id in ended { subscriptions.remove(id) }
        return (flush, ended)
    }
}
