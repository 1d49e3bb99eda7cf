import Foundation
import NIOEmbedded
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStoreSQLite
import RosterTestSupport
@testable import RosterWeb
import Testing

/// The web app's "On call now" page against a real server (curl), and its reading rule in
/// process: what it shows, that it escapes every name, and the headers that keep it safe.
@Suite(.timeLimit(.minutes(10))) struct WebAppTests {
    @Test func onCallNowShowsWhoIsOnDutyUntilWhenAndWhoIsNext() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            try await admin.admin(.setMotd(.with { $0.motd = "Deploy freeze until Monday" }))
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let grace = try await admin.addEmployee("Grace", "Hopper")
            _ = try await admin.addShift(ada, t0 - minute, t0 + 60 * minute)
            _ = try await admin.addShift(grace, t0 + 60 * minute, t0 + 120 * minute)
            try await admin.barrier()

            let page = try await HTTPGet.request(base + "/")
            #expect(page.status == 200)
            #expect(page.headers.lowercased().contains("content-type: text/html; charset=utf-8"))
            #expect(page.headers.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
            #expect(page.headers.contains("X-Content-Type-Options: nosniff"))
            #expect(page.body.contains("Deploy freeze until Monday"))
            // Ada now, until Grace takes over an hour later (t0 is 2026-01-01 00:00 UTC).
            let onDuty = try #require(page.body.range(of: "<ul class=\"on-duty\">"))
            let next = try #require(page.body.range(of: "<ul class=\"next\">"))
            #expect(page.body[onDuty.upperBound..<next.lowerBound].contains("Ada Lovelace"))
            #expect(!page.body[onDuty.upperBound..<next.lowerBound].contains("Grace Hopper"))
            #expect(page.body[next.upperBound...].contains("Grace Hopper"))
            #expect(page.body.contains("since Wed 31 Dec 23:59 UTC"))
            #expect(page.body.contains("Until Thu 1 Jan 01:00 UTC") && page.body.contains("Times in UTC"))
            // The JSON API names the same people for the same instant.
            let json = try await HTTPGet.request(base + "/v1/oncall", token: harness.adminToken)
            #expect(json.body.contains("\"name\":\"Ada Lovelace\"") && json.body.contains("\"name\":\"Grace Hopper\""))

            // Someone on duty who stays past the handoff is said to stay on, not listed as next
            // "from" a start that has passed.
            _ = try await admin.addShift(ada, t0 + 60 * minute, t0 + 180 * minute)
            try await admin.barrier()
            let staying = try await HTTPGet.request(base + "/").body
            let nextPart = try #require(
                staying.components(separatedBy: "<h3>Next</h3>").dropFirst().first?.components(
                    separatedBy: "</section>"
                ).first)
            #expect(nextPart.contains("Grace Hopper") && nextPart.contains("Ada Lovelace stays on."), "\(nextPart)")
            #expect(!nextPart.contains("from Wed 31 Dec"), "\(nextPart)")

            let css = try await HTTPGet.request(base + "/assets/app.css")
            #expect(css.status == 200 && css.headers.lowercased().contains("content-type: text/css"))
            #expect(try await HTTPGet.request(base + "/nope").status == 404)
        }
    }

    /// Markup is a literal: a value interpolated into it is escaped, a number goes in as digits,
    /// and JSON for a script element cannot close it. (A `String` variable does not compile as
    /// markup at all: `HTML.raw` takes `Markup`.)
    @Test func markupEscapesWhatIsInterpolatedIntoIt() {
        var html = HTML()
        let hostile = "\"><script>alert(1)</script>"
        html.raw("<li class=\"\(hostile)\" data-n=\"\(42)\">")
        #expect(html.output == "<li class=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\" data-n=\"42\">")
        var script = HTML()
        script.json(#"{"name":"</script><b>&"}"#)
        #expect(script.output == #"{"name":"\u003c/script\u003e\u003cb\u003e\u0026"}"#)
    }

    @Test func everyNameIsShownAsTextNeverAsMarkup() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            let hostile = try await admin.addEmployee("<img src=x onerror=alert(1)>", "\"quoted\" & 'single'")
            _ = try await admin.addShift(hostile, t0 - minute, t0 + 60 * minute)
            _ = try await admin.addShift(hostile, t0 + 120 * minute, t0 + 180 * minute)  // in the plan too
            try await admin.admin(.setMotd(.with { $0.motd = "</p><script>alert(2)</script>" }))
            try await admin.barrier()
            let page = try await HTTPGet.request(base + "/")
            #expect(page.status == 200)
            #expect(page.body.contains("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; &#39;single&#39;"))
            #expect(page.body.contains("&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
            // The script elements are the page's own module, its words and the plan: the last two are data.
            #expect(!page.body.contains("<img") && page.body.components(separatedBy: "<script").count == 4)
            #expect(page.body.contains("<script type=\"application/json\" id=\"words\">"))
            #expect(page.body.contains("<script type=\"application/json\" id=\"plan\">"))
            let plan = try #require(
                page.body.components(separatedBy: "id=\"plan\">").last?.components(separatedBy: "</script>").first)
            #expect(plan.contains("\\u003cimg src=x onerror=alert(1)\\u003e") && !plan.contains("<"))
        }
    }

    @Test func theEventStreamSaysWhenWhoIsOnDutyChangesAndClosesWhenTheServerStops() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let port = try #require(harness.server.httpPort)
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            try await admin.barrier()
            let stream = try HostileSocket(port: port, receiveBufferBytes: 65_536)
            stream.send(Array("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let head = try #require(await stream.receive(until: "event: hello", within: 10))
            #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.contains("retry: 3000"))

            // Ada goes on duty now: the roster changed, and who is on duty on the default schedule.
            _ = try await admin.addShift(ada, t0 - minute, t0 + 60 * minute)
            let changed = try #require(await stream.receive(until: "event: onduty", within: 10))
            #expect(changed.contains("data: {\"schedule\":\"default\"}"))
            let roster =
                changed.contains("event: roster")
                ? changed : try #require(await stream.receive(until: "event: roster", within: 10))
            #expect(roster.contains("event: roster"))

            // The page loads the script that follows the stream, and knows when to count down to.
            let script = try await HTTPGet.request(base + "/assets/live.js")
            #expect(script.status == 200 && script.headers.lowercased().contains("content-type: text/javascript"))
            #expect(script.body.contains("new EventSource('/v1/events')") && !script.body.contains("innerHTML"))
            let page = try await HTTPGet.request(base + "/")
            #expect(page.body.contains("<script type=\"module\" src=\"/assets/live.js\"></script>"))
            #expect(page.body.contains("data-until=\"\(t0 + 60 * minute)\""))

            // Ada's stretch ends with nobody after her: the handoff itself is an event, no change made.
            harness.clock.advance(to: t0 + 60 * minute)
            #expect(await stream.receive(until: "event: onduty", within: 10) != nil)

            await harness.stop()
            #expect(await stream.closedByServer(within: 10), "the stream closes when the server stops")
        }
    }

    @Test func theDirectoryGroupsSortsAndSearchesAsTheAppsDid() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let empty = try await HTTPGet.request(base + "/people")
            #expect(empty.status == 200 && empty.body.contains("No employees found"))
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Alan", "Turing", position: "Engineer", team: "Research")
            _ = try await admin.addEmployee("Émile", "Zola", position: "Writer", team: "Core")
            _ = try await admin.addEmployee("Ada", "Lovelace", position: "engineer", team: "Core")
            try await admin.barrier()

            // Groups A→Z, people by last name; "Engineer" and "engineer" are one group, named as the
            // first person in it (by last name) spells it.
            let byPosition = try await HTTPGet.request(base + "/people").body
            let order = ["<h2>engineer</h2>", "Ada Lovelace", "Alan Turing", "<h2>Writer</h2>", "Émile Zola"].map {
                byPosition.range(of: $0)?.lowerBound
            }
            #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted())
            let byTeam = try await HTTPGet.request(base + "/people?group=team").body
            let teams = ["<h2>Core</h2>", "Ada Lovelace", "Émile Zola", "<h2>Research</h2>", "Alan Turing"].map {
                byTeam.range(of: $0)?.lowerBound
            }
            #expect(teams.allSatisfy { $0 != nil } && teams.compactMap { $0 } == teams.compactMap { $0 }.sorted())
            #expect(byTeam.contains("<option value=\"team\" selected>"))

            // Search ignores case and accents, over names and the other fields.
            let emile = try await HTTPGet.request(base + "/people?q=EMILE").body
            #expect(emile.contains("Émile Zola") && !emile.contains("Ada Lovelace") && emile.contains("1 of 3 people"))
            let fullName = try await HTTPGet.request(base + "/people?q=ada+lovelace").body
            #expect(
                fullName.contains("Ada Lovelace") && fullName.contains("1 of 3 people"),
                "the search form sends a space as +")
            let research = try await HTTPGet.request(base + "/people?q=research").body
            #expect(research.contains("Alan Turing") && !research.contains("Émile Zola"))
            let nobody = try await HTTPGet.request(base + "/people?q=%3Cb%3Enobody").body
            #expect(
                nobody.contains("No one matches \u{201C}&lt;b&gt;nobody\u{201D}")
                    && nobody.contains("value=\"&lt;b&gt;nobody\""))
            #expect(try await HTTPGet.request(base + "/people?group=height").status == 400)
        }
    }

    @Test func offLoopbackThePageNeedsAToken() async throws {
        let scratch = TestScratch.directory("roster-web")
        defer { TestScratch.remove(scratch) }
        let server = try InboundPathHarness(
            loop: EmbeddedEventLoop(), store: try SQLiteRosterStore(path: scratch.path + "/roster.sqlite"),
            dataDirectory: scratch.path, now: t0)
        // The harness's HTTP side is not on loopback: nobody reads without a token.
        let http = HTTPRequestHarness.withWebApp(server)
        #expect(await http.respond(method: "GET", uri: "/", authorization: nil) == 401)
        #expect(await http.respond(method: "GET", uri: "/", authorization: "Bearer rst_nope_nope") == 401)
        #expect(await http.respond(method: "GET", uri: "/", authorization: "Bearer \(server.adminToken)") == 200)
        #expect(await http.respond(method: "GET", uri: "/assets/app.css", authorization: nil) == 200)
        #expect(await http.respond(method: "POST", uri: "/", authorization: "Bearer \(server.adminToken)") == 405)
        // 405 comes from the route table: a page's path with a method it does not take; a path
        // no page has is not found, whatever its method.
        let admin = "Bearer \(server.adminToken)"
        #expect(await http.respond(method: "GET", uri: "/me/calendar", authorization: admin) == 405)
        #expect(await http.respond(method: "PUT", uri: "/sign-out", authorization: admin) == 405)
        #expect(await http.respond(method: "DELETE", uri: "/schedules/Default/override", authorization: admin) == 405)
        #expect(await http.respond(method: "GET", uri: "/schedules/Default/nothing", authorization: admin) == 404)
        #expect(await http.respond(method: "GET", uri: "/assets/nothing.css", authorization: nil) == 404)
        for route in WebApp.routes {
            let others = ["GET", "POST", "PUT", "DELETE"].filter { method in
                !WebApp.routes.contains { $0.method == method && $0.path == route.path }
            }
            let path = route.example("Default")
            for method in others where path != "/assets/Default" {
                #expect(await http.respond(method: method, uri: path, authorization: admin) == 405, "\(method) \(path)")
            }
        }
        #expect(await http.respond(method: "GET", uri: "/v1/events", authorization: nil) == 401)
        #expect(await http.respond(method: "GET", uri: "/v1/events", authorization: "Bearer rst_nope_nope") == 401)
    }

    /// A revision that changed several schedules (an import, an apply) shows on each schedule's
    /// changes page with that schedule's part only.
    @Test func aSchedulesChangesAreItsOwn() {
        func upsert(_ id: String) -> Roster_V1_AuditChange {
            .with { $0.change.scheduleUpserted = .with { $0.id = id } }
        }
        #expect(
            ChangesPage.touches(upsert("primary"), schedule: "primary")
                && !ChangesPage.touches(upsert("other"), schedule: "primary"))
        let shift = Roster_V1_AuditChange.with { $0.change.shiftAdded = .with { $0.scheduleID = "" } }
        #expect(
            ChangesPage.touches(shift, schedule: ScheduleDefinition.defaultID)
                && !ChangesPage.touches(shift, schedule: "primary"))
        let removed = Roster_V1_AuditChange.with {
            $0.change.shiftDeleted = "shf_1"
            $0.before.shiftAdded = .with { $0.scheduleID = "primary" }
        }
        #expect(ChangesPage.touches(removed, schedule: "primary") && !ChangesPage.touches(removed, schedule: "other"))
        #expect(!ChangesPage.touches(.with { $0.change.motdSet = "hello" }, schedule: "primary"))
    }

    @Test func anEmailAndAPhoneAreApartInTheText() {
        var both = HTML()
        WebPage.contacts(&both, email: "ada@example.com", phone: "+44 20 7946 0000")
        let text = both.output.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        #expect(text == "ada@example.com · +44 20 7946 0000", "\(both.output)")
        var one = HTML()
        WebPage.contacts(&one, email: "", phone: "+44 20 7946 0000")
        #expect(!one.output.contains("sep"))
    }

    @Test func timesAreLabelledWithTheZoneTheyAreIn() {
        let berlin = ZoneLabel(zone: "Europe/Berlin")
        // 2027-03-28 00:30 UTC is 01:30 CET; 01:30 UTC, after the change, is 03:30 CEST: the tz
        // database's names, not Foundation's "GMT+1" (ZoneAbbreviations).
        let before = berlin.label(1_806_193_800_000), after = berlin.label(1_806_197_400_000)
        #expect(before == "Sun 28 Mar 01:30 CET")
        #expect(after == "Sun 28 Mar 03:30 CEST")
        #expect(ZoneLabel(zone: "").label(t0) == "Thu 1 Jan 00:00 UTC")
        #expect(ZoneLabel(zone: "Etc/UTC").name == "UTC" && berlin.name == "Europe/Berlin")
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }
}

/// A stream reader that stops reading beside a healthy one, on real sockets: its own suite, with
/// room for a machine whose two cores are busy with the rest of the suite.
@Suite(.timeLimit(.minutes(10))) struct WebStreamStallTests {
    @Test func aStreamReaderThatStopsReadingIsClosedAndAHealthyOneGetsEveryEvent() async throws {
        // The smallest send and outbound buffers, so that a few hundred events fill what the
        // server holds for a connection.
        try await HTTPTests.withHTTPServer(configure: {
            $0.limits.httpIdleTimeout = .seconds(3)
            $0.limits.httpSendBufferBytes = 4_096
            $0.limits.outboundHighWaterMark = 8_192
            $0.limits.outboundLowWaterMark = 2_048
        }) { harness, base in
            // The healthy reader keeps reading, as a browser does; the hostile one's kernel buffer
            // holds almost nothing, and it never reads.
            let (_, healthy, stalled) = try await StreamRig.start(harness)
            let reader = healthy.drain()
            let greeted = await eventually(10) { reader.count("event: hello") == 1 }
            #expect(greeted)

            // 800 events of about 54 bytes: more than twice what the stalled stream's buffers hold
            // (the server's 8 KiB kernel send buffer, packed full while the reader's window is
            // shut, and 8 KiB of its own).
            let hours = 40
            await StreamRig.handOff(hours: hours, harness, pacedBy: reader)
            #expect(
                reader.count("event: onduty") == 20 * hours, "the healthy reader got every handoff of every schedule")
            #expect(reader.count("event: resync") == 0 && !reader.closed)
            // The server stopped writing to the stalled stream and resets it after the idle
            // timeout (3 s): nothing is read from it until then.
            try await Task.sleep(for: .seconds(5))
            let hostile = await stalled.receiveAll(within: 10)
            #expect(hostile.closed, "a stream that is not read is closed")
            #expect(hostile.text.utf8.count < 40_000, "what it holds is bounded by the buffers")
            harness.clock.advance(to: t0 + Int64(hours + 1) * 60 * minute)
            let total = 20 * hours
            let servedOn = await eventually(10) { reader.count("event: onduty") > total }
            #expect(servedOn, "the healthy reader is still served")
            #expect(try await HTTPGet.request(base + "/livez").status == 200)
            reader.stop()
        }
    }
}
