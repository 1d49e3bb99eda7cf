import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol

/// SCIM provisioning (issue #54) against a roster-server process, as an identity provider does
/// it: users created one request at a time on one keep-alive connection, then each patched,
/// then one group holding them all. Wall time and latency of each, the revisions they made
/// (each change one revision), and the server's CPU.
package struct ProvisioningBenchmark {
    package var users: Int
    package var serverExecutable: URL

    package init(users: Int, serverExecutable: URL) {
        (self.users, self.serverExecutable) = (users, serverExecutable)
    }

    package struct Phase {
        package var name: String
        package var latency: LatencySummary
        package var wallSeconds: Double
        package var revisions: UInt64
        package var cpuMillis: Double
    }

    package func run() async throws -> [Phase] {
        let running = try HTTPBenchServer(executable: serverExecutable)
        defer { running.stop() }
        let admin = try await running.connectAdmin()
        guard
            case .identityAdminResult(let made) = try await admin.request(
                .identityAdmin(.with { $0.createProvisioningToken = "bench" }))
        else { throw BenchError("no SCIM token") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let phases = try await provision(
                admin: admin, secret: made.provisioningSecret, running: running, group: group)
            try? await group.shutdownGracefully()
            return phases
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func provision(
        admin: RosterConnection, secret: String, running: HTTPBenchServer, group: any EventLoopGroup
    ) async throws -> [Phase] {
        func revision() async throws -> UInt64 {
            guard case .employees(let list) = try await admin.request(.listEmployees(.init())) else {
                throw BenchError("no employee list")
            }
            return list.revision
        }
        let client = try await PageClient.connect(port: running.httpPort, group: group)
        let headers = [("Authorization", "Bearer " + secret), ("Content-Type", "application/scim+json")]
        var ids: [String] = []
        var phases: [Phase] = []

        func phase(_ name: String, count: Int, _ request: (Int) async throws -> Void) async throws {
            let (startRevision, startCPU, started) = (
                try await revision(), cpuMillis(pid: running.process.pid), nanos()
            )
            var samples: [UInt64] = []
            for index in 0..<count {
                let sent = nanos()
                try await request(index)
                samples.append(nanos() - sent)
            }
            let wall = Double(nanos() - started) / 1e9
            phases.append(
                Phase(
                    name: name, latency: LatencySummary(samples), wallSeconds: wall,
                    revisions: try await revision() - startRevision,
                    cpuMillis: cpuMillis(pid: running.process.pid) - startCPU))
        }

        try await phase("create \(users) users", count: users) { index in
            let body = """
                {"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"user\(index)@example.test",
                "name":{"givenName":"Bench","familyName":"User \(index)"},"externalId":"ext-\(index)",
                "emails":[{"value":"user\(index)@example.test","type":"work","primary":true}],"active":true}
                """
            let answer = try await client.send(.POST, "/scim/v2/Users", headers: headers, body: Array(body.utf8))
            guard let id = JSONValue.parse(Data(answer))?["id"]?.string else { throw BenchError("no id in the answer") }
            ids.append(id)
        }
        try await phase("patch \(users) users (title)", count: users) { index in
            let body =
                #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"title","value":"Engineer \#(index)"}]}"#
            _ = try await client.send(.PATCH, "/scim/v2/Users/\(ids[index])", headers: headers, body: Array(body.utf8))
        }
        try await phase("one group of all \(users)", count: 1) { _ in
            let members = ids.map { #"{"value":"\#($0)"}"# }.joined(separator: ",")
            let body = #"{"displayName":"Everyone","members":[\#(members)]}"#
            _ = try await client.send(.POST, "/scim/v2/Groups", headers: headers, body: Array(body.utf8))
        }
        try await phase("list by filter (userName eq)", count: min(users, 200)) { index in
            _ = try await client.send(
                .GET, "/scim/v2/Users?filter=userName%20eq%20%22user\(index)@example.test%22", headers: headers,
                body: [])
        }
        try await client.close()
        await admin.close()
        return phases
    }
}
