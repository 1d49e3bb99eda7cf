import Foundation

/// A real browser for the web app's tests: Debian's chromium driven by Playwright for Python
/// (`apt-get install chromium`, `pip install playwright`; .ci/run installs both and sets
/// ROSTER_REQUIRE_BROWSER=1, so that CI runs these tests rather than skipping them).
public enum Browser {
    public static let chromium = "/usr/bin/chromium"

    /// Whether chromium and Playwright are here.
    public static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: chromium) else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import playwright.sync_api"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// Run the browser tests: here, or required (then a missing browser fails them).
    public static var shouldRun: Bool {
        isAvailable || ProcessInfo.processInfo.environment["ROSTER_REQUIRE_BROWSER"] == "1"
    }

    /// Runs a Playwright script (`page` is open on nothing yet; `url` and `chromium` are set)
    /// in a child Python with its own temporary directory, so that the browser's profile goes
    /// with the scratch directory. The child is returned running; the caller waits for it.
    /// - Parameter pageOptions: arguments for Playwright's `new_page` (e.g. `timezone_id="…"`).
    public static func run(_ script: String, url: String, scratch: URL, pageOptions: String = "") throws -> ChildProcess {
        let program = """
            import datetime, sys, time
            from playwright.sync_api import sync_playwright
            url = sys.argv[1]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=sys.argv[2], args=["--no-sandbox"])
                try:
                    page = browser.new_page(\(pageOptions))
                    errors = []
                    page.on("pageerror", lambda error: errors.append(str(error)))
                    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
                    dialogs = []
                    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            \(script.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
                finally:
                    browser.close()
            """
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        return try ChildProcess("/usr/bin/env", ["python3", "-u", "-c", program, url, chromium], environment: environment)
    }
}
