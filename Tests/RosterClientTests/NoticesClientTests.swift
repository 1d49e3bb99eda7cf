import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// `RosterClient.notices`: a person's notification events, across a server restart, each once.
@Suite(.timeLimit(.minutes(10))) struct NoticesClientTests {
    static let hour: Int64 = 3_600_000

    @Test func aPersonsNoticesKeepComingAcrossARestartEachOnceInOrder() async throws {
        let directory = temporaryDirectory().path
        try await using(ServerSlot(try await ServerHarness.startOnStablePort(dataDirectory: directory))) { servers in
            var harness = servers.harness
            let port = harness.port
            var admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let alan = try await admin.addEmployee("Alan", "Turing")
            // A tenant's notices are kept from its first NOTICES subscription on: make one, and
            // know it is made, before the changes.
            let first = try await harness.connect(token: "")
            _ = first.subscribe(
                .with {
                    $0.topics = [.notices]; $0.allSchedules = true
                })
            _ = try await Inbox(first).untilSynced()
            await first.close()
            try await using(RosterClient(configuration: fastReconnect(port, cache: nil))) { client in
                let inbox = AsyncInbox(Self.updates(client.notices(people: ["Ada Lovelace"], after: 0)))
                // From sequence 0: whatever is published before the subscription is made comes as history.
                var received: [Roster_V1_Notice] = []
                for round in 1...3 {
                    _ = try await admin.addShift(
                        ada, t0 + Int64(round) * Self.hour, t0 + Int64(round) * Self.hour + 1_800_000)
                    _ = try await admin.addShift(
                        alan, t0 + Int64(round) * Self.hour, t0 + Int64(round) * Self.hour + 1_800_000)
                    if round == 1 { received.append(try await Self.nextNotice(inbox)) }
                }
                while received.count < 3 { received.append(try await Self.nextNotice(inbox)) }

                // Restart; changes made while the client is still reconnecting come from the history.
                await admin.close()
                harness = try await servers.restart {
                    try await ServerHarness.start(dataDirectory: directory, port: port)
                }
                admin = try await harness.connect()
                for round in 4...5 {
                    _ = try await admin.addShift(
                        ada, t0 + Int64(round) * Self.hour, t0 + Int64(round) * Self.hour + 1_800_000)
                }
                while received.count < 5 { received.append(try await Self.nextNotice(inbox)) }
                #expect(received.allSatisfy { $0.people == [ada] && $0.type == "shifts.changed" })
                #expect(Set(received.map(\.id)).count == 5, "each notice once")
                #expect(received.map(\.sequence) == received.map(\.sequence).sorted())
                await admin.close()
            }
        }
    }

    static func updates(_ stream: AsyncThrowingStream<NoticeUpdate, any Error>) -> AsyncStream<NoticeUpdate> {
        AsyncStream { continuation in
            let task = Task {
                do { for try await update in stream { continuation.yield(update) } } catch {}
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func nextNotice(_ inbox: AsyncInbox<NoticeUpdate>) async throws -> Roster_V1_Notice {
        while true {
            if case .notice(let notice) = try await inbox.nextElement(timeout: .seconds(20)) { return notice }
        }
    }
}
