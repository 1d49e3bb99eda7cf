import Foundation
import RosterTestSupport
import Testing

/// The installed web app's side of a push (docs/PUSH.md), in chromium: the service worker the
/// pages register receives a push that DevTools delivers (`ServiceWorker.deliverPushMessage`,
/// as a push service would) and shows it as a notification with the payload's title, body and
/// target, kept until the person acts on it (chromium on Linux removes a notice that may close on
/// its own when its popup times out, about 25 s later); a newer notice of the same topic
/// replaces the older; a target outside the app is never kept. The manifest and icons that make
/// the app installable are served as the browser reads them. The tap itself is not raised here:
/// chromium lets a service worker open a window only during a real notificationclick, which
/// headless chromium has no way to make (no notification on screen, no DevTools command), and a
/// synthetic event has no such right; the target a tap opens is the notification's `data.url`,
/// checked above.
@Suite(.timeLimit(.minutes(10))) struct WebPushWorkerTests {
    @Test(
        .enabled(if: Browser.shouldRun, "chromium and Playwright for Python are not installed (.ci/run installs them)"))
    func aPushBecomesANotificationThatOpensItsTarget() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let scratch = TestScratch.directory("roster-push-worker")
            defer { TestScratch.remove(scratch) }
            let browser = try await Browser.run(
                """
                import json
                context = page.context
                context.grant_permissions(["notifications"], origin=url)
                page.goto(url + "/")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
                manifest = page.evaluate("async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
                print("MANIFEST " + manifest["display"] + " " + " ".join(i["sizes"] for i in manifest["icons"]), flush=True)
                icon = page.evaluate("async () => { const r = await fetch('/assets/icon-512.png');"
                                     + " const i = await createImageBitmap(await r.blob());"
                                     + " return r.headers.get('content-type') + ' ' + i.width + 'x' + i.height; }")
                print("ICON " + icon, flush=True)
                push = worker_pusher(page)
                def deliver(notice): push(json.dumps(notice))
                shown = ("async () => (await (await navigator.serviceWorker.ready).getNotifications())"
                         + ".map(n => [n.title, n.body, n.tag, n.data.url, n.requireInteraction ? 'stays' : 'may close'].join(' | '))")
                # Each push is handled by the worker in its own time (seconds on two busy cores):
                # wait for what is expected, for up to 60 s, then print what there is.
                def wait_until(expected):
                    for _ in range(600):
                        notes = page.evaluate(shown)
                        if expected(notes): return notes
                        page.wait_for_timeout(100)
                    return page.evaluate(shown)
                deliver({"title": "You are on duty now", "body": "Platform primary until Monday 09:00",
                         "topic": "on-duty", "url": "/schedules"})
                print("SHOWN " + json.dumps(wait_until(lambda notes: len(notes) == 1)), flush=True)
                deliver({"title": "You are on duty now", "body": "Platform primary until Tuesday 09:00",
                         "topic": "on-duty", "url": "/schedules"})
                print("REPLACED " + json.dumps(wait_until(lambda notes: any("Tuesday" in n for n in notes))), flush=True)
                deliver({"title": "Cover asked", "body": "Grace asks", "topic": "cover", "url": "https://evil.example/x"})
                print("SAFE " + json.dumps(wait_until(lambda notes: len(notes) == 2)), flush=True)
                # A second copy of a message (same id), after the first was dismissed, is not shown
                # again; the next message is.
                close_all = "async () => (await (await navigator.serviceWorker.ready).getNotifications()).forEach(n => n.close())"
                page.evaluate(close_all)
                wait_until(lambda notes: len(notes) == 0)
                first = {"id": "evt_first", "title": "First", "body": "first", "topic": "again-1", "url": "/me"}
                deliver(first)
                wait_until(lambda notes: len(notes) == 1)
                page.evaluate(close_all)
                wait_until(lambda notes: len(notes) == 0)
                deliver(first)
                deliver({"id": "evt_second", "title": "Second", "body": "second", "topic": "again-2", "url": "/me"})
                print("ONCE " + json.dumps(wait_until(lambda notes: any("second" in n for n in notes))), flush=True)
                handlers = ("async () => { const r = await navigator.serviceWorker.ready;"
                            + " const text = await (await fetch('/sw.js')).text();"
                            + " return ['push', 'notificationclick'].filter(e => text.includes(`'${e}'`)).join(' '); }")
                print("HANDLERS " + page.evaluate(handlers), flush=True)
                """, url: base, scratch: scratch)
            let status = await browser.waitForExit(timeout: .seconds(150))
            if status == nil { await browser.stop(signal: SIGKILL) }
            #expect(status == 0, "\(browser.output)")
            let out = browser.stdout
            #expect(out.contains("MANIFEST standalone 192x192 512x512 512x512"), "\(out)")
            #expect(out.contains("ICON image/png 512x512"), "\(out)")
            #expect(
                out.contains(
                    #"SHOWN ["You are on duty now | Platform primary until Monday 09:00 | on-duty | /schedules | stays"]"#
                ),
                "\(browser.output)")
            #expect(out.contains(#"REPLACED ["You are on duty now | Platform primary until Tuesday 09:00"#), "\(out)")
            #expect(
                out.contains("Cover asked | Grace asks | cover | /me | stays"),
                "a target outside the app is not kept: \(out)")
            #expect(out.contains("HANDLERS push notificationclick"), "\(out)")
            #expect(
                out.contains(#"ONCE ["Second | second | again-2 | /me | stays"]"#), "a second copy is not shown: \(out)"
            )
        }
    }
}
