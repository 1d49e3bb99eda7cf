import Foundation
import RosterDomain
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// "Done when" of docs/PUSH.md, in chromium: Grace signs in, opens Notifications from My shifts
/// and taps "Notify me on this device"; at her handoff the message reaches the loopback push
/// service (Fixtures/push_service.py decrypts and checks it) and, delivered to the web app's
/// service worker as a push service would (DevTools' `ServiceWorker.deliverPushMessage`),
/// becomes a notification. chromium's own PushManager cannot subscribe here (it needs Google's
/// push service), so the page's PushManager hands out the loopback service's subscription:
/// everything from the page's request on is the real path.
@Suite(.timeLimit(.minutes(10))) struct WebPushSubscribeTests {
    @Test(
        .enabled(if: Browser.shouldRun, "chromium and Playwright for Python are not installed (.ci/run installs them)"))
    func subscribingFromMyShiftsBringsTheHandoffToThePhone() async throws {
        let service = try await PushService.start()
        try await withCleanup(service, cleanUp: { await $0.stop() }) { service in
            try await HTTPTests.withHTTPServer(
                now: SelfServiceTests.now,
                configure: {
                    WebhookTests.configureThreeDaysAhead(&$0)
                    $0.limits.tokenRefresh = .milliseconds(50)
                }
            ) { harness, base in
                _ = try await ScheduleServerTests.team(
                    harness, zone: "UTC",
                    every: .with {
                        $0.unit = .days; $0.count = 1
                    }, handoff: "2026-11-30T09:00")
                let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
                let grace = try await administration.createToken(
                    tenant: "demo", role: .reader, expiresIn: nil, employee: "Grace Hopper"
                ).text
                await administration.close()
                let ready = await eventually(10) { (try? await harness.connect(token: grace)) != nil }
                try #require(ready, "the server did not pick up the token")
                let phone = try await service.subscribe("grace-browser")
                let fake = String(
                    decoding: try JSONSerialization.data(withJSONObject: [
                        "endpoint": phone.endpoint, "keys": ["p256dh": phone.p256dh, "auth": phone.auth],
                    ]), as: UTF8.self)
                let scratch = TestScratch.directory("roster-push-subscribe")
                defer { TestScratch.remove(scratch) }
                let handoff = scratch.appendingPathComponent("payload.json").path
                let browser = try await Browser.run(
                    """
                    import json, os
                    context = page.context
                    context.grant_permissions(["notifications"], origin=url)
                    # The loopback push service's subscription, as PushManager would give one.
                    context.add_init_script('''
                      const fake = \(fake);
                      let current = null;
                      PushManager.prototype.getSubscription = async function () { return current; };
                      PushManager.prototype.subscribe = async function (options) {
                        sessionStorage.setItem('askedKey', btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey))));
                        current = { options, toJSON: () => fake, unsubscribe: async () => true };
                        return current;
                      };
                    ''')
                    page.goto(url + "/sign-in")
                    page.fill("#token", \(pythonString(grace)))
                    page.click("main button[type=submit]")
                    page.wait_for_url(lambda address: "/sign-in" not in address)
                    page.goto(url + "/me")
                    page.click("a[href='/me/push']")
                    page.wait_for_selector("#push-subscribe:not([hidden])", timeout=60000)
                    page.click("#push-subscribe button")
                    page.wait_for_selector("main table tbody tr", timeout=60000)
                    rows = page.eval_on_selector_all("main table tbody tr", "rows => rows.map(r => r.innerText.replace(/\\\\s+/g, ' ').trim())")
                    print("LISTED " + json.dumps(rows), flush=True)
                    key = page.get_attribute("#push-subscribe", "data-key")
                    asked = page.evaluate("() => sessionStorage.getItem('askedKey')") or ""
                    # The page hands PushManager the key it was given (base64url there, bytes here).
                    print("KEY " + str(asked != "" and asked.rstrip("=") == key.replace("-", "+").replace("_", "/").rstrip("=")), flush=True)
                    print("SUBSCRIBED", flush=True)
                    for _ in range(1200):
                        if os.path.exists(\(pythonString(handoff))): break
                        page.wait_for_timeout(100)
                    payload = open(\(pythonString(handoff))).read()
                    worker_pusher(page)(payload)
                    shown = ("async () => (await (await navigator.serviceWorker.ready).getNotifications())"
                             + ".map(n => [n.title, n.body, n.data.url].join(' | '))")
                    for _ in range(600):
                        notes = page.evaluate(shown)
                        if notes: break
                        page.wait_for_timeout(100)
                    print("SHOWN " + json.dumps(notes), flush=True)
                    """, url: base, scratch: scratch)
                let subscribed = await browser.waitForOutput(timeout: .seconds(120)) {
                    $0.contains("SUBSCRIBED") ? true : nil
                }
                if subscribed == nil { await browser.stop(signal: SIGKILL) }
                try #require(subscribed == true, "\(browser.output)")
                #expect(browser.stdout.contains("Chrome on Linux \(service.base)"), "\(browser.stdout)")
                #expect(browser.stdout.contains("KEY True"), "the page subscribed with the server's VAPID key")

                // Her handoff: the message reaches the push service, decrypted and checked there.
                harness.clock.advance(to: TimeText.parseISO8601("2026-12-02T09:00:00Z")!)
                let received = try await service.received("grace-browser", count: 1)
                let message = try #require(received.first)
                #expect(message.problems.isEmpty, "\(message.problems)")
                let payload = try #require(message.payload)
                #expect(payload["title"] as? String == "You are on call now")
                // Whole before the browser sees it: written aside, then renamed into place.
                try JSONSerialization.data(withJSONObject: payload).write(to: URL(fileURLWithPath: handoff + ".part"))
                try FileManager.default.moveItem(atPath: handoff + ".part", toPath: handoff)

                let status = await browser.waitForExit(timeout: .seconds(120))
                if status == nil { await browser.stop(signal: SIGKILL) }
                #expect(status == 0, "\(browser.output)")
                #expect(
                    browser.stdout.contains(
                        #"SHOWN ["You are on call now | You are on call for Platform primary until Thu 3 Dec 09:00 UTC. | /schedules/Platform%20primary"]"#
                    ), "\(browser.output)")
            }
        }
    }
}
