import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// Self-service on a real server (issue #34): people take duty and ask for cover with tokens
/// that name them; the first taker wins; the requester cancels and the plan is as before; a
/// request nobody takes expires at its start; webhooks hear each step in order.
@Suite(.timeLimit(.minutes(10))) struct SelfServiceTests {
    static let hour: Int64 = 3_600_000
    /// Monday 2026-11-30 12:00 UTC. A daily rotation of Ada, Alan, Grace and Linus from 09:00
    /// that day: Grace is on duty from Wednesday 09:00 to Thursday 09:00.
    static let now = TimeText.parseISO8601("2026-11-30T12:00:00Z")!
    static let graceFrom = TimeText.parseISO8601("2026-12-02T09:00:00Z")!
    static let graceTo = TimeText.parseISO8601("2026-12-03T09:00:00Z")!

    struct People {
        var team: ScheduleServerTests.Team
        var grace, ada, alan, nobody: RosterConnection
        var all: [RosterConnection] { [team.admin, grace, ada, alan, nobody] }
    }

    /// The team, a webhook for every request event, and a connection for each person's token
    /// (and one for a reader token that names nobody).
    static func withPeople(_ body: (People, ServerHarness, WebhookReceiver) async throws -> Void) async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(
                now: now,
                configure: {
                    WebhookTests.configureThreeDaysAhead(&$0)
                    $0.limits.tokenRefresh = .milliseconds(50)
                }
            ) { harness in
                let team = try await ScheduleServerTests.team(
                    harness, zone: "UTC",
                    every: .with {
                        $0.unit = .days; $0.count = 1
                    },
                    handoff: "2026-11-30T09:00")
                _ = try await WebhookTests.addWebhook(
                    team.admin, url: receiver.url,
                    events: ["request.opened", "request.taken", "request.cancelled", "request.expired"])
                let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
                var tokens: [String] = []
                for person in ["Grace Hopper", "Ada Lovelace", "Alan Turing", nil] {
                    tokens.append(
                        try await administration.createToken(
                            tenant: "demo", role: .reader, expiresIn: nil, employee: person
                        ).text)
                }
                await administration.close()
                let ready = await eventually(10) { (try? await harness.connect(token: tokens[3])) != nil }
                try #require(ready, "the server did not pick up the tokens")
                var connections: [RosterConnection] = []
                for token in tokens { connections.append(try await harness.connect(token: token)) }
                let people = People(
                    team: team, grace: connections[0], ada: connections[1], alan: connections[2], nobody: connections[3]
                )
                try await withCleanup(people, cleanUp: { for connection in $0.all { await connection.close() } }) {
                    people in
                    try await body(people, harness, receiver)
                }
            }
        }
    }

    static func cover(
        _ action: Roster_V1_CoverRequestEdit.Action, _ id: String = "", from: UnixMillis = 0, to: UnixMillis = 0,
        person: String = ""
    ) -> RosterMessage {
        .editSchedule(
            .with {
                $0.schedule = action == .open ? "Platform primary" : ""
                $0.coverRequest = .with {
                    $0.action = action
                    $0.requestID = id
                    $0.startMs = from
                    $0.endMs = to
                    $0.person = person
                    $0.note = action == .open ? "dentist" : ""
                }
            })
    }

    static func requests(_ connection: RosterConnection) async throws -> [Roster_V1_CoverRequest] {
        guard case .schedules(let answer) = try await connection.request(.listSchedules(.init())) else {
            throw TestFailure("expected Schedules")
        }
        return answer.schedules.flatMap(\.requests)
    }

    static func onDuty(_ connection: RosterConnection, at instant: UnixMillis) async throws -> [Roster_V1_ResolvedShift]
    {
        try await ScheduleServerTests.final(
            connection, "Platform primary", from: TimeText.iso8601(instant),
            to: TimeText.iso8601(instant + 1_000))
    }

    @Test func theFirstTakerWinsTheOverrideNamesTheRequestAndACancelRestoresThePlan() async throws {
        try await Self.withPeople { people, harness, receiver in
            let opened = try await people.grace.admin(Self.cover(.open, from: Self.graceFrom, to: Self.graceTo))
            let id = try #require(opened.ids.dropFirst().first)
            #expect(id.hasPrefix("req_"))

            // A reader whose token names nobody sees the request and may not take it.
            #expect(try await Self.requests(people.nobody).map(\.id) == [id])
            let refused = try await ScheduleServerTests.refusal(people.nobody, Self.cover(.take, id))
            #expect(
                refused.code == .permissionDenied && refused.message.contains("bound to a person"), "\(refused.message)"
            )
            // Grace cannot take or decline her own request, nor Ada cancel it: the wrong person for a
            // step is PERMISSION_DENIED, whatever the step.
            #expect(
                try await ScheduleServerTests.refusal(people.grace, Self.cover(.take, id)).code == .permissionDenied)
            #expect(
                try await ScheduleServerTests.refusal(people.grace, Self.cover(.decline, id)).code == .permissionDenied)
            #expect(
                try await ScheduleServerTests.refusal(people.ada, Self.cover(.cancel, id)).code == .permissionDenied)

            // Ada and Alan take it at the same instant: exactly one of them gets it.
            @Sendable func take(_ connection: RosterConnection) async -> Result<Roster_V1_MutationResult, any Error> {
                do { return .success(try await connection.admin(Self.cover(.take, id))) } catch {
                    return .failure(error)
                }
            }
            async let byAda = take(people.ada)
            async let byAlan = take(people.alan)
            let results = await [("Ada Lovelace", byAda), ("Alan Turing", byAlan)]
            let winners = results.filter { (try? $0.1.get()) != nil }.map(\.0)
            try #require(winners.count == 1, "\(results)")
            let winner = winners[0]
            for (_, result) in results {
                guard case .failure(RosterClientError.server(let error)) = result else { continue }
                #expect(
                    error.code == .failedPrecondition && error.message.contains("already taken by \(winner)"),
                    "\(error.message)")
            }

            // The stretch is the winner's, through an override whose source names the request.
            let taken = try await Self.onDuty(people.team.admin, at: Self.graceFrom + Self.hour)
            #expect(taken.map { $0.employee.firstName + " " + $0.employee.lastName } == [winner])
            #expect(taken.first?.sourceKind == .override && taken.first?.overrideSource == "request:\(id)")
            let stored = try #require(try await Self.requests(people.ada).first)
            #expect(
                stored.state == .taken
                    && stored.taker == (winner == "Ada Lovelace" ? people.team.ada : people.team.alan))
            let loser = winner == "Ada Lovelace" ? people.alan : people.ada
            let notTheTaker = try await ScheduleServerTests.refusal(loser, Self.cover(.backOut, id))
            #expect(
                notTheTaker.code == .permissionDenied && notTheTaker.message.contains("taken by \(winner)"),
                "\(notTheTaker.message)")

            // Grace cancels before the stretch: she is on duty again, as the rotation says.
            _ = try await people.grace.admin(Self.cover(.cancel, id))
            let restored = try await Self.onDuty(people.team.admin, at: Self.graceFrom + Self.hour)
            #expect(restored.map(\.employeeID) == [people.team.grace] && restored.first?.sourceKind == .rotation)
            #expect(
                try await ScheduleServerTests.refusal(people.ada, Self.cover(.take, id)).message.contains(
                    "was cancelled"))

            // The webhook heard opened, taken and cancelled, in that order, each naming the request.
            try await receiver.wait("three request events") { $0.count >= 3 }
            let events = receiver.requests
            #expect(events.map(\.eventType) == ["request.opened", "request.taken", "request.cancelled"])
            for event in events {
                let data = event.json["data"] as? [String: Any] ?? [:]
                #expect(
                    data["request"] as? String == id
                        && (data["requester"] as? [String: Any])?["name"] as? String == "Grace Hopper")
            }
            let cancelled = events.last?.json["data"] as? [String: Any] ?? [:]
            #expect(
                (cancelled["taker"] as? [String: Any])?["name"] as? String == winner, "the one who had it is told too")
            // Nothing is planned for a request that is closed: its start passes without an event.
            harness.clock.advance(to: Self.graceFrom + 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(receiver.requests.count == 3)
        }
    }

    @Test func aRequestNobodyTakesExpiresWhenItsStretchBegins() async throws {
        try await Self.withPeople { people, harness, receiver in
            let opened = try await people.grace.admin(
                Self.cover(.open, from: Self.graceFrom, to: Self.graceFrom + 3 * Self.hour))
            let id = try #require(opened.ids.dropFirst().first)
            // Ada declines; Alan takes and backs out: the request is open again.
            _ = try await people.ada.admin(Self.cover(.decline, id))
            _ = try await people.alan.admin(Self.cover(.take, id))
            _ = try await people.alan.admin(Self.cover(.backOut, id))
            let reopened = try #require(try await Self.requests(people.grace).first)
            #expect(reopened.state == .open && reopened.declinedBy == [people.team.ada] && reopened.taker.isEmpty)
            #expect(
                try await Self.onDuty(people.team.admin, at: Self.graceFrom).map(\.employeeID) == [people.team.grace])

            harness.clock.advance(to: Self.graceFrom)
            try await receiver.wait("the expiry") { $0.contains { $0.eventType == "request.expired" } }
            #expect(
                receiver.requests.map(\.eventType) == [
                    "request.opened", "request.taken", "request.opened", "request.expired",
                ])
            #expect((receiver.requests[2].json["data"] as? [String: Any])?["reopened"] as? Bool == true)
            let refused = try await ScheduleServerTests.refusal(people.alan, Self.cover(.take, id))
            #expect(refused.code == .failedPrecondition && refused.message.contains("expired"), "\(refused.message)")
            // The wire keeps what is stored; the state at an instant is the reader's rule.
            let stored = try #require(try await Self.requests(people.grace).first)
            #expect(CoverRequest(stored).state(at: harness.clock.now()) == .expired)
        }
    }

    @Test func takingDutyPutsThePersonOnAloneAndTheRulesAreClear() async throws {
        try await Self.withPeople { people, harness, _ in
            // An admin has put Linus on duty beside Ada for three hours.
            _ = try await people.team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .add; $0.employeeID = "Linus Torvalds"; $0.startMs = Self.now;
                            $0.endMs = Self.now + 3 * Self.hour
                        }
                    }))
            // Under way: Ada is on duty now (Monday's turn); Grace takes the next two hours. Linus's
            // override is cut out of them (it overlaps, on a person the take changes).
            let took = try await people.grace.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.takeDuty = .with {
                            $0.startMs = Self.now - Self.hour; $0.endMs = Self.now + 2 * Self.hour;
                            $0.reason = "swap lunch"
                        }
                    }))
            #expect(took.ids.count == 3, "the schedule, an add for Grace, a remove for Ada: \(took.ids)")
            let during = try await Self.onDuty(people.team.admin, at: Self.now + Self.hour)
            #expect(
                during.map(\.employeeID) == [people.team.grace]
                    && during.first?.overrideSource == "take:\(people.team.grace)")
            #expect(
                Set(try await Self.onDuty(people.team.admin, at: Self.now + 5 * Self.hour / 2).map(\.employeeID))
                    == [people.team.ada, people.team.linus], "after the take, Linus's override goes on")
            #expect(
                try await Self.onDuty(people.team.admin, at: Self.now + 3 * Self.hour).map(\.employeeID) == [
                    people.team.ada
                ])

            // Cover for duty she holds through her take is not what a request replaces.
            let overTake = try await ScheduleServerTests.refusal(
                people.grace,
                Self.cover(
                    .open, from: Self.now + Self.hour,
                    to: Self.now + 2 * Self.hour))
            #expect(
                overTake.code == .failedPrecondition && overTake.message.contains("take --undo"), "\(overTake.message)")

            // Half an hour later Grace undoes it: Ada is back from now, the half hour stays Grace's.
            let minute: Int64 = 60_000
            harness.clock.advance(to: Self.now + 30 * minute)
            let undo = RosterMessage.editSchedule(
                .with {
                    $0.schedule = "Platform primary"
                    $0.takeDuty = .with {
                        $0.startMs = Self.now; $0.endMs = Self.now + 2 * Self.hour; $0.undo = true
                    }
                })
            _ = try await people.grace.admin(undo)
            #expect(
                try await Self.onDuty(people.team.admin, at: Self.now + Self.hour).map(\.employeeID) == [
                    people.team.ada
                ])
            #expect(
                try await Self.onDuty(people.team.admin, at: Self.now + 10 * minute).map(\.employeeID) == [
                    people.team.grace
                ],
                "the past stays as it was")
            #expect(try await ScheduleServerTests.refusal(people.grace, undo).code == .notFound, "nothing left to undo")
            #expect(
                try await ScheduleServerTests.refusal(people.ada, undo).code == .notFound,
                "Ada undoes only her own takes")

            // Refusals say why.
            let notYours = try await ScheduleServerTests.refusal(
                people.ada, Self.cover(.open, from: Self.graceFrom, to: Self.graceTo))
            #expect(
                notYours.code == .permissionDenied && notYours.message.contains("not Ada Lovelace's"),
                "\(notYours.message)")
            let started = try await ScheduleServerTests.refusal(
                people.grace, Self.cover(.open, from: Self.now - Self.hour, to: Self.now + Self.hour))
            #expect(started.code == .failedPrecondition && started.message.contains("already started"))
            let forOthers = try await ScheduleServerTests.refusal(
                people.ada,
                Self.cover(
                    .open, from: Self.graceFrom, to: Self.graceTo,
                    person: "Grace Hopper"))
            #expect(forOthers.code == .permissionDenied && forOthers.message.contains("only an admin"))
            // An admin acts for Grace, and the audit says who for whom.
            let forGrace = try await people.team.admin.admin(
                Self.cover(.open, from: Self.graceFrom, to: Self.graceTo, person: "Grace Hopper"))
            // The schedule's newest entry: the tokens' entries are stamped by the wall clock, later
            // than this server's set clock.
            let newest = RosterMessage.getAudit(
                .with {
                    $0.schedule = "Platform primary"
                    $0.limit = 1
                })
            guard case .audit(let audit) = try await people.team.admin.request(newest) else {
                throw TestFailure("expected the audit")
            }
            #expect(
                audit.entries.last?.reason.hasPrefix("Grace Hopper (by ") == true
                    && audit.entries.last?.reason.contains("asks for cover (\(forGrace.ids[1]))") == true,
                "\(audit.entries.last?.reason ?? "")")
            // Linus takes no part in a schedule that does not name him… he does; a new person does not.
            _ = try await people.team.admin.addEmployee("Margaret", "Hamilton")
            let outsider = try await ScheduleServerTests.refusal(
                people.team.admin,
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.takeDuty = .with {
                            $0.startMs = Self.graceFrom; $0.endMs = Self.graceTo
                        }
                    }))
            #expect(outsider.code == .permissionDenied && outsider.message.contains("names no person"))
            // Self-service off: a person is refused; an admin still acts for them.
            _ = try await people.team.admin.admin(
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.id = people.team.scheduleID; $0.name = "Platform primary"; $0.zone = "UTC";
                            $0.selfServiceOff = true
                        }
                    }))
            let off = try await ScheduleServerTests.refusal(people.alan, Self.cover(.take, forGrace.ids[1]))
            #expect(off.code == .permissionDenied && off.message.contains("self-service is off"), "\(off.message)")
            _ = try await people.team.admin.admin(Self.cover(.take, forGrace.ids[1], person: "Alan Turing"))
            #expect(try await Self.requests(people.grace).first { $0.id == forGrace.ids[1] }?.state == .taken)
            _ = harness
        }
    }
}
