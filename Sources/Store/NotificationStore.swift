import Foundation
import RosterDomain

/// A webhook endpoint as the store keeps it.
public struct StoredWebhook: Sendable, Hashable {
    public var id: String
    public var tenantID: String
    public var url: String
    /// The HMAC key, kept so that every delivery can be signed; shown to the admin once.
    public var secret: String
    /// Event types delivered; empty: every type.
    public var events: [String]
    /// Schedule ids; empty: every schedule.
    public var schedules: [String]
    public var created: UnixMillis
    public var disabledAt: UnixMillis?
    public var disabledReason: String
    /// When the current run of failed attempts began; nil after a success.
    public var failingSince: UnixMillis?
    /// Events due and not yet delivered (filled in by `webhooks(tenantID:now:)`); planned ones
    /// not yet due are not counted.
    public var pending: Int = 0
    /// What a delivery's body is: the signed JSON event, a chat platform's message, or a
    /// person's push (then `secret` is the subscription's `auth` secret).
    public var format: WebhookFormat
    /// A push subscription's person (docs/PUSH.md): it receives only events about them. Empty
    /// for an admin's webhook.
    public var personID: String = ""
    /// A Web Push subscription's public key (`p256dh`, base64url); empty otherwise.
    public var pushKey: String = ""
    /// A push subscription's name for its owner ("Pixel 8"); empty otherwise.
    public var label: String = ""

    public init(
        id: String, tenantID: String, url: String, secret: String, events: [String], schedules: [String],
        created: UnixMillis, disabledAt: UnixMillis? = nil, disabledReason: String = "",
        failingSince: UnixMillis? = nil,
        format: WebhookFormat = .json, personID: String = "", pushKey: String = "", label: String = ""
    ) {
        (self.id, self.tenantID, self.url, self.secret, self.events, self.schedules) = (
            id, tenantID, url, secret, events, schedules
        )
        (self.created, self.disabledAt, self.disabledReason, self.failingSince) = (
            created, disabledAt, disabledReason, failingSince
        )
        (self.format, self.personID, self.pushKey, self.label) = (format, personID, pushKey, label)
    }

    /// Whether `event` goes to this webhook: its type and one of its schedules are wanted; an
    /// event meant for one webhook (a ping, an announcement) goes to that one only.
    public func wants(_ event: NotificationEvent) -> Bool {
        if let target = event.webhookID { return target == id }
        guard event.type != .ping, event.type != .announcement else { return false }
        if !personID.isEmpty {
            return event.people.contains(personID) && NotificationType.pushed.contains(event.type)
        }
        guard events.isEmpty || events.contains(event.type.rawValue) else { return false }
        return schedules.isEmpty || !Set(schedules).isDisjoint(with: event.scheduleIDs)
    }
}

/// A webhook's body (docs/NOTIFICATIONS.md, docs/CHAT.md): Roster's signed JSON event, or a
/// message in the shape a chat platform's incoming webhook takes.
public enum WebhookFormat: String, Sendable, Hashable, CaseIterable {
    case json, slack, mattermost, teams, matrix, discord
    /// A person's push subscription: an encrypted Web Push message (RFC 8291; a browser's, or a
    /// UnifiedPush distributor's), or a plain publish to an ntfy topic.
    case webPush = "web-push", ntfy

    /// An admin's webhook format named on the wire ("" is json); never a push format.
    public init?(wire: String) {
        self.init(rawValue: wire.isEmpty ? "json" : wire.lowercased())
        if isPush { return nil }
    }

    /// What `--format` of a webhook may name.
    public static var webhookFormats: [WebhookFormat] { allCases.filter { !$0.isPush } }

    public var isChat: Bool { self != .json && !isPush }
    public var isPush: Bool { self == .webPush || self == .ntfy }
}

/// When a schedule's on-duty people are posted to a webhook (`admin announce`): at every change
/// of who is on duty, or at a local time on some weekdays in the schedule's zone.
public struct AnnounceRule: Sendable, Hashable, Codable {
    public var id: String
    public var scheduleID: String
    public var webhookID: String
    public var trigger: Trigger

    public enum Trigger: Sendable, Hashable, Codable {
        case change
        /// At `minuteOfDay` local time on `weekdays` (1 = Sunday … 7 = Saturday).
        case at(minuteOfDay: Int, weekdays: Set<Int>)
    }

    public init(id: String, scheduleID: String, webhookID: String, trigger: Trigger) {
        (self.id, self.scheduleID, self.webhookID, self.trigger) = (id, scheduleID, webhookID, trigger)
    }
}

/// What a change or a planning round writes to the outbox, in the same transaction.
public struct OutboxWrite: Sendable {
    /// New events; one whose id is already stored is left as it is.
    public var events: [NotificationEvent] = []
    /// Withdraws planned events due at or after `from` that concern one of `schedules` (nil:
    /// any) and that no attempt has been made to deliver: the plan changed, and `events` holds
    /// their replacements.
    public var withdrawPlanned: (from: UnixMillis, schedules: [String]?)?
    /// Records that time-driven events are written up to this instant.
    public var plannedThrough: UnixMillis?
    /// With `withdrawPlanned`: the planning mark the replacements were derived up to. The write
    /// is refused (`StoreError.planMoved`) if the stored mark is another (another node planned
    /// further meanwhile), since what lies beyond it would be withdrawn and not planned again.
    public var replannedThrough: UnixMillis?
    /// The store's `settingsMark` for the tenant when the events were derived; a shared store
    /// refuses the write (`StoreError.settingsMoved`) if it has changed since.
    public var settingsMark: String?

    /// Webhooks and rules changed with the revision (an apply, docs/AS-CODE.md), written first.
    public var settings = NotificationSettingsWrite()

    public init(events: [NotificationEvent] = [], plannedThrough: UnixMillis? = nil) {
        (self.events, self.plannedThrough) = (events, plannedThrough)
    }

    public var isEmpty: Bool { events.isEmpty && withdrawPlanned == nil && plannedThrough == nil && settings.isEmpty }
}

/// The webhooks and rules one revision changes (`roster-client apply`), so that a whole file is
/// one transaction. A changed rule is removed and inserted again under its id; a changed webhook
/// is updated in place and keeps its queue. Removals are written before insertions.
public struct NotificationSettingsWrite: Sendable {
    public var removedWebhooks: [String] = []
    public var insertedWebhooks: [StoredWebhook] = []
    public var updatedWebhooks: [StoredWebhook] = []
    public var removedRules: [NotificationRuleKey] = []
    public var insertedRules: [any NotificationRule] = []

    public init() {}

    public mutating func remove<Rule: NotificationRule>(_ kind: Rule.Type, id: String) {
        removedRules.append(NotificationRuleKey(table: Rule.table, id: id))
    }

    public var isEmpty: Bool {
        removedWebhooks.isEmpty && insertedWebhooks.isEmpty && updatedWebhooks.isEmpty && removedRules.isEmpty
            && insertedRules.isEmpty
    }
}

/// The kinds of rule the notification store keeps, each in a table of that name with the same
/// three columns: tenant_id, id, and the rule as JSON. A closed set, so a driver may put the
/// name in its SQL.
public enum NotificationRuleTable: String, Sendable, Hashable, CaseIterable {
    case reminder = "reminder_rule"
    case announcement = "announce_rule"
    /// A person's push settings (id: the person's id), and the tenant's VAPID key (docs/PUSH.md).
    case pushSettings = "push_setting"
    case pushKey = "push_key"
}

/// A rule the notification store keeps whole under its tenant and id: three store requirements
/// (`rules`, `insertRule`, `removeRule`) serve every kind, as does one implementation per driver.
public protocol NotificationRule: Sendable, Codable {
    static var table: NotificationRuleTable { get }
    var id: String { get }
}

extension NotificationRule {
    /// What the store's `rule` column holds.
    public func storedText() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }

    public static func stored(_ text: String) throws -> Self {
        try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    }
}

/// One rule named by its kind and id.
public struct NotificationRuleKey: Sendable, Hashable {
    public var table: NotificationRuleTable
    public var id: String

    public init(table: NotificationRuleTable, id: String) { (self.table, self.id) = (table, id) }
}

extension ReminderRule: NotificationRule {
    public static var table: NotificationRuleTable { .reminder }
}

extension AnnounceRule: NotificationRule {
    public static var table: NotificationRuleTable { .announcement }
}

/// The next event a webhook should receive: the oldest undelivered one that is due.
public struct DueDelivery: Sendable {
    public var webhook: StoredWebhook
    public var event: NotificationEvent
    /// Attempts made so far.
    public var attempts: Int
    /// Not before this instant (a retry's back-off).
    public var notBefore: UnixMillis

    public init(webhook: StoredWebhook, event: NotificationEvent, attempts: Int, notBefore: UnixMillis) {
        (self.webhook, self.event, self.attempts, self.notBefore) = (webhook, event, attempts, notBefore)
    }
}

/// An event as NOTICES subscribers get it: published when due, with the tenant's next sequence.
public struct PublishedNotice: Sendable, Hashable {
    public var sequence: UInt64
    public var event: NotificationEvent

    public init(sequence: UInt64, event: NotificationEvent) {
        (self.sequence, self.event) = (sequence, event)
    }
}

/// One attempt to deliver an event to a webhook.
public struct DeliveryAttempt: Sendable, Hashable {
    public var webhookID: String
    public var eventID: String
    public var eventType: String
    public var attempt: Int
    public var at: UnixMillis
    /// The HTTP status; nil when no response came.
    public var status: Int?
    public var error: String
    public var durationMillis: Int

    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }

    public init(
        webhookID: String, eventID: String, eventType: String, attempt: Int, at: UnixMillis, status: Int?,
        error: String,
        durationMillis: Int
    ) {
        (self.webhookID, self.eventID, self.eventType, self.attempt, self.at) = (
            webhookID, eventID, eventType, attempt, at
        )
        (self.status, self.error, self.durationMillis) = (status, error, durationMillis)
    }
}

/// What happens after an attempt.
public enum DeliveryOutcome: Sendable {
    case delivered
    /// Not sent: a later announcement of the same schedule within the coalescing window says it
    /// (the attempt is recorded with why; the webhook's failure clock is left as it is).
    case skipped
    case retry(at: UnixMillis)
    /// The webhook has failed for its whole budget: it is disabled with this reason.
    case disable(reason: String)
    /// Not sent yet, and not a failure (a person's quiet hours): due again at this instant, so
    /// what falls due meanwhile (going on duty) goes first.
    case hold(until: UnixMillis)
    /// The push service says the subscription is gone (404, 410): it is deleted.
    case remove
}

/// The durable side of notifications: webhooks, reminder rules, the outbox of events and the
/// deliveries of each to each webhook. Every write is one transaction.
public protocol NotificationStore: Sendable {
    /// Changes whenever the tenant's webhooks, reminder rules or planning start change; nil for
    /// a store only one node writes (whose settings change on that node's mutation queue).
    func settingsMark(tenantID: String) async throws -> String?
    /// A tenant's webhooks (nil: every tenant's), with the count of events due at `now` and not delivered.
    func webhooks(tenantID: String?, now: UnixMillis) async throws -> [StoredWebhook]
    /// One person's push subscriptions in a tenant (a person's own request reads no one else's).
    func pushSubscriptions(tenantID: String, personID: String, now: UnixMillis) async throws -> [StoredWebhook]
    /// Stores a webhook and queues for it the events already planned after `webhook.created`.
    func insertWebhook(_ webhook: StoredWebhook) async throws
    /// Deletes a webhook and its pending deliveries; false when the tenant has no such webhook.
    func removeWebhook(tenantID: String, id: String) async throws -> Bool
    /// Replaces a webhook's stored secret (sealing one stored before secrets were sealed).
    func replaceWebhookSecret(tenantID: String, id: String, secret: String) async throws

    /// A tenant's rules of one kind (reminders, announcements), by id.
    func rules<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String) async throws -> [Rule]
    /// Stores a rule; an id the tenant already has for that kind is refused.
    func insertRule<Rule: NotificationRule>(_ rule: Rule, tenantID: String) async throws
    /// Deletes a rule; false when the tenant has none of that kind and id.
    func removeRule<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String, id: String) async throws -> Bool

    /// A chat platform's slash-command secret for the tenant (sealed), if set up.
    func chatCommandSecret(tenantID: String, platform: String) async throws -> String?
    /// Sets (or, with nil, removes) a platform's slash-command secret.
    func setChatCommandSecret(tenantID: String, platform: String, secret: String?) async throws
    /// The platforms whose slash command the tenant has set up.
    func chatCommandPlatforms(tenantID: String) async throws -> [String]
    /// Whether `head`'s webhook has another announcement of the same schedules still to deliver,
    /// about an instant within `window` after `head`'s (it makes `head` needless).
    func laterAnnouncement(after head: DueDelivery, within window: UnixMillis) async throws -> Bool

    /// Up to when the tenant's time-driven events are written; nil before the first planning.
    func plannedThrough(tenantID: String) async throws -> UnixMillis?
    /// Writes `write` in one transaction, queueing each new event for every webhook that wants it.
    func writeOutbox(tenantID: String, _ write: OutboxWrite) async throws
    /// Queues `event` for one webhook only (`admin webhook test`).
    func enqueue(_ event: NotificationEvent, forWebhook webhookID: String) async throws

    /// For every enabled webhook with an event due at `now`, the oldest one (deliveries to a
    /// webhook are in order); and the earliest instant something else becomes due. Webhooks in
    /// `busy` (this node is sending to them) are left out: a shared store claims the heads it
    /// returns, and a head claimed and then not sent would wait out the claim's lease.
    func deliveryHeads(now: UnixMillis, excluding busy: Set<String>) async throws -> (
        heads: [DueDelivery], nextDue: UnixMillis?
    )
    /// Records an attempt and what follows from it, in one transaction.
    func recordAttempt(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome) async throws
    /// Several attempts' outcomes in one transaction (one commit, one sync to disk for them all).
    /// Returns the webhooks among them that, once it commits, still have an event to deliver
    /// (the next in their queue, or this one to retry or hold) and are enabled: the dispatcher
    /// looks again for those only, not after every delivery of a handoff to thousands.
    @discardableResult
    func recordAttempts(_ attempts: [(DeliveryAttempt, DeliveryOutcome)]) async throws -> Set<String>
    /// Gives every unpublished event due at `now` the tenant's next notice sequence, in due
    /// order; returns them by tenant, and when the next unpublished one falls due.
    func publishDue(now: UnixMillis) async throws -> (published: [String: [PublishedNotice]], nextDue: UnixMillis?)
    /// The tenant's newest `limit` published notices, oldest first.
    func publishedNotices(tenantID: String, limit: Int) async throws -> [PublishedNotice]
    /// The newest attempts, newest first.
    func deliveryAttempts(tenantID: String, webhookID: String?, limit: Int) async throws -> [DeliveryAttempt]
    /// The events stored for a tenant (tests and `admin webhook` views), oldest due first.
    func notices(tenantID: String) async throws -> [NotificationEvent]
    /// Forgets delivered events and attempts older than `before`; returns how many events.
    func pruneNotices(before: UnixMillis) async throws -> Int
}

/// When to remind people of a shift: a lead time, or a local time some days before.
public struct ReminderRule: Sendable, Hashable, Codable {
    public var id: String
    /// Empty: every schedule of the tenant.
    public var scheduleID: String
    /// Empty: everyone on the schedule.
    public var personID: String
    public var timing: Timing
    /// For `.dayBefore`: the zone of the local time; empty: the schedule's.
    public var zone: String

    public enum Timing: Sendable, Hashable, Codable {
        case lead(minutes: Int)
        /// `days` days before the shift's start date, at `minuteOfDay` local time.
        case daysBefore(days: Int, minuteOfDay: Int)
    }

    public init(id: String, scheduleID: String = "", personID: String = "", timing: Timing, zone: String = "") {
        (self.id, self.scheduleID, self.personID, self.timing, self.zone) = (id, scheduleID, personID, timing, zone)
    }

    /// "15m before", "1 day before at 18:00"
    package var description: String {
        switch timing {
        case .lead(let minutes): return "\(DurationText.format(minutes: minutes)) before"
        case .daysBefore(let days, let minute):
            let time = "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
            return "\(days) day\(days == 1 ? "" : "s") before at \(time)"
        }
    }

    /// The longest a reminder can come before its shift.
    package var reach: UnixMillis {
        switch timing {
        case .lead(let minutes): UnixMillis(minutes) * 60_000
        case .daysBefore(let days, _): UnixMillis(days + 2) * 86_400_000
        }
    }

    /// When a shift starting at `start` on a schedule in `scheduleZone` is reminded of.
    package func due(start: UnixMillis, scheduleZone: String) -> UnixMillis? {
        switch timing {
        case .lead(let minutes): return start - UnixMillis(minutes) * 60_000
        case .daysBefore(let days, let minute):
            guard let clock = WallClock(zone: zone.isEmpty ? scheduleZone : zone) else { return nil }
            let day = clock.day(clock.day(of: start).day, adding: -days)
            return clock.instant(day, minuteOfDay: minute)
        }
    }
}
