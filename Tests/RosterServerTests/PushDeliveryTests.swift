import Foundation
import RosterClient
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterServerCore
import RosterServer
import RosterTestSupport
import Testing

/// Push to phones from a real server (docs/PUSH.md) to the push service of
/// Fixtures/push_service.py on loopback, which checks each request as RFC 8030/8291/8292 say and
/// decrypts it with Python's `http_ece`: who is told what, the headers, and what each of the push
/// service's answers (201, 404, 410, 413, 429) does. The server runs on a manual clock.
@Suite(.timeLimit(.minutes(10))) struct PushDeliveryTests {
    static let contact = "mailto:oncall@example.com"

    struct People: Sendable {
        var team: ScheduleServerTests.Team
        var grace: RosterConnection
        var ada: RosterConnection
        var nobody: RosterConnection
        var all: [RosterConnection] { [team.admin, grace, ada, nobody] }
    }

    /// Ada is on duty from 2026-11-30 09:00 UTC, Alan from 12-01, Grace from 12-02, Linus from
    /// 12-03; the clock starts at 2026-11-30 12:00.
    static func withPeople(_ body: (People, ServerHarness, PushService) async throws -> Void) async throws {
        let service = try await PushService.start()
        try await withCleanup(service, cleanUp: { await $0.stop() }) { service in
            try await withServer(
                now: SelfServiceTests.now,
                configure: {
                    WebhookTests.configure(&$0)
                    // A week planned at the start: Grace's second turn (12-06) with no round between.
                    $0.notifications.planAhead = .seconds(7 * 86_400)
                    $0.limits.tokenRefresh = .milliseconds(50)
                    $0.notifications.pushContact = contact
                    $0.notifications.webURL = "https://roster.example.com"
                }
            ) { harness in
                let team = try await ScheduleServerTests.team(
                    harness, zone: "UTC",
                    every: .with {
                        $0.unit = .days; $0.count = 1
                    }, handoff: "2026-11-30T09:00")
                let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
                var tokens: [String] = []
                for person in ["Grace Hopper", "Ada Lovelace", nil] {
                    tokens.append(
                        try await administration.createToken(
                            tenant: "demo", role: .reader, expiresIn: nil, employee: person
                        )
                        .text)
                }
                await administration.close()
                let ready = await eventually(10) { (try? await harness.connect(token: tokens[2])) != nil }
                try #require(ready, "the server did not pick up the tokens")
                var connections: [RosterConnection] = []
                for token in tokens { connections.append(try await harness.connect(token: token)) }
                let people = People(team: team, grace: connections[0], ada: connections[1], nobody: connections[2])
                try await withCleanup(people, cleanUp: { for connection in $0.all { await connection.close() } }) {
                    people in
                    try await body(people, harness, service)
                }
            }
        }
    }

    static func push(_ connection: RosterConnection, _ request: Roster_V1_PushRequest) async throws
        -> Roster_V1_PushResponse
    {
        guard case .pushResult(let answer) = try await connection.request(.push(request)) else {
            throw TestFailure("expected PushResult")
        }
        return answer
    }

    static func subscribe(_ connection: RosterConnection, _ subscription: PushService.Subscription, label: String = "")
        async throws -> String
    {
        try await push(
            connection,
            .with {
                $0.add = .with {
                    $0.endpoint = subscription.endpoint
                    $0.p256Dh = subscription.p256dh
                    $0.auth = subscription.auth
                    $0.label = label
                }
            }
        ).subscriptionID
    }

    /// Ada asks Grace to cover an hour of hers starting `hour` hours after the clock's start.
    static func askGrace(_ people: People, hour: Int64) async throws {
        let start = SelfServiceTests.now + hour * 3_600_000
        _ = try await people.ada.admin(
            .editSchedule(
                .with {
                    $0.schedule = "Platform primary"
                    $0.coverRequest = .with {
                        $0.action = .open
                        $0.startMs = start
                        $0.endMs = start + 3_600_000
                        $0.addressedTo = ["Grace Hopper"]
                        $0.note = "hour \(hour)"
                    }
                }))
    }

    /// The attempts recorded for a subscription, newest first.
    static func attempts(_ people: People, _ id: String) async throws -> [Roster_V1_WebhookDelivery] {
        try await WebhookTests.notificationAdmin(people.team.admin, .with { $0.listDeliveries = id }).deliveries
    }

    @Test func theOneWhoComesOnDutyIsToldOnTheirPhoneAndTheMessageChecksOut() async throws {
        try await Self.withPeople { people, harness, service in
            let phone = try await service.subscribe("grace")
            let id = try await Self.subscribe(people.grace, phone, label: "Pixel 8")
            let listed = try await Self.push(people.grace, .with { $0.list = true })
            #expect(listed.subscriptions.map(\.id) == [id] && listed.subscriptions[0].label == "Pixel 8")
            #expect(listed.subscriptions[0].origin == service.base, "the origin, never the whole endpoint")
            #expect(listed.settings.kinds == ["on-duty", "cover-asked"], "on by default")
            #expect(listed.vapidPublicKey.count == 87, "65 bytes in base64url: PushManager's applicationServerKey")
            let tablet = try await Self.subscribe(people.grace, try await service.subscribe("grace-tablet"))

            // Alan's handoff (Ada → Alan) is not Grace's; hers is, a day later.
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-01T09:30:00Z")!)
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-02T09:00:00Z")!)
            let received = try await service.received("grace", count: 1)
            try #require(received.count == 1, "\(received.map(\.record))")
            let message = received[0]
            #expect(message.problems.isEmpty, "\(message.problems)")
            let payload = try #require(message.payload)
            #expect(payload["title"] as? String == "You are on call now")
            #expect(payload["body"] as? String == "You are on call for Platform primary until Thu 3 Dec 09:00 UTC.")
            #expect(payload["kind"] as? String == "on-duty" && payload["type"] as? String == "on-duty.changed")
            #expect(payload["url"] as? String == "/schedules/Platform%20primary")
            #expect((payload["id"] as? String)?.hasPrefix("evt_") == true, "the event's id, to drop a second copy")
            #expect(message.urgency == "high")
            #expect(message.ttl == 86_400, "stale when her duty ends, a day later")
            #expect(message.topic?.hasPrefix("duty-") == true)
            #expect(message.vapid?["sub"] as? String == Self.contact)

            // Her duty ends at Linus's handoff: that change concerns her, and tells her nothing.
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-03T09:00:00Z")!)
            let skipped = await eventually(10) {
                (try? await Self.attempts(people, id))?.contains { $0.error.contains("nothing in it") } == true
            }
            #expect(skipped, "the change that ends her duty is looked at and not sent")
            #expect(try await service.received("grace").count == 1)

            // Her phone removed, it hears no more; her tablet, still subscribed, hears her next turn.
            _ = try await Self.push(people.grace, .with { $0.remove = id })
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-06T09:00:00Z")!)
            let onTablet = try await service.received("grace-tablet", count: 2)
            #expect(onTablet.compactMap { $0.payload?["at"] as? Int64 }.last == 1_796_547_600_000, "12-06 09:00")
            #expect(try await service.received("grace").count == 1, "nothing after the removal")
            #expect(try await Self.push(people.grace, .with { $0.list = true }).subscriptions.map(\.id) == [tablet])
        }
    }

    @Test func eachAnswerOfThePushServiceDoesWhatItMeans() async throws {
        try await Self.withPeople { people, harness, service in
            let phone = try await service.subscribe("grace")
            let id = try await Self.subscribe(people.grace, phone)

            // 429 with Retry-After: tried again no sooner than asked, then delivered.
            try await service.answer("grace", with: [429], retryAfter: "120")
            try await Self.askGrace(people, hour: 2)
            var received = try await service.received("grace", count: 1)
            #expect(received.map(\.status) == [429])
            #expect(received.first?.payload?["title"] as? String == "Ada Lovelace asks you to cover")
            #expect(received.first?.urgency == "normal")
            // Retry-After counts from when the answer is recorded: the clock moves after that.
            let recorded = await eventually(20) {
                (try? await Self.attempts(people, id))?.contains { $0.status == 429 } == true
            }
            try #require(recorded, "the 429 is recorded")
            harness.clock.advance(to: harness.clock.now() + 60_000)
            #expect(try await service.received("grace", count: 2, within: 1).count == 1, "not before Retry-After")
            harness.clock.advance(to: harness.clock.now() + 61_000)
            received = try await service.received("grace", count: 2)
            try #require(received.map(\.status) == [429, 201])
            #expect(received[1].payload?["id"] as? String == received[0].payload?["id"] as? String, "the same notice")

            // 413: not sent again; the next notice goes on.
            try await service.answer("grace", with: [413])
            try await Self.askGrace(people, hour: 3)
            try await Self.askGrace(people, hour: 4)
            received = try await service.received("grace", count: 4)
            try #require(received.map(\.status) == [429, 201, 413, 201])
            #expect(
                received[3].payload?["body"] as? String == "Platform primary, Mon 30 Nov 16:00 UTC to 17:00 UTC: hour 4"
            )
            #expect(try await Self.attempts(people, id).first { $0.status == 413 }?.error.contains("too large") == true)

            // 410: the subscription is gone, and deleted.
            try await service.answer("grace", with: [410])
            try await Self.askGrace(people, hour: 5)
            let removed = await eventually(10) {
                (try? await Self.push(people.grace, .with { $0.list = true }))?.subscriptions.isEmpty == true
            }
            #expect(removed, "a 410 removes the subscription")
            try await Self.askGrace(people, hour: 6)
            #expect(try await service.received("grace", count: 6, within: 2).count == 5, "nothing after the 410")

            // 404 the same, for a second phone.
            let second = try await service.subscribe("grace-tablet")
            _ = try await Self.subscribe(people.grace, second)
            try await service.answer("grace-tablet", with: [404])
            try await Self.askGrace(people, hour: 7)
            let gone = await eventually(10) {
                (try? await Self.push(people.grace, .with { $0.list = true }))?.subscriptions.isEmpty == true
            }
            #expect(gone, "a 404 removes the subscription")
        }
    }

    @Test func subscriptionsArePeoplesOwnAndBadOnesAreRefused() async throws {
        try await Self.withPeople { people, _, service in
            let phone = try await service.subscribe("grace")
            let id = try await Self.subscribe(people.grace, phone)
            // Ada sees none of Grace's, nor can she remove it; the admin sees counts only.
            #expect(try await Self.push(people.ada, .with { $0.list = true }).subscriptions.isEmpty)
            let notHers = try await ScheduleServerTests.refusal(people.ada, .push(.with { $0.remove = id }))
            #expect(notHers.code == .notFound)
            let counts = try await Self.push(people.team.admin, .with { $0.list = true })
            #expect(counts.subscriptions.isEmpty && counts.peopleSubscribed == 1 && counts.webPushSubscriptions == 1)
            // The admin's webhooks are not people's subscriptions.
            let webhooks = try await WebhookTests.notificationAdmin(people.team.admin, .with { $0.listWebhooks = true })
            #expect(webhooks.webhooks.isEmpty)
            let notAWebhook = try await ScheduleServerTests.refusal(
                people.team.admin, .notificationAdmin(.with { $0.removeWebhook = id }))
            #expect(notAWebhook.code == .notFound)

            // A token naming nobody cannot subscribe.
            let nobody = try await ScheduleServerTests.refusal(
                people.nobody,
                .push(
                    .with {
                        $0.add = .with {
                            $0.endpoint = phone.endpoint; $0.p256Dh = phone.p256dh; $0.auth = phone.auth
                        }
                    }))
            #expect(nobody.code == .permissionDenied)
            // A key off the curve, a short auth secret, an unknown format, a non-URL.
            var offCurve = try #require(Base64URL.decode(phone.p256dh))
            offCurve[64] ^= 1
            for spec: Roster_V1_PushSubscriptionSpec in [
                .with {
                    $0.endpoint = phone.endpoint; $0.p256Dh = Base64URL.encode(offCurve); $0.auth = phone.auth
                },
                .with {
                    $0.endpoint = phone.endpoint; $0.p256Dh = phone.p256dh; $0.auth = "AAAA"
                },
                .with {
                    $0.endpoint = phone.endpoint; $0.format = "apns"
                },
                .with {
                    $0.endpoint = "not a url"; $0.p256Dh = phone.p256dh; $0.auth = phone.auth
                },
            ] {
                let refused = try await ScheduleServerTests.refusal(people.grace, .push(.with { $0.add = spec }))
                #expect(refused.code == .invalidArgument, "\(refused.message)")
            }
            // The same endpoint again replaces; ten are the most one person holds.
            let again = try await Self.subscribe(people.grace, phone)
            #expect(try await Self.push(people.grace, .with { $0.list = true }).subscriptions.map(\.id) == [again])
            for index in 1..<10 {
                _ = try await Self.subscribe(people.grace, try await service.subscribe("more\(index)"))
            }
            let tooMany = try await ScheduleServerTests.refusal(
                people.grace,
                .push(
                    .with {
                        $0.add = .with {
                            $0.endpoint = phone.endpoint + "x"; $0.p256Dh = phone.p256dh; $0.auth = phone.auth
                        }
                    }))
            #expect(tooMany.code == .resourceExhausted)
        }
    }

    @Test func quietHoursHoldAllButGoingOnDutyAndTheKindsAreThePersonsChoice() async throws {
        try await Self.withPeople { people, harness, service in
            let phone = try await service.subscribe("grace")
            let id = try await Self.subscribe(people.grace, phone)
            @Sendable func quiet(until hour: Int32) -> Roster_V1_PushRequest {
                .with {
                    $0.setSettings = .with {
                        $0.kinds = ["on-duty", "cover-asked"]
                        $0.quiet = true; $0.quietStartMinute = 13 * 60; $0.quietEndMinute = hour * 60
                        $0.quietZone = "UTC"
                    }
                }
            }
            // Quiet from 13:00 to 06:00 UTC (across midnight); the clock is at 12:00.
            _ = try await Self.push(people.grace, quiet(until: 6))
            harness.clock.advance(to: SelfServiceTests.now + 3_600_000)  // 13:00: quiet
            try await Self.askGrace(people, hour: 20)  // for 2026-12-01 08:00
            let held = await eventually(10) {
                (try? await Self.attempts(people, id))?.contains { $0.error.contains("held: quiet hours") } == true
            }
            #expect(held)
            #expect(try await service.received("grace").isEmpty)
            // The held request goes when the quiet hours end.
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-01T06:00:00Z")!)
            let request = try await service.received("grace", count: 1)
            #expect(request.first?.payload?["kind"] as? String == "cover-asked")
            // Going on duty rings through quiet hours (13:00 to 10:00 now covers her 09:00 handoff).
            _ = try await Self.push(people.grace, quiet(until: 10))
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-02T09:00:00Z")!)
            let duty = try await service.received("grace", count: 2)
            #expect(duty.last?.payload?["kind"] as? String == "on-duty", "going on duty rings through quiet hours")

            // Turned off, a kind is not sent: Ada's next request stays off Grace's phone.
            _ = try await Self.push(people.grace, .with { $0.setSettings = .with { $0.kinds = ["on-duty"] } })
            let settings = try await Self.push(people.grace, .with { $0.list = true }).settings
            #expect(settings.kinds == ["on-duty"] && !settings.quiet)
            let bad = try await ScheduleServerTests.refusal(
                people.grace, .push(.with { $0.setSettings = .with { $0.kinds = ["everything"] } }))
            #expect(bad.code == .invalidArgument)
        }
    }

    @Test func anNtfyTopicGetsAPlainPublish() async throws {
        try await Self.withPeople { people, harness, service in
            _ = try await Self.push(
                people.grace,
                .with {
                    $0.add = .with {
                        $0.endpoint = service.base + "/grace-oncall"
                        $0.format = "ntfy"
                    }
                })
            harness.clock.advance(to: TimeText.parseISO8601("2026-12-02T09:00:00Z")!)
            let published = try await service.received("ntfy:grace-oncall", count: 1)
            let publish = try #require(published.first?.publish)
            #expect(publish["title"] as? String == "You are on call now")
            #expect(publish["message"] as? String == "You are on call for Platform primary until Thu 3 Dec 09:00 UTC.")
            #expect(publish["priority"] as? Int == 5)
            #expect(
                publish["click"] as? String == "https://roster.example.com/schedules/Platform%20primary", "--web-url")
            #expect(publish["tags"] as? [String] == ["on-duty"])
        }
    }

    @Test func pywebpushAgainstTheSamePushServiceProvesTheHarness() async throws {
        let service = try await PushService.start()
        try await withCleanup(service, cleanUp: { await $0.stop() }) { service in
            let child = try ChildProcess("/usr/bin/env", ["python3", PushService.script, "prove", "\(service.port)"])
            guard await child.waitForExit(timeout: .seconds(60)) == 0 else {
                await child.stop(signal: SIGKILL)
                throw TestFailure("push_service.py prove: \(child.output)")
            }
            let answer = try #require(
                try JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [String: [[String: Any]]])
            let proper = try #require(answer["pywebpush"]?.first)
            #expect((proper["problems"] as? [String])?.isEmpty == true, "\(proper)")
            #expect((proper["payload"] as? [String: Any])?["title"] as? String == "from pywebpush")
            // The checks can fail: a forged request is found out on every count.
            let forged = try #require(answer["forged"]?.first?["problems"] as? [String])
            #expect(forged.contains { $0.hasPrefix("TTL") } && forged.contains { $0.hasPrefix("Urgency") })
            #expect(forged.contains { $0.contains("vapid") } && forged.contains { $0.contains("decrypt") })
        }
    }
}
