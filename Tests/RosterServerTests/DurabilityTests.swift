import Foundation
import RosterClient
import RosterProtocol
import RosterTestSupport
import Testing

/// Nothing is acknowledged before it is durable: a change the server confirmed survives a
/// `kill -9` of the server process at any moment.
@Suite struct DurabilityTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["ROSTER_DURABILITY_ROUNDS"] ?? "") ?? 20

    @Test func acknowledgedChangesSurviveKill9() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-kill-\(UUID().uuidString)").path
        var acknowledged: [String] = []
        for round in 1...Self.rounds {
            let server = try ServerProcess(dataDirectory: directory)
            let client = try await RosterConnection.connect(host: "127.0.0.1", port: server.port,
                                                            hello: .with { $0.token = server.adminToken })
            // Kill at a random moment while changes stream in.
            let killer = Task.detached {
                try await Task.sleep(for: .milliseconds(Int.random(in: 30...150)))
                server.kill9()
            }
            var index = 0
            while true {
                index += 1
                let name = "Round\(round)"
                do {
                    let result = try await client.admin(.upsertEmployee(.with {
                        $0.employee = .with { $0.firstName = name; $0.lastName = "Person\(index)" }
                    }))
                    acknowledged.append(result.ids[0])
                } catch {
                    break  // the server died mid-request: this change was never acknowledged
                }
            }
            try await killer.value
            await client.close()

            let restarted = try ServerProcess(dataDirectory: directory)
            let reader = try await RosterConnection.connect(host: "127.0.0.1", port: restarted.port)
            guard case .snapshot(let snapshot) = try await reader.request(.getSnapshot(.init())) else {
                Issue.record("no snapshot")
                return
            }
            let stored = Set(snapshot.employees.map(\.id))
            let lost = acknowledged.filter { !stored.contains($0) }
            #expect(lost.isEmpty, "round \(round): \(lost.count) of \(acknowledged.count) acknowledged changes lost")
            #expect(snapshot.revision >= UInt64(acknowledged.count))
            await reader.close()
            restarted.terminate()
        }
        #expect(acknowledged.count >= Self.rounds, "each round acknowledged something before the kill")
    }
}
