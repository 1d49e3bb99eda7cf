import Foundation
import RosterTestSupport
import Testing

@testable import RosterNotifications

/// The outbox's lanes in a real server (docs/NOTIFICATIONS.md, "Delivery"): an event due to more
/// webhooks at one destination than its lane runs at once sends that many and queues the rest,
/// while another destination is served beside it.
@Suite(.timeLimit(.minutes(5))) struct OutboxLaneTests {
    @Test func aDestinationGetsAtMostItsLaneAtOnceAndAnotherIsServedMeanwhile() async throws {
        let width = DeliveryLanes<Int>().width
        // Holds every request for longer than the test runs (the server's timeout is 60 s).
        let hanging = try await WebhookReceiver.start { _, _ in .init(status: 204, delay: .seconds(30)) }
        try await withCleanup(hanging, cleanUp: { await $0.stop() }) { hanging in
            try await WebhookTests.withReceiverAndServer(requestTimeout: .seconds(60)) { receiver, harness, admin in
                for _ in 0..<(width + 12) {
                    _ = try await WebhookTests.addWebhook(admin, url: hanging.url, events: ["shifts.changed"])
                }
                _ = try await WebhookTests.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
                let ada = try await admin.addEmployee("Ada", "Lovelace")
                _ = try await admin.addShift(ada, t0 + WebhookTests.hour, t0 + WebhookTests.hour + 1_800_000)
                try await receiver.wait("the change at the healthy destination") { $0.count == 1 }
                try await hanging.wait("a lane's worth at the hanging destination") { $0.count >= width }
                // Rounds come and go meanwhile (a second's poll): none sends more to it.
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(hanging.requests.count == width, "the other twelve wait in its lane, not on connections")
                #expect(harness.server.outboxForTests?.deliveriesInFlight == width + 12)
            }
        }
    }

    /// A head that waited in its lane longer than `laneWait` is read anew before it goes: a
    /// webhook removed meanwhile gets nothing, although its event was due when it was queued.
    @Test func aWebhookRemovedWhileItsDeliveryWaitedInTheLaneGetsNothing() async throws {
        let width = DeliveryLanes<Int>().width
        let hanging = try await WebhookReceiver.start { _, _ in .init(status: 204, delay: .seconds(30)) }
        try await withCleanup(hanging, cleanUp: { await $0.stop() }) { hanging in
            try await withServer(configure: { configuration in
                WebhookTests.configure(&configuration)
                configuration.notifications.requestTimeout = .seconds(2)
                configuration.notifications.laneWait = .seconds(1)
            }) { harness in
                let admin = try await harness.connect()
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    var ids: Set<String> = []
                    for _ in 0..<(width + 12) {
                        ids.insert(
                            try await WebhookTests.addWebhook(admin, url: hanging.url, events: ["shifts.changed"]).id)
                    }
                    let ada = try await admin.addEmployee("Ada", "Lovelace")
                    _ = try await admin.addShift(ada, t0 + WebhookTests.hour, t0 + WebhookTests.hour + 1_800_000)
                    try await hanging.wait("a lane's worth") { $0.count >= width }
                    // `Roster-Delivery` is the event's id and the webhook's: the twelve not sent wait.
                    let sent = Set(
                        hanging.requests.compactMap {
                            $0.headers["roster-delivery"]?.split(separator: ".").last.map(String.init)
                        })
                    let waiting = ids.subtracting(sent)
                    #expect(sent.count == width && waiting.count == 12)
                    for id in waiting {
                        _ = try await WebhookTests.notificationAdmin(admin, .with { $0.removeWebhook = id })
                    }
                    // The lane's requests time out after 2 s; by then the twelve have waited past 1 s.
                    #expect(await eventually(20) { harness.server.outboxForTests?.deliveriesInFlight == 0 })
                    #expect(await harness.outboxSettled())
                    #expect(hanging.requests.count == width, "nothing for the removed webhooks")
                }
            }
        }
    }
}
