import Foundation
import Logging
import NIOConcurrencyHelpers
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTLS

/// Decides what goes into the outbox: the events each admin change causes (written in the
/// change's own transaction) and the time-driven ones (handoffs, reminders, gaps ahead), written
/// `planAhead` before they are due by a planning round. Both run on the mutation queue, so a
/// round and a change never interleave. A tenant's events are derived and kept from its first
/// webhook or first NOTICES subscription on (they are the history a subscriber resumes from);
/// until then it pays nothing: deriving costs a few on-duty indexes per change.
package final class Notifier: NotificationHooks {
    let store: any RosterStore
    let settings: ServerConfiguration.NotificationSettings
    let clock: any ServerClock
    let logger: Logger
    package let dispatcher: OutboxDispatcher
    /// Where derivations run (they resolve schedules); nil: where the caller is.
    let work: TenantWorkPool?
    private let tenants = NIOLockedValueBox<[String: TenantNotices]>([:])

    /// What a tenant's notifications need, kept in memory.
    struct TenantNotices: Sendable {
        /// The event types derived (every one but `ping`, which only `webhook test` makes).
        var wanted = Set(NotificationType.subscribable)
        /// Whether the tenant uses notifications (a webhook, or once a NOTICES subscription);
        /// lasting, since the planning mark is stored with its first planning round.
        var active = false
        var rules: [ReminderRule] = []
        var announcements: [AnnounceRule] = []
        /// Time-driven events are in the outbox up to here.
        var plannedThrough: UnixMillis?
        /// The store's mark for the settings above (read before them), which every change's
        /// outbox write carries: a node that has not heard of a webhook added through another
        /// node yet has its change refused, reads the settings again and derives anew.
        var settingsMark: String?
        /// People's push settings by person id (those who never chose have none: the defaults).
        var pushSettings: [String: PushSettings] = [:]
        /// The tenant's VAPID key (docs/PUSH.md).
        var pushKey: PrivateKey?
    }

    /// Seals webhook secrets before they are stored and opens them to sign.
    let sealer: SecretSealer
    /// The Slack slash-command signatures seen lately (a replay is refused).
    let chatReplays = ChatCommands.Replays()

    /// The words of chat posts and `/oncall` answers (`--chat-language`).
    var chatWords: Words { Words[Language(rawValue: settings.chatLanguage) ?? .english] }

    package init(
        store: any RosterStore, settings: ServerConfiguration.NotificationSettings, clock: any ServerClock,
        logger: Logger,
        work: TenantWorkPool? = nil, allowLoopback: Bool = false,
        sealer: SecretSealer = SecretSealer(key: Crypto.randomBytes(32))
    ) {
        self.work = work
        self.sealer = sealer
        self.store = store
        self.settings = settings
        self.clock = clock
        self.logger = logger
        dispatcher = OutboxDispatcher(
            store: store, settings: settings, clock: clock, logger: logger,
            addresses: WebhookAddressPolicy(allowed: settings.webhookAllow, allowLoopback: allowLoopback),
            sealer: sealer)
        let (contact, webURL) = (settings.pushContact, settings.webURL)
        dispatcher.hooks.withLockedValue {
            $0.pushContext = { [tenants] tenantID, personID in
                // Only the two fields, not a copy of the tenant's notices, per delivery.
                let (settings, key) = tenants.withLockedValue {
                    ($0[tenantID]?.pushSettings[personID], $0[tenantID]?.pushKey)
                }
                return PushDelivery.Context(
                    settings: settings ?? PushSettings(id: personID), key: key, contact: contact, webURL: webURL)
            }
        }
    }

    /// Reads the tenants' reminder rules and planning marks, and seals any webhook secret still
    /// stored as it was given (before secrets were sealed).
    package func load(tenantIDs: [String]) async throws {
        for webhook in try await store.webhooks(tenantID: nil, now: clock.now())
        where !SecretSealer.isSealed(webhook.secret) {
            try await store.replaceWebhookSecret(
                tenantID: webhook.tenantID, id: webhook.id, secret: sealer.seal(webhook.secret))
        }
        for tenantID in tenantIDs { try await reload(tenantID: tenantID) }
    }

    /// How many sealed secrets in the store (webhooks', slash commands') this node's key does not
    /// open: not zero after a restore into a data directory without the store's secrets key.
    package func unreadableSecrets(tenantIDs: [String]) async throws -> Int {
        var count = 0
        for webhook in try await store.webhooks(tenantID: nil, now: clock.now())
        where sealer.open(webhook.secret) == nil { count += 1 }
        for tenantID in tenantIDs {
            for platform in ChatCommands.platforms {
                if let sealed = try await store.chatCommandSecret(tenantID: tenantID, platform: platform),
                    sealer.open(sealed) == nil
                {
                    count += 1
                }
            }
        }
        return count
    }

    /// Reads one tenant's again (after an admin changed its webhooks or rules).
    package func reload(tenantID: String) async throws {
        var notices = TenantNotices()
        notices.settingsMark = try await store.settingsMark(tenantID: tenantID)
        notices.rules = try await store.rules(ReminderRule.self, tenantID: tenantID)
        notices.announcements = try await store.rules(AnnounceRule.self, tenantID: tenantID)
        for settings in try await store.rules(PushSettings.self, tenantID: tenantID) {
            notices.pushSettings[settings.id] = settings
        }
        notices.pushKey = try await pushKey(tenantID: tenantID)
        notices.plannedThrough = try await store.plannedThrough(tenantID: tenantID)
        let hasWebhooks = try await !store.webhooks(tenantID: tenantID, now: clock.now()).isEmpty
        notices.active =
            notices.plannedThrough != nil || hasWebhooks || tenants.withLockedValue { $0[tenantID]?.active ?? false }
        let loaded = notices
        tenants.withLockedValue { $0[tenantID] = loaded }
    }

    /// The tenant's webhooks, an admin's: not people's push subscriptions.
    func webhooks(of tenantID: String) async throws -> [StoredWebhook] {
        try await store.webhooks(tenantID: tenantID, now: clock.now()).filter { !$0.format.isPush }
    }

    /// A person's push settings as this node last read them (the defaults until they choose).
    func pushSettings(_ tenantID: String, person: String) -> PushSettings {
        tenants.withLockedValue { $0[tenantID]?.pushSettings[person] } ?? PushSettings(id: person)
    }

    func tenantPushKey(_ tenantID: String) -> PrivateKey? { tenants.withLockedValue { $0[tenantID]?.pushKey } }

    private func derivation(_ tenantID: String) -> NoticeDerivation {
        NoticeDerivation(tenantID: tenantID, settings: settings)
    }

    // MARK: With a change (on the mutation queue)

    /// The outbox rows a change commits with: the events it causes, and the time-driven events
    /// of the schedules it touched planned again under the new plan.
    package func outbox(
        tenantID: String, previous: RosterState, current: RosterState, changes: [RosterChange], revision: UInt64,
        now: UnixMillis, actor: String
    ) -> OutboxWrite {
        let notices = tenants.withLockedValue { $0[tenantID] } ?? TenantNotices()
        var write = OutboxWrite()
        write.settingsMark = notices.settingsMark
        guard notices.active else { return write }
        let schedules = TenantRuntime.schedules(changedBy: changes, previous: previous, current: current)
            .union(RosterState.schedulesNamingTimeOff(of: changes, previous: previous, current: current))
        // An edited policy's planned handoffs are those of the schedules it reached and reaches.
        var replanning = schedules
        let policies = TenantRuntime.policies(changedBy: changes, previous: previous)
            .union(TenantRuntime.policies(namingTeamsChangedBy: changes, previous: previous, current: current))
        for id in policies {
            for state in [previous, current] {
                if let policy = state.escalation.policies[id] {
                    replanning.formUnion(state.schedules(reachedBy: policy))
                }
            }
        }
        guard !replanning.isEmpty || !policies.isEmpty else { return write }
        let derivation = derivation(tenantID)
        if !schedules.isEmpty {
            write.events = derivation.afterChange(
                previous: previous, current: current, schedules: schedules,
                revision: revision, now: now, actor: actor, wanted: notices.wanted,
                announcements: notices.announcements)
        }
        if notices.wanted.contains(.escalationChanged) {
            write.events += derivation.escalationsAfterChange(
                previous: previous, current: current, changes: changes, schedules: schedules, revision: revision,
                now: now, actor: actor)
        }
        if let through = notices.plannedThrough, through > now, !replanning.isEmpty {
            write.withdrawPlanned = (from: now, schedules: replanning.sorted())
            write.replannedThrough = through
            var replanned = derivation.planned(
                state: current, revision: revision, from: now, to: through, rules: notices.rules,
                wanted: notices.wanted, schedules: replanning, announcements: notices.announcements)
            // A boundary the change puts at this very instant (an override from now) is the
            // change's own on-duty (or escalation) event already, not a second one as a handoff.
            for type in [NotificationType.onDutyChanged, .escalationChanged] {
                let changedNow = Set(write.events.filter { $0.type == type }.flatMap(\.scheduleIDs))
                replanned.removeAll {
                    $0.type == type && $0.about == now && !changedNow.isDisjoint(with: $0.scheduleIDs)
                }
            }
            write.events += replanned
        }
        return write
    }

    // MARK: Ahead of time

    /// One planning round for a tenant: writes the time-driven events due up to `planAhead` from
    /// now that are not written yet. After a stop, it catches up on at most a day.
    package func plan(_ tenant: TenantRuntime) async {
        let notices = tenants.withLockedValue { $0[tenant.id] } ?? TenantNotices()
        guard notices.active else { return }
        let now = clock.now()
        let from = max(notices.plannedThrough ?? now, now - 86_400_000)
        let through = now + settings.planAhead.milliseconds
        guard from < through else { return }
        let view = tenant.view, derivation = derivation(tenant.id)
        let derive: @Sendable () -> [NotificationEvent] = {
            derivation.planned(
                state: view.state, revision: view.revision, from: from, to: through, rules: notices.rules,
                wanted: notices.wanted, schedules: nil, announcements: notices.announcements)
        }
        // A round the pool refused (the tenant has too much waiting) is the next round's to do.
        guard let events = work == nil ? derive() : await work!.run(tenant.id, derive) else { return }
        do {
            try await store.writeOutbox(tenantID: tenant.id, OutboxWrite(events: events, plannedThrough: through))
            tenants.withLockedValue { $0[tenant.id, default: TenantNotices()].plannedThrough = through }
            if !events.isEmpty { dispatcher.wake() }
        } catch {
            logger.warning("could not plan notifications for tenant \(tenant.id): \(error)")
        }
    }

    /// Plans the already planned window again from now (reminder rules changed).
    package func replan(_ tenant: TenantRuntime) async {
        let notices = tenants.withLockedValue { $0[tenant.id] } ?? TenantNotices()
        guard notices.active else { return }
        guard let through = notices.plannedThrough else { return await plan(tenant) }
        let now = clock.now(), view = tenant.view, derivation = derivation(tenant.id)
        let derive: @Sendable () -> [NotificationEvent] = {
            derivation.planned(
                state: view.state, revision: view.revision, from: now, to: through, rules: notices.rules,
                wanted: notices.wanted, schedules: nil, announcements: notices.announcements)
        }
        guard let events = work == nil ? derive() : await work!.run(tenant.id, derive) else {
            logger.warning(
                "could not plan notifications for tenant \(tenant.id) again: its work queue is full; the next round plans them"
            )
            return
        }
        var write = OutboxWrite(events: events)
        write.withdrawPlanned = (from: now, schedules: nil)
        write.replannedThrough = through
        do {
            try await store.writeOutbox(tenantID: tenant.id, write)
            dispatcher.wake()
        } catch {
            logger.warning("could not plan notifications for tenant \(tenant.id): \(error)")
        }
    }

    /// Marks the tenant as using notifications; true when it did not yet.
    package func activate(_ tenantID: String) -> Bool {
        tenants.withLockedValue { tenants in
            guard !(tenants[tenantID]?.active ?? false) else { return false }
            tenants[tenantID, default: TenantNotices()].active = true
            return true
        }
    }

    /// After a change's commit: the new plan holds up to where the old one was planned.
    package func committed(tenantID: String, write: OutboxWrite) {
        if !write.events.isEmpty { dispatcher.wake() }
    }

    package func pruneDelivered(before cutoff: UnixMillis) async throws {
        _ = try await store.pruneNotices(before: cutoff)
    }

    package var planningInterval: Duration { settings.planAhead / 3 }
}
