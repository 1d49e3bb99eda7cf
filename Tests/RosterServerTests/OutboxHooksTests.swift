import Foundation
import RosterServerCore
import RosterStoreSQLite
import RosterTestSupport
import Testing

@testable import RosterNotifications

/// The dispatcher reads what the notifier told it (how to find a push subscription's person and
/// tenant) once per delivery, for the life of the server. Kept as a function in a lock box
/// directly, every read wrapped it in two more thunks: a 10,000-message handoff spent 40 % of its
/// CPU walking them, and some 300,000 reads overflowed the stack and crashed the process.
@Suite(.timeLimit(.minutes(5))) struct OutboxHooksTests {
    @Test func whatTheNotifierToldTheDispatcherStaysOneCallAway() async throws {
        let directory = TestScratch.directory("roster-hooks")
        defer { TestScratch.remove(directory) }
        let store = try await SQLiteRosterStore.open(path: directory.path + "/roster.sqlite")
        let notifier = Notifier(
            store: store, settings: ServerConfiguration.NotificationSettings(), clock: ManualClock(now: t0),
            logger: CapturedLog().logger)
        for _ in 0..<400_000 { _ = notifier.dispatcher.pushContext(tenantID: "t", personID: "p") }
        let context = try #require(notifier.dispatcher.pushContext(tenantID: "t", personID: "grace"))
        #expect(context.settings.id == "grace" && context.key == nil)
        try await store.close()
    }
}
