import Foundation
import RosterTestSupport
import Testing

/// docs/SSO.md's walkthrough with real parts: the roster-server binary with its demo roster, a
/// real OpenID Provider (Canaille) on 127.0.0.1, `roster-client admin sso set`, and chromium
/// signing people in through the provider's own login form.
@Suite(.timeLimit(.minutes(10))) struct SingleSignOnCLITests {
    /// Signs `login` in from a fresh browser context and prints "AS login | header | title".
    static let signIn = """
        def sign_in(login):
            context = browser.new_context()
            page = context.new_page()
            page.goto(url + "/sign-in")
            page.click("text=Sign in with your organisation")
            page.fill("#login", login)
            page.click("button[type=submit]")
            page.fill("#password", login + "-password")
            page.click("button[type=submit]")
            page.wait_for_url(url + "/me", timeout=30000)
            print("AS " + login + " | " + page.text_content(".who") + " | " + page.title(), flush=True)
            context.close()
        """

    @Test(.enabled(if: IdentityProviderProcess.shouldRun, "chromium, Playwright and Canaille are not installed"))
    func peopleSignInWithTheProviderAndLandOnTheirOwnShifts() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let base = "http://127.0.0.1:\(try #require(server.httpPort))"
            let scratch = TestScratch.directory("roster-sso")
            defer { TestScratch.remove(scratch) }
            let secretFile = scratch.appendingPathComponent("client-secret").path
            try "roster-client-secret\n".write(toFile: secretFile, atomically: false, encoding: .utf8)
            let provider = try await IdentityProviderProcess.start(
                redirectURI: base + "/sign-in/sso/callback", secretFile: secretFile, scratch: scratch)
            try await withCleanup(provider, cleanUp: { await $0.stop() }) { provider in
                let cli = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(cli.home) }
                let set = try await cli.run([
                    "admin", "sso", "set", "--issuer", provider.issuer, "--client-id", "roster",
                    "--client-secret-file", secretFile, "--groups-claim", "groups", "--admin-group", "oncall-admins",
                ])
                #expect(set.status == 0, "\(set.stderr)")
                #expect(set.stdout.contains("Redirect URI to register with the provider: \(base)/sign-in/sso/callback"))

                // A new person who becomes an admin by their group, a new reader, and the first
                // one again (known now: not created twice).
                let first = try await Browser.run(
                    Self.signIn + "\nsign_in(\"lynn\")\nsign_in(\"jean\")\nsign_in(\"lynn\")", url: base,
                    scratch: scratch)
                let status = await first.waitForExit(timeout: .seconds(240))
                if status == nil { await first.stop(signal: SIGKILL) }
                #expect(status == 0, "\(first.output)")
                let lines = first.stdout.split(separator: "\n").filter { $0.hasPrefix("AS ") }
                #expect(
                    lines == [
                        "AS lynn | Signed in: Lynn Conway · web sign-in (admin) | My shifts — Lynn Conway",
                        "AS jean | Signed in: Jean Sammet · web sign-in (reader) | My shifts — Jean Sammet",
                        "AS lynn | Signed in: Lynn Conway · web sign-in (admin) | My shifts — Lynn Conway",
                    ], "\(first.output)")

                // The provider rotates its signing key: the next sign-in's token names a key the
                // server does not hold, which it fetches (at most once per 10 s) and accepts.
                #expect(await provider.rotateKey() != nil)
                try await Task.sleep(for: .seconds(11))
                let again = try await Browser.run(Self.signIn + "\nsign_in(\"lynn\")", url: base, scratch: scratch)
                let againStatus = await again.waitForExit(timeout: .seconds(120))
                if againStatus == nil { await again.stop(signal: SIGKILL) }
                #expect(againStatus == 0, "\(again.output)")
                #expect(
                    again.stdout.contains("AS lynn | Signed in: Lynn Conway · web sign-in (admin)"), "\(again.output)")

                // Each person created once, each sign-in audited with its token.
                let audit = try await cli.run(["admin", "audit", "--limit", "100"])
                #expect(audit.status == 0, "\(audit.stderr)")
                #expect(
                    audit.stdout.components(separatedBy: "employee added: Lynn Conway").count == 2, "\(audit.stdout)")
                #expect(audit.stdout.components(separatedBy: "employee added: Jean Sammet").count == 2)
                #expect(
                    audit.stdout.components(separatedBy: "first sign-in with the identity provider").count == 3,
                    "\(audit.stdout)")
                #expect(
                    audit.stdout.components(separatedBy: ", signed in with the identity provider").count == 3,
                    "\(audit.stdout)")

                // roster-client login: Jean approves this terminal in the browser, through the
                // provider; the terminal then acts as her, and logout ends that.
                let person = CLI(port: server.port)
                defer { TestScratch.remove(person.home) }
                _ = try await cli.run([
                    "admin", "shift", "add", "--employee", "Jean Sammet", "--start", "tomorrow 09:00", "--end",
                    "tomorrow 17:00",
                ])
                let login = try ChildProcess(
                    CLI.binary.path, ["login", "--web", base], environment: person.environment)
                let page = await login.waitForOutput(timeout: .seconds(30)) { output in
                    output.split(separator: "\n").first { $0.hasPrefix("Open ") }.map { String($0.dropFirst(5)) }
                }
                guard let page else {
                    await login.stop(signal: SIGKILL)
                    Issue.record("roster-client login printed no page: \(login.output)")
                    return
                }
                let approve = try await Browser.run(
                    """
                    page.goto(url)
                    page.click("text=Sign in with your organisation")
                    page.fill("#login", "jean")
                    page.click("button[type=submit]")
                    page.fill("#password", "jean-password")
                    page.click("button[type=submit]")
                    page.wait_for_url("**/sign-in/cli?code=**", timeout=30000)
                    print("ASKS " + page.text_content("main p"), flush=True)
                    page.click("button[value=allow]")
                    page.wait_for_load_state()
                    print("DONE " + page.text_content("main p"), flush=True)
                    """, url: page, scratch: scratch)
                let approved = await approve.waitForExit(timeout: .seconds(120))
                if approved == nil { await approve.stop(signal: SIGKILL) }
                #expect(approved == 0, "\(approve.output)")
                #expect(
                    approve.stdout.contains("ASKS A roster-client asks to act as Jean Sammet (reader)"),
                    "\(approve.stdout)")
                let loggedIn = await login.waitForExit(timeout: .seconds(60))
                if loggedIn == nil { await login.stop(signal: SIGKILL) }
                #expect(
                    loggedIn == 0 && login.stdout.contains("Signed in: roster-client acts as you"), "\(login.output)")

                let cover = try await person.run([
                    "request", "cover", "--schedule", "Default", "--from", "tomorrow 10:00", "--to", "tomorrow 12:00",
                ])
                #expect(
                    cover.status == 0 && (cover.stdout + cover.stderr).contains("Asked for cover on Default"),
                    "\(cover.stdout)\(cover.stderr)")
                let requests = try await cli.run(["requests", "--json"])
                #expect(requests.stdout.contains("Jean Sammet"), "\(requests.stdout)")
                // Kept 0600, for this server only; revoked on the server by logout.
                let saved = person.home.appendingPathComponent("config/roster/tokens/127.0.0.1_\(server.port)").path
                func savedLogin() throws -> [String: Any] {
                    try #require(
                        JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved)))
                            as? [String: Any])
                }
                var login1 = try savedLogin()
                let mode = try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                #expect((login1["refresh"] as? String)?.hasPrefix("rsr_") == true && login1["web"] as? String == base)

                // The token said to expire now: two roster-clients at once renew it once (the
                // second finds the first's under the file's lock), and the login goes on.
                login1["expiresAt"] = Int64(Date().timeIntervalSince1970 * 1000)
                try JSONSerialization.data(withJSONObject: login1).write(to: URL(fileURLWithPath: saved))
                async let firstRun = person.run(["requests", "--json"])
                async let secondRun = person.run(["requests", "--json"])
                let (one, two) = try await (firstRun, secondRun)
                #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
                let login2 = try savedLogin()
                #expect(login2["token"] as? String != login1["token"] as? String, "renewed: \(login2)")
                #expect(login2["refresh"] as? String != login1["refresh"] as? String)
                let later = try await person.run(["requests", "--json"])
                #expect(later.status == 0 && later.stderr.isEmpty, "the login goes on: \(later.stderr)")
                let token = try #require(login2["token"] as? String)
                let logout = try await person.run(["logout", "--web", base])
                #expect(logout.status == 0 && logout.stdout.contains("Logged out"), "\(logout.stderr)")
                #expect(!FileManager.default.fileExists(atPath: saved))
                let revoked = CLI(port: server.port, token: token)
                defer { TestScratch.remove(revoked.home) }
                let after = try await revoked.run([
                    "request", "cover", "--schedule", "Default", "--from", "tomorrow 13:00", "--to", "tomorrow 14:00",
                ])
                #expect(after.status != 0, "the login's token still acts after logout: \(after.stdout)")
            }
        }
    }
}
