import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// Two nodes on one store, the second never hearing of the first's commits (its announcements
/// are lost): a client that resumes there from a revision only the first has applied is brought
/// up to it from the store, never sent the second's older state (issue #31, failing over to a
/// node that is behind).
@Suite(.timeLimit(.minutes(10))) struct ResumeAheadTests {
    /// The real SQLite store, shared with another node, whose announcements never arrive here.
    final class DeafSharedStore: ForwardingStore, Sendable {
        let inner: SQLiteRosterStore
        init(_ store: SQLiteRosterStore) { inner = store }
        var signals: AsyncStream<StoreSignal>? { AsyncStream { _ in } }
    }

    @Test func aResumeFromARevisionThisNodeHasNotReadIsServedFromTheStore() async throws {
        let scratch = TestScratch.directory("roster-ahead")
        defer { TestScratch.remove(scratch) }
        let path = scratch.appendingPathComponent("roster.sqlite").path
        let first = try await SQLiteRosterStore.open(path: path)
        try await using(
            try await ServerHarness.start(dataDirectory: scratch.appendingPathComponent("a").path, store: first)
        ) { a in
            let deaf = DeafSharedStore(try await SQLiteRosterStore.open(path: path))
            try await using(
                try await ServerHarness.start(dataDirectory: scratch.appendingPathComponent("b").path, store: deaf)
            ) { b in
                // Through A: a revision B does not hear of.
                let admin = try await a.connect(token: a.adminToken)
                let committed = try await admin.admin(.setMotd(.with { $0.motd = "only A has read this" }))
                // A client that applied it resumes at B: B reads it from the store first.
                let subscriber = try await b.connect(token: a.adminToken)
                let inbox = Inbox(subscriber)
                subscriber.subscribe(
                    .with {
                        $0.topics = [.roster]
                        $0.sinceRevision = committed.revision
                        $0.epoch = committed.epoch
                    })
                let resumed = try await inbox.untilSynced()
                #expect(!resumed.contains { $0.errorCode != nil }, "\(resumed)")
                let synced = try #require(resumed.compactMap { if case .synced(let s) = $0 { s } else { nil } }.first)
                #expect(synced.revision == committed.revision)
                #expect(!resumed.contains { if case .snapshot = $0 { true } else { false } }, "no older snapshot")

                // A revision the store does not hold either: the client must take a fresh copy.
                let stray = try await b.connect(token: a.adminToken)
                let strayInbox = Inbox(stray)
                stray.subscribe(
                    .with {
                        $0.topics = [.roster]
                        $0.sinceRevision = committed.revision + 5
                        $0.epoch = committed.epoch
                    })
                let refused = try await strayInbox.untilSynced()
                #expect(refused.last?.errorCode == .resyncRequired, "\(refused)")
                for connection in [admin, subscriber, stray] { await connection.close() }
            }
        }
    }
}
