import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// Sign-in with a provider that lies, one way at a time (Fixtures/hostile_provider.py, tokens
/// by joserfc), over real HTTP: the browser's side is curl with a cookie jar, following each
/// redirect by hand. Every lie is refused with its own words on the page and an `auth.failed`
/// entry, and an honest answer still signs the person in.
@Suite(.timeLimit(.minutes(10))) struct SingleSignOnTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hostile_provider.py").path
    static let secret = "hostile-client-secret"

    /// The hostile provider, on 127.0.0.1 port 0; stopped when `body` ends.
    static func withProvider(
        arguments: [String] = [], _ body: (_ issuer: String, _ process: ChildProcess) async throws -> Void
    ) async throws {
        let child = try ChildProcess(
            "/usr/bin/env", ["python3", "-u", script, "--client-secret", secret] + arguments, stdin: true)
        try await withCleanup(
            child,
            cleanUp: { child in
                child.closeInput()
                if await child.waitForExit(timeout: .seconds(10)) == nil { await child.stop(signal: SIGKILL) }
            }
        ) { child in
            let issuer = await child.waitForOutput(timeout: .seconds(60)) { output in
                output.split(separator: "\n").first { $0.hasPrefix("ISSUER ") }.map { String($0.dropFirst(7)) }
            }
            guard let issuer else {
                throw TestFailure("the hostile provider did not start (python3 with joserfc): \(child.output)")
            }
            try await body(issuer, child)
        }
    }

    /// Sign-in with the provider at `issuer` set up (client `roster`, this fixture's secret), as
    /// `adjust` changes it; the answer.
    @discardableResult
    static func setUp(
        _ admin: RosterConnection, issuer: String, _ adjust: (inout Roster_V1_SingleSignOnSetting) -> Void = { _ in }
    ) async throws -> Roster_V1_IdentityAdminResponse {
        var setting = Roster_V1_SingleSignOnSetting.with {
            $0.issuer = issuer
            $0.clientID = "roster"
            $0.clientSecret = secret
        }
        adjust(&setting)
        return try await identityAdmin(admin, .with { $0.setSingleSignOn = setting })
    }

    static func location(_ response: HTTPResponse) -> String? {
        response.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }
            .map { String($0.dropFirst("location: ".count)) }
    }

    /// One sign-in as far as the callback: the callback's URL and its answer.
    static func signIn(base: String, jar: String) async throws -> (callback: String, answer: HTTPResponse) {
        let start = try await HTTPGet.request(base + "/sign-in/sso", jar: jar)
        let authorize = try #require(location(start), "no redirect to the provider: \(start.status) \(start.body)")
        let provider = try await HTTPGet.request(authorize)
        let callback = try #require(location(provider), "the provider did not send the browser back: \(provider.body)")
        return (callback, try await HTTPGet.request(callback, jar: jar))
    }

    static func play(_ name: String, issuer: String, now: UnixMillis) async throws {
        let set = try await HTTPGet.request(
            issuer + "/case", method: "POST", headers: ["Content-Type: application/json"],
            data: "{\"case\": \"\(name)\", \"now\": \(now / 1000)}")
        #expect(set.status == 200)
    }

    /// An IdentityAdmin request's answer.
    static func identityAdmin(_ connection: RosterConnection, _ request: Roster_V1_IdentityAdminRequest) async throws
        -> Roster_V1_IdentityAdminResponse
    {
        guard case .identityAdminResult(let answer) = try await connection.request(.identityAdmin(request)) else {
            throw TestFailure("expected IdentityAdminResult")
        }
        return answer
    }

    @Test func eachLieIsRefusedInItsOwnWordsAndAnHonestAnswerSignsIn() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            try await Self.withProvider { issuer, provider in
                let admin = try await harness.connect()
                let setting = Roster_V1_SingleSignOnSetting.with {
                    $0.issuer = issuer
                    $0.clientID = "roster"
                    $0.clientSecret = Self.secret
                    $0.createPeople = true
                }
                let kept = try await Self.identityAdmin(admin, .with { $0.setSingleSignOn = setting })
                #expect(kept.redirectUri.hasSuffix("/sign-in/sso/callback"))
                let scratch = TestScratch.directory("roster-sso")
                defer { TestScratch.remove(scratch) }
                let now = harness.clock.now()

                let lies: [(String, String)] = [
                    ("alg-none", "ID token is not signed (alg none)"),
                    ("wrong-aud", "ID token is not for this client"),
                    ("expired", "ID token has expired"),
                    ("bad-signature", "signature does not verify with the provider"),
                    ("nonce-mismatch", "nonce is not this sign-in"),
                    ("unknown-kid", "signed with a key the provider does not publish"),
                    ("wrong-iss", "ID token was issued by http://127.0.0.1:1/evil, not by the configured issuer"),
                    ("iss-in-response", "answer came from http://127.0.0.1:1/evil"),
                ]
                for (index, (name, words)) in lies.enumerated() {
                    try await Self.play(name, issuer: issuer, now: now)
                    let jar = scratch.appendingPathComponent("jar-\(index)").path
                    let (_, answer) = try await Self.signIn(base: base, jar: jar)
                    #expect(answer.status == 403, "\(name): \(answer.status)")
                    #expect(
                        answer.body.contains("Sign-in refused") && answer.body.contains(words),
                        "\(name): \(answer.body)")
                    #expect(!answer.headers.contains("roster_session="), "\(name) opened a session")
                }

                // The honest answer: a person created, a session that opens their own shifts.
                try await Self.play("valid", issuer: issuer, now: now)
                let jar = scratch.appendingPathComponent("jar-valid").path
                let (callback, answer) = try await Self.signIn(base: base, jar: jar)
                #expect(answer.status == 200 && answer.body.contains("Signed in"), "\(answer.body)")
                let me = try await HTTPGet.request(base + "/me", jar: jar)
                #expect(me.status == 200 && me.body.contains("My shifts — Mallory Hostile"), "\(me.status)")

                // The same callback again (its state in the cookie, as a reload would send it).
                let state = try #require(
                    URLComponents(string: callback)?.queryItems?.first { $0.name == "state" }?.value)
                let replayed = try await HTTPGet.request(callback, headers: ["Cookie: roster_sso_state=\(state)"])
                #expect(replayed.status == 403 && replayed.body.contains("sign-in link was used already"))
                // A new sign-in carrying the code already used: the provider refuses it.
                let code = try #require(URLComponents(string: callback)?.queryItems?.first { $0.name == "code" }?.value)
                let again = scratch.appendingPathComponent("jar-again").path
                let start = try await HTTPGet.request(base + "/sign-in/sso", jar: again)
                let authorize = try #require(Self.location(start))
                let back = try #require(Self.location(try await HTTPGet.request(authorize)))
                var parts = try #require(URLComponents(string: back))
                parts.queryItems = parts.queryItems?.map {
                    $0.name == "code" ? URLQueryItem(name: "code", value: code) : $0
                }
                let reused = try await HTTPGet.request(try #require(parts.url?.absoluteString), jar: again)
                #expect(
                    reused.status == 403 && reused.body.contains("refused the authorization code: invalid_grant"),
                    "\(reused.body)")
                // A callback link opened in a browser that did not start the sign-in.
                let elsewhere = try await HTTPGet.request(back)
                #expect(elsewhere.status == 403 && elsewhere.body.contains("started in another browser"))

                // Each refusal is in the audit log, by its code.
                guard case .audit(let log) = try await admin.request(.getAudit(.with { $0.limit = 100 })) else {
                    throw TestFailure("expected Audit")
                }
                let audit = log.entries.filter { $0.kind == "auth.failed" }
                for code in [
                    "unsigned", "wrongAudience", "expired", "badSignature", "nonceMismatch", "unknownKey",
                    "wrongIssuer",
                    "wrongIssuerInResponse", "replayedState", "codeRefused", "otherBrowser",
                ] {
                    #expect(audit.contains { $0.detail.hasPrefix(code + ":") }, "no auth.failed for \(code)")
                }

                // Settings that cannot work are refused before they are kept: a key set that is
                // garbage, a provider that does not answer.
                try await Self.play("garbage-jwks", issuer: issuer, now: now)
                await #expect(throws: RosterClientError.self) {
                    try await Self.identityAdmin(admin, .with { $0.setSingleSignOn = setting })
                }
                var down = setting
                down.issuer = "http://127.0.0.1:1"
                do {
                    _ = try await Self.identityAdmin(admin, .with { $0.setSingleSignOn = down })
                    Issue.record("a provider that does not answer was kept")
                } catch {
                    #expect("\(error)".contains("could not be reached"), "\(error)")
                }
                let shown = try await Self.identityAdmin(admin, .with { $0.showSingleSignOn = true })
                #expect(shown.singleSignOn.issuer == issuer, "the good settings stay")

                // The provider goes down between the redirect there and the way back: the code
                // cannot be exchanged, and the page says so (its documents were still held).
                provider.closeInput()
                #expect(await provider.waitForExit(timeout: .seconds(10)) != nil)
                let downJar = scratch.appendingPathComponent("jar-down").path
                let begun = try await HTTPGet.request(base + "/sign-in/sso", jar: downJar)
                let there = try #require(Self.location(begun).flatMap { URLComponents(string: $0) })
                let downState = try #require(there.queryItems?.first { $0.name == "state" }?.value)
                var comeBack = try #require(URLComponents(string: base + "/sign-in/sso/callback"))
                comeBack.queryItems = [
                    URLQueryItem(name: "code", value: "code-after-the-fall"),
                    URLQueryItem(name: "state", value: downState),
                    URLQueryItem(name: "iss", value: issuer),
                ]
                let fell = try await HTTPGet.request(try #require(comeBack.url?.absoluteString), jar: downJar)
                #expect(
                    fell.status == 403 && fell.body.contains("cannot be used right now")
                        && fell.body.contains("could not be reached"), "\(fell.body)")
            }
        }
    }
}
