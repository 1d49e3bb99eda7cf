import Foundation
import RosterClient
import RosterProtocol
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ResumeTests {
    @Test func resumeReplaysExactlyWhatWasMissedThenGoesLive() async throws {
        try await using(try await SeededRoster.start()) { roster in
            let first = try await roster.harness.connect()
            let firstInbox = Inbox(first)
            first.subscribe(.with { $0.topics = [.roster] })
            let initial = try await firstInbox.untilSynced()
            guard case .synced(let synced) = initial.last else { Issue.record("no Synced"); return }
            await first.close()

            try await roster.admin.addEmployee("Alan", "Turing")
            try await roster.admin.admin(.setMotd(.with { $0.motd = "missed" }))

            let second = try await roster.harness.connect()
            let inbox = Inbox(second)
            second.subscribe(
                .with {
                    $0.topics = [.roster]
                    $0.sinceRevision = synced.revision
                    $0.epoch = synced.epoch
                })
            let replay = try await inbox.untilSynced()
            #expect(
                replay.map(\.type) == [.subscribed, .rosterChanged, .rosterChanged, .synced], "no snapshot on resume")
            let revisions = replay.compactMap { message -> UInt64? in
                if case .rosterChanged(let changed) = message { return changed.revision }
                return nil
            }
            #expect(revisions == [synced.revision + 1, synced.revision + 2])

            try await roster.admin.admin(.setMotd(.with { $0.motd = "live" }))
            guard case .rosterChanged(let live) = try await inbox.next().message else {
                Issue.record("no live event"); return
            }
            #expect(live.revision == synced.revision + 3)
            await second.close()
        }
    }

    @Test func resumeBeyondTheHistoryIsResyncRequired() async throws {
        try await using(try await ServerHarness.start { $0.limits.historySize = 3 }) { harness in
            let admin = try await harness.connect()
            for index in 1...5 { try await admin.admin(.setMotd(.with { $0.motd = "motd \(index)" })) }

            let client = try await harness.connect()
            let inbox = Inbox(client)
            client.subscribe(
                .with {
                    $0.topics = [.roster]; $0.sinceRevision = 1; $0.epoch = admin.welcome.epoch
                })
            let refused = try await inbox.next().message
            #expect(refused.errorCode == .resyncRequired)
            if case .error(let error) = refused { #expect(error.oldestRevision == 2, "revisions 3...5 are kept") }

            // From the oldest resumable revision it works.
            client.subscribe(
                .with {
                    $0.topics = [.roster]; $0.sinceRevision = 2; $0.epoch = admin.welcome.epoch
                })
            #expect(try await inbox.untilSynced().count == 5)

            // Another epoch (the store was recreated) is never silently restarted either.
            client.subscribe(
                .with {
                    $0.topics = [.roster]; $0.sinceRevision = 5; $0.epoch = admin.welcome.epoch &+ 1
                })
            #expect(try await inbox.next().message.errorCode == .resyncRequired)
            await client.close()
            await admin.close()
        }
    }

    @Test func historySurvivesARestart() async throws {
        let directory = TestScratch.directory("roster-test").path
        let epoch = try await using(try await ServerHarness.start(dataDirectory: directory)) { harness in
            let admin = try await harness.connect()
            for index in 1...3 { try await admin.admin(.setMotd(.with { $0.motd = "motd \(index)" })) }
            await admin.close()
            return admin.welcome.epoch
        }

        try await using(try await ServerHarness.start(dataDirectory: directory)) { restarted in
            let client = try await restarted.connect()
            #expect(client.welcome.epoch == epoch && client.welcome.revision == 3)
            let inbox = Inbox(client)
            client.subscribe(
                .with {
                    $0.topics = [.roster]; $0.sinceRevision = 1; $0.epoch = epoch
                })
            #expect(
                try await inbox.untilSynced().map(\.type) == [.subscribed, .rosterChanged, .rosterChanged, .synced])
            await client.close()
        }
    }
}
