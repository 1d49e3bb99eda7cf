import Foundation
import Logging
import RosterDomain
import RosterStore

/// Several nodes on one shared store (docs/SCALING.md): each holds every tenant in memory and
/// learns of the others' commits from the store's announcements, reading the history entries
/// after the revision it holds and publishing each exactly as a local commit. A lost
/// announcement delays, never loses: revisions are compared after the listening connection
/// comes back and every `syncInterval` as a safety net.
extension ServerCore {
    /// After a change was refused because another node got there first: take what it did, the
    /// notification planning mark included, before the change is validated again.
    func resolveConflict(_ tenant: TenantRuntime) async {
        await catchUp(tenant)
        do { try await notifications?.reload(tenantID: tenant.id) } catch {
            logger.warning("could not read tenant \(tenant.id)'s notification settings: \(error)")
        }
    }

    /// Applies the entries committed elsewhere after what `tenant` holds, in order, and publishes
    /// each to this node's subscribers. Runs on the mutation queue, between local changes.
    /// False when the store could not be read.
    @discardableResult
    func catchUp(_ tenant: TenantRuntime) async -> Bool {
        let store = admin.store
        do {
            for entry in try await store.history(tenantID: tenant.id, after: tenant.view.revision) {
                let view = tenant.view
                guard entry.revision > view.revision else { continue }
                guard entry.revision == view.revision + 1 else {
                    // Only when a node was away for more revisions than the store keeps (--history-size).
                    logger.error(
                        """
                        tenant \(tenant.id) is at revision \(view.revision) here and the store's history now starts at \
                        \(entry.revision): restart this node to load the tenant again
                        """)
                    return false
                }
                var state = view.state
                state.apply(entry.changes)
                let applied = state
                // Re-indexing resolves schedules: on the work pool (ahead of queries: it is durable).
                let committed = await withCheckedContinuation { continuation in
                    work.urgent(tenant.id) { continuation.resume(returning: tenant.apply(entry, state: applied)) }
                }
                tenant.publish(committed)
                metrics?.caughtUp()
            }
        } catch {
            logger.warning(
                "could not read tenant \(tenant.id)'s changes from the store: \(error); trying again on the next signal"
            )
            return false
        }
        return true
    }

    /// Whether other nodes may commit to this node's store (PostgreSQL), so that a client can
    /// hold a revision this node has not read yet.
    var sharesStore: Bool { admin.store.signals != nil }

    /// Queues a catch-up for every tenant the store holds at a newer revision than this node.
    package func compareRevisions() async {
        do {
            let stored = try await admin.store.revisions()
            for (id, revision) in stored {
                guard let tenant = tenant(id), tenant.view.revision < revision else { continue }
                mutations.submit(tenant.id) { await self.catchUp(tenant) }
            }
        } catch {
            logger.warning("could not compare revisions with the store: \(error)")
        }
    }

    /// Follows what other nodes do until the stream ends (the store closed).
    package func follow(_ signals: AsyncStream<StoreSignal>, accessChanged: @escaping @Sendable () async -> Void) async
    {
        for await signal in signals {
            switch signal {
            case .committed(let id, let revision):
                // This node's own commits come back too; by then, or by the time the queue gets
                // here, they are applied and the catch-up finds nothing.
                guard let tenant = tenant(id), tenant.view.revision < revision else { continue }
                mutations.submit(tenant.id) { await self.catchUp(tenant) }
            case .resync:
                await compareRevisions()
                await accessChanged()
            case .noticesPublished(let id):
                guard let tenant = tenant(id) else { continue }
                do {
                    tenant.publishNotices(
                        try await admin.store.publishedNotices(tenantID: id, limit: TenantRuntime.keptNotices))
                } catch {
                    logger.warning("could not read tenant \(id)'s notices from the store: \(error)")
                }
            case .notificationSettingsChanged(let id):
                guard let notifications, let tenant = tenant(id) else { continue }
                mutations.submit(id) {
                    do { try await notifications.reload(tenantID: id) } catch {
                        self.logger.warning("could not read tenant \(id)'s webhooks and reminder rules: \(error)")
                    }
                    await notifications.plan(tenant)
                }
            case .accessChanged:
                await accessChanged()
            }
        }
    }
}
