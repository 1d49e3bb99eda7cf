import Foundation
import RosterDomain

/// What a person may be told on their phone (docs/PUSH.md, "What you are told").
public enum PushKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A reminder before their duty (the tenant's reminder rules) and "you are on duty now".
    case onDuty = "on-duty"
    /// A cover request addressed to them.
    case coverAsked = "cover-asked"
    /// Their own cover request taken, or expired with nobody taking it.
    case myRequests = "my-requests"
    /// Their duty falls in their time off.
    case conflicts
    /// An override or an edit added or removed duty of theirs.
    case shiftChanges = "shift-changes"

    /// On for a person who never chose: going on duty, and cover asked of them.
    public static let defaults: Set<PushKind> = [.onDuty, .coverAsked]
}

/// A person's push settings, one per person (id: the person's id), for all their subscriptions.
public struct PushSettings: Sendable, Hashable, Codable {
    public var id: String
    public var kinds: Set<PushKind>
    /// Nothing but going on duty is sent in these hours; the rest waits for their end.
    public var quietHours: QuietHours?

    /// From `startMinute` to `endMinute` local time in `zone` (crossing midnight when the end
    /// is the smaller); minutes of the day, 0–1439.
    public struct QuietHours: Sendable, Hashable, Codable {
        public var startMinute: Int
        public var endMinute: Int
        public var zone: String

        public init(startMinute: Int, endMinute: Int, zone: String) {
            (self.startMinute, self.endMinute, self.zone) = (startMinute, endMinute, zone)
        }

        /// When the quiet hours around `instant` end; nil when `instant` is not in them.
        public func end(around instant: UnixMillis) -> UnixMillis? {
            guard startMinute != endMinute, let clock = WallClock(zone: zone) else { return nil }
            let local = clock.local(instant)
            let day = WallClock.Day(year: local.year, month: local.month, day: local.day)
            let minute = local.hour * 60 + local.minute
            let crossesMidnight = endMinute < startMinute
            let inside =
                crossesMidnight
                ? minute >= startMinute || minute < endMinute : minute >= startMinute && minute < endMinute
            guard inside else { return nil }
            let endDay = crossesMidnight && minute >= startMinute ? clock.day(day, adding: 1) : day
            return clock.instant(endDay, minuteOfDay: endMinute)
        }
    }

    public init(id: String, kinds: Set<PushKind> = PushKind.defaults, quietHours: QuietHours? = nil) {
        (self.id, self.kinds, self.quietHours) = (id, kinds, quietHours)
    }
}

/// The tenant's VAPID key pair (RFC 8292), made at first start: its PEM, sealed as webhook
/// secrets are. Rotating it makes a new one under the same id.
public struct PushKeyRecord: Sendable, Hashable, Codable {
    public static let currentID = "vapid"
    public var id: String = Self.currentID
    public var sealedKey: String
    public var created: UnixMillis

    public init(sealedKey: String, created: UnixMillis) {
        (self.sealedKey, self.created) = (sealedKey, created)
    }
}

extension PushSettings: NotificationRule {
    public static var table: NotificationRuleTable { .pushSettings }
}

extension PushKeyRecord: NotificationRule {
    public static var table: NotificationRuleTable { .pushKey }
}
