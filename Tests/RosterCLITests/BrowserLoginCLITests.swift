import Foundation
import RosterTestSupport
import Testing

/// `roster-client login --browser` with the built binaries on the demo (RFC 8252's loopback
/// redirect with PKCE): roster-client listens on 127.0.0.1, the browser (curl with Grace's web
/// session here) allows the login and is sent back to it with a code, and roster-client then
/// acts as Grace. A request with another state is turned away without ending the login.
@Suite(.timeLimit(.minutes(10))) struct BrowserLoginCLITests {
    static func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }
            .map { String($0.dropFirst(name.count + 2)) }
    }

    @Test func theBrowserBringsTheLoginBackToRosterClient() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let base = "http://127.0.0.1:\(try #require(server.httpPort))"
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let grace = try await PersonalTokenCLITests.grace(server, admin: admin)
            defer { TestScratch.remove(grace.home) }
            let graceToken = try #require(grace.token)
            let scratch = TestScratch.directory("roster-browser-login")
            defer { TestScratch.remove(scratch) }
            let jar = scratch.appendingPathComponent("cookies").path
            let signedIn = try await HTTPGet.request(
                base + "/sign-in", method: "POST", form: [("token", graceToken)], jar: jar, headers: ["Origin: \(base)"]
            )
            try #require(signedIn.status == 303, "\(signedIn.status) \(signedIn.body)")

            // No token given: the login is what roster-client will use. No browser opens here.
            let terminal = CLI(port: server.port)
            defer { TestScratch.remove(terminal.home) }
            var environment = terminal.environment
            environment["BROWSER"] = "/bin/true"
            let login = try ChildProcess(
                CLI.binary.path, ["login", "--browser", "--web", base], environment: environment)
            try await withCleanup(login, cleanUp: { await $0.stop(signal: SIGKILL) }) { login in
                let page = await login.waitForOutput(timeout: .seconds(60)) { output in
                    output.split(separator: "\n").first { $0.hasPrefix("Opening ") }.map { String($0.dropFirst(8)) }
                }
                let url = try #require(page, "\(login.output)")
                let shown = try await HTTPGet.request(url, jar: jar)
                #expect(shown.status == 200, "\(shown.body)")
                let policy = try #require(Self.header(shown, "Content-Security-Policy"))
                #expect(policy.contains("form-action 'self' http://127.0.0.1:"), "\(policy)")
                let marker = "name=\"csrf\" value=\""
                let start = try #require(shown.body.range(of: marker), "\(shown.body)").upperBound
                let csrf = String(shown.body[start...].prefix { $0 != "\"" })
                let code = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "code" }?.value)
                let allowed = try await HTTPGet.request(
                    base + "/sign-in/cli", method: "POST",
                    form: [("code", code), ("csrf", csrf), ("decision", "allow")], jar: jar,
                    headers: ["Origin: \(base)"])
                #expect(allowed.status == 303, "\(allowed.status) \(allowed.body)")
                let back = try #require(Self.header(allowed, "Location"), "\(allowed.headers)")
                #expect(back.hasPrefix("http://127.0.0.1:") && back.contains("/callback?code="), "\(back)")

                // Another local program knocking with another state: turned away, nothing ends.
                var forged = try #require(URLComponents(string: back))
                forged.queryItems = [.init(name: "code", value: "x"), .init(name: "state", value: "not-this-login")]
                let knocked = try await HTTPGet.request(try #require(forged.string))
                #expect(knocked.status == 400)

                let landed = try await HTTPGet.request(back)
                #expect(landed.status == 200 && landed.body.contains("go back to your terminal"), "\(landed.body)")
                let status = await login.waitForExit(timeout: .seconds(60))
                #expect(status == 0, "\(login.output)")
                #expect(login.stdout.contains("Signed in: roster-client acts as you"), "\(login.output)")
            }
            // The saved login acts as Grace: a person's own tokens are hers to list.
            let mine = try await terminal.run(["token", "list"])
            #expect(mine.status == 0, "\(mine.stdout)\(mine.stderr)")
            let logout = try await terminal.run(["logout"])
            #expect(logout.status == 0 && logout.stdout.contains("Logged out"), "\(logout.stderr)")
        }
    }
}
