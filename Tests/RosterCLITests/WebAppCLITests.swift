import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// The web app as a new user meets it: the real roster-server binary with its demo roster, a
/// real browser signing in with the admin token the server wrote, an override made by clicking
/// a stretch of the timeline (preview, then confirm), and roster-client saying the same.
@Suite(.timeLimit(.minutes(10))) struct WebAppCLITests {
    @Test(
        .enabled(if: Browser.shouldRun, "chromium and Playwright for Python are not installed (.ci/run installs them)"))
    func anOverrideClickedOnTheTimelineIsWhatRosterClientSays() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let base = "http://127.0.0.1:\(try #require(server.httpPort))"
            let scratch = TestScratch.directory("roster-browser")
            defer { TestScratch.remove(scratch) }
            let browser = try await Browser.run(
                """
                page.goto(url + "/sign-in")
                page.fill("#token", "\(server.adminToken)")
                page.click("button[type=submit]")
                page.wait_for_url(url + "/")
                print("SIGNED " + page.text_content(".who"), flush=True)
                page.goto(url + "/schedules/Platform%20primary?span=2w")
                # The last stretch of the final schedule: a turn that has not begun.
                page.click(".lane:first-of-type a >> nth=-1")
                page.wait_for_url("**/override?**")
                replaced = page.evaluate("document.querySelector('#replacing').selectedOptions[0].textContent")
                chosen = page.evaluate("n => [...document.querySelectorAll('#with option')].find(o => o.value && o.textContent !== n).textContent", replaced)
                page.select_option("#with", label=chosen)
                page.click("button[value=preview]")
                page.wait_for_selector(".preview")
                print("PREVIEW " + " | ".join(page.eval_on_selector_all(".preview li", "items => items.map(i => i.textContent)")), flush=True)
                page.click("#confirm")
                page.wait_for_url("**/schedules/Platform%20primary?start=**")
                drawn = page.evaluate("t => [...document.querySelectorAll('svg.override')].find(b => b.querySelector('title').textContent.startsWith(t))?.dataset.start ?? ''",
                                      chosen + " for " + replaced)
                print("OVERRIDE " + drawn + " " + chosen + " for " + replaced, flush=True)
                print("ERRORS " + str(len(errors)) + " " + "; ".join(errors), flush=True)
                """, url: base, scratch: scratch)
            let status = await browser.waitForExit(timeout: .seconds(120))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            #expect(browser.stdout.contains("SIGNED Signed in: initial admin token (admin)"), "\(browser.stdout)")
            #expect(browser.stdout.contains(" gains ") && browser.stdout.contains(" loses "), "\(browser.stdout)")
            #expect(browser.stdout.contains("ERRORS 0"), "\(browser.stdout)")
            let line = try #require(browser.stdout.split(separator: "\n").first { $0.hasPrefix("OVERRIDE ") })
            let words = line.split(separator: " ", maxSplits: 2)
            let start = try #require(Int64(words[1]), "the override is drawn on the timeline: \(browser.stdout)")
            let chosen = String(words[2].components(separatedBy: " for ")[0])

            // roster-client, over the protocol, has the same person on duty then, by that override.
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let oncall = try await cli.run([
                "oncall", "--schedule", "Platform primary", "--from", TimeText.iso8601(start),
                "--to", TimeText.iso8601(start + 3_600_000),
            ])
            #expect(oncall.status == 0, "\(oncall.stderr)")
            let row = oncall.stdout.split(separator: "\n").first { $0.contains(chosen) }
            #expect(row?.contains("override") == true, "\(oncall.stdout)")

            // A reader signed in sees no edit controls, and a change posted anyway is refused.
            let made = try await cli.server([
                "token", "create", "--data-dir", server.dataDirectory, "--tenant", "demo",
                "--role", "reader", "--label", "wallboard",
            ])
            let readerToken = try #require(
                made.stdout.split(separator: "\n").last { $0.hasPrefix("rst_") }, "\(made.stdout)")
            let reader = try await Browser.run(
                """
                for _ in range(40):
                    page.goto(url + "/sign-in")
                    page.fill("#token", "\(readerToken)")
                    page.click("button[type=submit]")
                    if page.url == url + "/": break
                    time.sleep(0.25)  # the server reads new tokens every second
                print("SIGNED " + page.text_content(".who"), flush=True)
                page.goto(url + "/schedules/Platform%20primary?span=2w")
                print("CONTROLS " + str(page.locator("a[href*='/override?'], a[href$='/edit'], a[href$='/changes']").count()), flush=True)
                csrf = page.get_attribute("input[name=csrf]", "value")
                form = {"tz": "schedule", "replacing": "demo-3", "with": "demo-10", "from": "2027-01-04T09:00",
                        "to": "2027-01-05T09:00", "action": "confirm"}
                forged = page.request.post(url + "/schedules/Platform%20primary/override", form=form)
                print("FORGED " + str(forged.status), flush=True)
                asReader = page.request.post(url + "/schedules/Platform%20primary/override", form={**form, "csrf": csrf})
                print("READER " + str(asReader.status), flush=True)
                """, url: base, scratch: scratch)
            let readerStatus = await reader.waitForExit(timeout: .seconds(90))
            if readerStatus == nil { await reader.stop(signal: SIGKILL) }
            #expect(readerStatus == 0, "\(reader.output)")
            #expect(reader.stdout.contains("SIGNED Signed in: wallboard (reader)"), "\(reader.stdout)")
            #expect(
                reader.stdout.contains("CONTROLS 0") && reader.stdout.contains("FORGED 403")
                    && reader.stdout.contains("READER 403"),
                "\(reader.stdout)")
        }
    }
}
