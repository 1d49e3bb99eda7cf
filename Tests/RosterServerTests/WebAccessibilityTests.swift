import Foundation
import RosterDomain
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// The web app's accessibility, guarded: axe-core (PyPI axe-playwright-python, which bundles it)
/// in a real chromium over every page, as each kind of viewer sees it, at 1280 and 390 px, in
/// the light and the dark scheme: no violation of a WCAG 2.0, 2.1 or 2.2 rule at level A or AA.
/// And the keyboard's first stop on every page is a visible "Skip to content" that lands on the
/// page's main content.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: Browser.shouldRunAxe, "chromium, Playwright and axe-playwright-python are not installed"))
struct WebAccessibilityTests {
    /// One viewer's pages: their token ("" for nobody signed in) and the paths they read.
    struct Visit: Encodable {
        var token: String
        var paths: [String]
    }

    static let widths = [1280, 390]
    static let schemes = ["light", "dark"]

    @Test func everyPageMeetsWCAGAAAtBothWidthsInBothSchemes() async throws {
        try await HTTPTests.withHTTPServer(
            now: SelfServiceTests.now, configure: { $0.limits.tokenRefresh = .milliseconds(50) }
        ) {
            harness, base in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            var tokens: [String: String] = [:]
            for person in ["Grace Hopper", "Ada Lovelace"] {
                tokens[person] =
                    try await administration.createToken(
                        tenant: "demo", role: .reader, expiresIn: nil, employee: person
                    ).text
            }
            await administration.close()
            let grace = try #require(tokens["Grace Hopper"]), ada = try #require(tokens["Ada Lovelace"])
            let ready = await eventually(10) { (try? await harness.connect(token: grace)) != nil }
            try #require(ready, "the server did not pick up the tokens")
            // An open cover request, so that the schedule and "My shifts" show theirs.
            let asGrace = try await harness.connect(token: grace)
            _ = try await asGrace.admin(
                SelfServiceTests.cover(.open, from: SelfServiceTests.graceFrom, to: SelfServiceTests.graceTo))
            await asGrace.close()
            let applied = try await DefinitionApplyTests.withClient(harness) { client in
                try await DefinitionApplyTests.apply(client, ServicePageTests.payments)
            }
            #expect(applied.committed)

            let schedule = "/schedules/Platform%20primary"
            let visits = [
                Visit(token: "", paths: ["/sign-in"]),
                Visit(
                    token: harness.adminToken,
                    paths: [
                        "/", "/schedules", schedule, schedule + "?span=1m", "/people", "/people/\(team.grace)",
                        schedule + "/changes", schedule + "/hours", schedule + "/override", schedule + "/edit",
                        "/services", "/services/Payments%20API",
                    ]),
                Visit(token: grace, paths: ["/me", "/me/tokens", schedule, "/"]),
                Visit(token: ada, paths: [schedule]),
            ]
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let plan = String(decoding: try encoder.encode(visits), as: UTF8.self)
            let scratch = TestScratch.directory("roster-axe")
            defer { TestScratch.remove(scratch) }
            let browser = try await Browser.run(
                """
                import json
                from axe_playwright_python.sync_playwright import Axe
                axe = Axe()
                rules = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]},
                         "resultTypes": ["violations"]}
                checked = 0
                for visit in json.loads(\(pythonString(plan))):
                    for scheme in \(Self.schemes):
                        for width in \(Self.widths):
                            context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                            tab = context.new_page()
                            if visit["token"]:
                                tab.goto(url + "/sign-in")
                                tab.fill("#token", visit["token"])
                                tab.click("main button[type=submit]")
                                tab.wait_for_url(lambda address: "/sign-in" not in address)
                            for path in visit["paths"]:
                                tab.goto(url + path)
                                for violation in axe.run(tab, options=rules).response["violations"]:
                                    where = [node["target"] for node in violation["nodes"]][:3]
                                    print(f"VIOLATION {path} {width}px {scheme}: {violation['id']} ({violation['impact']}) {where} {violation['help']}", flush=True)
                                checked += 1
                                if path == \(pythonString(schedule)):
                                    # The timeline is a picture: a link leads to the same stretches as a table.
                                    table = tab.evaluate("() => { const a = document.querySelector('a[href$=stretches]'), h = document.getElementById('stretches'); return !!a && h?.nextElementSibling?.tagName === 'TABLE' && h.nextElementSibling.querySelectorAll('tbody tr').length > 0 }")
                                    print(f"TABLE {width}px {scheme}: {table}", flush=True)
                            # The keyboard's first stop: the skip link, in view; it leads to the main content.
                            tab.goto(url + visit["paths"][0])
                            tab.keyboard.press("Tab")
                            skip = tab.evaluate("() => { const a = document.activeElement, r = a.getBoundingClientRect(); return a.classList.contains('skip') && r.left >= 0 && r.top >= 0 && r.width > 0 && r.height > 0 }")
                            tab.keyboard.press("Enter")
                            lands = tab.evaluate("() => location.hash === '#main' && document.getElementById('main')?.tagName === 'MAIN'")
                            print(f"SKIP {visit['paths'][0]} {width}px {scheme}: {skip and lands}", flush=True)
                            context.close()
                print(f"CHECKED {checked}", flush=True)
                """, url: base, scratch: scratch)
            let status = await browser.waitForExit(timeout: .seconds(300))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            let lines = browser.stdout.split(separator: "\n").map(String.init)
            let pages = visits.map(\.paths.count).reduce(0, +)
            #expect(
                lines.contains("CHECKED \(pages * Self.widths.count * Self.schemes.count)"),
                "every page was checked: \(browser.output)")
            let violations = lines.filter { $0.hasPrefix("VIOLATION ") }
            #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
            let tables = lines.filter { $0.hasPrefix("TABLE ") }
            #expect(!tables.isEmpty && tables.allSatisfy { $0.hasSuffix(": True") }, "\(tables)")
            let skips = lines.filter { $0.hasPrefix("SKIP ") }
            #expect(skips.count == visits.count * Self.widths.count * Self.schemes.count, "\(browser.stdout)")
            #expect(skips.allSatisfy { $0.hasSuffix(": True") }, "\(skips.filter { !$0.hasSuffix(": True") })")
        }
    }
}

extension WebAccessibilityTests {
    @Test func aMonthPrintsAsItsTimelineAndTableWithoutTheControls() async throws {
        try await HTTPTests.withHTTPServer(now: SelfServiceTests.now) { harness, base in
            _ = try await ScheduleServerTests.team(
                harness, zone: "Europe/Berlin",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            let scratch = TestScratch.directory("roster-print")
            defer { TestScratch.remove(scratch) }
            let browser = try await Browser.run(
                """
                page.goto(url)
                page.emulate_media(media="print")
                shown = "s => { const e = document.querySelector(s); return !!e && getComputedStyle(e).display !== 'none' }"
                for selector in ["nav", ".controls", ".skip", ".as-table", "form"]:
                    print(f"HIDDEN {selector}: {not page.evaluate(shown, selector)}", flush=True)
                for selector in ["h1", "svg.track", "table.stretches"]:
                    print(f"SHOWN {selector}: {page.evaluate(shown, selector)}", flush=True)
                pdf = page.pdf(format="A4", landscape=True)
                print(f"PDF {pdf[:4] == b'%PDF' and len(pdf) > 1000}", flush=True)
                """, url: base + "/schedules/Platform%20primary?span=1m", scratch: scratch)
            let status = await browser.waitForExit(timeout: .seconds(120))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            let lines = browser.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("HIDDEN ") }.count == 5, "\(browser.stdout)")
            #expect(lines.filter { $0.hasPrefix("SHOWN ") }.count == 3, "\(browser.stdout)")
            #expect(
                lines.filter { $0.hasPrefix("HIDDEN ") || $0.hasPrefix("SHOWN ") }.allSatisfy {
                    $0.hasSuffix(": True")
                },
                "\(browser.stdout)")
            #expect(lines.contains("PDF True"), "\(browser.stdout)")
        }
    }
}
