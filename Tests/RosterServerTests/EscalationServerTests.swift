import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// Escalation answers on a real server (issue #56): each step at an instant and along a page's
/// timeline (a handoff during the page changes step 2 only), over the protocol, from the
/// client's cache offline (the same answer), and over HTTP as the JSON the CLI prints; and the
/// refusals.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EscalationServerTests {
    /// Monday 2026-11-30 12:00 UTC.
    static let now: UnixMillis = 1_796_040_000_000
    static let minute: Int64 = 60_000

    /// Primary hands Ada → Alan daily at 09:00; Secondary hands Grace → Linus daily at 12:30.
    static let definition = """
        version: 1
        people:
          - {id: ada, firstName: Ada, lastName: Lovelace}
          - {id: alan, firstName: Alan, lastName: Turing}
          - {id: grace, firstName: Grace, lastName: Hopper}
          - {id: linus, firstName: Linus, lastName: Torvalds}
        schedules:
          - id: primary
            name: Primary
            zone: UTC
            layers:
              - level: 0
                rotations:
                  - {id: p, people: [Ada Lovelace, Alan Turing], every: 1d, handoff: "2026-11-30T09:00"}
          - id: secondary
            name: Secondary
            zone: UTC
            layers:
              - level: 0
                rotations:
                  - {id: s, people: [Grace Hopper, Linus Torvalds], every: 1d, handoff: "2026-11-29T12:30"}
        escalationPolicies:
          - id: payments
            name: Payments
            repeat: 1
            steps:
              - delayMinutes: 10
                targets: [{schedule: Primary}]
              - delayMinutes: 20
                targets: [{schedule: Secondary}]
              - delayMinutes: 5
                targets: [{person: Ada Lovelace}]
        services:
          - {id: api, name: Payments API, policy: Payments}
        """

    static func people(_ answer: Roster_V1_EscalationResponse) -> [String] {
        answer.steps.map { step in
            "\(step.index + 1).\(step.round) \((step.atMs - now) / minute) "
                + step.people.map { $0.employee.id + ($0.scheduleID.isEmpty ? "" : "@" + $0.scheduleID) }
                .joined(separator: ",")
        }
    }

    static func withTenant(_ body: (ServerHarness, RosterClient) async throws -> Void) async throws {
        try await HTTPTests.withHTTPServer(now: Self.now) { harness, _ in
            try await DefinitionApplyTests.withClient(harness) { client in
                let applied = try await DefinitionApplyTests.apply(client, Self.definition)
                #expect(applied.committed)
                try await body(harness, client)
            }
        }
    }

    @Test func eachStepAtAnInstantAndAlongThePage() async throws {
        try await Self.withTenant { _, client in
            let now = try await client.escalation(EscalationQuery(service: "payments api"))
            #expect(now.service.id == "api" && now.policy.id == "payments" && now.atMs == Self.now)
            #expect(Self.people(now) == ["1.0 0 ada@primary", "2.0 0 grace@secondary", "3.0 0 ada"])
            #expect(now.steps.map { $0.hasUntilMs ? ($0.untilMs - Self.now) / Self.minute : -1 } == [21 * 60, 30, -1])
            // A page from 12:15: step 2 at 12:25 is Grace's; in the repeat it is 13:00, Linus's.
            let page = try await client.escalation(
                EscalationQuery(policy: "Payments", at: Self.now + 15 * Self.minute, simulate: true))
            #expect(
                Self.people(page) == [
                    "1.0 15 ada@primary", "2.0 25 grace@secondary", "3.0 45 ada",
                    "1.1 50 ada@primary", "2.1 60 linus@secondary", "3.1 80 ada",
                ])
            #expect(!page.hasService)
        }
    }

    @Test func theCacheAnswersOfflineAsTheServerDoes() async throws {
        try await Self.withTenant { _, client in
            let roster = try await client.refreshCache()
            let start: UnixMillis = Self.now - 200 * Self.minute
            let end: UnixMillis = Self.now + 3_000 * Self.minute
            for at in stride(from: start, to: end, by: Int(97 * Self.minute)) {
                for simulate in [false, true] {
                    let query = EscalationQuery(service: "Payments API", at: at, simulate: simulate)
                    let online = try await client.escalation(query)
                    #expect(try roster.escalation(query, now: at) == online, "at \(TimeText.iso8601(at))")
                }
            }
        }
    }

    @Test func overHTTPTheJSONTheCLIPrints() async throws {
        try await Self.withTenant { harness, client in
            let base = "http://127.0.0.1:\(try #require(harness.server.httpPort))"
            let at = TimeText.iso8601(Self.now + 15 * Self.minute)
            let reply = try await HTTPGet.request(
                base + "/v1/services/Payments%20API/oncall?at=\(at)&simulate=true", token: harness.adminToken)
            #expect(reply.status == 200, "\(reply.body)")
            let answer = try JSONDecoder().decode(EscalationJSON.Answer.self, from: Data(reply.body.utf8))
            let wire = try await client.escalation(
                EscalationQuery(service: "api", at: Self.now + 15 * Self.minute, simulate: true))
            let names = ["primary": "Primary", "secondary": "Secondary"]
            #expect(answer == EscalationJSON.answer(wire, scheduleName: { names[$0] ?? $0 }))
            #expect(answer.oncalls.count == 6 && answer.oncalls[4].user.name == "Linus Torvalds")
            #expect(answer.oncalls[4].escalationLevel == 2 && answer.oncalls[4].schedule?.name == "Secondary")
            let policy = try await HTTPGet.request(
                base + "/v1/escalation-policies/payments/oncall", token: harness.adminToken)
            #expect(policy.status == 200 && policy.json["service"] == nil)
            let missing = try await HTTPGet.request(base + "/v1/services/Ledger/oncall", token: harness.adminToken)
            #expect(
                missing.status == 404 && missing.body.contains("service \\\"Ledger\\\" not found"), "\(missing.body)")
            let bad = try await HTTPGet.request(
                base + "/v1/services/api/oncall?simulate=yes", token: harness.adminToken)
            #expect(bad.status == 400 && bad.body.contains("simulate is true or false"))
            let anonymous = try await HTTPGet.request(base + "/v1/services/api/oncall")
            #expect(anonymous.status == 401)
        }
    }

    /// `report quality --policy`: each step's coverage from the plan, the step naming Ada alone,
    /// nothing uncovered; over the protocol and as /v1/reports/quality's JSON and CSV.
    @Test func aPolicysQualityOverTheProtocolAndHTTP() async throws {
        try await Self.withTenant { harness, client in
            let (from, to) = (Self.now, Self.now + 2 * 86_400_000)
            let report = try await client.report(
                .with {
                    $0.kind = .quality
                    $0.policy = "payments"
                    $0.fromMs = from
                    $0.toMs = to
                })
            let quality = report.policyQuality
            #expect(quality.policyName == "Payments" && report.zone == "UTC")
            #expect(quality.steps.map(\.coveredMs) == [to - from, to - from, to - from])
            #expect(quality.steps.map(\.onlyPersonName) == ["", "", "Ada Lovelace"])
            #expect(quality.uncovered.isEmpty && quality.uncoveredHours.nightMs == 0)
            await #expect(throws: RosterClientError.self) {
                _ = try await client.report(
                    .with {
                        $0.kind = .quality
                        $0.policy = "Pay"
                        $0.fromMs = from
                        $0.toMs = to
                    })
            }
            let base =
                "http://127.0.0.1:\(try #require(harness.server.httpPort))/v1/reports/quality?policy=Payments"
                + "&from=\(TimeText.iso8601(from))&to=\(TimeText.iso8601(to))"
            let json = try await HTTPGet.request(base, token: harness.adminToken)
            let steps = json.json["steps"] as? [[String: Any]]
            #expect(json.status == 200 && json.json["policy_name"] as? String == "Payments", "\(json.body)")
            #expect((steps?[2]["only_person"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
            let csv = try await HTTPGet.request(base + "&format=csv", token: harness.adminToken)
            #expect(
                csv.status == 200 && csv.body.hasPrefix("level,coverage_percent,covered_hours,gaps,only_person\r\n"))
            #expect(csv.body.contains("3,100.00,48.00,0,Ada Lovelace\r\n"), "\(csv.body)")
            let missing = try await HTTPGet.request(
                "http://127.0.0.1:\(try #require(harness.server.httpPort))/v1/reports/quality?policy=Ledger"
                    + "&from=\(TimeText.iso8601(from))&to=\(TimeText.iso8601(to))", token: harness.adminToken)
            #expect(missing.status == 404 && missing.body.contains("escalation policy"), "\(missing.body)")
        }
    }

    /// A follower whose server goes away hears so (`watch --service` says it on stderr) and
    /// keeps trying, rather than waiting in silence.
    @Test func aLostConnectionIsSaidWhileTheStreamTriesAgain() async throws {
        try await withServer(now: Self.now) { harness in
            try await DefinitionApplyTests.withClient(harness) { client in
                #expect(try await DefinitionApplyTests.apply(client, Self.definition).committed)
                let updates = await client.escalationUpdates(
                    services: ["Payments API"], policies: [], retry: .milliseconds(100))
                let (stream, feed) = AsyncStream.makeStream(of: EscalationUpdate.self)
                let reading = Task {
                    do { for try await update in updates { feed.yield(update) } } catch {}
                    feed.finish()
                }
                defer { reading.cancel() }
                let inbox = AsyncInbox(stream)
                guard case .changed(let initial) = try await inbox.nextElement() else {
                    throw TestFailure("expected the INITIAL push first")
                }
                #expect(initial.cause == .escalationInitial)
                await harness.stop()
                // Pushes sent before the stop may still be on their way (on two busy cores a
                // push or a liveness reconnection's INITIAL has come after the stop was asked):
                // what must come is word of the lost connection.
                func nextDisconnection() async throws -> String {
                    while true {
                        switch try await inbox.nextElement() {
                        case .disconnected(let reason): return reason
                        case .changed: continue
                        }
                    }
                }
                #expect(!(try await nextDisconnection()).isEmpty)
                // Still trying: the next attempt, refused, is said too.
                #expect(!(try await nextDisconnection()).isEmpty)
            }
        }
    }

    @Test func unknownNamesAndBadQuestionsAreRefusedEachWithItsWords() async throws {
        try await Self.withTenant { _, client in
            func refusal(_ query: EscalationQuery) async -> Roster_V1_Error? {
                do {
                    _ = try await client.escalation(query)
                    return nil
                } catch RosterClientError.server(let error) {
                    return error
                } catch {
                    return nil
                }
            }
            let unknown = await refusal(EscalationQuery(service: "Payments"))
            #expect(
                unknown?.code == .notFound && unknown?.suggestions == ["Payments API"], "\(String(describing: unknown))"
            )
            let both = await refusal(EscalationQuery(service: "api", policy: "payments"))
            #expect(both?.code == .invalidArgument && both?.message.contains("one of them") == true)
            let neither = await refusal(EscalationQuery())
            #expect(neither?.code == .invalidArgument)
            let far = await refusal(
                EscalationQuery(policy: "payments", at: TimeRange.supported.upperBound, simulate: true))
            #expect(far?.code == .invalidArgument && far?.message.contains("9999") == true)
            // The connection still answers.
            let still = try await client.escalation(EscalationQuery(policy: "payments"))
            #expect(still.steps.count == 3)
        }
    }
}
