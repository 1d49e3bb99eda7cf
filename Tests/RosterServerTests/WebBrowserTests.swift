import Foundation
import RosterDomain
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The web app in a real browser (chromium, driven by Playwright for Python) against a real
/// server: the page follows the event stream, and a hostile name stays text.
@Suite(.timeLimit(.minutes(2))) struct WebBrowserTests {
    @Test(.enabled(if: Browser.shouldRun, "chromium and Playwright for Python are not installed (.ci/run installs them)"))
    func aHandoffChangesTheNameOnScreenWithoutAReload() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let hostile = try await admin.addEmployee("<img src=x onerror=alert(1)>", "Hopper")
            _ = try await admin.addShift(ada, t0 - minute, t0 + 60 * minute)
            _ = try await admin.addShift(hostile, t0 + 60 * minute, t0 + 120 * minute)
            try await admin.barrier()

            let scratch = TestScratch.directory("roster-browser")
            defer { TestScratch.remove(scratch) }
            let browser = try Browser.run("""
                page.goto(url)
                page.wait_for_function("s => document.getElementById('status').textContent === s", arg="Live", timeout=15000)
                name = "document.querySelector('.on-duty .name').textContent"
                print("READY " + page.evaluate(name), flush=True)
                page.evaluate("window.marker = 1")  # a reload would lose it
                # A function with an argument: the page's CSP refuses a string to evaluate.
                page.wait_for_function("n => document.querySelector('.on-duty .name').textContent !== n", arg="Ada Lovelace",
                                       timeout=20000)
                print("CHANGED " + page.evaluate(name), flush=True)
                print("RELOADED " + str(page.evaluate("window.marker === undefined")), flush=True)
                print("IMAGES " + str(page.evaluate("document.images.length")), flush=True)
                print("COUNTDOWN " + str(page.evaluate("document.querySelectorAll('.countdown').length")), flush=True)
                print("DIALOGS " + str(len(dialogs)) + " ERRORS " + str(len(errors)) + " " + "; ".join(errors), flush=True)
                """, url: base + "/", scratch: scratch)
            let ready = await browser.waitForOutput(timeout: .seconds(45)) { $0.contains("READY Ada Lovelace") ? true : nil }
            guard ready == true else {
                await browser.stop(signal: SIGKILL)
                Issue.record("the page did not go live: \(browser.output)")
                return
            }
            // The handoff, with no change made: the stream says so, the page fetches itself again.
            harness.clock.advance(to: t0 + 60 * minute)
            let status = await browser.waitForExit(timeout: .seconds(45))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            #expect(browser.stdout.contains("CHANGED <img src=x onerror=alert(1)> Hopper"), "the name is shown as text")
            #expect(browser.stdout.contains("RELOADED False"))
            #expect(browser.stdout.contains("IMAGES 0"))
            #expect(browser.stdout.contains("COUNTDOWN 1"))
            #expect(browser.stdout.contains("DIALOGS 0 ERRORS 0"), "\(browser.stdout)")
        }
    }
}
