import Foundation
import NIOConcurrencyHelpers
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
}
