import Foundation
import RosterHTTP
import RosterServer
import RosterServerCore
import RosterStore
import RosterTestSupport
import Testing

/// Event streams are capped per token, per address and in all, so that one token cannot take
/// the HTTP listener: the rule alone, then a hostile reader beside healthy ones on real sockets.
@Suite(.timeLimit(.minutes(10))) struct StreamAdmissionTests {
    @Test func eachStreamCountsAgainstItsTokenItsAddressAndTheTotal() throws {
        var admission = StreamAdmission(limits: .init(perPrincipal: 2, perAddress: 3, total: 4))
        _ = try admission.admit(principal: "token:a", address: "10.0.0.1").get()
        let second = try admission.admit(principal: "token:a", address: "10.0.0.2").get()
        #expect(admission.admit(principal: "token:a", address: "10.0.0.3") == .failure(.principal(2)))
        _ = try admission.admit(principal: "token:b", address: "10.0.0.1").get()
        _ = try admission.admit(principal: "anonymous", address: "10.0.0.1").get()
        // 10.0.0.1 holds three, and the listener four.
        #expect(admission.admit(principal: "token:c", address: "10.0.0.9") == .failure(.total(4)))
        admission.release(second)
        #expect(admission.admit(principal: "token:c", address: "10.0.0.1") == .failure(.address(3)))
        let again = try admission.admit(principal: "token:a", address: "10.0.0.4").get()
        #expect(admission.open == 4 && admission.byPrincipal["token:a"] == 2)
        admission.release(again)
        #expect(admission.open == 3 && admission.byAddress["10.0.0.4"] == nil, "a released place leaves nothing behind")
        // Streams never take the last quarter of the connections (one, at the least).
        #expect(StreamAdmission.Limits.total(forConnections: 1_024) == 768)
        #expect(
            StreamAdmission.Limits.total(forConnections: 2) == 1 && StreamAdmission.Limits.total(forConnections: 1) == 1
        )
        #expect(
            StreamAdmission.principal(tokenID: nil) == "anonymous"
                && StreamAdmission.principal(tokenID: "tok_1") == "token:tok_1")
    }

    /// Opens an event stream; the first bytes of the answer.
    static func openStream(_ port: Int, token: String?) async throws -> (socket: HostileSocket, head: String) {
        let socket = try HostileSocket(port: port, receiveBufferBytes: 65_536)
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        socket.send(Array("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)\r\n".utf8))
        let head = await socket.receive(until: "\r\n\r\n", within: 30) ?? ""
        return (socket, head)
    }

    @Test func oneTokenGetsItsShareOfStreamsAndOthersStillGetTheirs() async throws {
        try await HTTPTests.withHTTPServer(configure: {
            $0.limits.httpMaxStreamsPerClient = 3
            $0.limits.tokenRefresh = .milliseconds(50)
        }) { harness, base in
            let port = try #require(harness.server.httpPort)
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let reader = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, label: "wallboard"
            ).text
            #expect(
                await eventually(30) { (try? await HTTPGet.request(base + "/v1/oncall", token: reader))?.status == 200 }
            )

            var held: [HostileSocket] = []
            for _ in 0..<3 {
                let (socket, head) = try await Self.openStream(port, token: harness.adminToken)
                #expect(head.hasPrefix("HTTP/1.1 200 OK"), "\(head)")
                held.append(socket)
            }
            // The fourth of one token is refused, with a problem saying why.
            let (_, refused) = try await Self.openStream(port, token: harness.adminToken)
            #expect(refused.hasPrefix("HTTP/1.1 429"), "\(refused)")
            let problem = try await HTTPGet.request(base + "/v1/events", token: harness.adminToken)
            #expect(
                problem.status == 429
                    && (problem.json["detail"] as? String ?? "").contains("this token already holds 3"))
            #expect(problem.headers.contains("Retry-After: 5"))
            // The same address is at its cap too (every test socket comes from 127.0.0.1).
            let (_, otherToken) = try await Self.openStream(port, token: reader)
            #expect(otherToken.hasPrefix("HTTP/1.1 429"), "\(otherToken)")
            // Short requests are answered meanwhile.
            #expect(try await HTTPGet.request(base + "/livez").status == 200)
            #expect(try await HTTPGet.request(base + "/v1/oncall", token: reader).status == 200)
            let metrics = try await HTTPGet.request(base + "/metrics")
            #expect(metrics.body.contains("roster_http_streams_refused_total 3"), "\(metrics.body)")

            // A stream that ends gives its place back.
            held.removeLast()
            #expect(
                await eventually(30) {
                    guard let (socket, head) = try? await Self.openStream(port, token: reader) else { return false }
                    if head.hasPrefix("HTTP/1.1 200 OK") { held.append(socket); return true }
                    return false
                }, "a closed stream's place is given back")
        }
    }

    @Test func streamsNeverTakeTheConnectionsKeptForShortRequests() async throws {
        // 8 connections: 6 for streams, 2 kept. Per-client caps out of the way.
        try await HTTPTests.withHTTPServer(configure: {
            $0.limits.httpMaxConnections = 8
            $0.limits.httpMaxStreamsPerClient = 100
        }) { harness, base in
            let port = try #require(harness.server.httpPort)
            var held: [HostileSocket] = []
            for index in 0..<6 {
                let (socket, head) = try await Self.openStream(port, token: nil)
                #expect(head.hasPrefix("HTTP/1.1 200 OK"), "stream \(index): \(head)")
                held.append(socket)
            }
            let (_, seventh) = try await Self.openStream(port, token: nil)
            #expect(seventh.hasPrefix("HTTP/1.1 429"), "\(seventh)")
            // Health, readiness and the API still answer: streams cannot take the last two connections.
            #expect(try await HTTPGet.request(base + "/livez").status == 200)
            #expect(try await HTTPGet.request(base + "/readyz").status == 200)
            let api = try await HTTPGet.request(base + "/v1/oncall", token: harness.adminToken)
            #expect(api.status == 200, "\(api.status) \(api.body)")
            #expect(held.count == 6)
        }
    }
}
