import Foundation
import RosterClient
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServer
import RosterTestSupport
@testable import RosterWeb
import Testing

/// The web app's schedule timeline, sign-in and changes against a real server, with curl as the
/// browser (a cookie jar for the session): what the timeline draws in each zone, that a session
/// cookie is HttpOnly and SameSite=Strict and ends at sign-out, that an override made from the
/// page is previewed, committed only on confirm and read back over the protocol, and that
/// readers and forged posts change nothing.
@Suite(.timeLimit(.minutes(10))) struct WebScheduleTests {
    static let day: Int64 = 86_400_000
    /// 2026-10-22 12:00 UTC: the Thursday before Berlin leaves summer time (Sunday 25 October).
    static let beforeDST: UnixMillis = 1_792_670_400_000

    /// A signed-in curl: its cookie jar, removed when the test ends.
    struct Browser {
        let jar: String
        let base: String

        func get(_ path: String) async throws -> HTTPResponse { try await HTTPGet.request(base + path, jar: jar) }

        func post(_ path: String, _ form: [(String, String)], origin: String? = nil) async throws -> HTTPResponse {
            try await HTTPGet.request(
                base + path, method: "POST", form: form, jar: jar, headers: ["Origin: \(origin ?? base)"])
        }

        /// The CSRF value the page's forms carry.
        func csrf(_ page: HTTPResponse) throws -> String {
            let marker = "name=\"csrf\" value=\""
            let start = try #require(page.body.range(of: marker)).upperBound
            return String(page.body[start...].prefix { $0 != "\"" })
        }

        func signIn(_ token: String) async throws -> HTTPResponse { try await post("/sign-in", [("token", token)]) }
    }

    static func withBrowser(_ base: String, _ body: (Browser) async throws -> Void) async throws {
        let scratch = TestScratch.directory("roster-web-jar")
        defer { TestScratch.remove(scratch) }
        try await body(Browser(jar: scratch.path + "/cookies", base: base))
    }

    @Test func thePageMarksConflictsTimeOffAndTemporarySchedules() async throws {
        try await HTTPTests.withHTTPServer(now: Self.beforeDST) { harness, base in
            let team = try await ScheduleServerTests.team(
                harness,
                every: .with {
                    $0.unit = .days; $0.count = 1
                }, handoff: "2026-10-20T09:00")
            // Ada's turn on Saturday 24 October (09:00 Berlin) falls in her time off.
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.timeOff = .with {
                            $0.action = .add; $0.person = "Ada Lovelace"; $0.reason = "<b>away</b>"
                            $0.startMs = Self.beforeDST + Self.day; $0.endMs = Self.beforeDST + 3 * Self.day
                        }
                    }))
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.temporary = .with {
                            $0.action = .set; $0.startMs = Self.beforeDST + 4 * Self.day;
                            $0.endMs = Self.beforeDST + 5 * Self.day
                            $0.shifts = [
                                .with {
                                    $0.employeeID = "Grace Hopper"; $0.startMs = Self.beforeDST + 4 * Self.day;
                                    $0.endMs = Self.beforeDST + 5 * Self.day
                                }
                            ]
                        }
                    }))
            try await team.admin.barrier()
            let page = try await HTTPGet.request(base + "/schedules/Platform%20primary?start=2026-10-22&span=1w")
            #expect(page.status == 200)
            #expect(
                page.body.contains("Conflicts: on duty during time off")
                    && page.body.contains("<strong>Ada Lovelace</strong> has time off"),
                "\(page.body)")
            #expect(
                page.body.contains("(&lt;b&gt;away&lt;/b&gt;)") && !page.body.contains("<b>away</b>"),
                "the reason is text")
            #expect(page.body.contains("Free, fewest hours around it first:"))
            #expect(page.body.contains("Temporary schedules") && page.body.contains("Time off"))
            #expect(!page.body.contains("Cover with"), "an anonymous reader gets no override link")
            // The public JSON API says the same.
            let api = try await HTTPGet.request(
                base + "/v1/oncall?schedule=Platform%20primary&from=2026-10-22T00:00:00Z&to=2026-10-29T00:00:00Z",
                token: harness.adminToken)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any])
            let conflicts = try #require(json["conflicts"] as? [[String: Any]], "\(api.body)")
            #expect(conflicts.count == 1 && conflicts.first?["employee"] as? String == "Ada Lovelace")
            #expect((conflicts.first?["proposals"] as? [[String: Any]])?.isEmpty == false)
            #expect((json["shifts"] as? [[String: Any]])?.contains { $0["source"] as? String == "temporary" } == true)
        }
    }

    @Test func theTimelineDrawsTheSameInstantsInEveryZoneAcrossADaylightSavingChange() async throws {
        try await HTTPTests.withHTTPServer(now: Self.beforeDST) { harness, base in
            // A daily rotation handing off at 09:00 Berlin time, through the night summer time ends.
            let team = try await ScheduleServerTests.team(
                harness,
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-10-20T09:00")
            try await team.admin.barrier()
            let path = "/schedules/Platform%20primary?start=2026-10-23&span=1w"
            let berlin = try await HTTPGet.request(base + path)
            let utc = try await HTTPGet.request(base + path + "&tz=utc")
            let tokyo = try await HTTPGet.request(base + path + "&tz=Asia/Tokyo")
            #expect(berlin.status == 200 && utc.status == 200 && tokyo.status == 200)
            #expect(
                berlin.body.contains("Times in Europe/Berlin") && utc.body.contains("Times in UTC")
                    && tokyo.body.contains("Times in Asia/Tokyo"))

            // Each zone starts its week at its own midnight of 23 October; the handoffs inside are
            // the same instants whichever zone labels them: 09:00 Berlin is 07:00 UTC in summer
            // time and 08:00 UTC after it.
            let saturday = TimeText.parseISO8601("2026-10-24T07:00:00Z")!,
                monday = TimeText.parseISO8601("2026-10-26T08:00:00Z")!
            for page in [berlin, utc, tokyo] {
                #expect(
                    page.body.contains("data-start=\"\(saturday)\"") && page.body.contains("data-start=\"\(monday)\""))
            }
            #expect(berlin.body.contains("Sat 24 Oct 09:00") && berlin.body.contains("Mon 26 Oct 09:00"))
            #expect(utc.body.contains("Sat 24 Oct 07:00 UTC") && utc.body.contains("Mon 26 Oct 08:00 UTC"))
            // Berlin's Sunday 25 October has 25 hours: its day line sits where Berlin's midnight is.
            let sunday = TimeText.parseISO8601("2026-10-24T22:00:00Z")!,
                from = TimeText.parseISO8601("2026-10-22T22:00:00Z")!
            #expect(berlin.body.contains("data-from=\"\(from)\""))
            let window = try TimelineWindow(
                query: ["start": "2026-10-23"], scheduleZone: "Europe/Berlin", now: Self.beforeDST)
            #expect(window.days.map(\.instant).contains(sunday) && window.to - window.from == 7 * Self.day + 3_600_000)
            #expect(berlin.body.contains(">Sun 25</text>"))

            // Lanes: the final schedule, the rotation's layer, the overrides; and the links around.
            #expect(
                berlin.body.contains("<h2>Final schedule</h2>") && berlin.body.contains("<h2>Layer 0 (1 rotation)</h2>")
                    && berlin.body.contains("<h2>Overrides</h2>"))
            #expect(berlin.body.contains("href=\"/schedules/Platform%20primary?span=1w&amp;start=2026-10-16\""))
            #expect(berlin.body.contains("href=\"/schedules/Platform%20primary?span=1w&amp;start=2026-10-30\""))
            #expect(berlin.body.contains("href=\"/schedules/Platform%20primary?span=1m&amp;start=2026-10-23\""))
            #expect(
                utc.body.contains(
                    "href=\"/schedules/Platform%20primary?span=1w&amp;start=2026-10-23&amp;tz=utc\" aria-current"))

            for bad in [
                "?span=3d", "?start=2026-13-01", "?start=26-10-01", "?tz=Mars/Olympus",
                "?tz=" + String(repeating: "a", count: 80),
            ] {
                #expect(try await HTTPGet.request(base + "/schedules/Platform%20primary" + bad).status == 400, "\(bad)")
            }
            #expect(try await HTTPGet.request(base + "/schedules/Nope").status == 404)
            #expect(
                try await HTTPGet.request(base + "/schedules").body.contains("href=\"/schedules/Platform%20primary\""))
        }
    }

    @Test func gapsAreMarkedAndOverlappingStretchesGetTheirOwnRows() throws {
        let window = try TimelineWindow(
            query: ["start": "2026-01-01", "tz": "utc"], scheduleZone: "Europe/Berlin", now: t0)
        #expect(window.from == t0 && window.to == t0 + 7 * Self.day)
        let shifts = [
            ResolvedShift(
                id: "a", employeeID: "ada", start: t0 + Self.day, end: t0 + 3 * Self.day, source: .shift(id: "a")),
            ResolvedShift(
                id: "b", employeeID: "bob", start: t0 + 2 * Self.day, end: t0 + 4 * Self.day, source: .shift(id: "b")),
        ]
        let gaps = SchedulePage.gaps(in: shifts, window: window)
        #expect(gaps.map { [$0.start, $0.end] } == [[t0, t0 + Self.day], [t0 + 4 * Self.day, t0 + 7 * Self.day]])
        let bars = shifts.map {
            SchedulePage.Bar(start: $0.start, end: $0.end, label: $0.employeeID, kind: .person($0.employeeID))
        }
        #expect(SchedulePage.packed(bars) == [0, 1])
        #expect(window.percent(t0 - Self.day) == 0 && window.percent(t0 + 7 * Self.day + 1) == 100)
        #expect(window.shifted(-1) == WallClock.Day(year: 2025, month: 12, day: 25))
        let month = try TimelineWindow(
            query: ["start": "2026-01-31", "span": "1m", "tz": "utc"], scheduleZone: "", now: t0)
        #expect(month.to == TimeText.parseISO8601("2026-02-28T00:00:00Z")!)
        // A month's scale: no number right after a weekday's label, which would run into it.
        let labels = (0..<9).map { SchedulePage.dayLabel(index: $0, day: 12 + $0, weekday: "Sat", span: .month) }
        #expect(labels == ["Sat 12", nil, "14", "15", "16", "17", "18", "Sat 19", nil])
        #expect(SchedulePage.dayLabel(index: 1, day: 13, weekday: "Sun", span: .week) == "Sun 13")
    }

    @Test func signingInGivesAStrictHttpOnlySessionAndSigningOutEndsIt() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            try await Self.withBrowser(base) { browser in
                let refused = try await browser.signIn("rst_nope_nope")
                #expect(
                    refused.status == 401 && refused.body.contains("That token is not valid")
                        && !refused.headers.contains("Set-Cookie"))

                let signedIn = try await browser.signIn(harness.adminToken)
                #expect(signedIn.status == 303 && signedIn.headers.contains("Location: /"))
                let cookie = try #require(
                    signedIn.headers.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") })
                #expect(
                    cookie.contains("roster_session=") && cookie.contains("HttpOnly")
                        && cookie.contains("SameSite=Strict"))
                #expect(
                    !cookie.contains("Secure"),
                    "a loopback listener serves plain HTTP, where a Secure cookie would not be kept")
                #expect(!cookie.contains(harness.adminToken), "the browser keeps a session, never the token")

                let page = try await browser.get("/")
                #expect(page.body.contains("Signed in: ") && page.body.contains("(admin)"))
                let csrf = try browser.csrf(page)

                // Signing out needs the page's CSRF value, then ends the session on the server.
                #expect(try await browser.post("/sign-out", [("csrf", "forged")]).status == 403)
                let session = String(cookie.split(separator: ";")[0].dropFirst("Set-Cookie: ".count))
                let out = try await browser.post("/sign-out", [("csrf", csrf)])
                #expect(out.status == 303 && out.headers.contains("roster_session=; Max-Age=0"))
                let replayed = try await HTTPGet.request(base + "/", headers: ["Cookie: \(session)"])
                #expect(
                    replayed.status == 200 && !replayed.body.contains("Signed in: "), "the old cookie signs nobody in")
            }
        }
    }

    @Test func revokingTheTokenEndsItsSessions() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let reader = try await StoreAdministrationFixture.readerToken(harness)
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(reader.text).status == 303)
                #expect(try await browser.get("/").body.contains("Signed in: reader (reader)"))
                try await harness.revoke(tokenID: reader.id)
                // The server re-reads tokens every second.
                #expect(await eventually(10) { (try? await browser.get("/").body.contains("Signed in: ")) == false })
            }
        }
    }

    @Test func anOverrideMadeOnThePageIsPreviewedThenCommittedOnConfirm() async throws {
        try await HTTPTests.withHTTPServer(now: TimeText.parseISO8601("2026-11-26T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            try await team.admin.barrier()
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(harness.adminToken).status == 303)
                // The stretch Ada holds from Monday 30 November 09:00 Berlin links to a pre-filled override.
                let timeline = try await browser.get("/schedules/Platform%20primary?start=2026-11-30")
                // The bar drawn ends with the window (Monday 7 December 00:00 Berlin), and so does the link's;
                // the form pre-fills her whole turn, to Monday 09:00, not the window's edge.
                let start = TimeText.parseISO8601("2026-11-30T08:00:00Z")!,
                    end = TimeText.parseISO8601("2026-12-06T23:00:00Z")!
                let link =
                    "/schedules/Platform%20primary/override?replacing=\(team.ada)&amp;from=\(start)&amp;to=\(end)"
                #expect(timeline.body.contains("href=\"\(link)\""))
                #expect(timeline.body.contains("Changes to this schedule"))
                let form = try await browser.get(link.replacingOccurrences(of: "&amp;", with: "&"))
                #expect(form.status == 200)
                #expect(form.body.contains("<option value=\"\(team.ada)\" selected>Ada Lovelace</option>"))
                #expect(
                    form.body.contains("value=\"2026-11-30T09:00\"")
                        && form.body.contains("value=\"2026-12-07T09:00\""), "\(form.body)")
                #expect(form.body.contains("Times in Europe/Berlin"))
                let csrf = try browser.csrf(form)

                // Grace covers Tuesday: the preview says who gains and loses what, and commits nothing.
                let fields = [
                    ("csrf", csrf), ("tz", "schedule"), ("replacing", team.ada), ("with", team.grace),
                    ("from", "2026-12-01T09:00"), ("to", "2026-12-02T09:00"), ("reason", "dentist <Tuesday>"),
                ]
                let preview = try await browser.post(
                    "/schedules/Platform%20primary/override", fields + [("action", "preview")])
                #expect(preview.status == 200)
                #expect(
                    preview.body.contains("Ada Lovelace loses Tue 1 Dec 09:00")
                        && preview.body.contains("Grace Hopper gains Tue 1 Dec 09:00"))
                #expect(
                    preview.body.contains("id=\"confirm\"")
                        && preview.body.contains("value=\"dentist &lt;Tuesday&gt;\""))
                let tuesday = TimeText.parseISO8601("2026-12-01T12:00:00Z")!
                #expect(try await Self.onDuty(team.admin, at: tuesday) == [team.ada])

                let confirmed = try await browser.post(
                    "/schedules/Platform%20primary/override", fields + [("action", "confirm")])
                #expect(
                    confirmed.status == 303
                        && confirmed.headers.contains("Location: /schedules/Platform%20primary?start=2026-12-01"))
                #expect(try await Self.onDuty(team.admin, at: tuesday) == [team.grace])
                let after = try await browser.get("/schedules/Platform%20primary?start=2026-11-30")
                #expect(after.body.contains("Grace Hopper for Ada Lovelace"))

                // The schedule's changes say who did it and why.
                let changes = try await browser.get("/schedules/Platform%20primary/changes")
                #expect(
                    changes.status == 200
                        && changes.body.contains("Override added: Grace Hopper for Ada Lovelace, Tue 1 Dec 09:00"))
                #expect(changes.body.contains("dentist &lt;Tuesday&gt;"))

                // A time that is not one is refused with the form again.
                var wrong = fields
                wrong[4] = ("from", "2026-12-01 9am")
                let refused = try await browser.post(
                    "/schedules/Platform%20primary/override", wrong + [("action", "confirm")])
                #expect(refused.status == 400 && refused.body.contains("From is a date and time"))
            }
        }
    }

    @Test func aCoverRequestIsTakenWithItsButtonOnTheSchedulePage() async throws {
        try await HTTPTests.withHTTPServer(now: TimeText.parseISO8601("2026-11-26T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            // An admin asks for cover of Ada's week for her; Grace signs in with her own token.
            let opened = try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.coverRequest = .with {
                            $0.action = .open
                            $0.person = "Ada Lovelace"
                            $0.startMs = TimeText.parseISO8601("2026-11-30T08:00:00Z")!
                            $0.endMs = TimeText.parseISO8601("2026-12-07T08:00:00Z")!
                            $0.note = "holiday"
                        }
                    }))
            let id = try #require(opened.ids.dropFirst().first)
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let grace = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Grace Hopper")
            await administration.close()
            try await Self.withBrowser(base) { browser in
                #expect(await eventually(10) { (try? await browser.signIn(grace.text).status) == 303 })
                let page = try await browser.get("/schedules/Platform%20primary")
                #expect(
                    page.body.contains("Cover requests") && page.body.contains("holiday")
                        && page.body.contains("<tr id=\"\(id)\""))
                #expect(page.body.contains("<button type=\"submit\">Take</button>"), "Grace is offered the request")
                let csrf = try browser.csrf(page)
                #expect(
                    try await browser.post(
                        "/schedules/Platform%20primary/requests",
                        [("csrf", "forged"), ("request", id), ("step", "take")]
                    ).status == 403)
                let taken = try await browser.post(
                    "/schedules/Platform%20primary/requests",
                    [("csrf", csrf), ("request", id), ("step", "take")])
                // Back to the timeline at the week the request is about, not the current one.
                #expect(
                    taken.status == 303
                        && taken.headers.lowercased().contains(
                            "location: /schedules/platform%20primary?start=2026-11-30#\(id)"),
                    "\(taken.headers)")
                let after = try await browser.get("/schedules/Platform%20primary")
                #expect(after.body.contains("taken by Grace Hopper") && after.body.contains("Back out</button>"))
                #expect(!after.body.contains("<button type=\"submit\">Take</button>"))
                let mine = try await browser.get("/me")
                #expect(
                    mine.body.contains("Cover requests on Platform primary") && mine.body.contains("Back out</button>"),
                    "Grace's own page lists the request she took")
                // A button pressed on /me leads back to /me.
                let backedOut = try await browser.post(
                    "/schedules/Platform%20primary/requests",
                    [("csrf", csrf), ("request", id), ("step", "back-out"), ("back", "me")])
                #expect(
                    backedOut.status == 303 && backedOut.headers.lowercased().contains("location: /me#\(id)"),
                    "\(backedOut.headers)")
                #expect(mine.body.contains("name=\"back\" value=\"me\""), "the /me buttons say where they were pressed")
                let retaken = try await browser.post(
                    "/schedules/Platform%20primary/requests", [("csrf", csrf), ("request", id), ("step", "take")])
                #expect(retaken.status == 303)
                let shifts = try await ScheduleServerTests.final(
                    team.admin, "Platform primary", from: "2026-12-01T00:00:00Z",
                    to: "2026-12-01T00:00:01Z")
                #expect(shifts.map(\.employeeID) == [team.grace] && shifts.first?.overrideSource == "request:\(id)")
                // Taking it again is refused with the reason, on a page.
                let again = try await browser.post(
                    "/schedules/Platform%20primary/requests",
                    [("csrf", csrf), ("request", id), ("step", "take")])
                #expect(again.status == 400 && again.body.contains("already taken by Grace Hopper"), "\(again.status)")
            }
            await team.admin.close()
        }
    }

    @Test func adminsAddARotationAndSwapDutyFromThePage() async throws {
        try await HTTPTests.withHTTPServer(now: TimeText.parseISO8601("2026-11-26T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            try await team.admin.barrier()
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(harness.adminToken).status == 303)
                let timeline = try await browser.get("/schedules/Platform%20primary")
                #expect(timeline.body.contains("href=\"/schedules/Platform%20primary/edit\""))
                let form = try await browser.get("/schedules/Platform%20primary/edit")
                #expect(form.status == 200 && form.body.contains("Add a rotation") && form.body.contains("Swap duty"))
                let csrf = try browser.csrf(form)

                // Ada and Alan swap their weeks: previewed, then committed.
                let swap = [
                    ("csrf", csrf), ("kind", "swap"), ("first", team.ada), ("firstFrom", "2026-11-30T09:00"),
                    ("firstTo", "2026-12-07T09:00"), ("second", team.alan), ("secondFrom", "2026-12-07T09:00"),
                    ("secondTo", "2026-12-14T09:00"), ("reason", "holiday"),
                ]
                let preview = try await browser.post(
                    "/schedules/Platform%20primary/edit", swap + [("action", "preview")])
                #expect(
                    preview.status == 200 && preview.body.contains("Alan Turing gains Mon 30 Nov 09:00"),
                    "\(preview.body)")
                #expect(
                    try await Self.onDuty(team.admin, at: TimeText.parseISO8601("2026-12-01T12:00:00Z")!) == [team.ada])
                let swapped = try await browser.post(
                    "/schedules/Platform%20primary/edit", swap + [("action", "confirm")])
                #expect(
                    swapped.status == 303
                        && swapped.headers.contains("Location: /schedules/Platform%20primary?start=2026-11-30"))
                #expect(
                    try await Self.onDuty(team.admin, at: TimeText.parseISO8601("2026-12-01T12:00:00Z")!) == [team.alan]
                )
                #expect(
                    try await Self.onDuty(team.admin, at: TimeText.parseISO8601("2026-12-08T12:00:00Z")!) == [team.ada])

                // A daily rotation of Grace and Linus in layer 1, above the weekly one.
                let rotation = [
                    ("csrf", csrf), ("kind", "rotation"), ("people", "Grace Hopper\nLinus Torvalds"), ("every", "1"),
                    ("unit", "days"), ("handoff", "2026-12-21T09:00"), ("layer", "1"),
                ]
                let planned = try await browser.post(
                    "/schedules/Platform%20primary/edit", rotation + [("action", "preview")])
                #expect(planned.status == 200 && planned.body.contains("Grace Hopper gains Mon 21 Dec 09:00"))
                #expect(
                    try await browser.post("/schedules/Platform%20primary/edit", rotation + [("action", "confirm")])
                        .status == 303)
                #expect(
                    try await Self.onDuty(team.admin, at: TimeText.parseISO8601("2026-12-22T12:00:00Z")!) == [
                        team.linus
                    ])
                let after = try await browser.get("/schedules/Platform%20primary?start=2026-12-21")
                #expect(after.body.contains("<h2>Layer 1 (1 rotation)</h2>"))

                // Refusals come back with the form and say why.
                var wrong = rotation
                wrong[4] = ("every", "0")
                let refused = try await browser.post(
                    "/schedules/Platform%20primary/edit", wrong + [("action", "confirm")])
                #expect(refused.status == 400 && refused.body.contains("Every is a whole number from 1 to 1000"))
                let unknown = try await browser.post(
                    "/schedules/Platform%20primary/edit",
                    [
                        ("csrf", csrf), ("kind", "rotation"), ("people", "Nobody Known"), ("every", "1"),
                        ("unit", "days"), ("handoff", "2026-12-21T09:00"), ("layer", "2"), ("action", "preview"),
                    ])
                #expect(unknown.status == 400, "\(unknown.status)")
                #expect(unknown.body.contains("Nobody Known"))
            }
            let reader = try await StoreAdministrationFixture.readerToken(harness)
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(reader.text).status == 303)
                #expect(try await browser.get("/schedules/Platform%20primary/edit").status == 403)
                let page = try await browser.get("/schedules/Platform%20primary")
                #expect(page.status == 200 && !page.body.contains("/edit\""))
            }
        }
    }

    @Test func readersSeeNoEditControlsAndForgedChangesAreRefused() async throws {
        try await HTTPTests.withHTTPServer(now: TimeText.parseISO8601("2026-11-26T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            try await team.admin.barrier()
            let reader = try await StoreAdministrationFixture.readerToken(harness)
            let tuesday = TimeText.parseISO8601("2026-12-01T12:00:00Z")!
            let fields = [
                ("tz", "schedule"), ("replacing", team.ada), ("with", team.grace), ("from", "2026-12-01T09:00"),
                ("to", "2026-12-02T09:00"), ("action", "confirm"),
            ]
            // Anonymous (loopback) and signed-in readers get no override links, and no form.
            let anonymous = try await HTTPGet.request(base + "/schedules/Platform%20primary?start=2026-11-30")
            #expect(
                anonymous.status == 200 && !anonymous.body.contains("/override?")
                    && !anonymous.body.contains("Changes to this schedule"))
            #expect(try await HTTPGet.request(base + "/schedules/Platform%20primary/override").status == 401)
            #expect(
                try await HTTPGet.request(base + "/schedules/Platform%20primary/override", method: "POST", form: fields)
                    .status == 401)
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(reader.text).status == 303)
                let page = try await browser.get("/schedules/Platform%20primary?start=2026-11-30")
                #expect(page.status == 200 && !page.body.contains("/override?"))
                #expect(try await browser.get("/schedules/Platform%20primary/override").status == 403)
                #expect(try await browser.get("/schedules/Platform%20primary/changes").status == 403)
                let csrf = try browser.csrf(page)
                // The server refuses the reader's change even with the session's own CSRF value.
                let asReader = try await browser.post(
                    "/schedules/Platform%20primary/override", fields + [("csrf", csrf)])
                #expect(asReader.status == 403 && asReader.body.contains("Only an admin may change Platform primary"))
            }
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(harness.adminToken).status == 303)
                let csrf = try browser.csrf(try await browser.get("/"))
                // An admin's session, but the post is forged: no CSRF value, a wrong one, another origin.
                #expect(try await browser.post("/schedules/Platform%20primary/override", fields).status == 403)
                #expect(
                    try await browser.post(
                        "/schedules/Platform%20primary/override",
                        fields + [("csrf", (csrf.hasPrefix("0") ? "1" : "0") + csrf.dropFirst())]
                    ).status == 403)
                let elsewhere = try await browser.post(
                    "/schedules/Platform%20primary/override", fields + [("csrf", csrf)],
                    origin: "https://evil.example")
                #expect(elsewhere.status == 403 && elsewhere.body.contains("CSRF"))
                // A sign-in posted from another site is refused too.
                #expect(
                    try await browser.post("/sign-in", [("token", harness.adminToken)], origin: "https://evil.example")
                        .status == 403)
            }
            #expect(try await Self.onDuty(team.admin, at: tuesday) == [team.ada], "nothing changed")
        }
    }

    /// A short bar's name ends in an ellipsis where it is cut, or is left out when nothing fits.
    @Test func aShortBarsNameIsCutWithAnEllipsis() {
        #expect(SchedulePage.fitted("Ada Lovelace", percent: 50) == "Ada Lovelace")
        #expect(SchedulePage.fitted("Ada Lovelace", percent: 7) == "Ada Lov…")
        #expect(SchedulePage.fitted("Ada Lovelace", percent: 2) == "")
        for percent in stride(from: 0.5, through: 20, by: 0.5) {
            let shown = SchedulePage.fitted("Evelyn Boyd Granville", percent: percent)
            #expect(shown.isEmpty || shown == "Evelyn Boyd Granville" || shown.hasSuffix("…"), "\(percent): \(shown)")
        }
    }

    @Test func aPersonsPageAndMyShifts() async throws {
        try await HTTPTests.withHTTPServer(now: TimeText.parseISO8601("2026-11-26T12:00:00Z")!) { harness, base in
            let team = try await ScheduleServerTests.team(harness)
            try await team.admin.barrier()
            let ada = try await HTTPGet.request(base + "/people/\(team.ada)")
            #expect(
                ada.status == 200 && ada.body.contains("<h1>Ada Lovelace</h1>") && ada.body.contains("Next on duty"))
            #expect(
                ada.body.contains("Mon 30 Nov 09:00") && ada.body.contains("href=\"/schedules/Platform%20primary\""))
            // Linus's turn from Monday 21 December runs past the four weeks shown: listed whole, to
            // its handoff, not to the window's edge (Thursday 24 December 13:00).
            let linus = try await HTTPGet.request(base + "/people/\(team.linus)").body
            #expect(
                linus.contains("Mon 21 Dec 09:00") && linus.contains("Mon 28 Dec 09:00")
                    && !linus.contains("24 Dec 13:00"), "\(linus)")
            #expect(try await HTTPGet.request(base + "/people/nobody").status == 404)
            #expect(try await HTTPGet.request(base + "/people").body.contains("href=\"/people/\(team.ada)\""))

            // "My shifts" is for a token that names a person.
            let anonymous = try await HTTPGet.request(base + "/me")
            #expect(
                anonymous.status == 403 && anonymous.body.contains("--tenant demo --role reader --employee"),
                "\(anonymous.body)")
            #expect(try await HTTPGet.request(base + "/me", token: harness.adminToken).status == 403)
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let grace = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, label: "grace",
                employee: "Grace Hopper")
            await administration.close()
            #expect(
                await eventually(10) { (try? await HTTPGet.request(base + "/me", token: grace.text).status) == 200 })
            let mine = try await HTTPGet.request(base + "/me", token: grace.text)
            #expect(
                mine.body.contains("<h1>My shifts</h1>") && mine.body.contains("Grace Hopper")
                    && mine.body.contains("Upcoming"))
            #expect(mine.body.contains("Mon 14 Dec 09:00") && mine.body.contains("No duty in the last 14 days."))
            #expect(mine.body.contains("Next on duty: Platform primary, Mon 14 Dec 09:00"), "\(mine.body)")
            // A stretch under way is listed once, as upcoming (whole), not also as recent.
            let now = TimeText.parseISO8601("2026-11-26T12:00:00Z")!
            _ = try await team.admin.addShift(team.grace, now - 120 * minute, now + 120 * minute)
            try await team.admin.barrier()
            let underWay = try await HTTPGet.request(base + "/me", token: grace.text).body
            #expect(underWay.components(separatedBy: "class=\"current\"").count == 2, "once: \(underWay)")
            #expect(underWay.contains("No duty in the last 14 days."), "\(underWay)")
            try await Self.withBrowser(base) { browser in
                #expect(try await browser.signIn(grace.text).status == 303)
                let page = try await browser.get("/me")
                #expect(
                    page.body.contains("href=\"/me\" aria-current=\"page\"")
                        && page.body.contains("Make my calendar link"))
                #expect(
                    page.body.contains("Signed in: Grace Hopper · grace (reader)"),
                    "the header names the token's person")
                let link = try await browser.post("/me/calendar", [("csrf", try browser.csrf(page))])
                #expect(link.status == 200 && link.body.contains("/v1/calendar/rst_"))
                let url = String(
                    try #require(
                        link.body.components(separatedBy: "<code id=\"feed\">").dropFirst().first?
                            .prefix { $0 != "<" }))
                let feed = try await HTTPGet.request(url)
                #expect(
                    feed.status == 200 && feed.body.contains("BEGIN:VCALENDAR")
                        && feed.body.contains("Platform primary"))
            }
        }
    }

    @Test func sessionsEndAfterTheirLifetimeAndNoTokenSignsOthersOut() throws {
        let sessions = WebSessions()
        let first = try #require(sessions.open(tokenID: "tok_a", tenantID: "a", now: 0))
        #expect(first.id.count == 64 && first.csrf.count == 64 && first.id != first.csrf)
        // One token signing in again and again replaces its own least recently used session only.
        var own: [WebSessions.Session] = []
        for index in 0..<(WebSessions.maxPerToken + 5) {
            own.append(try #require(sessions.open(tokenID: "tok_b", tenantID: "b", now: Int64(index))))
        }
        #expect(sessions.count == 1 + WebSessions.maxPerToken && sessions.session(first.id, now: 100) != nil)
        #expect(sessions.session(own[0].id, now: 100) == nil && sessions.session(own.last!.id, now: 100) != nil)
        // Many tokens of one tenant: that tenant's oldest go, the other tenant's session stays.
        for index in 0..<(WebSessions.maxPerTenant + 10) {
            _ = try #require(sessions.open(tokenID: "tok_many_\(index)", tenantID: "b", now: 200 + Int64(index)))
        }
        #expect(sessions.count == 1 + WebSessions.maxPerTenant && sessions.session(first.id, now: 5_000) != nil)
        // The node's cap is a refusal, not an eviction: nobody is signed out by a flood of tenants.
        var opened = 0
        for index in 0..<WebSessions.maxSessions
        where sessions.open(tokenID: "tok_t\(index)", tenantID: "t\(index)", now: 6_000) != nil {
            opened += 1
        }
        #expect(
            sessions.count == WebSessions.maxSessions
                && opened == WebSessions.maxSessions - 1 - WebSessions.maxPerTenant)
        #expect(sessions.session(first.id, now: 7_000) != nil)
        // Expired sessions make room.
        let latest = try #require(sessions.open(tokenID: "tok_c", tenantID: "c", now: WebSessions.lifetime + 6_000))
        #expect(
            sessions.session(first.id, now: WebSessions.lifetime + 6_001) == nil,
            "a session lasts `lifetime` from sign-in")
        #expect(sessions.session(latest.id, now: WebSessions.lifetime + 6_002) != nil)
        sessions.close(latest.id)
        #expect(sessions.session(latest.id, now: WebSessions.lifetime + 6_003) == nil)
        #expect(
            WebSessions.matches("abc", "abc") && !WebSessions.matches("abd", "abc") && !WebSessions.matches("ab", "abc")
        )
        #expect(
            WebSessions.cookie(nil, secure: true).1
                == "roster_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure")
    }

    @Test func formsAndCookiesAreReadOneWay() {
        var request = HTTPAPI.Request(method: "POST", path: "/sign-in")
        request.contentType = "application/x-www-form-urlencoded"
        request.body = Array("a=1&b=x+y%26z&a=2&empty=&%3C=%3E".utf8)
        #expect(request.form == ["a": "2", "b": "x y&z", "empty": "", "<": ">"])
        request.contentType = "text/plain"
        #expect(request.form.isEmpty)
        request.cookie = "x=1; roster_session=abc ;y=2=3"
        #expect(request.cookie("roster_session") == "abc" && request.cookie("y") == "2=3" && request.cookie("z") == nil)
    }

    @Test func pagesAndAssetsAreGzippedForABrowserThatTakesIt() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            for index in 0..<40 { _ = try await admin.addEmployee("Person", "Number \(index)") }
            try await admin.barrier()
            for path in ["/people", "/assets/app.css", "/assets/live.js"] {
                let plain = try await HTTPGet.request(base + path)
                let gzipped = try await HTTPGet.request(
                    base + path, headers: ["Accept-Encoding: gzip"], compressed: true)
                #expect(
                    !plain.headers.contains("Content-Encoding") && plain.headers.contains("Vary: Accept-Encoding"),
                    "\(path)")
                #expect(gzipped.headers.contains("Content-Encoding: gzip") && gzipped.body == plain.body, "\(path)")
                let length =
                    gzipped.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
                #expect(
                    length > 0 && length * 2 < plain.body.utf8.count, "\(path): \(length) of \(plain.body.utf8.count)")
            }
            // Refused by weight, or not asked for: sent as it is.
            let refused = try await HTTPGet.request(base + "/people", headers: ["Accept-Encoding: gzip;q=0, identity"])
            #expect(!refused.headers.contains("Content-Encoding"))
            var request = HTTPAPI.Request(method: "GET", path: "/")
            for (header, accepted) in [
                ("gzip", true), ("deflate, gzip;q=0.5", true), ("gzip;q=0", false), ("br", false), ("GZIP ; q=1", true),
            ] {
                request.acceptEncoding = header
                #expect(Gzip.accepted(by: request) == accepted, "\(header)")
            }
        }
    }

    @Test func aBodyOverTheCapIsRefusedAndTheServerServesOn() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.httpMaxBodyBytes = 1_024 }) { harness, base in
            let big = try await HTTPGet.request(
                base + "/sign-in", method: "POST", form: [("token", String(repeating: "x", count: 5_000))])
            #expect(big.status == 413 && big.body.contains("over 1024 bytes"))
            let small = try await HTTPGet.request(
                base + "/sign-in", method: "POST", form: [("token", harness.adminToken)])
            #expect(small.status == 303)
        }
    }

    static func onDuty(_ connection: RosterConnection, at instant: UnixMillis) async throws -> [String] {
        let answer = try await connection.request(
            .getOnDuty(
                .with {
                    $0.schedule = "Platform primary"
                    $0.atMs = instant
                }))
        guard case .onDuty(let body) = answer else { return [] }
        return body.current.map(\.employee.id)
    }
}
