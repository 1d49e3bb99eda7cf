import Foundation
import RosterClient
import RosterProtocol
import RosterTestSupport
import Testing

/// Nothing is acknowledged before it is durable: a change the server confirmed survives a
/// `kill -9` of the server process at any moment.
@Suite(.timeLimit(.minutes(10))) struct DurabilityTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["ROSTER_DURABILITY_ROUNDS"] ?? "") ?? 20

    @Test func acknowledgedChangesSurviveKill9() async throws {
        let scratch = TestScratch.directory("roster-kill")
        defer { TestScratch.remove(scratch) }
        let directory = scratch.path
        var acknowledged: [String] = []
        for round in 1...Self.rounds {
            let server = try await ServerProcess.start(dataDirectory: directory)
            let client = try await RosterConnection.connect(
                host: "127.0.0.1", port: server.port,
                hello: .with { $0.token = server.adminToken })
            // Kill at a random moment while changes stream in.
            let killer = Task.detached {
                try await Task.sleep(for: .milliseconds(Int.random(in: 30...150)))
                await server.kill9()
            }
            var index = 0
            while true {
                index += 1
                let name = "Round\(round)"
                do {
                    let result = try await client.admin(
                        .upsertEmployee(
                            .with {
                                $0.employee = .with {
                                    $0.firstName = name; $0.lastName = "Person\(index)"
                                }
                            }))
                    acknowledged.append(result.ids[0])
                } catch {
                    break  // the server died mid-request: this change was never acknowledged
                }
            }
            try await killer.value
            await client.close()

            try await withServerProcess(dataDirectory: directory) { restarted in
                let reader = try await RosterConnection.connect(host: "127.0.0.1", port: restarted.port)
                let answer = try await withCleanup(reader, cleanUp: { await $0.close() }) {
                    try await $0.request(.getSnapshot(.init()))
                }
                guard case .snapshot(let snapshot) = answer else {
                    throw TestFailure("expected a snapshot, got \(answer)")
                }
                let stored = Set(snapshot.employees.map(\.id))
                let lost = acknowledged.filter { !stored.contains($0) }
                #expect(
                    lost.isEmpty, "round \(round): \(lost.count) of \(acknowledged.count) acknowledged changes lost")
                #expect(snapshot.revision >= UInt64(acknowledged.count))
            }
        }
        #expect(acknowledged.count >= Self.rounds, "each round acknowledged something before the kill")
    }
}
