import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterHTTP
import RosterNotifications
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTLS

// The periodic work of a running server (part 11 of `start`) and the refreshes it runs.

extension RosterServer {
    /// Progress bookmarks, re-reading tokens and tenants, pruning the audit log, following the
    /// other nodes of a shared store, planning notifications, and the demo roller.
    func periodicParts(listener: ProtocolConnections, store: any RosterStore, demo: DemoRoster?) -> [ServerPart] {
        let limits = configuration.limits, loops = Array(group.makeIterator()), context = listener.core
        // A failed read is retried on the next tick; admin changes do not depend on it.
        let refresh: @Sendable () async -> Void = {
            do {
                try await Self.refresh(listener: listener, store: store, loops: loops)
            } catch is CancellationError {
                // The server is stopping: not a failed read.
            } catch {
                context.logger.warning("could not re-read tokens and tenants: \(error)")
            }
        }
        var parts = [
            ServerPart.every(limits.progressInterval, "progress bookmarks") {
                for tenant in context.tenants.values {
                    tenant.sendProgress(idleFor: TimeAmount(limits.progressInterval))
                }
            },
            ServerPart.every(limits.tokenRefresh, "token and tenant refresh", refresh),
            ServerPart(
                "audit pruning",
                work: {
                    await context.pruneAudit()
                    while true {
                        try await Task.sleep(for: .seconds(3600))
                        await context.pruneAudit()
                    }
                }),
            ServerPart(
                "duty record",
                work: {
                    // At start (so the record of every schedule begins), then every interval.
                    while true {
                        await context.recordDuty()
                        try await Task.sleep(for: ServerCore.dutyRecordInterval)
                    }
                }),
        ]
        if let demo { parts.append(ServerPart("demo roller", work: { try await demo.run() })) }
        if let signals = store.signals {
            // A shared store: follow the other nodes' commits, and compare revisions now and then
            // in case an announcement was lost.
            parts.append(ServerPart("store follower", work: { await context.follow(signals, accessChanged: refresh) }))
            parts.append(ServerPart.every(limits.storeSync, "revision comparison") { await context.compareRevisions() })
        }
        if let notifications = context.notifications {
            parts.append(
                ServerPart(
                    "notification planning",
                    work: {
                        await context.planNotifications()
                        while true {
                            try await Task.sleep(for: notifications.planningInterval)
                            await context.planNotifications()
                        }
                    }))
        }
        return parts
    }

    /// Picks up tokens and tenants changed by `roster-server token|tenant ...` while running, and
    /// closes the connections of tokens that were revoked.
    static func refresh(listener: ProtocolConnections, store: any RosterStore, loops: [any EventLoop]) async throws {
        let context = listener.core
        let stamp = context.tokens.stamp
        let revoked = context.tokens.replace(with: try await store.loadTokens(), loadedAfter: stamp)
        if !revoked.isEmpty {
            context.logger.notice("tokens revoked: \(revoked.joined(separator: ", ")); closing their connections")
            let event = CredentialRevokedEvent(tokenIDs: Set(revoked))
            for channel in listener.connections { channel.pipeline.fireUserInboundEventTriggered(event) }
        }
        let known = Set(context.tenants.keys)
        let ids = try await store.tenantIDs()
        guard ids.contains(where: { !known.contains($0) }) else { return }
        for stored in try await store.loadTenants() where !known.contains(stored.state.tenant.id) {
            let runtime = TenantRuntime(
                stored: stored, clock: context.clock,
                historyLimit: context.configuration.limits.historySize, loops: loops,
                metrics: context.metrics, work: context.work, resolvedWeeks: context.resolvedWeeks)
            if context.addTenant(runtime) {
                runtime.startOnDutyTracking()
                context.logger.notice("serving new tenant \(runtime.id)")
            }
        }
    }
}
