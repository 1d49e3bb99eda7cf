import RosterDomain
import RosterProtocol
import RosterStore

/// What the core asks of notifications (RosterNotifications' `Notifier`), and all it knows of
/// them: the outbox rows a change commits with, planning rounds, reloading a tenant's settings,
/// and the NotificationAdmin requests. Every call but `activate` and `committed` runs on the
/// tenant's mutation queue.
package protocol NotificationHooks: Sendable {
    /// The outbox rows a change commits with (worked out on the work pool, before the commit).
    func outbox(tenantID: String, previous: RosterState, current: RosterState, changes: [RosterChange], revision: UInt64,
                now: UnixMillis, actor: String) -> OutboxWrite
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
    func administer(_ request: Roster_V1_NotificationAdminRequest, tenant: TenantRuntime, actor: Actor) async
        -> Result<RosterMessage, WireError>
    /// How often the server runs a planning round for every tenant.
    var planningInterval: Duration { get }
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
