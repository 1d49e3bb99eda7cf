import Foundation
import RosterHTTP
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// Development mode (a loopback listener) grants anonymous reads and every tenant's metrics to
/// local clients only: not to a page on another host name (DNS rebinding), not to a request a
/// proxy relayed, and not at all with `--no-development-mode`.
@Suite(.timeLimit(.minutes(10))) struct DevelopmentModeTests {
    @Test func loopbackHostNamesAreTheOnesAnswered() {
        for host in [
            "localhost", "localhost:7480", "LOCALHOST.", "app.localhost:80", "127.0.0.1", "127.0.0.1:7480", "127.9.8.7",
            "[::1]", "[::1]:7480",
        ] {
            #expect(HTTPAPI.Request.isLoopbackHost(host), "\(host)")
        }
        for host in [
            "rebind.evil.example", "rebind.evil.example:7480", "127.0.0.1.evil.example", "localhost.evil.example",
            "128.0.0.1", "127.0.0.256", "127.0.0", "0x7f.0.0.1", "2130706433", "127.0.0.1:99999", "127.0.0.1:",
            "[::2]", "[::1]x", "[::1", "[::ffff:8.8.8.8]:80", "",
        ] {
            #expect(!HTTPAPI.Request.isLoopbackHost(host), "\(host)")
        }
    }

    @Test func anotherHostNameIsRefusedAndARelayedRequestIsRemote() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Ada", "Lovelace")
            await admin.close()
            // What a page on rebind.evil.example gets once its name points at 127.0.0.1.
            for path in ["/people", "/v1/oncall", "/metrics", "/livez"] {
                let rebound = try await HTTPGet.request(base + path, headers: ["Host: rebind.evil.example:7480"])
                #expect(rebound.status == 421, "\(path): \(rebound.status)")
            }
            let refused = try await HTTPGet.request(base + "/people", headers: ["Host: rebind.evil.example"])
            #expect((refused.json["detail"] as? String ?? "").contains("--no-development-mode"))
            // Direct, from this machine: anonymous reads, and every tenant's series.
            let direct = try await HTTPGet.request(base + "/people", headers: ["Host: localhost"])
            #expect(direct.status == 200 && direct.body.contains("Ada Lovelace"))
            #expect(try await HTTPGet.request(base + "/metrics").body.contains("roster_revision{tenant=\"demo\"}"))
            // Relayed by a proxy: a remote client, which needs a token and sees no tenant's series.
            for header in [
                "X-Forwarded-For: 203.0.113.9", "Forwarded: for=203.0.113.9", "X-Real-IP: 203.0.113.9",
                "Via: 1.1 proxy",
            ] {
                let relayed = try await HTTPGet.request(base + "/people", headers: [header])
                #expect(relayed.status != 200 && !relayed.body.contains("Ada Lovelace"), "\(header): \(relayed.status)")
                let events = try await HTTPGet.request(base + "/v1/events", headers: [header])
                #expect(events.status == 401, "\(header): \(events.status)")
                let metrics = try await HTTPGet.request(base + "/metrics", headers: [header])
                #expect(metrics.status == 200 && !metrics.body.contains("tenant=\"demo\""), "\(header)")
            }
            // With a token, relayed requests read as any remote one does.
            let withToken = try await HTTPGet.request(
                base + "/v1/oncall", token: harness.adminToken, headers: ["X-Forwarded-For: 203.0.113.9"])
            #expect(withToken.status == 200)
        }
    }

    @Test func withDevelopmentModeOffALoopbackListenerWantsTokens() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.noDevelopmentMode = true }) { harness, base in
            #expect(try await HTTPGet.request(base + "/people").status != 200)
            #expect(try await HTTPGet.request(base + "/v1/events").status == 401)
            #expect(!(try await HTTPGet.request(base + "/metrics").body.contains("tenant=\"demo\"")))
            #expect(try await HTTPGet.request(base + "/v1/oncall", token: harness.adminToken).status == 200)
            // Any host name is answered then: it grants nothing without a token.
            #expect(try await HTTPGet.request(base + "/livez", headers: ["Host: roster.example.com"]).status == 200)
            // The protocol port too: an anonymous Hello is refused.
            await #expect(throws: (any Error).self) {
                let anonymous = try await harness.connect(token: "")
                _ = try await anonymous.request(.listEmployees(.init()))
            }
            let admin = try await harness.connect()
            if case .error(let error) = try await admin.request(.listEmployees(.init())) { Issue.record("\(error)") }
            await admin.close()
        }
    }
}
