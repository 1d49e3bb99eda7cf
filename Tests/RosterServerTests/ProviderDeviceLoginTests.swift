import Foundation
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// `roster-client login` through the provider's own device authorization grant (RFC 8628) when
/// the provider offers it, over real HTTP against the hostile provider on a manual clock: the
/// terminal is given the provider's page and code, the server asks the provider no more often
/// than its interval, and an allowed login gives a token for the person the ID token names
/// (created just in time); a denial and a lying ID token end the login with nothing.
@Suite(.timeLimit(.minutes(10))) struct ProviderDeviceLoginTests {
    static func post(_ base: String, _ path: String, _ body: [String: String]) async throws -> HTTPResponse {
        try await HTTPGet.request(
            base + path, method: "POST",
            data: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
    }

    static func decide(_ issuer: String, _ decision: String) async throws {
        let answer = try await HTTPGet.request(
            issuer + "/device/decide", method: "POST", data: #"{"decision": "\#(decision)"}"#)
        #expect(answer.status == 200)
    }

    static func polls(_ issuer: String) async throws -> Int {
        try await HTTPGet.request(issuer + "/device/polls").json["count"] as? Int ?? -1
    }

    @Test func theProvidersDeviceGrantSignsTheTerminalIn() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            try await SingleSignOnTests.withProvider(arguments: ["--device-grant"]) { issuer, _ in
                let admin = try await harness.connect()
                try await SingleSignOnTests.play("valid", issuer: issuer, now: harness.clock.now())
                let kept = try await SingleSignOnTests.setUp(admin, issuer: issuer) { $0.createPeople = true }
                #expect(kept.notes.contains { $0.contains("offers the device grant") }, "\(kept.notes)")

                let started = try await Self.post(base, "/sign-in/cli/start", [:])
                #expect(started.status == 200, "\(started.body)")
                #expect(started.json["verification_uri"] as? String == issuer + "/device/verify")
                #expect(started.json["user_code"] as? String == "WDJB-MJHT")
                #expect(started.json["interval"] as? Int == 2, "the server's own pace when the provider's is faster")
                let device = try #require(started.json["device_code"] as? String)
                #expect(!device.hasPrefix("device-"), "the terminal never holds the provider's device code")

                // Not due yet: the provider is not asked.
                let early = try await Self.post(base, "/sign-in/cli/token", ["device_code": device])
                #expect(early.json["error"] as? String == "authorization_pending")
                #expect(try await Self.polls(issuer) == 0)
                harness.clock.advance(to: harness.clock.now() + 3_000)
                let pending = try await Self.post(base, "/sign-in/cli/token", ["device_code": device])
                #expect(pending.json["error"] as? String == "authorization_pending", "\(pending.body)")
                #expect(try await Self.polls(issuer) == 1)
                let hurried = try await Self.post(base, "/sign-in/cli/token", ["device_code": device])
                #expect(hurried.json["error"] as? String == "slow_down")
                #expect(try await Self.polls(issuer) == 1, "a terminal in a hurry does not hurry the provider")

                try await Self.decide(issuer, "allow")
                harness.clock.advance(to: harness.clock.now() + 3_000)
                let granted = try await Self.post(base, "/sign-in/cli/token", ["device_code": device])
                #expect(granted.status == 200, "\(granted.body)")
                let token = try #require(granted.json["token"] as? String)
                #expect((granted.json["refresh_token"] as? String)?.hasPrefix("rsr_") == true)
                let mallory = try await harness.connect(token: token)
                guard case .employees(let list) = try await mallory.request(.listEmployees(.init())) else {
                    throw TestFailure("expected Employees")
                }
                #expect(list.employees.contains { $0.firstName == "Mallory" && $0.lastName == "Hostile" })
                let again = try await Self.post(base, "/sign-in/cli/token", ["device_code": device])
                #expect(again.json["error"] as? String == "expired_token", "a login is handed out once")

                // Denied on the provider's page; then a login whose ID token is for another client.
                for (decision, play) in [("deny", "valid"), ("allow", "wrong-aud")] {
                    try await SingleSignOnTests.play(play, issuer: issuer, now: harness.clock.now())
                    let next = try await Self.post(base, "/sign-in/cli/start", [:])
                    let code = try #require(next.json["device_code"] as? String)
                    try await Self.decide(issuer, decision)
                    harness.clock.advance(to: harness.clock.now() + 3_000)
                    let refused = try await Self.post(base, "/sign-in/cli/token", ["device_code": code])
                    #expect(refused.json["error"] as? String == "access_denied", "\(play): \(refused.body)")
                }
                guard case .audit(let audit) = try await admin.request(.getAudit(.init())) else {
                    throw TestFailure("expected the audit log")
                }
                #expect(
                    audit.entries.contains { $0.kind == "auth.failed" && $0.detail.contains("device login") },
                    "\(audit.entries.map(\.detail))")
                #expect(audit.entries.contains { $0.detail.contains("signed in with the provider's device grant") })
            }
        }
    }
}
