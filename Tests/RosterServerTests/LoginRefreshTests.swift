import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
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

    @Test func aLoginIsRenewedHourByHourAndACopiedSecretEndsIt() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Ada", "Lovelace")
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let ada = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, label: "Ada's", employee: "Ada Lovelace")
            #expect(await eventually(60) { (try? await harness.connect(token: ada.text)) != nil })

            let granted = try await Self.login(base: base, adaToken: ada.text)
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
            let admin = try await harness.connect()
            let adaID = try await admin.addEmployee("Ada", "Lovelace")
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let ada = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Ada Lovelace")
            #expect(await eventually(60) { (try? await harness.connect(token: ada.text)) != nil })

            let kept = try await Self.login(base: base, adaToken: ada.text)
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
            let revoked = try await Self.login(base: base, adaToken: ada.text)
            let revokedToken = try #require(revoked["token"] as? String)
            let revokedSecret = try #require(revoked["refresh_token"] as? String)
            let tokenID = try #require(revokedToken.split(separator: "_").dropFirst().first.map(String.init))
            try await administration.revokeToken(tokenID)
            #expect(await eventually(60) { await Self.refused(harness, revokedToken) })
            let notRenewed = try await Self.refresh(base, revokedSecret)
            #expect(notRenewed.status == 400 && notRenewed.json["error"] as? String == "invalid_grant")

            let other = try await Self.login(base: base, adaToken: ada.text)
            let otherSecret = try #require(other["refresh_token"] as? String)
            try await admin.admin(.deleteEmployee(.with { $0.id = adaID }))
            let refused = try await Self.refresh(base, otherSecret)
            #expect(refused.status == 400 && refused.json["error"] as? String == "invalid_grant")
            await admin.close()
        }
    }
}
