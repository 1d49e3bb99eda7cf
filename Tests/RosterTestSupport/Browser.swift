import Foundation

/// A real browser for the web app's tests: Debian's chromium driven by Playwright for Python
/// (`apt-get install chromium`, `pip install playwright`; .ci/run installs both and sets
/// ROSTER_REQUIRE_BROWSER=1, so that CI runs these tests rather than skipping them).
public enum Browser {
    public static let chromium = "/usr/bin/chromium"

    /// Whether chromium and Playwright are here.
    public static let isAvailable: Bool =
        FileManager.default.isExecutableFile(atPath: chromium) && pythonImports("playwright.sync_api")

    /// Whether axe-core for Playwright (PyPI axe-playwright-python, which bundles it) is here too.
    public static let hasAxe: Bool = isAvailable && pythonImports("axe_playwright_python.sync_playwright")

    /// Whether `python3 -c "import MODULE"` succeeds (run once per probe, at the first test that asks).
    private static func pythonImports(_ module: String) -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import \(module)"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    /// Run the accessibility test: here, or required with the browser tests.
    public static var shouldRunAxe: Bool {
        hasAxe || ProcessInfo.processInfo.environment["ROSTER_REQUIRE_BROWSER"] == "1"
    }

    /// Run the browser tests: here, or required (then a missing browser fails them).
    public static var shouldRun: Bool {
        isAvailable || ProcessInfo.processInfo.environment["ROSTER_REQUIRE_BROWSER"] == "1"
    }

    /// At most this many browsers run at once in the test process. Each chromium wants a core
    /// to itself; with every suite starting together on two cores, five at once made each so
    /// slow that a script outran its deadline. Two at a time finish sooner than five together.
    static let slots = Slots(count: 2)

    /// Runs a Playwright script (`page` is open on nothing yet; `url` and `chromium` are set)
    /// in a child Python with its own temporary directory, so that the browser's profile goes
    /// with the scratch directory. Waits for a free slot first (see `slots`), which is given back
    /// when the child exits. The child is returned running; the caller waits for it.
    /// Its stderr says when the browser was up, when the script ended and when it closed, so a
    /// deadline that passes says which part was slow.
    /// - Parameter pageOptions: arguments for Playwright's `new_page` (e.g. `timezone_id="…"`).
    public static func run(_ script: String, url: String, scratch: URL, pageOptions: String = "") async throws
        -> ChildProcess
    {
        let program = """
            import datetime, sys, time
            from playwright.sync_api import sync_playwright, Browser, BrowserContext
            url = sys.argv[1]
            began = time.monotonic()
            def mark(what): print(f"[browser] {what} after {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
            # A renderer that dies while a blank page is being made has loaded nothing of the app
            # yet: that is chromium on a machine at its limit (once in a CI run beside the fuzzers),
            # so the page is made once more, and the crash is said. A crash later still fails.
            def made_again_after_a_crash(new_page):
                def retrying(self, *args, **kwargs):
                    try:
                        return new_page(self, *args, **kwargs)
                    except Exception as error:
                        if "Target crashed" not in str(error): raise
                        mark(f"a blank page's renderer crashed ({error}), made again")
                        return new_page(self, *args, **kwargs)
                return retrying
            Browser.new_page = made_again_after_a_crash(Browser.new_page)
            BrowserContext.new_page = made_again_after_a_crash(BrowserContext.new_page)
            def worker_pusher(page):
                # Delivers push data to the page's service worker, as a push service would
                # (DevTools' ServiceWorker.deliverPushMessage).
                cdp = page.context.new_cdp_session(page)
                registrations = []
                cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
                cdp.send("ServiceWorker.enable")
                for _ in range(600):
                    if registrations: break
                    page.wait_for_timeout(100)
                registration = registrations[0]["registrationId"]
                return lambda data: cdp.send(
                    "ServiceWorker.deliverPushMessage", {"origin": url, "registrationId": registration, "data": data})
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=sys.argv[2], args=["--no-sandbox"])
                mark("launched")
                try:
                    page = browser.new_page(\(pageOptions))
                    errors = []
                    page.on("pageerror", lambda error: errors.append(str(error)))
                    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
                    dialogs = []
                    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            \(script.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
                    mark("script done")
                finally:
                    browser.close()
                    mark("closed")
            """
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        await slots.acquire()
        let child: ChildProcess
        do {
            child = try ChildProcess(
                "/usr/bin/env", ["python3", "-u", "-c", program, url, chromium], environment: environment)
        } catch {
            await slots.release()
            throw error
        }
        Task.detached {
            // Every caller ends its browser (it exits, or is killed at the caller's deadline).
            while child.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
            await slots.release()
        }
        return child
    }

    /// A counting semaphore for async callers, first come first served.
    actor Slots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(count: Int) { free = count }

        func acquire() async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }
}

/// `text` as a Python string literal (JSON's string syntax is Python's, for what JSON escapes).
public func pythonString(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
}
