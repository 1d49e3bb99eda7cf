import Foundation
import RosterDomain
import RosterTLS

/// What a notification is about (docs/NOTIFICATIONS.md, "Events").
public enum NotificationType: String, Sendable, Codable, CaseIterable {
    case onDutyChanged = "on-duty.changed"
    case shiftStarting = "shift.starting"
    case shiftsChanged = "shifts.changed"
    case coverageGap = "coverage.gap"
    /// Someone is on duty during their time off (docs/TIME-OFF.md).
    case coverageConflict = "coverage.conflict"
    /// Cover requests: asked for (or open again after the taker backed out), taken, cancelled,
    /// and expired (its stretch began with nobody taking it).
    case requestOpened = "request.opened"
    case requestTaken = "request.taken"
    case requestCancelled = "request.cancelled"
    case requestExpired = "request.expired"
    /// Whom an escalation policy pages at some step changed (docs/ESCALATION.md).
    case escalationChanged = "escalation.changed"
    /// `admin webhook test`: delivered to one webhook only.
    case ping
    /// Who is on duty on a schedule, posted by an announcement rule to its webhook only.
    case announcement

    /// The types a webhook may subscribe to (`--events`): not those meant for one webhook.
    public static var subscribable: [NotificationType] { allCases.filter { $0 != .ping && $0 != .announcement } }

    /// The types a person's push subscription may be told of (docs/PUSH.md); which of them it is
    /// is the person's settings' choice, made at delivery.
    public static let pushed: Set<NotificationType> = [
        .onDutyChanged, .shiftStarting, .shiftsChanged, .coverageConflict, .requestOpened, .requestTaken,
        .requestExpired,
    ]
}

/// One event in the outbox: typed, with an id that is the same however often it is derived
/// (so writing it twice stores it once), the revision of the plan it comes from, the instant it
/// is about, and when it is due to be sent.
public struct NotificationEvent: Sendable, Hashable {
    public var id: String
    public var type: NotificationType
    public var tenantID: String
    public var revision: UInt64
    public var about: UnixMillis
    /// Not sent before this instant (a reminder's; the others are due when written).
    public var due: UnixMillis
    /// Set for time-driven events still to come, which a plan change may withdraw.
    public var planned: Bool
    /// The schedules it concerns, for webhooks and subscriptions filtered by schedule.
    public var scheduleIDs: [String]
    /// The people it concerns, for subscriptions filtered to a person.
    public var people: [String]
    /// The JSON body a webhook receives (docs/NOTIFICATIONS.md, "Payloads").
    public var payload: Data
    /// Meant for this webhook only, and not published to NOTICES subscribers (an announcement);
    /// nil: for every webhook that wants it.
    public var webhookID: String?

    /// A stable id from what makes the event unique: a webhook receiver deduplicates on it.
    package static func id(tenantID: String, key: String) -> String {
        "evt_" + Crypto.hex(Crypto.sha256(Array("\(tenantID)\u{1F}\(key)".utf8))).prefix(24)
    }

    /// An event as stored (its payload already encoded), or read back from the outbox.
    public init(
        id: String, type: NotificationType, tenantID: String, revision: UInt64, about: UnixMillis, due: UnixMillis,
        planned: Bool, scheduleIDs: [String], people: [String], payload: Data, webhookID: String? = nil
    ) {
        self.id = id
        self.type = type
        self.tenantID = tenantID
        self.revision = revision
        self.about = about
        self.due = due
        self.planned = planned
        self.scheduleIDs = scheduleIDs
        self.people = people
        self.payload = payload
        self.webhookID = webhookID
    }
}
