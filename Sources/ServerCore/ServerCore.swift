import Logging
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore
import RosterTLS

/// What every door into the server shares (protocol connections, the HTTP API, node sync,
/// notifications): configuration, clock, the tenants, the tokens and the write path. Connection
/// state lives in `ProtocolConnections`; notifications and metrics are reached through
/// `NotificationHooks` and `ServerMetrics` only.
package final class ServerCore: Sendable {
    package let configuration: ServerConfiguration
    /// The tenant a Hello with an empty tenant field selects (resolved at start).
    package let defaultTenant: String
    package let clock: any ServerClock
    package let logger: Logger
    package let serverID: String
    private let tenantsByID: NIOLockedValueBox<[String: TenantRuntime]>
    package let tokens: TokenRegistry
    package let mutations: TenantQueues
    /// Where resolving and planning run: off the event loops and off the cooperative pool.
    package let work: TenantWorkPool
    /// Whole weeks of schedules resolved for queries, kept per revision for every tenant.
    package let resolvedWeeks: ResolvedWeeks?
    package let admin: AdminOperations
    let authFailureBudget = NIOLockedValueBox(AuditLog.FailureBudget())
    /// Audit writes nobody waits for (a refused Hello's), counted so that a harness can tell
    /// when they are done.
    let detachedWrites = NIOLockedValueBox(0)
    /// Each tenant's schedules' quality over the last 28 days, by schedule id, and when it was
    /// measured: the /metrics gauges (`report quality`'s default window; `refreshQualityGauges`).
    package let scheduleQuality = NIOLockedValueBox<
        [String: (measuredAt: UnixMillis, reports: [String: QualityReport])]
    >([:])
    /// Whether a measurement of the quality gauges is under way (`requestQualityGauges`).
    let qualityMeasuring = NIOLockedValueBox(false)

    /// What the server counts for GET /metrics; nil without an HTTP listener.
    package let metrics: ServerMetrics?
    /// The HTTP listener's port, for calendar URLs; nil without one.
    package let httpPort: Int?
    /// Webhooks and reminders; nil when the server runs without (tools, some tests).
    package let notifications: (any NotificationHooks)?
    /// Sign-in with the tenants' identity providers; nil when the server runs without (tools,
    /// some tests).
    package let singleSignOn: SingleSignOn?

    package init(
        configuration: ServerConfiguration, defaultTenant: String, clock: any ServerClock, logger: Logger,
        tenants: [String: TenantRuntime], tokens: TokenRegistry, store: any RosterStore, metrics: ServerMetrics? = nil,
        httpPort: Int? = nil, notifications: (any NotificationHooks)? = nil, work: TenantWorkPool? = nil,
        mutationGate: JobGate? = nil, resolvedWeeks: ResolvedWeeks? = nil, singleSignOn: SingleSignOn? = nil
    ) {
        self.singleSignOn = singleSignOn
        self.resolvedWeeks = resolvedWeeks
        self.notifications = notifications
        self.metrics = metrics
        self.httpPort = httpPort
        self.configuration = configuration
        self.defaultTenant = defaultTenant
        self.clock = clock
        self.logger = logger
        self.tenantsByID = NIOLockedValueBox(tenants)
        self.tokens = tokens
        serverID = IdentifierFactory.make("srv")
        mutations = TenantQueues(gate: mutationGate)
        let limits = configuration.limits
        self.work =
            work
            ?? TenantWorkPool(
                threads: limits.workThreads > 0 ? limits.workThreads : max(2, System.coreCount),
                maxQueuedPerTenant: limits.maxQueuedWorkPerTenant)
        admin = AdminOperations(
            store: store, clock: clock, historyLimit: configuration.limits.historySize, metrics: metrics,
            notifications: notifications, maxAnswerBytes: limits.maxFrameBytes - 1_024, work: self.work)
    }

    package func tenant(_ id: String) -> TenantRuntime? { tenantsByID.withLockedValue { $0[id] } }

    package var tenants: [String: TenantRuntime] { tenantsByID.withLockedValue { $0 } }

    /// Adds tenants created while running; false for one already known.
    package func addTenant(_ tenant: TenantRuntime) -> Bool {
        tenantsByID.withLockedValue { tenants in
            guard tenants[tenant.id] == nil else { return false }
            tenants[tenant.id] = tenant
            return true
        }
    }
}
