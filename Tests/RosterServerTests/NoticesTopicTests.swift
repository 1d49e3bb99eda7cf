import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The NOTICES topic: the events webhooks get, pushed to subscribers when they fall due, filtered
/// to a person or to schedules, and replayed to a subscriber that resumes from its last sequence.
@Suite(.timeLimit(.minutes(10))) struct NoticesTopicTests {
    static let hour: Int64 = 3_600_000

    static func subscribe(
        _ connection: RosterConnection, people: [String] = [], since: UInt64? = nil,
        allSchedules: Bool = false
    ) async throws -> (Inbox, [RosterMessage]) {
        let inbox = Inbox(connection)
        _ = connection.subscribe(
            .with {
                $0.topics = [.notices]
                $0.noticePeople = people
                $0.allSchedules = allSchedules
                if let since { $0.sinceNotice = since }
            })
        return (inbox, try await inbox.untilSynced())
    }

    static func nextNotice(_ inbox: Inbox) async throws -> Roster_V1_Notice {
        while true {
            if case .notice(let notice) = try await inbox.next().message { return notice }
        }
    }

    static func synced(_ messages: [RosterMessage]) throws -> Roster_V1_Synced {
        guard case .synced(let synced)? = messages.last else { throw TestFailure("no Synced: \(messages)") }
        return synced
    }

    @Test func aPersonsNoticesArriveAsWebhooksGetThemAndAreReplayedAfterAnAbsence() async throws {
        try await WebhookTests.withReceiverAndServer { receiver, harness, admin in
            _ = try await WebhookTests.addWebhook(admin, url: receiver.url, events: ["shifts.changed"])
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let alan = try await admin.addEmployee("Alan", "Turing")
            var subscriber = try await harness.connect(token: "")
            var (inbox, start) = try await Self.subscribe(subscriber, people: ["Ada Lovelace"])
            #expect(try Self.synced(start).noticesMissed == false)

            _ = try await admin.addShift(ada, t0 + Self.hour, t0 + 2 * Self.hour)
            _ = try await admin.addShift(alan, t0 + Self.hour, t0 + 2 * Self.hour)
            _ = try await admin.addShift(ada, t0 + 3 * Self.hour, t0 + 4 * Self.hour)
            let first = try await Self.nextNotice(inbox)
            let second = try await Self.nextNotice(inbox)  // Ada's second change: Alan's is not hers
            #expect(first.type == "shifts.changed" && second.type == "shifts.changed")
            #expect(first.people == [ada] && second.people == [ada])
            #expect(second.sequence > first.sequence + 1)  // Alan's notice came in between, to others
            // The same event a webhook receives: the same id and the same bytes.
            try await receiver.wait("three webhook deliveries") { $0.count == 3 }
            let delivered = try #require(receiver.requests.first { $0.eventID == first.id })
            #expect(String(decoding: delivered.body, as: UTF8.self) == first.json)

            // Away while Ada's plan changes; back with the last sequence applied.
            await subscriber.close()
            _ = try await admin.addShift(ada, t0 + 5 * Self.hour, t0 + 6 * Self.hour)
            _ = try await admin.addShift(alan, t0 + 5 * Self.hour, t0 + 6 * Self.hour)
            subscriber = try await harness.connect(token: "")
            (inbox, start) = try await Self.subscribe(subscriber, people: [ada], since: second.sequence)
            let replayed = start.compactMap { message -> Roster_V1_Notice? in
                if case .notice(let notice) = message { return notice } else { return nil }
            }
            #expect(replayed.count == 1)
            #expect(replayed.first?.people == [ada])
            #expect(try Self.synced(start).noticesMissed == false)
            #expect(try Self.synced(start).noticeSequence >= (replayed.first?.sequence ?? .max))
            // A sequence the server never reached (another store): told, nothing replayed.
            let stranger = try await harness.connect(token: "")
            let (_, strange) = try await Self.subscribe(stranger, people: [ada], since: 1_000_000)
            #expect(try Self.synced(strange).noticesMissed)
            await stranger.close()
            await subscriber.close()
        }
    }

    @Test func aReminderIsPublishedWhenItFallsDueToTheSchedulesFollowers() async throws {
        try await WebhookTests.withReceiverAndServer { receiver, harness, admin in
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await WebhookTests.notificationAdmin(
                admin, .with { $0.addReminder = .with { $0.leadMinutes = 15 } })
            let subscriber = try await harness.connect(token: "")
            let (inbox, _) = try await Self.subscribe(subscriber, allSchedules: true)
            _ = try await admin.addShift(ada, t0 + Self.hour, t0 + 2 * Self.hour)
            // First what the change caused (its shifts and, since nobody is on duty until then, a gap).
            var seen: [Roster_V1_Notice] = []
            harness.clock.advance(by: 45 * 60_000)
            while !seen.contains(where: { $0.type == "shift.starting" }) {
                seen.append(try await Self.nextNotice(inbox))
            }
            let reminder = try #require(seen.last)
            #expect(reminder.aboutMs == t0 + Self.hour)
            #expect(reminder.people == [ada])
            #expect(seen.map(\.sequence) == seen.map(\.sequence).sorted())
            #expect(Set(seen.map(\.id)).count == seen.count)
            await subscriber.close()
            _ = receiver
        }
    }

    @Test func anUnknownPersonIsRefused() async throws {
        try await withServer { harness in
            let subscriber = try await harness.connect(token: "")
            let (_, answer) = try await Self.subscribe(subscriber, people: ["Nobody Atall"])
            guard case .error(let error)? = answer.last else { throw TestFailure("expected an error, got \(answer)") }
            #expect(error.code == .notFound)
            await subscriber.close()
        }
    }
}
