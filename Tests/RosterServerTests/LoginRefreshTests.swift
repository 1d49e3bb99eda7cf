import Foundation
import RosterClient
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterServer
import RosterTLS
import RosterTestSupport
import Testing

/// `roster-client login`'s refresh over real HTTP on a manual clock (docs/SSO.md): a login's
/// token lasts an hour and is renewed with its refresh secret, which changes at every renewal; a
/// replaced secret presented again ends the login for both holders; a logout with the refresh
/// secret alone ends it; a person removed from the directory loses it at the next renewal.
@Suite(.timeLimit(.minutes(10))) struct LoginRefreshTests {
    /// A login approved in the web app by Ada (signed in with her own token): the poll's answer.
    static func login(base: String, adaToken: String) async throws -> [String: Any] {
        let scratch = TestScratch.directory("roster-login-jar")
        defer { TestScratch.remove(scratch) }
        let browser = WebScheduleTests.Browser(jar: scratch.path + "/cookies", base: base)
        let signedIn = try await browser.signIn(adaToken)
        #expect(signedIn.status == 303, "\(signedIn.status) \(signedIn.body)")
        let started = try await HTTPGet.request(base + "/sign-in/cli/start", method: "POST", data: "{}").json
        let device = try #require(started["device_code"] as? String)
        let code = try #require(started["user_code"] as? String)
        let page = try await browser.get("/sign-in/cli?code=" + code)
        let allowed = try await browser.post(
            "/sign-in/cli", [("code", code), ("csrf", try browser.csrf(page)), ("decision", "allow")])
        #expect(allowed.status == 200, "\(allowed.body)")
        return try await HTTPGet.request(
            base + "/sign-in/cli/token", method: "POST", data: #"{"device_code":"\#(device)"}"#
        ).json
    }

    static func refresh(_ base: String, _ secret: String) async throws -> HTTPResponse {
        try await HTTPGet.request(
            base + "/sign-in/cli/refresh", method: "POST", data: #"{"refresh_token":"\#(secret)"}"#)
    }

    static func refused(_ harness: ServerHarness, _ token: String) async -> Bool {
        do {
            let connection = try await harness.connect(token: token)
            await connection.close()
            return false
        } catch let error as RosterClientError {
            return error.code == .unauthenticated
        } catch {
            return false
        }
    }

    /// Ada, added to the directory, and a reader token bound to her that the server already
    /// accepts; the admin's connection and the store's administration.
    static func ada(_ harness: ServerHarness) async throws -> (
        id: String, token: String, admin: RosterConnection, administration: StoreAdministration
    ) {
        let admin = try await harness.connect()
        let id = try await admin.addEmployee("Ada", "Lovelace")
        let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
        let ada = try await administration.createToken(
            tenant: "demo", role: .reader, expiresIn: nil, label: "Ada's", employee: "Ada Lovelace")
        #expect(await eventually(60) { (try? await harness.connect(token: ada.text)) != nil })
        return (id, ada.text, admin, administration)
    }

    @Test func aLoginIsRenewedHourByHourAndACopiedSecretEndsIt() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            let (_, adaToken, admin, _) = try await Self.ada(harness)

            let granted = try await Self.login(base: base, adaToken: adaToken)
            let first = try #require(granted["token"] as? String)
            let firstSecret = try #require(granted["refresh_token"] as? String)
            #expect(firstSecret.hasPrefix("rsr_"))
            #expect(granted["expires_at_ms"] as? Int64 == t0 + 3_600_000, "an hour: \(granted)")
            #expect(!(await Self.refused(harness, first)))

            // Two hours on: the token has expired, the login has not.
            harness.clock.advance(to: t0 + 120 * minute)
            #expect(await Self.refused(harness, first))
            let renewed = try await Self.refresh(base, firstSecret)
            #expect(renewed.status == 200, "\(renewed.body)")
            let second = try #require(renewed.json["token"] as? String)
            let secondSecret = try #require(renewed.json["refresh_token"] as? String)
            #expect(second != first && secondSecret != firstSecret)
            #expect(renewed.json["expires_at_ms"] as? Int64 == t0 + 180 * minute)
            #expect(!(await Self.refused(harness, second)), "the renewed token acts as Ada")

            // The first secret again: somebody kept a copy. The login ends for both.
            let replayed = try await Self.refresh(base, firstSecret)
            #expect(replayed.status == 400 && replayed.json["error"] as? String == "invalid_grant")
            #expect(await Self.refused(harness, second), "the newest token is revoked with the login")
            #expect(try await Self.refresh(base, secondSecret).status == 400, "and its current secret is spent")
            #expect(try await Self.refresh(base, "rsr_zz_" + String(repeating: "0", count: 64)).status == 400)
            #expect(try await Self.refresh(base, "").status == 400)
            await admin.close()
        }
    }

    @Test func aLogoutWithTheRefreshSecretAloneOrARemovedPersonEndsTheLogin() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            let (adaID, adaToken, admin, administration) = try await Self.ada(harness)

            let kept = try await Self.login(base: base, adaToken: adaToken)
            let keptToken = try #require(kept["token"] as? String)
            let keptSecret = try #require(kept["refresh_token"] as? String)
            let loggedOut = try await HTTPGet.request(
                base + "/sign-in/cli/logout", method: "POST", data: #"{"refresh_token":"\#(keptSecret)"}"#)
            #expect(loggedOut.status == 200, "\(loggedOut.body)")
            #expect(await Self.refused(harness, keptToken), "its token goes with it")
            #expect(try await Self.refresh(base, keptSecret).status == 400)
            let again = try await HTTPGet.request(
                base + "/sign-in/cli/logout", method: "POST", data: #"{"refresh_token":"\#(keptSecret)"}"#)
            #expect(again.status == 401, "an ended login is not a login")

            // A login whose token an admin revoked is not renewed: it ends.
            let revoked = try await Self.login(base: base, adaToken: adaToken)
            let revokedToken = try #require(revoked["token"] as? String)
            let revokedSecret = try #require(revoked["refresh_token"] as? String)
            let tokenID = try #require(revokedToken.split(separator: "_").dropFirst().first.map(String.init))
            try await administration.revokeToken(tokenID)
            #expect(await eventually(60) { await Self.refused(harness, revokedToken) })
            let notRenewed = try await Self.refresh(base, revokedSecret)
            #expect(notRenewed.status == 400 && notRenewed.json["error"] as? String == "invalid_grant")

            let other = try await Self.login(base: base, adaToken: adaToken)
            let otherSecret = try #require(other["refresh_token"] as? String)
            try await admin.admin(.deleteEmployee(.with { $0.id = adaID }))
            let refused = try await Self.refresh(base, otherSecret)
            #expect(refused.status == 400 && refused.json["error"] as? String == "invalid_grant")
            await admin.close()
        }
    }

    /// RFC 8252's loopback redirect with PKCE: only a loopback http address is taken, the
    /// approval sends the browser there with a code and the state, and the code gives the token
    /// only with the verifier (a wrong one spends it).
    @Test func aLoopbackLoginNeedsItsVerifierAndALoopbackAddress() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            let (_, adaToken, admin, _) = try await Self.ada(harness)
            let scratch = TestScratch.directory("roster-loopback-jar")
            defer { TestScratch.remove(scratch) }
            let browser = WebScheduleTests.Browser(jar: scratch.path + "/cookies", base: base)
            #expect(try await browser.signIn(adaToken).status == 303)

            func start(_ redirect: String, challenge: String, state: String = "state-of-this-login-1")
                async throws -> HTTPResponse
            {
                let body: [String: String] = [
                    "redirect_uri": redirect, "code_challenge": challenge, "code_challenge_method": "S256",
                    "state": state,
                ]
                return try await HTTPGet.request(
                    base + "/sign-in/cli/start", method: "POST",
                    data: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
            }
            let verifier = "a-verifier-of-forty-three-characters-or-more-0123"
            let challenge = Base64URL.encode(Crypto.sha256(Array(verifier.utf8)))
            for bad in [
                "http://localhost:4000/callback", "https://127.0.0.1:4000/callback", "http://example.com/callback",
                "http://127.0.0.1/callback", "http://127.0.0.1:4000/callback?x=1",
            ] {
                let refused = try await start(bad, challenge: challenge)
                #expect(refused.status == 400 && refused.json["error"] as? String == "invalid_request", "\(bad)")
            }
            #expect(try await start("http://127.0.0.1:4000/cb", challenge: "short").status == 400)
            #expect(try await start("http://127.0.0.1:4000/cb", challenge: challenge, state: "x").status == 400)

            func approve() async throws -> String {
                let started = try await start("http://127.0.0.1:4000/callback", challenge: challenge)
                #expect(started.json["device_code"] as? String == "", "a loopback login is not polled")
                let code = try #require(started.json["user_code"] as? String)
                let page = try await browser.get("/sign-in/cli?code=" + code)
                #expect(page.headers.contains("form-action 'self' http://127.0.0.1:4000"), "\(page.headers)")
                let allowed = try await browser.post(
                    "/sign-in/cli", [("code", code), ("csrf", try browser.csrf(page)), ("decision", "allow")])
                #expect(allowed.status == 303, "\(allowed.body)")
                let location = try #require(ProvisioningTests.header(allowed, "Location"))
                let items = URLComponents(string: location)?.queryItems ?? []
                #expect(location.hasPrefix("http://127.0.0.1:4000/callback?"))
                #expect(items.first { $0.name == "state" }?.value == "state-of-this-login-1")
                return try #require(items.first { $0.name == "code" }?.value)
            }
            func exchange(_ code: String, _ verifier: String) async throws -> HTTPResponse {
                try await HTTPGet.request(
                    base + "/sign-in/cli/token", method: "POST",
                    data: #"{"code":"\#(code)","code_verifier":"\#(verifier)"}"#)
            }
            let spent = try await approve()
            let wrong = try await exchange(spent, verifier + "x")
            #expect(wrong.status == 400 && wrong.json["error"] as? String == "invalid_grant")
            #expect(try await exchange(spent, verifier).status == 400, "a wrong verifier spends the code")
            let good = try await approve()
            let granted = try await exchange(good, verifier)
            #expect(granted.status == 200, "\(granted.body)")
            let token = try #require(granted.json["token"] as? String)
            #expect(!(await Self.refused(harness, token)), "the token acts as Ada")
            #expect(try await exchange(good, verifier).status == 400, "a code works once")
            await admin.close()
        }
    }
}
