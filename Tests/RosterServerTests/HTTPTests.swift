import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
@testable import RosterServer
@testable import RosterHTTP
@testable import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// The HTTP listener through curl against a real server: health, metrics, and the on-call JSON
/// API answering exactly what the protocol answers.
@Suite(.timeLimit(.minutes(10))) struct HTTPTests {
    static func withHTTPServer(
        now: UnixMillis = t0, store: (any RosterStore)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (ServerHarness, String) async throws -> Void
    ) async throws {
        let harness = try await ServerHarness.start(now: now, store: store) {
            $0.httpListen = HostPort(host: "127.0.0.1", port: 0)
            configure(&$0)
        }
        try await using(harness) { harness in
            try await body(harness, "http://127.0.0.1:\(try #require(harness.server.httpPort))")
        }
    }

    @Test func healthSaysServingAndReady() async throws {
        try await Self.withHTTPServer { _, base in
            let live = try await HTTPGet.request(base + "/livez")
            #expect(live.status == 200 && live.body == "ok\n")
            let ready = try await HTTPGet.request(base + "/readyz")
            #expect(ready.status == 200 && ready.body == "ready\n")
            let wrongMethod = try await HTTPGet.request(base + "/livez", method: "POST")
            #expect(wrongMethod.status == 405 && wrongMethod.headers.contains("Allow: GET, HEAD"))
            let unknown = try await HTTPGet.request(base + "/nope")
            #expect(
                unknown.status == 404 && unknown.headers.lowercased().contains("content-type: application/problem+json")
            )
            #expect(unknown.json["status"] as? Int == 404 && unknown.json["title"] as? String == "Not Found")
        }
        // Before the tenants are loaded, and while stopping, not ready (with the reason).
        let side = HTTPSide(metrics: nil)
        #expect(await side.readiness() == .notReady("starting: the tenants are not loaded yet"))
    }

    @Test func aStoreThatTakesNoWritesIsNotReady() async throws {
        let directory = TestScratch.directory("roster-unwritable")
        defer { TestScratch.remove(directory) }
        let store = UnwritableStore(try await SQLiteRosterStore.open(path: directory.path + "/roster.sqlite"))
        try await Self.withHTTPServer(store: store) { _, base in
            #expect(try await HTTPGet.request(base + "/readyz").status == 200)
            store.unwritable.withLockedValue { $0 = true }
            let ready = try await HTTPGet.request(base + "/readyz")
            #expect(
                ready.status == 503 && (ready.json["detail"] as? String)?.contains("does not take writes") == true,
                "\(ready.body)")
            #expect(try await HTTPGet.request(base + "/livez").status == 200, "alive all the same")
        }
    }

    @Test func metricsCountWhatHappensInPrometheusText() async throws {
        try await Self.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            let subscriber = try await harness.connect(token: "")
            _ = try await subscriber.request(.subscribe(.with { $0.topics = [.onDuty, .roster] }))
            try await admin.admin(.setMotd(.with { $0.motd = "counted" }))
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await admin.addShift(ada, t0 - minute, t0 + 60 * minute)
            await #expect(throws: (any Error).self) { _ = try await harness.connect(token: "rst_nope_nope") }
            try await admin.barrier()

            // The refused connection lingers up to 2 s after its Error frame (so the peer reads it).
            let settled = await eventually(10) {
                (try? await HTTPGet.request(base + "/metrics"))?.body.contains(
                    #"roster_connections_open{tls="false"} 2.0"#) == true
            }
            #expect(settled, "the refused connection closes")
            let scraped = try await HTTPGet.request(base + "/metrics")
            #expect(scraped.status == 200 && scraped.headers.contains("text/plain; version=0.0.4"))
            let lines = Set(scraped.body.split(separator: "\n").map(String.init))
            for expected in [
                #"roster_connections_open{tls="false"} 2.0"#,
                #"roster_subscriptions_open{topic="on_duty"} 1.0"#,
                #"roster_subscriptions_open{topic="roster"} 1.0"#,
                #"roster_admin_changes_total{kind="motd_set"} 1"#,
                #"roster_admin_changes_total{kind="employee_upserted"} 1"#,
                #"roster_store_commit_seconds_count 3"#,
                #"roster_auth_failures_total 1"#,
                #"roster_revision{tenant="demo"} 3.0"#,
                #"roster_on_duty_people{tenant="demo",schedule="Default"} 1.0"#,
                #"roster_next_handoff_seconds{tenant="demo",schedule="Default"} 3600.0"#,
                #"roster_frames_received_total{type="Subscribe"} 1"#,
                #"roster_errors_sent_total{code="UNAUTHENTICATED"} 1"#,
                #"roster_frames_sent_total{type="Synced"} 1"#,
            ] {
                #expect(
                    lines.contains(expected),
                    "\(expected) in:\n\(scraped.body.split(separator: "\n").filter { !$0.contains("_bucket") }.joined(separator: "\n"))"
                )
            }
            let pushes = lines.first { $0.hasPrefix(#"roster_pushes_sent_total{type="roster_changed"}"#) }
            #expect(
                pushes.flatMap { Int($0.split(separator: " ").last!) } == 3,
                "three revisions pushed to the one subscriber")
            #expect(lines.contains { $0.hasPrefix("roster_push_fanout_seconds_count ") && !$0.hasSuffix(" 0") })
            await admin.close()
            await subscriber.close()
        }
    }

    /// Notices and progress bookmarks are counted as pushes of their own type and as frames of
    /// their own type, also for a connection whose one subscription is written and flushed at once.
    @Test func noticeAndProgressPushesAreCountedAsWhatTheyAre() async throws {
        try await Self.withHTTPServer(configure: { $0.limits.progressInterval = .milliseconds(100) }) { harness, base in
            let admin = try await harness.connect()
            let subscriber = try await harness.connect(token: "")
            let inbox = Inbox(subscriber)
            _ = subscriber.subscribe(
                .with {
                    $0.topics = [.notices]; $0.allSchedules = true
                })
            _ = try await inbox.untilSynced()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await admin.addShift(ada, t0 + minute, t0 + 60 * minute)
            var kinds = Set<MessageType>()
            while !kinds.isSuperset(of: [.notice, .progress]) {
                kinds.insert(try await inbox.next(includingProgress: true).message.type)
            }
            await subscriber.close()
            // Once its connection is gone it gets nothing more: the counters stand still for the scrape.
            #expect(
                await eventually(10) {
                    (try? await HTTPGet.request(base + "/metrics"))?.body.contains(
                        #"roster_connections_open{tls="false"} 1.0"#) == true
                })
            let lines = try await HTTPGet.request(base + "/metrics").body.split(separator: "\n").map(String.init)
            func count(_ prefix: String) -> Int {
                lines.first { $0.hasPrefix(prefix + " ") }.flatMap { Int($0.split(separator: " ").last!) } ?? 0
            }
            let notices = count(#"roster_pushes_sent_total{type="notice"}"#)
            let progress = count(#"roster_pushes_sent_total{type="progress"}"#)
            #expect(notices >= 1 && progress >= 1, "\(lines.filter { $0.contains("_sent_total") })")
            #expect(count(#"roster_frames_sent_total{type="Notice"}"#) == notices)
            #expect(count(#"roster_frames_sent_total{type="Progress"}"#) == progress)
            await admin.close()
        }
    }

    @Test func onCallAnswersWhatTheProtocolAnswers() async throws {
        try await Self.withHTTPServer(now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            let token = harness.adminToken
            let instants = [
                "2026-11-23T12:00:00Z", "2026-12-01T07:59:59Z", "2026-12-01T08:00:00Z", "2027-03-28T03:00:00Z",
            ]
            for at in instants {
                let http = try await HTTPGet.request(base + "/v1/oncall?at=\(at)", token: token)
                #expect(http.status == 200, "\(http.body)")
                let schedules = try #require(http.json["schedules"] as? [[String: Any]])
                #expect(schedules.map { $0["name"] as? String } == ["Default", "Platform primary"])
                for schedule in schedules {
                    let answer = try await team.admin.request(
                        .getOnDuty(
                            .with {
                                $0.schedule = schedule["id"] as! String
                                $0.atMs = TimeText.parseISO8601(at)!
                            }))
                    guard case .onDuty(let wire) = answer else { throw TestFailure("expected OnDuty") }
                    let people = (schedule["onDuty"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
                    #expect(people == wire.current.map(\.employee.id), "at \(at)")
                    #expect(schedule["until"] as? String == (wire.hasUntilMs ? TimeText.iso8601(wire.untilMs) : nil))
                    #expect(
                        (schedule["next"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
                            == wire.next.map(\.employee.id))
                }
            }
            let one = try await HTTPGet.request(base + "/v1/oncall?schedule=\(team.scheduleID)", token: token)
            #expect((one.json["schedules"] as? [[String: Any]])?.count == 1)
            // A query string is form-encoded: `+` is a space, as HTML forms and Python's requests send it.
            let plus = try await HTTPGet.request(base + "/v1/oncall?schedule=Platform+primary", token: token)
            #expect(
                plus.status == 200
                    && (plus.json["schedules"] as? [[String: Any]])?.first?["name"] as? String == "Platform primary",
                "\(plus.status) \(plus.body)")

            let from = "2026-11-30T00:00:00Z", to = "2027-01-04T00:00:00Z"
            let final = try await HTTPGet.request(
                base + "/v1/oncall?schedule=Platform%20primary&from=\(from)&to=\(to)", token: token)
            let shifts = try #require(final.json["shifts"] as? [[String: Any]])
            let protocolShifts = try await ScheduleServerTests.final(team.admin, "Platform primary", from: from, to: to)
            #expect(shifts.map { $0["id"] as? String } == protocolShifts.map(\.id))
            #expect(shifts.map { $0["start"] as? String } == protocolShifts.map { TimeText.iso8601($0.startMs) })
            #expect(
                shifts.first?["source"] as? String == "rotation"
                    && shifts.first?["schedule"] as? String == "Platform primary")

            let next = try await HTTPGet.request(base + "/v1/people/Grace%20Hopper/next", token: token)
            let answer = try await team.admin.request(.getNextOnDuty(.with { $0.employee = "Grace Hopper" }))
            guard case .finalSchedule(let wireNext) = answer else { throw TestFailure("expected FinalSchedule") }
            #expect((next.json["shifts"] as? [[String: Any]])?.map { $0["id"] as? String } == wireNext.shifts.map(\.id))
            #expect(!wireNext.shifts.isEmpty)
            await team.admin.close()
        }
    }

    @Test func tokensAndBadQueriesAreRefusedAsProblems() async throws {
        try await Self.withHTTPServer { harness, base in
            let none = try await HTTPGet.request(base + "/v1/oncall")
            #expect(none.status == 401 && none.headers.contains("WWW-Authenticate: Bearer"))
            let wrong = try await HTTPGet.request(
                base + "/v1/oncall", token: "rst_0123456789ab_" + String(repeating: "f", count: 64))
            #expect(wrong.status == 401 && wrong.json["detail"] as? String == "authentication failed")
            let reader = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let created = try await reader.createToken(tenant: "demo", role: .reader, expiresIn: nil)
            try await reader.revokeToken(created.token.id)
            await reader.close()
            let badAt = try await HTTPGet.request(base + "/v1/oncall?at=tomorrow", token: harness.adminToken)
            #expect(badAt.status == 400 && (badAt.json["detail"] as? String)?.contains("ISO 8601") == true)
            let half = try await HTTPGet.request(
                base + "/v1/oncall?from=2026-01-01T00:00:00Z", token: harness.adminToken)
            #expect(half.status == 400)
            let unknown = try await HTTPGet.request(base + "/v1/oncall?schedule=Nope", token: harness.adminToken)
            #expect(
                unknown.status == 404
                    && (unknown.json["detail"] as? String)?.contains("schedule \"Nope\" not found") == true)
            let nobody = try await HTTPGet.request(base + "/v1/people/Nobody/next", token: harness.adminToken)
            #expect(nobody.status == 404)
        }
    }

    /// A calendar token's feed: one VEVENT per resolved shift, SEQUENCE up when a shift changes,
    /// CANCELLED when it leaves the plan; the token opens nothing else and dies with revocation.
    @Test func aCalendarFeedFollowsThePlanWithSequencesAndCancellations() async throws {
        let now = TimeText.parseISO8601("2026-11-23T12:00:00Z")!
        let harness = try await ServerHarness.start(now: now) {
            $0.httpListen = HostPort(host: "127.0.0.1", port: 0)
            $0.limits.tokenRefresh = .milliseconds(50)
        }
        try await using(harness) { harness in
            let base = "http://127.0.0.1:\(try #require(harness.server.httpPort))"
            let team = try await ScheduleServerTests.team(harness)
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let calendar = try await administration.createCalendarToken(
                tenant: "demo", schedule: "Platform primary", person: nil,
                expiresIn: nil, label: "team calendar")
            #expect(calendar.token.scope == "schedule:\(team.scheduleID)")
            let url = base + "/v1/calendar/\(calendar.text).ics"
            #expect(
                await eventually(10) { (try? await HTTPGet.request(url).status) == 200 },
                "the server picks the token up")

            func events(_ feed: String) -> [String: [String: String]] {
                var found: [String: [String: String]] = [:]
                for block in feed.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst() {
                    var fields: [String: String] = [:]
                    for line in block.components(separatedBy: "\r\n") {
                        let pair = line.split(separator: ":", maxSplits: 1).map(String.init)
                        if pair.count == 2, fields[pair[0]] == nil { fields[pair[0]] = pair[1] }
                    }
                    found[fields["UID"] ?? ""] = fields
                }
                return found
            }
            let first = try await HTTPGet.request(url + "?alarm=15m")
            #expect(first.status == 200 && first.headers.contains("text/calendar"))
            let published = events(first.body)
            // 30 days back and 90 ahead, in whole UTC days; a shift cut by either edge is left out.
            let window = try await ScheduleServerTests.final(
                team.admin, "Platform primary", from: "2026-10-24T00:00:00Z",
                to: "2027-02-21T00:00:00Z")
            let whole = window.filter {
                $0.startMs > TimeText.parseISO8601("2026-10-24T00:00:00Z")!
                    && $0.endMs < TimeText.parseISO8601("2027-02-21T00:00:00Z")!
            }
            #expect(
                Set(published.keys) == Set(whole.map(\.id)) && whole.count >= 10,
                "one event per whole shift in the window")
            #expect(
                published.values.allSatisfy {
                    $0["SEQUENCE"] == "0" && $0["TRANSP"] == "TRANSPARENT" && $0["STATUS"] == "CONFIRMED"
                })
            #expect(first.body.contains("TRIGGER:-PT15M") && first.body.contains("X-WR-CALNAME:Platform primary"))
            let adasWeek = try #require(window.first { TimeText.iso8601($0.startMs) == "2026-11-30T08:00:00Z" })
            #expect(published[adasWeek.id]?["SUMMARY"] == "Ada Lovelace on call: Platform primary")

            // An override shortens Ada's week: her event changes, Alan's day appears.
            let override = try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace"; $0.employeeID = "Alan Turing"
                            $0.startMs = TimeText.parseISO8601("2026-12-02T00:00:00Z")!
                            $0.endMs = TimeText.parseISO8601("2026-12-03T00:00:00Z")!
                        }
                    }))
            let second = events(try await HTTPGet.request(url).body)
            #expect(second[adasWeek.id]?["SEQUENCE"] == "1" && second[adasWeek.id]?["DTEND"] == "20261202T000000Z")
            let alansDay = try #require(second.first { $0.value["DTSTART"] == "20261202T000000Z" })
            #expect(
                alansDay.value["SEQUENCE"] == "0"
                    && alansDay.value["SUMMARY"] == "Alan Turing on call: Platform primary")
            #expect(
                second.filter { $0.key != adasWeek.id && $0.key != alansDay.key && published[$0.key] != nil }
                    .allSatisfy { $0.value["SEQUENCE"] == "0" }, "the others are unchanged")

            // Without the override, Alan's day leaves the plan: it stays, cancelled.
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"; $0.deleteOverride = override.ids.last!
                    }))
            let third = events(try await HTTPGet.request(url).body)
            #expect(third[alansDay.key]?["STATUS"] == "CANCELLED" && third[alansDay.key]?["SEQUENCE"] == "1")
            #expect(third[adasWeek.id]?["SEQUENCE"] == "2" && third[adasWeek.id]?["DTEND"] == "20261207T080000Z")

            // The token opens its feed and nothing else, and not after revocation.
            #expect(try await HTTPGet.request(base + "/v1/oncall", token: calendar.text).status == 401)
            await #expect(throws: (any Error).self) { _ = try await harness.connect(token: calendar.text) }
            try await administration.revokeToken(calendar.token.id)
            await administration.close()
            #expect(await eventually(10) { (try? await HTTPGet.request(url).status) == 404 }, "revoked")
            #expect(try await HTTPGet.request(url.replacingOccurrences(of: "_", with: "-")).status == 404)
            await team.admin.close()
        }
    }

    @Test func withTLSTheHTTPListenerServesHTTPSWithTheServersCertificate() async throws {
        let harness = try await ServerHarness.start {
            $0.tls = .init()
            $0.httpListen = HostPort(host: "127.0.0.1", port: 0)
        }
        try await using(harness) { harness in
            let port = try #require(harness.server.httpPort)
            let ca = harness.dataDirectory + "/tls/ca.pem"
            let secure = try await HTTPGet.request("https://127.0.0.1:\(port)/readyz", insecureCA: ca)
            #expect(secure.status == 200 && secure.body == "ready\n")
            let child = try ChildProcess(HTTPGet.curl, ["-s", "-m", "10", "http://127.0.0.1:\(port)/readyz"])
            #expect(await child.waitForExit(timeout: .seconds(20)) != 0, "plaintext gets no answer from a TLS listener")
        }
    }

    @Test func aTokenSeesItsOwnTenantOnly() async throws {
        try await Self.withHTTPServer { harness, base in
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            try await administration.createTenant(id: "beta", name: "Beta")
            let beta = try await administration.createToken(tenant: "beta", role: .reader, expiresIn: nil)
            await administration.close()
            #expect(
                await eventually(10) {
                    (try? await HTTPGet.request(base + "/v1/oncall", token: beta.text).status) == 200
                })
            let answer = try await HTTPGet.request(base + "/v1/oncall", token: beta.text)
            #expect(answer.json["tenant"] as? String == "beta")
            let demo = try await HTTPGet.request(base + "/v1/oncall", token: harness.adminToken)
            #expect(demo.json["tenant"] as? String == "demo")
        }
    }

    @Test func plaintextHTTPOffLoopbackIsRefused() async throws {
        await #expect(throws: ServerStartError.self) {
            let harness = try await ServerHarness.start { $0.httpListen = HostPort(host: "0.0.0.0", port: 0) }
            await harness.stop()
        }
    }
}

/// A store whose writes can be made to fail, as a full or read-only disk would (tests run as
/// root, which file modes do not stop).
final class UnwritableStore: ForwardingStore, Sendable {
    let inner: SQLiteRosterStore
    let unwritable = NIOLockedValueBox(false)

    init(_ store: SQLiteRosterStore) { inner = store }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "attempt to write a readonly database" }
    }

    func checkWritable() async throws {
        if unwritable.withLockedValue({ $0 }) { throw Refused() }
        try await inner.checkWritable()
    }
}
