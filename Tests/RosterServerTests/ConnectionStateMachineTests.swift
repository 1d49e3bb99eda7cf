import RosterDomain
import RosterProtocol
@testable import RosterServer
@testable import RosterServerCore
import Testing

/// Every transition of one connection, as plain values: no channel, no server.
@Suite(.timeLimit(.minutes(10))) struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    static let limits = Machine.Limits(
        maxSubscriptions: 2, maxInFlight: 1, allowsAnonymous: true, defaultTenant: "demo")
    let hello = Roster_V1_Hello.with {
        $0.minVersion = 1; $0.maxVersion = 1
    }
    let reader = Credential(tokenID: "t1", tenantID: "demo", role: .reader)
    let admin = Credential(tokenID: "t2", tenantID: "demo", role: .admin)

    func code(_ action: Machine.Action) -> Roster_V1_ErrorCode? {
        switch action {
        case .failAndClose(let error, _), .sendError(let error, _): return error.body.code
        default: return nil
        }
    }

    func closes(_ action: Machine.Action) -> Bool {
        if case .failAndClose = action { return true }
        return false
    }

    /// A machine past Hello with `credential`.
    func active(_ credential: Credential, limits: Machine.Limits = limits) -> Machine {
        var machine = Machine(limits: limits)
        var token = hello
        token.token = "rst_x_y"
        _ = machine.received(.hello(token), requestID: 1, now: 0)
        _ = machine.authenticated(
            token, tokenCredential: credential, tenantExists: { _ in true }, version: 1, requestID: 1)
        return machine
    }

    @Test func queriesCountInFlightLikeChanges() {
        var machine = active(reader)  // max_in_flight 1
        guard case .answerQuery = machine.received(.getFinalSchedule(.init()), requestID: 2, now: 0) else {
            Issue.record("expected the query to be answered")
            return
        }
        #expect(
            code(machine.received(.listEmployees(.init()), requestID: 3, now: 0)) == .resourceExhausted,
            "a second while one is out")
        machine.requestFinished()
        guard case .answerQuery = machine.received(.listEmployees(.init()), requestID: 4, now: 0) else {
            Issue.record("expected the query to be answered once the first was")
            return
        }
        // "On duty now" comes from a cache on the loop: never counted, never refused.
        #expect(machine.received(.getOnDuty(.init()), requestID: 5, now: 0) == .answerOnDutyNow(requestID: 5))
    }

    @Test func anExpiredTokenIsRefusedAtItsNextRequestNotAtTheNextSweep() {
        var expiring = admin
        expiring.expiresAt = 1_000
        var machine = active(expiring)
        guard case .enqueueMutation = machine.received(.setMotd(.init()), requestID: 2, now: 999) else {
            Issue.record("expected the change before expiry")
            return
        }
        machine.requestFinished()
        let late = machine.received(.setMotd(.init()), requestID: 3, now: 1_000)
        #expect(code(late) == .unauthenticated && closes(late))
    }

    @Test func helloThenWelcome() {
        var machine = Machine(limits: Self.limits)
        guard case .authenticate(_, let version, let requestID) = machine.received(.hello(hello), requestID: 7, now: 0)
        else {
            Issue.record("expected authenticate")
            return
        }
        #expect(version == 1 && requestID == 7)
        let welcome = machine.authenticated(
            hello, tokenCredential: nil, tenantExists: { $0 == "demo" }, version: 1, requestID: 7)
        #expect(
            welcome
                == .sendWelcome(
                    version: 1, credential: Credential(tokenID: nil, tenantID: "demo", role: .reader), requestID: 7))
        #expect(machine.credential?.role == .reader)
    }

    @Test func oddHandshakesClose() {
        var early = Machine(limits: Self.limits)
        #expect(
            code(early.received(.getSnapshot(.init()), requestID: 1, now: 0)) == .protocolViolation,
            "a request before Hello")
        #expect(early.received(.hello(hello), requestID: 1, now: 0) == .none, "nothing after closing")

        var old = Machine(limits: Self.limits)
        #expect(
            code(
                old.received(
                    .hello(
                        .with {
                            $0.minVersion = 2; $0.maxVersion = 3
                        }), requestID: 1, now: 0)) == .unsupportedVersion)

        var late = Machine(limits: Self.limits)
        #expect(code(late.helloDeadlinePassed(afterMillis: 5_000)) == .deadlineExceeded)

        var twice = active(reader)
        #expect(code(twice.received(.hello(hello), requestID: 2, now: 0)) == .protocolViolation, "a second Hello")
        #expect(twice.helloDeadlinePassed(afterMillis: 5_000) == .none)
    }

    @Test func everyAuthenticationFailureGetsTheSameAnswer() {
        var nonLoopback = Self.limits
        nonLoopback.allowsAnonymous = false
        var anonymous = Machine(limits: nonLoopback)
        #expect(
            anonymous.authenticated(hello, tokenCredential: nil, tenantExists: { _ in true }, version: 1, requestID: 1)
                == .rejectAuthentication(requestID: 1))
        var otherTenant = Machine(limits: Self.limits)
        var beta = hello
        beta.token = "rst_a_b"
        beta.tenant = "beta"
        #expect(
            otherTenant.authenticated(
                beta, tokenCredential: reader, tenantExists: { _ in true }, version: 1, requestID: 1)
                == .rejectAuthentication(requestID: 1), "a token opens only its own tenant")
        var unknownTenant = Machine(limits: Self.limits)
        #expect(
            unknownTenant.authenticated(
                hello, tokenCredential: nil, tenantExists: { _ in false }, version: 1, requestID: 1)
                == .rejectAuthentication(requestID: 1))
        var badToken = Machine(limits: Self.limits)
        #expect(
            badToken.authenticated(beta, tokenCredential: nil, tenantExists: { _ in true }, version: 1, requestID: 1)
                == .rejectAuthentication(requestID: 1))
        #expect(badToken.received(.ping(.init()), requestID: 2, now: 0) == .none, "closing after a refusal")
    }

    @Test func requestIDZeroIsForPingsOnly() {
        var machine = active(reader)
        #expect(
            machine.received(.ping(.with { $0.nonce = 3 }), requestID: 0, now: 0)
                == .send(.pong(.with { $0.nonce = 3 }), requestID: 0))
        #expect(code(machine.received(.listEmployees(.init()), requestID: 0, now: 0)) == .protocolViolation)
    }

    @Test func queriesAndTheHotPath() {
        var machine = active(reader)
        #expect(machine.received(.getOnDuty(.init()), requestID: 4, now: 0) == .answerOnDutyNow(requestID: 4))
        #expect(
            machine.received(.getOnDuty(.with { $0.atMs = 5 }), requestID: 5, now: 0)
                == .answerQuery(.getOnDuty(.with { $0.atMs = 5 }), requestID: 5))
        #expect(
            code(machine.received(.welcome(.init()), requestID: 6, now: 0)) == .protocolViolation, "a server-only type")
    }

    @Test func mutationsNeedAdminAndRespectTheInFlightLimit() {
        var asReader = active(reader)
        #expect(code(asReader.received(.setMotd(.init()), requestID: 2, now: 0)) == .permissionDenied)
        #expect(asReader.credential != nil, "the connection stays")

        var machine = active(admin)
        #expect(
            machine.received(.setMotd(.init()), requestID: 2, now: 0)
                == .enqueueMutation(.setMotd(.init()), requestID: 2))
        #expect(code(machine.received(.setMotd(.init()), requestID: 3, now: 0)) == .resourceExhausted)
        machine.requestFinished()
        #expect(
            machine.received(.setMotd(.init()), requestID: 4, now: 0)
                == .enqueueMutation(.setMotd(.init()), requestID: 4))
    }

    @Test func subscriptionLimitsTopicsAndUnsubscribe() {
        var machine = active(reader)
        #expect(code(machine.received(.subscribe(.init()), requestID: 2, now: 0)) == .invalidArgument, "no topic")
        for id in 1...2 {
            guard
                case .subscribe(_, let assigned, _, _) = machine.received(
                    .subscribe(.with { $0.topics = [.roster] }), requestID: 3, now: 0)
            else { Issue.record("expected subscribe"); return }
            #expect(assigned == UInt64(id))
            machine.subscribed(assigned)
        }
        #expect(
            code(machine.received(.subscribe(.with { $0.topics = [.roster] }), requestID: 4, now: 0))
                == .resourceExhausted)
        #expect(
            code(machine.received(.unsubscribe(.with { $0.subscriptionID = 9 }), requestID: 5, now: 0)) == .notFound)
        #expect(
            machine.received(.unsubscribe(.with { $0.subscriptionID = 1 }), requestID: 6, now: 0)
                == .unsubscribe(subscriptionID: 1, requestID: 6))
        #expect(machine.subscriptions == [2])
    }

    @Test func anExpiredTokenClosesAtSubscribeAtTheNextEventAndAtTheSweep() {
        let expiring = Credential(tokenID: "t3", tenantID: "demo", role: .reader, expiresAt: 100)
        var atSubscribe = active(expiring)
        #expect(
            code(atSubscribe.received(.subscribe(.with { $0.topics = [.onDuty] }), requestID: 2, now: 100))
                == .unauthenticated)

        var atEvent = active(expiring)
        let beforeExpiry = atEvent.pushRefusal(now: 99)
        #expect(beforeExpiry == nil)
        let atExpiry = atEvent.pushRefusal(now: 100)
        #expect(code(atExpiry ?? .none) == .unauthenticated)
        var beforeHello = Machine(limits: Self.limits)
        let refusal = beforeHello.pushRefusal(now: 1)
        #expect(refusal == Machine.Action.none, "no pushes before Hello, and nothing to do")

        var atSweep = active(expiring)
        #expect(code(atSweep.livenessCheck(now: 100, liveness: .none, nonce: 1)) == .unauthenticated)
    }

    @Test func livenessPingsThenCloses() {
        var machine = active(reader)
        #expect(
            machine.livenessCheck(now: 0, liveness: .ping, nonce: 9)
                == .send(.ping(.with { $0.nonce = 9 }), requestID: 0))
        #expect(code(machine.livenessCheck(now: 0, liveness: .close(quietMillis: 450), nonce: 9)) == .deadlineExceeded)
    }

    @Test func revocationClosesOnlyTheRevokedToken() {
        var machine = active(reader)
        #expect(machine.credentialsRevoked(["other"]) == .none)
        #expect(code(machine.credentialsRevoked(["t1"])) == .unauthenticated)
    }

    @Test func goingAwayThenNothing() {
        var machine = active(reader)
        #expect(
            machine.goingAway(reason: "bye", retryAfterMillis: 10)
                == .send(
                    .goingAway(
                        .with {
                            $0.reason = "bye"; $0.retryAfterMs = 10
                        }), requestID: 0))
        #expect(machine.received(.listEmployees(.init()), requestID: 2, now: 0) == .none)
        #expect(
            machine.protocolError(WireError(.malformedFrame, "x"), requestID: 0) == .none,
            "lingering: errors are discarded")
    }

    @Test func aSlowConsumerCoalescesOnDutyResyncsRosterAndDrains() {
        var machine = active(reader)
        machine.subscribed(1)
        machine.subscribed(2)
        #expect(machine.push(.roster, to: 1, writable: true) == .write)
        #expect(machine.push(.roster, to: 1, writable: false) == .resyncWhenDrained)
        #expect(
            machine.push(.roster, to: 1, writable: true) == .drop, "a revision after a dropped one would leave a gap")
        #expect(machine.push(.progress, to: 1, writable: true) == .drop)
        #expect(machine.push(.onDuty, to: 2, writable: false) == .coalesce)
        #expect(machine.push(.progress, to: 2, writable: false) == .drop)
        let (flush, ended) = machine.drained()
        #expect(flush == [2] && ended == [1])
        #expect(machine.subscriptions == [2], "the resynced subscription is no longer this connection's")
        #expect(machine.push(.roster, to: 1, writable: true) == .drop)
        #expect(machine.push(.onDuty, to: 2, writable: true) == .writeAndFlush, "its only subscription now")
    }

    @Test func aConnectionsOnlySubscriptionIsFlushedAtOnceAndSeveralOnceByTheFanout() {
        var machine = active(reader)
        machine.subscribed(1)
        #expect(machine.push(.onDuty, to: 1, writable: true) == .writeAndFlush)
        #expect(machine.push(.roster, to: 1, writable: true) == .writeAndFlush)
        machine.subscribed(2)
        #expect(machine.push(.onDuty, to: 1, writable: true) == .write, "the fan-out flushes once after both")
        #expect(machine.push(.onDuty, to: 2, writable: true) == .write)
        #expect(machine.push(.onDuty, to: 3, writable: true) == .drop, "not this connection's")
        #expect(
            machine.received(.unsubscribe(.with { $0.subscriptionID = 1 }), requestID: 7, now: 0)
                == .unsubscribe(subscriptionID: 1, requestID: 7))
        #expect(machine.push(.onDuty, to: 2, writable: true) == .writeAndFlush)
    }
}
