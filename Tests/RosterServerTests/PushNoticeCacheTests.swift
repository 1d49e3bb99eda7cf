import Foundation
import RosterStore
import Testing

@testable import RosterNotifications

/// A person's notice of an event is made once for all their devices (`PushPayloads.notice`):
/// what is kept must be what each device would have been told, for that person and the kinds
/// they asked for, and no more than the cap is kept.
@Suite(.timeLimit(.minutes(5))) struct PushNoticeCacheTests {
    static func handoff(_ id: String, arriving: [String], leaving: [String] = []) -> NotificationEvent {
        let person = { (id: String) in NotificationPayload.Person(id: id, name: "Person \(id)") }
        let change = NotificationPayload.OnDutyChanged(
            schedule: .init(id: "sch_1", name: "Primary", zone: "Europe/Berlin"), cause: "handoff",
            previous: leaving.map(person), current: arriving.map(person), until: nil, untilMs: 7_200_000, next: [])
        let payload = NotificationPayload.encode(
            id: id, type: .onDutyChanged, tenantID: "acme", revision: 1, about: 3_600_000, data: change)
        return NotificationEvent(
            id: id, type: .onDutyChanged, tenantID: "acme", revision: 1, about: 3_600_000, due: 3_600_000,
            planned: false, scheduleIDs: ["sch_1"], people: arriving + leaving, payload: payload)
    }

    @Test func eachPersonIsToldWhatTheirSettingsAskForWhateverWasKeptBefore() throws {
        let payloads = PushPayloads()
        let event = Self.handoff("evt_1", arriving: ["e1", "e2"], leaving: ["e3"])
        let made = try #require(payloads.notice(of: event, personID: "e1", kinds: [.onDuty]))
        let direct = try #require(PushNotice.make(for: event, personID: "e1", kinds: [.onDuty]))
        #expect(made.notice == direct)
        #expect(made.message == direct.payload(eventID: "evt_1", type: .onDutyChanged, about: 3_600_000))
        // The same person's next device: the same message.
        #expect(payloads.notice(of: event, personID: "e1", kinds: [.onDuty])?.message == made.message)
        // Another who comes on duty is told too; one who leaves duty, and one who turned the kind off, nothing.
        #expect(payloads.notice(of: event, personID: "e2", kinds: [.onDuty])?.notice.title == "You are on call now")
        #expect(payloads.notice(of: event, personID: "e3", kinds: [.onDuty]) == nil)
        #expect(payloads.notice(of: event, personID: "e1", kinds: [.coverAsked]) == nil)
        // Another event for the same person is its own.
        let later = Self.handoff("evt_2", arriving: ["e1"])
        let second = try #require(payloads.notice(of: later, personID: "e1", kinds: [.onDuty]))
        #expect(second.message != made.message)
    }

    @Test func noMoreThanTheCapIsKeptAndTheOldestGoesFirst() throws {
        let payloads = PushPayloads()
        let event = Self.handoff("evt_1", arriving: ["e0"])
        _ = payloads.notice(of: event, personID: "e0", kinds: [.onDuty])
        for index in 1...PushPayloads.noticeCapacity {
            _ = payloads.notice(of: event, personID: "e\(index)", kinds: [.onDuty])
        }
        #expect(payloads.keptNotices == PushPayloads.noticeCapacity)
        #expect(!payloads.keeps(event, personID: "e0", kinds: [.onDuty]), "the oldest went first")
        #expect(payloads.keeps(event, personID: "e\(PushPayloads.noticeCapacity)", kinds: [.onDuty]))
    }
}
