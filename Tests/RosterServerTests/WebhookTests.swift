import Foundation
import Logging
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterNotifications
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// Webhook delivery from a real server to a real HTTP receiver on loopback in this process:
/// signatures, order per endpoint, retries after errors and timeouts, disabling after the budget,
/// and planned events withdrawn when the plan changes. The server runs on a manual clock: back-off
/// and budgets are in its time, which the tests move.
@Suite(.timeLimit(.minutes(10))) struct WebhookTests {
    static let hour: Int64 = 3_600_000

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.notifications.retryBase = .seconds(10)
        configuration.notifications.retryBudget = .seconds(600)
        // Generous: a loopback request that times out under a loaded machine would wait for a
        // retry on the manual clock, which these tests move only where they mean to.
        configuration.notifications.requestTimeout = .seconds(5)
        configuration.notifications.planAhead = .seconds(4 * 3600)
    }

    /// Time-driven events planned three days ahead (the usual 15 minutes would need planning
    /// rounds, which run on the real clock).
    static func configureThreeDaysAhead(_ configuration: inout ServerConfiguration) {
        configure(&configuration)
        configuration.notifications.planAhead = .seconds(72 * 3600)
    }

    static func notificationAdmin(_ connection: RosterConnection, _ request: Roster_V1_NotificationAdminRequest)
        async throws
        -> Roster_V1_NotificationAdminResponse
    {
        guard case .notificationAdminResult(let answer) = try await connection.request(.notificationAdmin(request))
        else {
            throw TestFailure("expected NotificationAdminResult")
        }
        return answer
    }

    static func addWebhook(_ connection: RosterConnection, url: String, events: [String]) async throws -> (
        id: String, secret: String
    ) {
        let answer = try await notificationAdmin(
            connection,
            .with {
                $0.addWebhook = .with {
                    $0.url = url; $0.events = events
                }
            })
        return (answer.webhooks[0].id, answer.secret)
    }

    /// Runs `body` with a receiver and a server on a manual clock, both stopped afterwards.
    /// `requestTimeout`: the server's webhook timeout, when not the usual 5 s.
    static func withReceiverAndServer(
        requestTimeout: Duration? = nil,
        _ body: (WebhookReceiver, ServerHarness, RosterConnection) async throws -> Void
    ) async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServer(configure: { configuration in
                configure(&configuration)
                if let requestTimeout { configuration.notifications.requestTimeout = requestTimeout }
            }) { harness in
                let admin = try await harness.connect()
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    try await body(receiver, harness, admin)
                }
            }
        }
    }

    /// Moves the server's clock forward in steps until `condition` holds (retries are due in its time).
    static func advance(_ harness: ServerHarness, by step: Int64, until condition: () -> Bool, what: String)
        async throws
    {
        for _ in 0..<400 where !condition() {
            harness.clock.advance(by: step)
            try await Task.sleep(for: .milliseconds(25))
        }
        guard condition() else { throw TestFailure("the server's clock moved on and still not: \(what)") }
    }

    /// A copy restored from a backup sends no webhook until it is said to be the one in use:
    /// otherwise a restore started elsewhere would repeat production's deliveries.
    @Test func aRestoredCopyHoldsItsWebhooksUntilResumed() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            let scratch = TestScratch.directory("roster-restored")
            defer { TestScratch.remove(scratch) }
            let original = scratch.appendingPathComponent("original").path,
                copy = scratch.appendingPathComponent("copy").path
            let backup = scratch.appendingPathComponent("roster.backup").path
            let keyFile = scratch.appendingPathComponent("secrets.key").path
            // Both copies use one secrets key, so the copy can open the webhook's secret.
            let first = try await ServerHarness.start(dataDirectory: original) {
                Self.configure(&$0); $0.secretsKeyFile = keyFile
            }
            do {
                let admin = try await first.connect()
                let added = try await Self.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
                #expect(!added.id.isEmpty)
                await admin.close()
                try await StoreBackup.backup(databasePath: DataDirectory(original).database, to: backup)
            } catch {
                await first.stop()
                throw error
            }
            let token = first.adminToken  // the copy has the original's tokens, not its admin.token file
            await first.stop()
            _ = try await StoreBackup.restore(from: backup, into: DataDirectory(copy), replace: false)
            #expect(DataDirectory(copy).deliveriesPaused)
            let restored = try await ServerHarness.start(dataDirectory: copy) {
                Self.configure(&$0); $0.secretsKeyFile = keyFile
            }
            do {
                try await Self.expectHeldUntilResumed(
                    restored, token: token, receiver: receiver,
                    marker: DataDirectory(copy).deliveriesPausedMarker)
            } catch {
                await restored.stop()
                throw error
            }
            await restored.stop()
        }
    }

    static func expectHeldUntilResumed(
        _ harness: ServerHarness, token: String, receiver: WebhookReceiver, marker: String
    ) async throws {
        let admin = try await harness.connect(token: token)
        defer { Task { await admin.close() } }
        let ada = try await admin.addEmployee("Ada", "Lovelace")
        try await admin.admin(
            .addShift(
                .with {
                    $0.shift = .with {
                        $0.employeeID = ada; $0.startMs = t0 + hour; $0.endMs = t0 + 2 * hour
                    }
                }))
        // The outbox holds the event; nothing goes out while paused (a whole round looks at it).
        #expect(await harness.outboxSettled())
        #expect(receiver.requests.isEmpty, "\(receiver.requests.map(\.eventType))")
        try FileManager.default.removeItem(atPath: marker)
        harness.server.reloadDeliveryPause()
        try await receiver.wait("the held event, once resumed") { $0.contains { $0.eventType == "shifts.changed" } }
    }

    @Test func changesArriveSignedOncePerEventAndInOrder() async throws {
        try await Self.withReceiverAndServer { receiver, harness, admin in
            let (webhookID, secret) = try await Self.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            var revisions: [UInt64] = []
            for i in 0..<5 {
                let start = t0 + Int64(i + 1) * Self.hour
                let result = try await admin.admin(
                    .addShift(
                        .with {
                            $0.shift = .with {
                                $0.employeeID = ada; $0.startMs = start; $0.endMs = start + Self.hour
                            }
                        }))
                revisions.append(result.revision)
            }
            try await receiver.wait("five shifts.changed events") { $0.count >= 5 }
            let requests = receiver.requests
            #expect(requests.count == 5)
            #expect(Set(requests.map(\.eventID)).count == 5)
            let now = Int64(Date().timeIntervalSince1970)
            for request in requests {
                #expect(request.eventType == "shifts.changed")
                #expect(request.headers["roster-delivery"] == "\(request.eventID).\(webhookID)")
                #expect(request.headers["idempotency-key"] == request.headers["roster-delivery"])
                #expect(request.headers["content-type"] == "application/json")
                let signature = request.headers["roster-signature"] ?? ""
                #expect(WebhookSignature.verify(header: signature, body: request.body, secret: secret, now: now))
                // Another secret, or a body changed by one byte, does not verify.
                #expect(!WebhookSignature.verify(header: signature, body: request.body, secret: secret + "x", now: now))
                #expect(
                    !WebhookSignature.verify(
                        header: signature, body: request.body + Data(" ".utf8), secret: secret, now: now))
                #expect(request.json["id"] as? String == request.eventID)
                let data = request.json["data"] as? [String: Any]
                #expect((data?["person"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
                #expect(((data?["gained"] as? [[String: Any]])?.count ?? 0) >= 1)
            }
            // One endpoint gets its events in the order of the changes.
            #expect(requests.compactMap { $0.json["revision"] as? UInt64 } == revisions)
        }
    }

    @Test func failedAttemptsAreRetriedWithBackOffAndLaterEventsWait() async throws {
        // The timeout is real time, so it must be long enough that only the answer meant to be
        // slow hits it: 500 ms once timed out a loopback request on two busy cores as well.
        try await Self.withReceiverAndServer(requestTimeout: .seconds(2)) { receiver, harness, admin in
            // The first event, by attempt: two 500s, then an answer slower than the server's
            // timeout, then success. Later events succeed at once.
            let firstEvent = NIOLockedValueBox<String?>(nil)
            receiver.answer { request, _ in
                let isFirst = firstEvent.withLockedValue { first in
                    if first == nil { first = request.eventID }
                    return first == request.eventID
                }
                guard isFirst else { return .init(status: 204) }
                return switch request.headers["roster-attempt"] {
                case "1", "2": .init(status: 500)
                case "3": .init(status: 204, delay: .seconds(6))
                default: .init(status: 204)
                }
            }
            let (webhookID, _) = try await Self.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await admin.addShift(ada, t0 + Self.hour, t0 + 2 * Self.hour)
            _ = try await admin.addShift(ada, t0 + 3 * Self.hour, t0 + 4 * Self.hour)
            try await receiver.wait("the first attempt") { $0.count >= 1 }
            try await Self.advance(harness, by: 5_000, until: { receiver.requests.count >= 5 }, what: "five requests")
            let requests = receiver.requests
            let first = requests[0].eventID
            // The first event four times (attempts 1-4), and only then the second.
            #expect(requests.prefix(4).allSatisfy { $0.eventID == first })
            #expect(requests.prefix(4).map { $0.headers["roster-attempt"] } == ["1", "2", "3", "4"])
            #expect(requests[4].eventID != first)
            #expect(requests[4].headers["roster-attempt"] == "1")
            // Back-off: the server's clock had to move between attempts; the deliveries listing shows each.
            let deliveries = try await Self.notificationAdmin(admin, .with { $0.listDeliveries = webhookID }).deliveries
            let ofFirst = deliveries.filter { $0.eventID == first }.sorted { $0.attempt < $1.attempt }
            // Attempts 1 and 2 are answered 500, or (on a machine so loaded that the 2 s timeout
            // passed first) time out: either way failed attempts the server retried.
            #expect(ofFirst.count == 4)
            #expect(
                ofFirst.prefix(2).allSatisfy { $0.status == 500 || ($0.status == 0 && $0.error.contains("timed out")) },
                "\(ofFirst.map { ($0.status, $0.error) })")
            #expect(ofFirst.count == 4 && ofFirst[2].status == 0 && ofFirst[2].error.contains("timed out"))
            #expect(ofFirst.last?.status == 204)
            let webhooks = try await Self.notificationAdmin(admin, .with { $0.listWebhooks = true }).webhooks
            #expect(webhooks.first?.failingSinceMs == 0)
            #expect(webhooks.first?.disabledMs == 0)
        }
    }

    @Test func anEndpointFailingForItsWholeBudgetIsDisabledWithTheReason() async throws {
        try await Self.withReceiverAndServer { receiver, harness, admin in
            receiver.answer { _, _ in .init(status: 503) }
            let (webhookID, _) = try await Self.addWebhook(admin, url: receiver.url, events: [])
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await admin.addShift(ada, t0 + 30 * Self.hour, t0 + 31 * Self.hour)
            try await receiver.wait("the first attempt") { $0.count >= 1 }
            var disabled: Roster_V1_Webhook?
            for _ in 0..<200 where disabled == nil {
                harness.clock.advance(by: 60_000)
                try await Task.sleep(for: .milliseconds(25))
                disabled = try await Self.notificationAdmin(admin, .with { $0.listWebhooks = true }).webhooks
                    .first { $0.id == webhookID && $0.disabledMs != 0 }
            }
            let webhook = try #require(disabled)
            #expect(webhook.disabledReason.contains("HTTP 503"))
            #expect(webhook.pending >= 1)  // kept, not dropped: visible to the admin
            // The budget is 600 s of the server's time: at least two attempts, and nothing after disabling.
            let attempts = receiver.requests.count
            #expect(attempts >= 2)
            harness.clock.advance(by: 3_600_000)
            #expect(await harness.outboxSettled())
            #expect(receiver.requests.count == attempts)
        }
    }

    @Test func aReminderForADeletedShiftIsWithdrawnAndTheOthersArriveWhenDue() async throws {
        try await Self.withReceiverAndServer { receiver, harness, admin in
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let kept = try await admin.addShift(ada, t0 + Self.hour, t0 + 2 * Self.hour)
            let dropped = try await admin.addShift(ada, t0 + 3 * Self.hour, t0 + 4 * Self.hour)
            _ = try await Self.notificationAdmin(admin, .with { $0.addReminder = .with { $0.leadMinutes = 15 } })
            _ = try await Self.addWebhook(admin, url: receiver.url, events: ["shift.starting"])
            try await admin.admin(.deleteShift(.with { $0.id = dropped }))
            // Nothing is due yet.
            #expect(await harness.outboxSettled())
            #expect(receiver.requests.isEmpty)
            try await Self.advance(
                harness, by: 15 * 60_000, until: { !receiver.requests.isEmpty }, what: "the reminder")
            harness.clock.advance(by: 4 * Self.hour)
            #expect(await harness.outboxSettled())
            let reminders = receiver.requests
            #expect(reminders.count == 1)
            let data = reminders.first?.json["data"] as? [String: Any]
            #expect((data?["shift"] as? [String: Any])?["start_ms"] as? Int64 == t0 + Self.hour)
            #expect(data?["reminder"] as? String == "15m before")
            #expect(reminders.first?.json["about_ms"] as? Int64 == t0 + Self.hour)
            _ = kept
        }
    }

    @Test func theEveningBeforeReminderComesAt18InBerlinOnTheDayTheClocksChange() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            // Saturday 2027-03-27 12:00Z; Berlin changes to summer time early on Sunday the 28th.
            try await withServer(now: 1_806_148_800_000, configure: Self.configureThreeDaysAhead) { harness in
                let admin = try await ScheduleServerTests.team(harness, handoff: "2027-03-01T09:00").admin
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    try await Self.checkEveningReminder(admin: admin, harness: harness, receiver: receiver)
                }
            }
        }
    }

    static func checkEveningReminder(admin: RosterConnection, harness: ServerHarness, receiver: WebhookReceiver)
        async throws
    {
        _ = try await notificationAdmin(
            admin,
            .with {
                $0.addReminder = .with {
                    $0.schedule = "Platform primary"; $0.daysBefore = 1; $0.atMinuteOfDay = 18 * 60
                }
            })
        _ = try await addWebhook(admin, url: receiver.url, events: ["shift.starting"])
        // Sunday 18:00 in Berlin is 16:00Z (it would be 17:00Z a day earlier).
        harness.clock.advance(to: 1_806_249_540_000)  // 2027-03-28T15:59Z
        #expect(await harness.outboxSettled())
        #expect(receiver.requests.isEmpty)
        harness.clock.advance(to: 1_806_249_600_000)  // 2027-03-28T16:00Z
        try await receiver.wait("the reminder") { !$0.isEmpty }
        let requests = receiver.requests
        #expect(requests.count == 1)
        let envelope = requests.first?.json ?? [:]
        #expect(envelope["about"] as? String == "2027-03-29T07:00:00Z")  // Monday 09:00 CEST
        #expect(envelope["type"] as? String == "shift.starting")
        #expect((envelope["data"] as? [String: Any])?["reminder"] as? String == "1 day before at 18:00")
    }

    @Test func aHangingEndpointDoesNotHoldBackAnotherOne() async throws {
        let hanging = try await WebhookReceiver.start { _, _ in .init(status: 204, delay: .seconds(30)) }
        try await withCleanup(hanging, cleanUp: { await $0.stop() }) { hanging in
            // The hanging endpoint's request stays open for the whole test (a 60 s timeout).
            try await Self.withReceiverAndServer(requestTimeout: .seconds(60)) { receiver, harness, admin in
                _ = try await Self.addWebhook(admin, url: hanging.url, events: ["shifts.changed"])
                _ = try await Self.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
                let ada = try await admin.addEmployee("Ada", "Lovelace")
                for i in 1...3 {
                    _ = try await admin.addShift(ada, t0 + Int64(i) * Self.hour, t0 + Int64(i) * Self.hour + 1_800_000)
                }
                try await receiver.wait("three events while the other endpoint hangs") { $0.count == 3 }
                #expect(hanging.requests.count == 1)  // its first event, still unanswered
            }
        }
    }

    /// After a delivery the dispatcher waits for the next due event or a wake-up: it does not
    /// poll the outbox in a loop (a cancelled sleep that woke it again once made it spin).
    @Test func anIdleDispatcherLooksAtTheOutboxAboutOnceASecond() async throws {
        let directory = TestScratch.directory("roster-test")
        defer { TestScratch.remove(directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = CountingStore(try await SQLiteRosterStore.open(path: directory.path + "/roster.sqlite"))
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await using(
                try await ServerHarness.start(dataDirectory: directory.path, store: store, configure: Self.configure)
            ) { harness in
                let admin = try await harness.connect()
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    _ = try await Self.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
                    let ada = try await admin.addEmployee("Ada", "Lovelace")
                    _ = try await admin.addShift(ada, t0 + Self.hour, t0 + 2 * Self.hour)
                    try await receiver.wait("the delivery") { $0.count == 1 }
                    let before = store.headQueries.withLockedValue { $0 }
                    try await Task.sleep(for: .seconds(2))
                    let looks = store.headQueries.withLockedValue { $0 } - before
                    #expect(looks <= 6, "\(looks) outbox queries in 2 s of idleness")
                }
            }
        }
    }

    @Test func adminRequestsAreCheckedAndForAdminsOnly() async throws {
        try await Self.withReceiverAndServer { receiver, harness, admin in
            for url in ["ftp://example.com/x", "not a url", "http://"] {
                await #expect(throws: RosterClientError.self) {
                    _ = try await Self.addWebhook(admin, url: url, events: [])
                }
            }
            await #expect(throws: RosterClientError.self) {
                _ = try await Self.addWebhook(admin, url: receiver.url, events: ["on-duty.changd"])
            }
            await #expect(throws: RosterClientError.self) {
                _ = try await Self.notificationAdmin(
                    admin,
                    .with {
                        $0.addReminder = .with {
                            $0.leadMinutes = 15; $0.daysBefore = 1
                        }
                    })
            }
            let reader = try await harness.connect(token: "")
            try await withCleanup(reader, cleanUp: { await $0.close() }) { reader in
                do {
                    _ = try await Self.notificationAdmin(reader, .with { $0.listWebhooks = true })
                    Issue.record("a reader listed webhooks")
                } catch RosterClientError.server(let error) {
                    #expect(error.code == .permissionDenied)
                }
            }
            // `test` queues a ping for that webhook only.
            let (id, secret) = try await Self.addWebhook(admin, url: receiver.url, events: ["coverage.gap"])
            let event = try await Self.notificationAdmin(admin, .with { $0.testWebhook = id }).eventID
            try await receiver.wait("the ping") { $0.contains { $0.eventID == event } }
            let ping = try #require(receiver.requests.first { $0.eventID == event })
            #expect(ping.eventType == "ping")
            #expect(
                WebhookSignature.verify(
                    header: ping.headers["roster-signature"] ?? "", body: ping.body, secret: secret,
                    now: Int64(Date().timeIntervalSince1970)))
            _ = try await Self.notificationAdmin(admin, .with { $0.removeWebhook = id })
            #expect(try await Self.notificationAdmin(admin, .with { $0.listWebhooks = true }).webhooks.isEmpty)
        }
    }
}

/// The real store, counting how often the dispatcher asks for due deliveries.
final class CountingStore: ForwardingStore, Sendable {
    let inner: SQLiteRosterStore
    let headQueries = NIOLockedValueBox(0)

    init(_ store: SQLiteRosterStore) { inner = store }

    func deliveryHeads(now: UnixMillis, excluding busy: Set<String>) async throws -> (
        heads: [DueDelivery], nextDue: UnixMillis?
    ) {
        headQueries.withLockedValue { $0 += 1 }
        return try await inner.deliveryHeads(now: now, excluding: busy)
    }
}

/// A server that stops while its webhook dispatcher is reading the outbox has nothing to warn
/// about: CI's logs had "could not read the webhook outbox: CancellationError()" at a tenth of
/// all server stops, a warning an operator would look into for nothing.
@Suite(.timeLimit(.minutes(10))) struct OutboxShutdownTests {
    @Test func stoppingWhileTheOutboxIsReadLogsNothingAboveInfo() async throws {
        let directory = TestScratch.directory("roster-outbox")
        defer { TestScratch.remove(directory) }
        let store = OutboxReadHeldStore(try await SQLiteRosterStore.open(path: directory.path + "/roster.sqlite"))
        let log = CapturedLog()
        let notifier = Notifier(
            store: store, settings: ServerConfiguration.NotificationSettings(), clock: ManualClock(now: t0),
            logger: log.logger)
        let running = Task { await notifier.dispatcher.run() }
        var reads = store.reads.makeAsyncIterator()
        _ = await reads.next()  // the dispatcher is inside its read of the outbox
        running.cancel()
        await running.value
        #expect(log.entries.filter { $0.level >= .warning }.isEmpty, "\(log.entries.map(\.message))")
        try await store.close()
    }
}

/// The real store, whose read of due notices waits until its task is cancelled.
final class OutboxReadHeldStore: ForwardingStore, Sendable {
    let inner: SQLiteRosterStore
    let reads: AsyncStream<Void>
    private let readStarted: AsyncStream<Void>.Continuation

    init(_ store: SQLiteRosterStore) {
        inner = store
        (reads, readStarted) = AsyncStream<Void>.makeStream()
    }

    func publishDue(now: UnixMillis) async throws -> (published: [String: [PublishedNotice]], nextDue: UnixMillis?) {
        readStarted.yield()
        try await Task.sleep(for: .seconds(600))
        return try await inner.publishDue(now: now)
    }
}

/// A logger whose entries the test reads.
final class CapturedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
    }

    private let box = NIOLockedValueBox<[Entry]>([])
    var entries: [Entry] { box.withLockedValue { $0 } }
    var logger: Logger { Logger(label: "roster.test.captured") { [box] _ in Handler(box: box) } }

    struct Handler: LogHandler {
        let box: NIOLockedValueBox<[Entry]>
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            box.withLockedValue { $0.append(Entry(level: event.level, message: "\(event.message)")) }
        }
    }
}
