import Foundation
import RosterClient
import RosterDomain
@testable import RosterNotifications
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTestSupport
import RosterTLS
import Testing

/// Chat (docs/CHAT.md): each platform's payload as its documentation shapes it, received by a
/// real HTTP receiver on loopback; announcements at a local time across a DST change and
/// coalesced on change; "/oncall" answered only to requests the platform signed.
@Suite(.timeLimit(.minutes(10))) struct ChatTests {
    /// 2026-11-30T07:59Z: a minute before Ada's first week on Platform primary (09:00 Berlin).
    static let beforeAdasWeek: UnixMillis = 1_796_025_540_000
    static let handles = [
        "slack": "U0ADA", "mattermost": "ada", "teams": "ada@example.com", "matrix": "@ada:example.org",
        "discord": "80351110224678912",
    ]

    static func giveAdaHandles(_ admin: RosterConnection, _ ada: String) async throws {
        guard case .employee(let found) = try await admin.request(.getEmployee(.with { $0.idOrName = ada })) else {
            throw TestFailure("no Ada")
        }
        var employee = found.employee
        employee.chat = handles
        try await admin.admin(.upsertEmployee(.with { $0.employee = employee }))
    }

    @Test func eachFormatPostsThePlatformsShapeAtTheHandoff() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(now: Self.beforeAdasWeek, configure: WebhookTests.configure) { harness in
                let team = try await ScheduleServerTests.team(harness)
                try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                    try await Self.giveAdaHandles(admin, team.ada)
                    let base = "http://127.0.0.1:\(receiver.port)"
                    for format in ["slack", "mattermost", "teams", "discord", "matrix"] {
                        let url =
                            format == "matrix"
                            ? "\(base)/_matrix/client/v3/rooms/%21room%3Aexample.org" : "\(base)/\(format)"
                        let answer = try await WebhookTests.notificationAdmin(
                            admin,
                            .with {
                                $0.addWebhook = .with {
                                    $0.url = url; $0.events = ["on-duty.changed"]; $0.format = format
                                    if format == "matrix" { $0.accessToken = "syt_bot_token" }
                                }
                            })
                        #expect(answer.secret.isEmpty, "a chat webhook has no signing secret to show")
                        #expect(answer.webhooks.first?.format == format)
                    }
                    harness.clock.advance(by: 60_000)  // Ada's week begins
                    try await receiver.wait("a post per format") { $0.count >= 5 }
                    try Self.checkShapes(receiver.requests)
                }
            }
        }
    }

    static func checkShapes(_ requests: [WebhookReceiver.Request]) throws {
        func post(_ prefix: String) throws -> WebhookReceiver.Request {
            try #require(requests.first { $0.path.hasPrefix(prefix) }, "no post to \(prefix)")
        }
        for request in requests {
            #expect(request.headers["roster-signature"] == nil, "chat posts keep the platform's own authentication")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["roster-delivery"]?.hasPrefix("evt_") == true, "a post carries its delivery id")
            #expect(request.headers["idempotency-key"] == request.headers["roster-delivery"])
        }
        let slack = try post("/slack").json
        let slackText = try #require(slack["text"] as? String)
        #expect(
            slackText.hasPrefix(
                "Ada Lovelace (<@U0ADA>) is on call for Platform primary until <!date^1796630400^{date_short_pretty} {time}|"
            ))
        #expect(slackText.contains("next: Alan Turing") && slackText.hasSuffix("(handoff)"))

        let mattermost = try post("/mattermost").json
        #expect(
            mattermost["text"] as? String
                == "Ada Lovelace (@ada) is on call for Platform primary until Mon 7 Dec 09:00 CET; next: Alan Turing (handoff)"
                || (mattermost["text"] as? String)?.hasPrefix(
                    "Ada Lovelace (@ada) is on call for Platform primary until Mon 7 Dec 09:00 ") == true
        )

        let discord = try post("/discord").json
        #expect(
            (discord["content"] as? String)?.hasPrefix(
                "Ada Lovelace (<@80351110224678912>) is on call for Platform primary") == true)
        let allowed = try #require(discord["allowed_mentions"] as? [String: Any])
        #expect((allowed["parse"] as? [Any])?.isEmpty == true && allowed["users"] as? [String] == ["80351110224678912"])

        let teams = try post("/teams").json
        #expect(teams["type"] as? String == "message")
        let attachment = try #require((teams["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["contentType"] as? String == "application/vnd.microsoft.card.adaptive")
        #expect(attachment.keys.contains("contentUrl") && attachment["contentUrl"] is NSNull)
        let card = try #require(attachment["content"] as? [String: Any])
        #expect(card["$schema"] as? String == "http://adaptivecards.io/schemas/adaptive-card.json")
        #expect(card["type"] as? String == "AdaptiveCard" && card["version"] as? String == "1.4")
        let blocks = try #require(card["body"] as? [[String: Any]])
        #expect(
            !blocks.isEmpty
                && blocks.allSatisfy {
                    $0["type"] as? String == "TextBlock" && $0["text"] is String && $0["wrap"] as? Bool == true
                })
        let entities = try #require((card["msteams"] as? [String: Any])?["entities"] as? [[String: Any]])
        #expect(
            entities.count == 1 && entities[0]["type"] as? String == "mention"
                && entities[0]["text"] as? String == "<at>Ada Lovelace</at>")
        #expect(entities[0]["mentioned"] as? [String: String] == ["id": "ada@example.com", "name": "Ada Lovelace"])
        #expect(
            (blocks[0]["text"] as? String)?.hasPrefix("<at>Ada Lovelace</at> is on call for Platform primary") == true)

        let matrix = try post("/_matrix/")
        #expect(matrix.method == "PUT")
        #expect(matrix.path.hasPrefix("/_matrix/client/v3/rooms/%21room%3Aexample.org/send/m.room.message/evt_"))
        #expect(matrix.headers["authorization"] == "Bearer syt_bot_token")
        let content = matrix.json
        #expect(content["msgtype"] as? String == "m.text" && content["format"] as? String == "org.matrix.custom.html")
        #expect(
            (content["body"] as? String)?.hasPrefix("Ada Lovelace (@ada:example.org) is on call for Platform primary")
                == true)
        #expect(
            (content["formatted_body"] as? String)?.hasPrefix(
                "<a href=\"https://matrix.to/#/@ada:example.org\">Ada Lovelace</a> is on call") == true)
        #expect((content["m.mentions"] as? [String: Any])?["user_ids"] as? [String] == ["@ada:example.org"])
    }

    /// A Matrix post that failed is sent again as the same transaction (the homeserver keeps
    /// one message), with the access token opened from its sealed copy each time.
    @Test func aMatrixRetryIsTheSameTransaction() async throws {
        let receiver = try await WebhookReceiver.start { _, index in .init(status: index == 0 ? 502 : 200) }
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(now: Self.beforeAdasWeek, configure: WebhookTests.configure) { harness in
                let team = try await ScheduleServerTests.team(harness)
                try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                    let refused = try? await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = receiver.url; $0.format = "matrix"; $0.accessToken = "syt_x"
                            }
                        })
                    #expect(refused == nil, "a matrix webhook's URL names the room")
                    let missingToken = try? await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = "http://127.0.0.1:\(receiver.port)/_matrix/client/v3/rooms/!r:x";
                                $0.format = "matrix"
                            }
                        })
                    #expect(missingToken == nil, "a matrix webhook needs its access token")
                    _ = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = "http://127.0.0.1:\(receiver.port)/_matrix/client/v3/rooms/!r:x";
                                $0.format = "matrix"
                                $0.accessToken = "syt_x"; $0.events = ["on-duty.changed"]
                            }
                        })
                    harness.clock.advance(by: 60_000)  // Ada's week begins
                    try await receiver.wait("the first try") { !$0.isEmpty }
                    try await WebhookTests.advance(
                        harness, by: 5_000, until: { receiver.requests.count >= 2 }, what: "the retry")
                    let tries = receiver.requests.prefix(2)
                    #expect(tries.allSatisfy { $0.method == "PUT" && $0.headers["authorization"] == "Bearer syt_x" })
                    #expect(
                        tries.first?.path == tries.last?.path && tries.first?.body == tries.last?.body,
                        "the same transaction and content")
                }
            }
        }
    }

    /// 09:00 in Berlin on the Monday after the clocks went forward is 07:00Z (08:00Z a week before).
    @Test func anAnnouncementAtMondayNineComesAtNineBerlinTimeAfterTheClocksChange() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            // Saturday 2027-03-27 12:00Z; Berlin changes to summer time early on Sunday the 28th.
            try await withServer(now: 1_806_148_800_000, configure: WebhookTests.configureThreeDaysAhead) { harness in
                let admin = try await ScheduleServerTests.team(harness, handoff: "2027-03-01T09:00").admin
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    let webhook = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = receiver.url; $0.events = ["coverage.gap"]; $0.format = "mattermost"
                            }
                        }
                    ).webhooks[0].id
                    let rule = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addAnnouncement = .with {
                                $0.schedule = "Platform primary"; $0.webhook = webhook; $0.at = "Mon 09:00"
                            }
                        }
                    ).announcements[0]
                    #expect(rule.at == "09:00" && rule.weekdays == "Mon" && !rule.onChange)
                    harness.clock.advance(to: 1_806_303_540_000)  // 2027-03-29T06:59Z
                    #expect(await harness.outboxSettled())
                    #expect(receiver.requests.isEmpty)
                    harness.clock.advance(to: 1_806_303_600_000)  // 2027-03-29T07:00Z, 09:00 CEST
                    try await receiver.wait("the announcement") { !$0.isEmpty }
                    #expect(receiver.requests.count == 1)
                    let text = receiver.requests.first?.json["text"] as? String ?? ""
                    // The rotation hands off at 09:00 too: whoever is on duty at that instant is named.
                    #expect(text.contains(" is on call for Platform primary until "), "\(text)")
                    #expect(!text.contains("(handoff)"), "a timed announcement names no cause")
                }
            }
        }
    }

    /// Two changes a second apart make one post, with the state after the second.
    @Test func changesWithinAFewSecondsMakeOneAnnouncement() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(now: Self.beforeAdasWeek + 3_600_000, configure: WebhookTests.configure) { harness in
                let team = try await ScheduleServerTests.team(harness)
                try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                    let webhook = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = receiver.url; $0.events = ["coverage.gap"]; $0.format = "slack"
                            }
                        }
                    ).webhooks[0].id
                    _ = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addAnnouncement = .with {
                                $0.schedule = "Platform primary"; $0.webhook = webhook; $0.onChange = true
                            }
                        })
                    // Grace covers Ada's duty now; a second later the override is gone again.
                    let now = harness.clock.now()
                    let override = try await admin.admin(
                        .editSchedule(
                            .with {
                                $0.schedule = "Platform primary"
                                $0.addOverride = .with {
                                    $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace";
                                    $0.employeeID = "Grace Hopper"
                                    $0.startMs = now; $0.endMs = now + 3_600_000
                                }
                            }))
                    harness.clock.advance(by: 1_000)
                    try await admin.admin(
                        .editSchedule(
                            .with {
                                $0.schedule = "Platform primary"; $0.deleteOverride = override.ids.last!
                            }))
                    harness.clock.advance(by: 5_000)
                    try await receiver.wait("the announcement") { !$0.isEmpty }
                    #expect(await harness.outboxSettled())
                    let attempts = try await WebhookTests.notificationAdmin(
                        admin, .with { $0.listDeliveries = webhook }
                    ).deliveries
                    #expect(
                        receiver.requests.count == 1,
                        "one post for both changes: \(attempts.map { "\($0.eventType) \($0.eventID) \($0.atMs) \($0.error)" })"
                    )
                    let text = receiver.requests.first?.json["text"] as? String ?? ""
                    #expect(text.hasPrefix("Ada Lovelace is on call for Platform primary until "), "\(text)")
                    #expect(text.contains("(changed by "), "\(text)")
                    #expect(
                        attempts.contains { $0.error.hasPrefix("skipped: a later announcement") },
                        "the first is recorded as skipped")
                }
            }
        }
    }

    /// An override from this very instant is one on-duty change (the change's), not also a
    /// handoff at the same instant from the plan made again with it; and one announcement.
    @Test func anOverrideFromNowIsOneOnDutyChange() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(now: Self.beforeAdasWeek + 3_600_000, configure: WebhookTests.configure) { harness in
                let team = try await ScheduleServerTests.team(harness)
                try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                    _ = try await WebhookTests.addWebhook(admin, url: receiver.url, events: ["on-duty.changed"])
                    let now = harness.clock.now()
                    try await admin.admin(
                        .editSchedule(
                            .with {
                                $0.schedule = "Platform primary"
                                $0.addOverride = .with {
                                    $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace";
                                    $0.employeeID = "Grace Hopper"
                                    $0.startMs = now; $0.endMs = now + 3_600_000
                                }
                            }))
                    try await receiver.wait("the change") { !$0.isEmpty }
                    harness.clock.advance(by: 1_000)
                    #expect(await harness.outboxSettled())
                    let changes = receiver.requests.filter { $0.eventType == "on-duty.changed" }
                    #expect(changes.count == 1, "\(changes.map { String(decoding: $0.body, as: UTF8.self) })")
                    let data = changes.first?.json["data"] as? [String: Any]
                    #expect(data?["cause"] as? String == "plan-changed" && data?["kind"] as? String == "override")
                    #expect(((data?["current"] as? [[String: Any]])?.first?["name"] as? String) == "Grace Hopper")
                    #expect((data?["schedule"] as? [String: Any])?["zone"] as? String == "Europe/Berlin")
                }
            }
        }
    }

    /// Slack's signed request is answered; a wrong signature, a stale timestamp, a replay and an
    /// unsigned request get 401 and nothing else. Mattermost's needs its token.
    @Test func slashCommandsAnswerOnlyWhatThePlatformSigned() async throws {
        try await HTTPTests.withHTTPServer(now: Self.beforeAdasWeek + 3_600_000) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                try await Self.giveAdaHandles(admin, team.ada)
                for (platform, secret) in [("slack", "8f742231b10e8888abcd99yyyzzz85a5"), ("mattermost", "mm-token-1")]
                {
                    let set = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.setChatCommand = .with {
                                $0.platform = platform; $0.secret = secret
                            }
                        })
                    #expect(set.chatCommands.contains(platform))
                }
                let url = base + "/v1/chat/slack/command"
                let now = harness.clock.now() / 1000
                func slack(_ text: String, timestamp: Int64, secret: String = "8f742231b10e8888abcd99yyyzzz85a5")
                    async throws -> HTTPResponse
                {
                    let body =
                        "token=legacy&team_id=T1&user_id=U0ADA&user_name=ada&command=%2Foncall&text=\(text)&response_url=https%3A%2F%2Fhooks.slack.com%2Fx"
                    let mac = Crypto.hmacSHA256(key: Array(secret.utf8), message: Array("v0:\(timestamp):\(body)".utf8))
                    return try await HTTPGet.request(
                        url, method: "POST",
                        headers: [
                            "Content-Type: application/x-www-form-urlencoded",
                            "X-Slack-Request-Timestamp: \(timestamp)",
                            "X-Slack-Signature: v0=\(Crypto.hex(mac))",
                        ], data: body)
                }
                let answered = try await slack("Platform+primary", timestamp: now)
                #expect(answered.status == 200 && answered.json["response_type"] as? String == "ephemeral")
                #expect(
                    (answered.json["text"] as? String)?.hasPrefix(
                        "Ada Lovelace (<@U0ADA>) is on call for Platform primary until <!date^") == true)
                #expect((answered.json["text"] as? String)?.contains("; next: Alan Turing") == true)

                let next = try await slack("next+Platform+primary+--public", timestamp: now)
                #expect(next.json["response_type"] as? String == "in_channel")
                #expect(
                    (next.json["text"] as? String)?.hasPrefix("Next on call for Platform primary: Alan Turing from ")
                        == true)
                let me = try await slack("me", timestamp: now)
                #expect(
                    (me.json["text"] as? String)?.hasPrefix("Ada Lovelace (<@U0ADA>) is on call for Platform primary")
                        == true)

                let replayed = try await slack("Platform+primary", timestamp: now)
                #expect(replayed.status == 401 && replayed.json["text"] == nil)
                let wrong = try await slack("Platform+primary+", timestamp: now, secret: "not-the-secret")
                #expect(wrong.status == 401 && wrong.json["text"] == nil)
                let stale = try await slack("Platform+primary++", timestamp: now - 301)
                #expect(stale.status == 401 && (stale.json["detail"] as? String)?.contains("five minutes") == true)
                let unsigned = try await HTTPGet.request(
                    url, method: "POST", headers: ["Content-Type: application/x-www-form-urlencoded"],
                    data: "user_id=U0ADA&text=Platform+primary")
                #expect(unsigned.status == 401 && unsigned.json["text"] == nil && !unsigned.body.contains("Ada"))

                let mattermost = base + "/v1/chat/mattermost/command"
                let right = try await HTTPGet.request(
                    mattermost, method: "POST", form: [("token", "mm-token-1"), ("user_name", "ada"), ("text", "")])
                #expect(
                    right.status == 200
                        && (right.json["text"] as? String)?.contains(
                            "Ada Lovelace (@ada) is on call for Platform primary") == true
                )
                // Someone not on call now is told when they next are.
                guard
                    case .employee(let alan) = try await admin.request(.getEmployee(.with { $0.idOrName = team.alan }))
                else {
                    throw TestFailure("no Alan")
                }
                var withHandle = alan.employee
                withHandle.chat = ["mattermost": "alan"]
                try await admin.admin(.upsertEmployee(.with { $0.employee = withHandle }))
                let alanAsks = try await HTTPGet.request(
                    mattermost, method: "POST", form: [("token", "mm-token-1"), ("user_name", "alan"), ("text", "me")])
                #expect(
                    (alanAsks.json["text"] as? String)?.hasPrefix(
                        "Alan Turing (@alan) is not on call now; next on call for Platform primary from ")
                        == true, "\(alanAsks.body)")
                let bad = try await HTTPGet.request(
                    mattermost, method: "POST", form: [("token", "mm-token-2"), ("text", "")])
                #expect(bad.status == 401 && bad.json["text"] == nil)
            }
        }
    }

    // MARK: The parts

    @Test func chatHandlesAreReadByOneParserAndCheckedPerPlatform() throws {
        #expect(
            try ChatHandles.parse("slack=U012AB3CD; mattermost=ada").get() == [
                "slack": "U012AB3CD", "mattermost": "ada",
            ])
        #expect(try ChatHandles.parse("").get() == [:])
        guard
            case .failure(let problems) = ChatHandles.parse(
                "irc=ada; slack=ada lovelace; discord=abc; matrix=ada; slack")
        else {
            Issue.record("bad handles were accepted")
            return
        }
        #expect(problems.messages.count == 5, "\(problems.messages)")
        #expect(
            problems.description.contains("\"irc\" is not a chat platform")
                && problems.description.contains("not a numeric user ID"))
        #expect(ChatHandles.text(["slack": "U1", "discord": "42"]) == "discord=42; slack=U1")
        // Mattermost's mentions of a whole channel are no person's username.
        for everyone in ["all", "channel", "here", "ALL"] {
            guard case .failure(let refused) = ChatHandles.parse("mattermost=\(everyone)") else {
                Issue.record("mattermost=\(everyone) was accepted")
                continue
            }
            #expect(refused.description.contains("a mention of everyone in the channel"), "\(refused)")
        }
        #expect(try ChatHandles.parse("mattermost=allan").get() == ["mattermost": "allan"])
    }

    /// A name or note is text on Teams too: no link, emphasis or mention tag of its own.
    @Test func teamsCardsCarryNamesAndNotesAsText() throws {
        let mallory = NotificationPayload.Person(
            id: "m", name: "[Click](https://evil.example) <at>Boss</at>",
            chat: ["teams": "mallory@example.com"])
        let message = ChatMessage([
            [.person(mallory), .text(" covers: **urgent** see ![x](https://evil.example/x.png)")]
        ])
        let card = try #require(JSONSerialization.jsonObject(with: message.body(.teams)) as? [String: Any])
        let content = try #require((card["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])
        let text = try #require((content["body"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(
            text
                == #"<at>\[Click\]\(https://evil.example\) \<at\>Boss\</at\></at> covers: \*\*urgent\*\* see \!\[x\]\(https://evil.example/x.png\)"#,
            "\(text)")
        let entities = try #require((content["msteams"] as? [String: Any])?["entities"] as? [[String: Any]])
        #expect(entities.count == 1 && (entities[0]["mentioned"] as? [String: String])?["id"] == "mallory@example.com")
    }

    @Test func announcementTimesAreReadByOneParser() throws {
        #expect(
            try AnnounceRule.Trigger.parse(at: "Mon 09:00", weekdays: "").get() == .at(minuteOfDay: 540, weekdays: [2]))
        #expect(
            try AnnounceRule.Trigger.parse(at: "09:00", weekdays: "Mon-Fri").get()
                == .at(minuteOfDay: 540, weekdays: [2, 3, 4, 5, 6]))
        #expect(try AnnounceRule.Trigger.parse(at: "17:30", weekdays: "").get() == .at(minuteOfDay: 1050, weekdays: []))
        for (at, weekdays) in [
            ("9:00", ""), ("24:00", ""), ("Mon 09:00", "Tue"), ("Someday 09:00", ""), ("09:00", "Mon+Tue"), ("", ""),
        ] {
            #expect(throws: WireError.self, "\(at) \(weekdays)") {
                try AnnounceRule.Trigger.parse(at: at, weekdays: weekdays).get()
            }
        }
        // Every Monday at 09:00 Berlin in March 2027: 08:00Z before the change, 07:00Z after.
        let instants = NoticeDerivation.instants(
            minuteOfDay: 540, weekdays: [2], zone: "Europe/Berlin",
            from: TimeText.parseISO8601("2027-03-20T00:00:00Z")!,
            to: TimeText.parseISO8601("2027-04-06T00:00:00Z")!)
        #expect(
            instants.map(TimeText.iso8601) == ["2027-03-22T08:00:00Z", "2027-03-29T07:00:00Z", "2027-04-05T07:00:00Z"])
    }

    /// A conflict an hour ahead still names its day: "from 10:00" alone reads as today's or any day's.
    @Test func aConflictPostNamesTheDayItStarts() throws {
        let about = try #require(TimeText.parseISO8601("2027-07-06T08:00:00Z"))
        let start = about + 3_600_000
        let conflict = NotificationPayload.CoverageConflict(
            conflict: "c1", schedule: .init(id: "s", name: "Platform primary", zone: "Europe/Berlin"),
            person: .init(id: "e-a", name: "Ann Lee"), start: TimeText.iso8601(start), startMs: start,
            end: TimeText.iso8601(start + 7_200_000), endMs: start + 7_200_000,
            timeOff: .init(id: "t1", reason: "leave"),
            proposals: [], take: "")
        let envelope = NotificationPayload.Envelope(
            id: "evt", type: "coverage.conflict", tenant: "acme", revision: 1,
            about: TimeText.iso8601(about), aboutMs: about, data: conflict)
        let event = NotificationEvent(
            id: "evt", type: .coverageConflict, tenantID: "acme", revision: 1, about: about, due: about,
            planned: false, scheduleIDs: ["s"], people: ["e-a"], payload: try JSONEncoder().encode(envelope))
        let text = try #require(ChatPosts.message(for: event)).text(for: .mattermost)
        #expect(
            text.hasPrefix(
                "Ann Lee has time off but is on call for Platform primary from Tue 6 Jul 11:00 CEST to 13:00"),
            "\(text)")
        // With --chat-language de: the catalog's words, German dates, the database's abbreviation.
        let german = try #require(ChatPosts.message(for: event, words: Words[.german])).text(for: .mattermost)
        #expect(
            german.hasPrefix(
                "Ann Lee ist abwesend, hat aber Dienst in Platform primary von Di. 6. Juli, 11:00 CEST bis 13:00 CEST"),
            "\(german)")
        #expect(german.contains("Niemand im Dienstplan ist dann frei."), "\(german)")
    }

    /// `escalation.changed`: a line per changed step, whom it pages and until when; a deleted
    /// policy in one line.
    @Test func anEscalationPostSaysEachChangedStep() throws {
        let about = try #require(TimeText.parseISO8601("2026-11-30T12:30:00Z"))
        func event(_ change: NotificationPayload.EscalationChanged) throws -> NotificationEvent {
            let envelope = NotificationPayload.Envelope(
                id: "evt", type: "escalation.changed", tenant: "acme", revision: 1,
                about: TimeText.iso8601(about), aboutMs: about, data: change)
            return NotificationEvent(
                id: "evt", type: .escalationChanged, tenantID: "acme", revision: 1, about: about, due: about,
                planned: true, scheduleIDs: ["s"], people: [], payload: try JSONEncoder().encode(envelope))
        }
        let until = about + 86_400_000
        let change = NotificationPayload.EscalationChanged(
            policy: .init(id: "p", name: "Payments"), services: [.init(id: "api", name: "Payments API")],
            cause: "handoff",
            steps: [
                .init(level: 1, people: [.init(id: "ada", name: "Ada Lovelace")], until: nil, untilMs: nil),
                .init(
                    level: 2, people: [.init(id: "linus", name: "Linus Torvalds")],
                    until: TimeText.iso8601(until), untilMs: until),
                .init(level: 3, people: [], until: nil, untilMs: nil),
            ],
            changedLevels: [2, 3], removed: nil, by: nil, zone: "Europe/Berlin")
        let text = try #require(ChatPosts.message(for: try event(change))).text(for: .mattermost)
        #expect(
            text == "Payments, step 2 pages Linus Torvalds until Tue 1 Dec 13:30 CET\nPayments, step 3 pages nobody",
            "\(text)")
        let german = try #require(ChatPosts.message(for: try event(change), words: Words[.german]))
            .text(for: .mattermost)
        #expect(german.hasPrefix("Payments, Schritt 2 alarmiert Linus Torvalds bis Di. 1. Dez."), "\(german)")
        var removed = change
        (removed.steps, removed.changedLevels, removed.removed) = ([], [], true)
        let gone = try #require(ChatPosts.message(for: try event(removed))).text(for: .mattermost)
        #expect(gone == "Escalation policy Payments was removed", "\(gone)")
    }

    /// A server with `--chat-language fr` posts the handoff in French; "/oncall" answers in it too.
    @Test func theServersChatLanguageIsThePostsAndTheAnswers() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(
                now: Self.beforeAdasWeek,
                configure: {
                    WebhookTests.configure(&$0)
                    $0.notifications.chatLanguage = "fr"
                }
            ) { harness in
                let team = try await ScheduleServerTests.team(harness)
                try await withCleanup(team.admin, cleanUp: { await $0.close() }) { admin in
                    _ = try await WebhookTests.notificationAdmin(
                        admin,
                        .with {
                            $0.addWebhook = .with {
                                $0.url = receiver.url; $0.events = ["on-duty.changed"]; $0.format = "mattermost"
                            }
                        })
                    harness.clock.advance(by: 60_000)  // Ada's week begins at 09:00 Berlin
                    try await receiver.wait("the handoff's post") { !$0.isEmpty }
                    let text = receiver.requests.first?.json["text"] as? String ?? ""
                    #expect(
                        text.hasPrefix(
                            "Ada Lovelace est de garde sur Platform primary jusqu’à lun. 7 déc. à 09:00 CET"),
                        "\(text)")
                    #expect(text.hasSuffix("; ensuite : Alan Turing (relève)"), "\(text)")
                }
                // "/oncall" answers from the same catalogs (the notifier passes the setting's words).
                let state = RosterState(tenant: Tenant(id: "demo", name: "Demo"))
                let unknown = ChatCommand(text: "Nowhere").answer(
                    state: state, platform: .slack, caller: "U0ADA", now: Self.beforeAdasWeek, words: Words[.french])
                #expect(
                    unknown.text(for: .slack).hasPrefix("Pas de planning « Nowhere »."), "\(unknown.text(for: .slack))")
            }
        }
    }

    @Test func namesAndNotesCannotPingAChannelOrForgeMarkup() {
        let mallory = NotificationPayload.Person(id: "e-m", name: "@channel <!everyone> *bold*")
        let message = ChatMessage([[.person(mallory), .text(" is on call")]])
        #expect(message.text(for: .slack) == "@channel &lt;!everyone&gt; *bold* is on call")
        #expect(message.text(for: .mattermost) == "@\u{200B}channel \\<!everyone\\> \\*bold\\* is on call")
        let discord = (try? JSONSerialization.jsonObject(with: message.body(.discord))) as? [String: Any]
        #expect((discord?["allowed_mentions"] as? [String: Any])?["parse"] as? [String] == [])
        #expect(ChatCommand(text: "  ").question == .all && ChatCommand(text: "me").question == .me)
        #expect(ChatCommand(text: "next Platform primary").question == .next("Platform primary"))
        #expect(ChatCommand(text: "--public Platform primary").question == .schedule("Platform primary"))
        #expect(
            ChatCommand(text: "--public Platform primary").isPublic && !ChatCommand(text: "Platform primary").isPublic)
    }
}
