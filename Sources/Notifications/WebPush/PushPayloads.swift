import Foundation
import NIOConcurrencyHelpers
import NIOCore
import RosterStore

/// An event's JSON payload as the notices need it, read once.
enum PushPayload: Sendable {
    case shiftStarting(NotificationPayload.ShiftStarting)
    /// With the ids of those who come on duty (on now, not before), for one lookup per
    /// subscription: a handoff of a thousand people is looked at for each of their phones.
    case onDutyChanged(NotificationPayload.OnDutyChanged, arriving: Set<String>)
    /// Opened, taken or expired.
    case request(NotificationPayload.CoverRequestStep)
    case conflict(NotificationPayload.CoverageConflict)
    case shiftsChanged(NotificationPayload.ShiftsChanged)
    /// Of a kind nobody is pushed, or unreadable.
    case none

    init(_ event: NotificationEvent) {
        let decoder = JSONDecoder()
        func data<Body: Codable>(_ type: Body.Type) -> Body? {
            try? decoder.decode(NotificationPayload.Envelope<Body>.self, from: event.payload).data
        }
        let read: PushPayload?
        switch event.type {
        case .shiftStarting: read = data(NotificationPayload.ShiftStarting.self).map { .shiftStarting($0) }
        case .onDutyChanged:
            read = data(NotificationPayload.OnDutyChanged.self).map { change in
                .onDutyChanged(change, arriving: Set(change.current.map(\.id)).subtracting(change.previous.map(\.id)))
            }
        case .requestOpened, .requestTaken, .requestExpired:
            read = data(NotificationPayload.CoverRequestStep.self).map { .request($0) }
        case .coverageConflict: read = data(NotificationPayload.CoverageConflict.self).map { .conflict($0) }
        case .shiftsChanged: read = data(NotificationPayload.ShiftsChanged.self).map { .shiftsChanged($0) }
        default: read = nil
        }
        self = read ?? .none
    }
}

/// The payloads of the last events delivered to push subscriptions. A handoff reaches every
/// subscription of everyone it puts on duty, and its payload names them all: read once per
/// subscription, a handoff of a thousand people read it ten thousand times.
final class PushPayloads: Sendable {
    static let capacity = 64
    private let kept = NIOLockedValueBox<(order: [String], payloads: [String: PushPayload])>(([], [:]))

    func payload(of event: NotificationEvent) -> PushPayload {
        let key = event.tenantID + "/" + event.id
        // Read under the lock: the deliveries of one handoff start together, and each would
        // otherwise read the payload itself before the first had kept it.
        return kept.withLockedValue { kept in
            if let found = kept.payloads[key] { return found }
            let read = PushPayload(event)
            kept.payloads[key] = read
            kept.order.append(key)
            if kept.order.count > Self.capacity { kept.payloads[kept.order.removeFirst()] = nil }
            return read
        }
    }

    /// A person's notice of an event and the message made of it: the same for each of their
    /// devices, so made once for all of them.
    struct Made: Sendable {
        var notice: PushNotice
        var message: [UInt8]

        /// Made afresh (`payloads` keeps the event's JSON read once).
        static func make(
            of event: NotificationEvent, personID: String, kinds: Set<PushKind>, payloads: PushPayloads?
        ) -> Made? {
            PushNotice.make(for: event, personID: personID, kinds: kinds, payloads: payloads).map {
                Made(notice: $0, message: $0.payload(eventID: event.id, type: event.type, about: event.about))
            }
        }
    }

    /// The most notices kept (a handoff of that many people makes each person's once); the
    /// oldest go first.
    static let noticeCapacity = 4_096
    private struct Notices {
        var made: [NoticeKey: Made?] = [:]
        var order = CircularBuffer<NoticeKey>()
    }
    private struct NoticeKey: Hashable {
        var tenantID, eventID, personID: String
        var kinds: Set<PushKind>
    }
    private let notices = NIOLockedValueBox(Notices())

    /// The person's notice and message, kept or made now; nil (kept too) when the event tells
    /// them nothing.
    func notice(of event: NotificationEvent, personID: String, kinds: Set<PushKind>) -> Made? {
        let key = NoticeKey(tenantID: event.tenantID, eventID: event.id, personID: personID, kinds: kinds)
        if let found = notices.withLockedValue({ $0.made[key] }) { return found }
        // Made outside the lock: two devices of one person made at once make it twice, alike.
        let made = Made.make(of: event, personID: personID, kinds: kinds, payloads: self)
        notices.withLockedValue { notices in
            guard notices.made.updateValue(made, forKey: key) == nil else { return }
            notices.order.append(key)
            if notices.order.count > Self.noticeCapacity { notices.made[notices.order.removeFirst()] = nil }
        }
        return made
    }

    /// How many notices are kept, and whether one is (for tests).
    var keptNotices: Int { notices.withLockedValue { $0.made.count } }
    func keeps(_ event: NotificationEvent, personID: String, kinds: Set<PushKind>) -> Bool {
        let key = NoticeKey(tenantID: event.tenantID, eventID: event.id, personID: personID, kinds: kinds)
        return notices.withLockedValue { $0.made[key] != nil }
    }
}
