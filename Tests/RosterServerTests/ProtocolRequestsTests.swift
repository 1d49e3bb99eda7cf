import RosterDomain
import RosterProtocol
@testable import RosterServerCore
import Testing

/// The protocol's request table, as plain values: who may send each request, where it goes, and
/// that the machine admits by it alone (one in-flight rule for every request off the loop).
@Suite(.timeLimit(.minutes(10))) struct ProtocolRequestsTests {
    typealias Machine = ConnectionStateMachine
    let reader = Credential(tokenID: "t1", tenantID: "demo", role: .reader)
    let person = Credential(tokenID: "t3", tenantID: "demo", role: .reader, employeeID: "e_ada")
    let admin = Credential(tokenID: "t2", tenantID: "demo", role: .admin)

    /// One of each request a client sends after Hello.
    static let requests: [RosterMessage] = [
        .ping(.init()), .pong(.init()), .subscribe(.with { $0.topics = [.onDuty] }), .unsubscribe(.init()),
        .getOnDuty(.init()), .getOnDuty(.with { $0.atMs = 1 }), .listEmployees(.init()), .search(.init()),
        .getEmployee(.init()),
        .listShifts(.init()), .getSnapshot(.init()), .listSchedules(.init()), .getNextOnDuty(.init()),
        .getFinalSchedule(
            .with {
                $0.fromMs = 0; $0.toMs = 86_400_000
            }), .setMotd(.init()), .upsertEmployee(.init()),
        .deleteEmployee(.init()), .addShift(.init()), .deleteShift(.init()), .importData(.init()),
        .editSchedule(.init()),
        .applyDefinition(.init()), .notificationAdmin(.init()), .getAudit(.init()), .getCalendar(.init()),
        .getReport(.init()),
    ]

    @Test func everyClientRequestHasOneRuleAndServerMessagesNone() throws {
        for message in Self.requests { #expect(ProtocolRequests.rule(message) != nil, "\(message.type)") }
        #expect(ProtocolRequests.rule(.hello(.init())) == nil)
        #expect(
            ProtocolRequests.rule(.welcome(.init())) == nil && ProtocolRequests.rule(.mutationResult(.init())) == nil)
        // The lanes: short for lookups and the two changes that resolve nothing; a window by length.
        #expect(
            TenantWorkPool.Lane.of(
                .getFinalSchedule(
                    .with {
                        $0.fromMs = 0; $0.toMs = 400 * 86_400_000
                    })) == .long)
        #expect(try #require(ProtocolRequests.rule(.getNextOnDuty(.init()))).lane == .long)
        #expect(try #require(ProtocolRequests.rule(.setMotd(.init()))).lane == .short)
    }

    /// A reader reads; a person may also work their own duty; only admins change the plan or
    /// read the audit log; each refusal says what it needs.
    @Test func whoMaySendWhatIsTheTablesRule() throws {
        func refusal(_ message: RosterMessage, _ credential: Credential) throws -> WireError? {
            ProtocolRequests.refusal(try #require(ProtocolRequests.rule(message)).who, message, credential: credential)
        }
        for message in Self.requests {
            #expect(try refusal(message, admin) == nil, "admins send everything: \(message.type)")
        }
        #expect(try refusal(.getFinalSchedule(.init()), reader) == nil && refusal(.getCalendar(.init()), reader) == nil)
        #expect(try refusal(.setMotd(.init()), reader)?.body.code == .permissionDenied)
        #expect(try refusal(.setMotd(.init()), person)?.body.message.contains("admin token") == true)
        #expect(try refusal(.editSchedule(.init()), person) == nil, "what a person may do is decided with the schedule")
        #expect(try refusal(.editSchedule(.init()), reader)?.body.code == .permissionDenied)
        #expect(try refusal(.getAudit(.init()), person)?.body.message.hasPrefix("the audit log is for admins") == true)
        #expect(try refusal(.applyDefinition(.init()), reader)?.body.message.contains(reader.described) == true)
        #expect(try refusal(.getReport(.with { $0.kind = .hours }), person) == nil, "their own hours")
        #expect(try refusal(.getReport(.with { $0.kind = .quality }), person)?.body.code == .permissionDenied)
        #expect(try refusal(.getReport(.with { $0.kind = .hours }), reader)?.body.code == .permissionDenied)
    }

    /// Every request that leaves the loop counts in flight, whichever path it takes; those
    /// answered on the loop never do.
    @Test func oneInFlightRuleForEveryPathOffTheLoop() {
        let limits = Machine.Limits(maxSubscriptions: 2, maxInFlight: 1, allowsAnonymous: true, defaultTenant: "demo")
        var hello = Roster_V1_Hello.with {
            $0.minVersion = 1; $0.maxVersion = 1
        }
        hello.token = "rst_x_y"
        for message in Self.requests {
            var machine = Machine(limits: limits)
            _ = machine.received(.hello(hello), requestID: 1, now: 0)
            _ = machine.authenticated(
                hello, tokenCredential: admin, tenantExists: { _ in true }, version: 1, requestID: 1)
            let first = machine.received(message, requestID: 2, now: 0)
            let second = machine.received(message, requestID: 3, now: 0)
            let offLoop = ProtocolRequests.rule(message)?.path != .onLoop
            switch second {
            case .sendError(let error, _) where error.body.code == .resourceExhausted:
                #expect(offLoop, "\(message.type) is answered on the loop and never counted")
            default:
                #expect(!offLoop, "\(message.type) was admitted twice with one allowed in flight: \(first), \(second)")
            }
        }
    }
}
