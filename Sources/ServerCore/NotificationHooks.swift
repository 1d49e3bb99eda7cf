import RosterDomain
import RosterProtocol
import RosterStore

/// What the core asks of notifications (RosterNotifications' `Notifier`), and all it knows of
/// them: the outbox rows a change commits with, planning rounds, reloading a tenant's settings,
/// and the NotificationAdmin requests. Every call but `activate` and `committed` runs on the
/// tenant's mutation queue.
package protocol NotificationHooks: Sendable {
    /// The outbox rows a change commits with (worked out on the work pool, before the commit).
    func outbox(
        tenantID: String, previous: RosterState, current: RosterState, changes: [RosterChange], revision: UInt64,
        now: UnixMillis, actor: String
    ) -> OutboxWrite
    /// After the change's commit.
    func committed(tenantID: String, write: OutboxWrite)
    /// Reads the tenant's webhooks, reminder rules and planning mark again (another node changed them).
    func reload(tenantID: String) async throws
    /// One planning round for the tenant: the time-driven events due soon.
    func plan(_ tenant: TenantRuntime) async
    /// Marks the tenant as using notifications; true when it did not yet.
    func activate(_ tenantID: String) -> Bool
    /// Drops delivered notifications older than `cutoff`.
    func pruneDelivered(before cutoff: UnixMillis) async throws
    /// A NotificationAdmin request of an admin of the tenant.
    func administer(_ request: Roster_V1_NotificationAdminRequest, tenant: TenantRuntime, actor: Caller) async
        -> Result<RosterMessage, WireError>
    /// Schedules as code: what a document's webhooks, reminders and announcements change, checked
    /// against `state` (the roster as the same apply leaves it). Runs on the mutation queue.
    func planSettings(_ document: Roster_V1_DefinitionDocument, tenantID: String, state: RosterState, prune: Bool) async
        -> SettingsPlan
    /// After an apply that changed settings committed: read them again and plan.
    func settingsChanged(_ tenant: TenantRuntime) async
    /// A person's push subscriptions and settings, or an admin's counts (docs/PUSH.md).
    func push(_ request: Roster_V1_PushRequest, tenant: TenantRuntime, actor: Caller) async
        -> Result<RosterMessage, WireError>
    /// How often the server runs a planning round for every tenant.
    var planningInterval: Duration { get }
    /// A chat platform's slash command (`POST /v1/chat/PLATFORM/command`, docs/CHAT.md):
    /// verified with the tenant's secret for it, then answered.
    func chatCommand(_ request: ChatCommandRequest, tenant: TenantRuntime) async -> ChatCommandReply
}

/// The notification side of a definition's plan (`NotificationHooks.planSettings`).
package struct SettingsPlan: Sendable {
    package var write = NotificationSettingsWrite()
    package var objects: [Roster_V1_DefinitionChange] = []
    package var violations: [RosterViolation] = []
    /// Webhook id → the signing secret made for a new webhook the file gives none, shown once.
    package var secrets: [String: String] = [:]

    package init() {}
}

/// A slash command's request as it came: the platform, the raw body (a form; Slack signs the
/// bytes as sent) and Slack's signature headers.
package struct ChatCommandRequest: Sendable {
    package var platform: String
    package var body: [UInt8]
    /// The body's form fields (`text`, `user_id`, `user_name`, `token`, …).
    package var fields: [String: String]
    package var slackTimestamp: String?
    package var slackSignature: String?

    package init(
        platform: String, body: [UInt8], fields: [String: String], slackTimestamp: String? = nil,
        slackSignature: String? = nil
    ) {
        (self.platform, self.body, self.fields, self.slackTimestamp, self.slackSignature) = (
            platform, body, fields, slackTimestamp, slackSignature
        )
    }
}

/// The answer: 200 with the platform's JSON reply, or a refusal's status and why.
package struct ChatCommandReply: Sendable {
    package var status: Int
    package var json: [UInt8]
    package var problem: String

    package init(status: Int, json: [UInt8] = [], problem: String = "") {
        (self.status, self.json, self.problem) = (status, json, problem)
    }
}

extension ServerCore {
    /// A NOTICES subscription: from now on the tenant's events are derived and kept (its first
    /// planning round, queued behind any change, stores the mark that keeps it so).
    func noticesWanted(by tenant: TenantRuntime) {
        guard let notifications, notifications.activate(tenant.id) else { return }
        mutations.submit(tenant.id) { await notifications.plan(tenant) }
    }

    /// A planning round for every tenant, each on the mutation queue between changes. On a
    /// shared store the tenant first takes the other nodes' changes, so that what is planned
    /// follows the newest plan.
    package func planNotifications() async {
        guard let notifications else { return }
        let shared = admin.store.signals != nil
        for tenant in tenants.values {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let queued = mutations.submit(tenant.id) {
                    if shared { await self.catchUp(tenant) }
                    await notifications.plan(tenant)
                    done.resume()
                }
                if !queued { done.resume() }
            }
        }
    }
}
