import Foundation
import RosterDomain
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// The web app in people's own languages, from outside: every page in the pseudo-locale shows
/// no word that did not come through the catalogs; a German browser gets German pages and dates;
/// the reader's choice is kept; and the Berlin schedule says CET in November and CEST in July on
/// its pages and in its calendar feed.
@Suite(.timeLimit(.minutes(10)))
struct WebLanguageTests {
    /// A signed-in curl that asks for `language`.
    struct Reader {
        let jar: String
        let base: String
        var language: String

        func get(_ path: String) async throws -> HTTPResponse {
            try await HTTPGet.request(base + path, jar: jar, headers: ["Accept-Language: \(language)"])
        }

        func signIn(_ token: String) async throws {
            let reply = try await HTTPGet.request(
                base + "/sign-in", method: "POST", form: [("token", token)], jar: jar, headers: ["Origin: \(base)"])
            #expect(reply.status == 303, "\(reply.body)")
        }
    }

    static func withReader(_ base: String, language: String, _ body: (Reader) async throws -> Void) async throws {
        let scratch = TestScratch.directory("roster-web-language")
        defer { TestScratch.remove(scratch) }
        try await body(Reader(jar: scratch.path + "/cookies", base: base, language: language))
    }

    /// The words a page may show that are data, not the app's (names, the schedule, zones).
    static let data = [
        "Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds", "Engineer", "Core", "Platform primary",
        "Europe/Berlin", "UTC", "CET", "dentist", "demo", "Default", "English", "Deutsch", "Français", "Español",
        "Payments API", "Payments", "Runbook",
    ]
    /// The data's words, and their beginnings: a timeline bar cuts a name to fit ("Grace Hop…"),
    /// a person without a photo shows initials ("GH").
    static let dataWords: Set<String> = {
        var words: Set<String> = []
        for datum in data {
            let parts = datum.split(whereSeparator: { !$0.isLetter }).map(String.init)
            for part in parts { for length in 2...max(2, part.count) { words.insert(String(part.prefix(length))) } }
            words.insert(parts.compactMap(\.first).map(String.init).joined())
        }
        return words
    }()

    @Test func everyWordOfEveryPageComesFromTheCatalogs() async throws {
        try await HTTPTests.withHTTPServer(now: SelfServiceTests.now) { harness, base in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                }, handoff: "2026-11-30T09:00")
            let grace = try await Self.personToken(harness, "Grace Hopper")
            let asGrace = try await harness.connect(token: grace)
            _ = try await asGrace.admin(
                SelfServiceTests.cover(.open, from: SelfServiceTests.graceFrom, to: SelfServiceTests.graceTo))
            await asGrace.close()
            let applied = try await DefinitionApplyTests.withClient(harness) { client in
                try await DefinitionApplyTests.apply(client, ServicePageTests.payments)
            }
            #expect(applied.committed)
            let schedule = "/schedules/Platform%20primary"
            var checked = 0
            try await Self.withReader(base, language: "en-XA") { anonymous in
                let page = try await anonymous.get("/sign-in")
                #expect(page.body.contains("<html lang=\"en-XA\">"))
                #expect(Self.untranslated(page.body).isEmpty, "/sign-in: \(Self.untranslated(page.body))")
                checked += 1
            }
            for (token, paths) in [
                (
                    harness.adminToken,
                    [
                        "/", "/schedules", schedule, schedule + "?span=1m", "/people", "/people/\(team.grace)",
                        schedule + "/changes", schedule + "/hours", schedule + "/override", schedule + "/edit",
                        "/people?q=nobody-at-all", "/schedules/nothing", "/people?group=height",
                        "/services", "/services/Payments%20API", "/services/nothing",
                    ]
                ),
                (grace, ["/me", schedule]),
            ] {
                try await Self.withReader(base, language: "en-XA") { reader in
                    try await reader.signIn(token)
                    for path in paths {
                        let page = try await reader.get(path)
                        #expect(page.body.contains("⟦"), "\(path) is in the pseudo-locale")
                        let left = Self.untranslated(page.body)
                        #expect(left.isEmpty, "\(path): not from the catalogs: \(left)")
                        checked += 1
                    }
                }
            }
            #expect(checked == 19)
        }
    }

    /// A server on Monday 30 November 2026, 12:00 UTC, with the team's daily Berlin rotation.
    static func withDailyBerlinTeam(_ body: (ServerHarness, String) async throws -> Void) async throws {
        try await HTTPTests.withHTTPServer(now: SelfServiceTests.now) { harness, base in
            _ = try await ScheduleServerTests.team(
                harness,
                every: .with {
                    $0.unit = .days; $0.count = 1
                }, handoff: "2026-11-30T09:00")
            try await body(harness, base)
        }
    }

    @Test func aGermanBrowserReadsGermanAndTheChoiceIsKept() async throws {
        try await Self.withDailyBerlinTeam { harness, base in
            try await Self.withReader(base, language: "de-DE,de;q=0.9,en;q=0.8") { reader in
                try await reader.signIn(harness.adminToken)
                let now = try await reader.get("/")
                #expect(now.body.contains("<html lang=\"de\">") && now.body.contains("<h1>Jetzt im Dienst</h1>"))
                // Monday 30 November 2026, 12:00 UTC: Berlin is on CET; Ada took over at 09:00.
                #expect(now.body.contains("seit Mo. 30. Nov., 09:00 CET"), "\(now.body)")
                #expect(now.body.contains("Bis Di. 1. Dez., 09:00 CET"), "\(now.body)")
                #expect(now.body.contains("<p class=\"zone\">Zeiten in Europe/Berlin</p>"))
                // The script's words are German too: the countdown and the connection's state.
                #expect(now.body.contains("\"hours\":\"(in {1} Std. {2} Min.)\""), "\(now.body)")
                #expect(now.body.contains("\"days\":{\"one\":\"(in {1} Tag)\",\"other\":\"(in {1} Tagen)\"}"))
                let schedule = try await reader.get("/schedules/Platform%20primary")
                #expect(schedule.body.contains(">Mo 30</text>"), "the day scale in German")
                #expect(schedule.body.contains("<th scope=\"col\">Wer</th>"))
                let hours = try await reader.get("/schedules/Platform%20primary/hours")
                #expect(hours.body.contains("<h1>Stunden und Fairness</h1>"))

                // The reader's choice outweighs the browser's, and is kept; only this server's
                // paths are gone back to.
                let chosen = try await HTTPGet.request(
                    base + "/language?lang=fr&back=/people", jar: reader.jar, headers: ["Accept-Language: de"])
                #expect(chosen.status == 303 && chosen.headers.contains("Location: /people"), "\(chosen.headers)")
                #expect(chosen.headers.contains("roster_language=fr;"))
                let people = try await reader.get("/people")
                #expect(people.body.contains("<html lang=\"fr\">") && people.body.contains("<h1>Personnes</h1>"))
                #expect(people.body.contains("<option value=\"fr\" lang=\"fr\" selected>"), "the choice is shown")
                let away = try await HTTPGet.request(
                    base + "/language?lang=es&back=//elsewhere.example/", jar: reader.jar)
                #expect(away.status == 303 && away.headers.contains("Location: /\r"), "\(away.headers)")
                let cleared = try await HTTPGet.request(base + "/language?lang=&back=/", jar: reader.jar)
                #expect(cleared.headers.contains("roster_language=; Max-Age=0"))
                let again = try await reader.get("/").body
                #expect(again.contains("<html lang=\"de\">"), "the browser's language again")
                #expect(again.contains("<option value=\"\" selected>") && !again.contains("lang=\"de\" selected"))
            }
        }
    }

    @Test func berlinIsCETInNovemberAndCESTInJulyOnItsPagesAndInItsFeed() async throws {
        for (now, handoff, zone, day) in [
            (SelfServiceTests.now, "2026-11-30T09:00", "CET", "Mon 30 Nov 09:00 CET"),
            (TimeText.parseISO8601("2027-07-05T12:00:00Z")!, "2027-07-05T09:00", "CEST", "Mon 5 Jul 09:00 CEST"),
        ] {
            try await HTTPTests.withHTTPServer(now: now) { harness, base in
                let team = try await ScheduleServerTests.team(
                    harness,
                    every: .with {
                        $0.unit = .days; $0.count = 1
                    }, handoff: handoff)
                let page = try await HTTPGet.request(base + "/", token: harness.adminToken)
                #expect(page.body.contains("since \(day)"), "\(zone): \(page.body)")
                let other = zone == "CET" ? "CEST" : "CET"
                #expect(!page.body.contains(" \(other)<") && !page.body.contains(" \(other) "), "\(zone)")
                guard
                    case .calendar(let calendar) = try await team.admin.request(
                        .getCalendar(
                            .with {
                                $0.schedule = "Platform primary"; $0.createToken = true
                            }))
                else { throw TestFailure("expected a calendar") }
                let feed = try await HTTPGet.request(
                    base + "/v1/calendar/\(calendar.token).ics")
                // Unfolded (RFC 5545 §3.1): each event says its times as Berlin reads them.
                let text = feed.body.replacingOccurrences(of: "\r\n ", with: "")
                let descriptions = text.split(separator: "\r\n").filter { $0.hasPrefix("DESCRIPTION:") }
                #expect(!descriptions.isEmpty, "\(feed.body)")
                #expect(descriptions.allSatisfy { $0.contains("09:00 \(zone) – ") }, "\(descriptions)")
            }
        }
    }

    /// The words of a page outside the pseudo-locale's marks and outside the data: its text, its
    /// title and the attributes people read (aria-label, placeholder, alt, title).
    static func untranslated(_ html: String) -> [String] {
        var page = html.replacing(/<script[^>]*>[^<]*<\/script>/, with: " ")
        var shown: [String] = []
        for match in page.matches(of: /(?:aria-label|placeholder|alt|title)="([^"]*)"/) {
            shown.append(String(match.output.1))
        }
        page = page.replacing(/<[^>]*>/, with: " ")
        shown.append(page)
        var text = shown.joined(separator: " ").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        // Marks nest (a message's value may be a message): innermost first.
        while text.contains(/⟦[^⟦⟧]*⟧/) { text = text.replacing(/⟦[^⟦⟧]*⟧/, with: " ") }
        for datum in data { text = text.replacingOccurrences(of: datum, with: " ") }
        return text.matches(of: /[A-Za-z]{2,}/).map { String($0.output) }.filter { !dataWords.contains($0) }
    }

    static func personToken(_ harness: ServerHarness, _ person: String) async throws -> String {
        let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
        let token = try await administration.createToken(
            tenant: "demo", role: .reader, expiresIn: nil, employee: person
        )
        .text
        await administration.close()
        let ready = await eventually(10) { (try? await harness.connect(token: token)) != nil }
        try #require(ready, "the server did not pick up the token")
        return token
    }
}

/// The countdown and the connection's state as a German browser shows them: the script's words
/// come from the page, in its language.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: Browser.shouldRun, "chromium and Playwright are not installed"))
struct WebLanguageBrowserTests {
    @Test func theCountdownIsInGerman() async throws {
        try await WebLanguageTests.withDailyBerlinTeam { _, base in
            let scratch = TestScratch.directory("roster-countdown")
            defer { TestScratch.remove(scratch) }
            // The page's instants are the server's (its clock is set); the countdown runs on the
            // browser's own clock, so its value is anything: its words are what is checked.
            let browser = try await Browser.run(
                """
                page.goto(url)
                page.wait_for_function("() => document.querySelector('.countdown')?.textContent.length > 0")
                page.wait_for_function("() => document.getElementById('status')?.textContent.length > 0")
                print("COUNTDOWN " + page.text_content(".countdown"), flush=True)
                print("STATUS " + page.text_content("#status"), flush=True)
                print("LANG " + page.evaluate("() => document.documentElement.lang"), flush=True)
                """, url: base + "/", scratch: scratch, pageOptions: "locale=\"de-DE\"")
            let status = await browser.waitForExit(timeout: .seconds(120))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            let lines = browser.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("LANG de"), "\(browser.stdout)")
            let countdown = try #require(lines.first { $0.hasPrefix("COUNTDOWN ") }?.dropFirst(10))
            #expect(
                countdown.contains(/^\(in (\d+ s|\d+ Min\. \d\d s|\d+ Std\. \d\d Min\.|\d+ Tag|\d+ Tagen)\)$/),
                "\(countdown)")
            // Live, or, where the stream cannot be held, the German for no connection.
            let state = lines.first { $0.hasPrefix("STATUS ") }?.dropFirst(7) ?? ""
            #expect(state == "Live" || state.hasPrefix("Keine Verbindung — Daten von "), "\(browser.stdout)")
        }
    }
}
