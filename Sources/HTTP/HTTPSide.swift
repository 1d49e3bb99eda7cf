import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterServerCore
import RosterStore
import RosterTLS

/// What the HTTP listener knows of its server: nothing while starting (health says so), then
/// the server's core and its protocol listener (whose TLS, replaced on SIGHUP, this listener
/// shares); its metrics from the first moment.
package final class HTTPSide: Sendable {
    package enum Readiness: Equatable { case ready, notReady(String) }

    package let metrics: MetricsRegistry?
    private let state = NIOLockedValueBox<
        (core: ServerCore?, listener: ProtocolConnections?, store: (any RosterStore)?, stopping: Bool)
    >(
        (nil, nil, nil, false))
    private let loopback = NIOLockedValueBox((bound: false, development: false))

    /// The web app's pages, asked for what no API route takes; nil: none.
    package let pages: (any HTTPPages)?

    package init(metrics: MetricsRegistry?, pages: (any HTTPPages)? = nil) {
        self.metrics = metrics
        self.pages = pages
    }

    /// What a request's Authorization header says: a usable token's tenant, a refused token, or
    /// nothing (nil).
    package enum Credential: Equatable { case token(tenantID: String, tokenID: String?), refused }

    /// Whose data a reading request (the event stream) gets, by the protocol's rule: a signed-in
    /// session's or a bearer token's tenant anywhere; without, the default tenant on loopback.
    package enum Reader {
        /// The tenant, and who reads it (`StreamAdmission.principal`).
        case tenant(TenantRuntime, principal: String)
        /// The tenants are not loaded yet, or the server is stopping.
        case starting
        /// A token was sent and refused.
        case refused
        /// No token, off loopback.
        case signInNeeded
    }

    package func reader(_ request: HTTPAPI.Request) -> Reader {
        guard let core = context else { return .starting }
        if let (tenant, tokenID) = pages?.sessionTenant(request, side: self) {
            return .tenant(tenant, principal: StreamAdmission.principal(tokenID: tokenID))
        }
        switch credential(request) {
        case .token(let tenantID, let tokenID)?:
            return core.tenant(tenantID).map { .tenant($0, principal: StreamAdmission.principal(tokenID: tokenID)) }
                ?? .refused
        case .refused?: return .refused
        case nil:
            guard isDevelopment(request) else { return .signInNeeded }
            return core.tenant(core.defaultTenant).map {
                .tenant($0, principal: StreamAdmission.principal(tokenID: nil))
            } ?? .starting
        }
    }

    /// The open event streams (`GET /v1/events`), closed when the server stops.
    private let streams = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    /// Who holds how many of them (set from the listener's limits when it binds).
    private let admission = NIOLockedValueBox(
        StreamAdmission(limits: HTTPSide.streamLimits(ServerConfiguration.Limits())))

    static func streamLimits(_ limits: ServerConfiguration.Limits) -> StreamAdmission.Limits {
        .init(
            perPrincipal: limits.httpMaxStreamsPerClient, perAddress: limits.httpMaxStreamsPerClient,
            total: StreamAdmission.Limits.total(forConnections: limits.httpMaxConnections))
    }

    /// The listener's limits, before its first connection.
    func limitStreams(_ limits: ServerConfiguration.Limits) {
        admission.withLockedValue { $0 = StreamAdmission(limits: Self.streamLimits(limits)) }
    }

    func admitStream(principal: String, address: String) -> Result<StreamAdmission.Ticket, StreamAdmission.Refusal> {
        admission.withLockedValue { $0.admit(principal: principal, address: address) }
    }

    func releaseStream(_ ticket: StreamAdmission.Ticket) { admission.withLockedValue { $0.release(ticket) } }

    func streamOpened(_ channel: any Channel) { streams.withLockedValue { $0[ObjectIdentifier(channel)] = channel } }
    func streamClosed(_ channel: any Channel) {
        _ = streams.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    package func credential(_ request: HTTPAPI.Request) -> Credential? {
        guard let header = request.authorization, header.lowercased().hasPrefix("bearer ") else { return nil }
        guard let core = context else { return .refused }
        let token = String(header.dropFirst(7)), now = core.clock.now()
        guard let credential = core.tokens.authenticate(token, now: now) else {
            metrics?.counters.authenticationFailed()
            core.auditAuthenticationFailure(token: token, address: request.peer, door: "HTTP Bearer token", at: now)
            return .refused
        }
        return .token(tenantID: credential.tenantID, tokenID: credential.tokenID)
    }

    /// Whether the listener is bound to a loopback address (its session cookies are not Secure).
    package var isLoopback: Bool {
        get { loopback.withLockedValue { $0.bound } }
        set { loopback.withLockedValue { $0.bound = newValue } }
    }

    /// Development mode: a loopback listener not turned off with `--no-development-mode`. Only
    /// loopback host names are answered then (`421` otherwise: a DNS-rebinding page names its
    /// own host), and what the mode grants (anonymous reads, every tenant's metrics) goes only
    /// to direct requests (`isDevelopment`).
    package var developmentMode: Bool {
        get { loopback.withLockedValue { $0.development } }
        set { loopback.withLockedValue { $0.development = newValue } }
    }

    /// Whether development mode's grants apply to this request: the listener is in development
    /// mode and the request came straight from a local client, not relayed by a proxy.
    package func isDevelopment(_ request: HTTPAPI.Request) -> Bool { developmentMode && !request.forwarded }

    /// Which tenant-labelled series a scrape gets.
    enum ReadingScope: Sendable {
        case all, tenant(String), serverOnly
    }

    /// Coverage gaps per tenant, walked at most once a minute or revision (a minutely rotation
    /// has 10,080 handoffs in a week).
    private let gaps = NIOLockedValueBox<[String: (revision: UInt64, at: UnixMillis, count: Int)]>([:])

    private func coverageGaps(_ tenant: TenantRuntime, revision: UInt64, now: UnixMillis) -> Int {
        if let cached = gaps.withLockedValue({ $0[tenant.id] }), cached.revision == revision, now - cached.at < 60_000 {
            return cached.count
        }
        let count = tenant.schedulesWithCoverageGap(now: now)
        gaps.withLockedValue { $0[tenant.id] = (revision, now, count) }
        return count
    }

    package var context: ServerCore? { state.withLockedValue { $0.stopping ? nil : $0.core } }

    /// The TLS new connections get: the protocol listener's current one.
    var currentTLS: TLSContext? { state.withLockedValue { $0.listener?.tls } }

    package func serving(_ core: ServerCore, listener: ProtocolConnections?, store: any RosterStore) {
        state.withLockedValue {
            $0.core = core; $0.listener = listener; $0.store = store
        }
    }
    /// The server stops: not ready any more, and the event streams close (their pages reconnect
    /// to whichever server answers next).
    package func stopping() {
        state.withLockedValue { $0.stopping = true }
        for channel in streams.withLockedValue({ Array($0.values) }) { channel.close(promise: nil) }
    }

    /// Ready: every tenant loaded and the store takes writes (a write lock taken and given back).
    package func readiness() async -> Readiness {
        let (context, store, stopping) = state.withLockedValue { ($0.core, $0.store, $0.stopping) }
        if stopping { return .notReady("stopping") }
        guard context != nil, let store else { return .notReady("starting: the tenants are not loaded yet") }
        do {
            try await store.checkWritable()
        } catch {
            return .notReady("the store does not take writes: \(error)")
        }
        return .ready
    }

    /// The gauges read at scrape time: each tenant's revision, and per schedule the people on
    /// duty and the seconds until the next handoff.
    func readings(_ scope: ReadingScope = .all) -> [MetricsRegistry.Reading] {
        guard let context else { return [] }
        let now = context.clock.now()
        var readings: [MetricsRegistry.Reading] = []
        for tenant in context.tenants.values.sorted(by: { $0.id < $1.id }) {
            switch scope {
            case .all: break
            case .tenant(let id): guard tenant.id == id else { continue }
            case .serverOnly: continue
            }
            let view = tenant.view
            readings.append(
                .init(
                    name: "roster_revision", help: "The tenant's current revision.",
                    labels: [("tenant", tenant.id)], value: Double(view.revision)))
            for schedule in view.state.sortedSchedules {
                guard let index = view.indexes[schedule.id] else { continue }
                let lookup = index.lookup(at: now)
                let labels = [("tenant", tenant.id), ("schedule", schedule.name)]
                readings.append(
                    .init(
                        name: "roster_on_duty_people", help: "People on duty on the schedule now.",
                        labels: labels, value: Double(lookup.current.count)))
                if let until = lookup.until {
                    readings.append(
                        .init(
                            name: "roster_next_handoff_seconds",
                            help: "Seconds until the schedule's on-duty set next changes.",
                            labels: labels, value: Double(until - now) / 1000))
                }
            }
            let quality = context.scheduleQuality.withLockedValue { $0[tenant.id]?.reports } ?? [:]
            for schedule in view.state.sortedSchedules {
                guard let measured = quality[schedule.id] else { continue }
                let labels = [("tenant", tenant.id), ("schedule", schedule.name)]
                readings.append(
                    .init(
                        name: "roster_schedule_coverage_percent",
                        help: "Covered share of the last 28 days (report quality; measured at most an hour ago).",
                        labels: labels, value: measured.coverage))
                readings.append(
                    .init(
                        name: "roster_schedule_gaps", help: "Stretches with nobody on duty in the last 28 days.",
                        labels: labels, value: Double(measured.gaps.count)))
                readings.append(
                    .init(
                        name: "roster_schedule_equity",
                        help: "100 - 100*stddev/mean of participants' hours, last 28 days.",
                        labels: labels, value: measured.equity))
                readings.append(
                    .init(
                        name: "roster_schedule_balance",
                        help: "Grafana OnCall's pairwise min/max balance, last 28 days.",
                        labels: labels, value: measured.balance))
            }
            readings.append(
                .init(
                    name: "roster_schedules_with_coverage_gap",
                    help: "Schedules with nobody on duty at some moment of the next 7 days.",
                    labels: [("tenant", tenant.id)],
                    value: Double(coverageGaps(tenant, revision: view.revision, now: now))))
        }
        return readings
    }
}

extension TenantRuntime {
    /// How many schedules have nobody on duty at some moment of the next 7 days. The default
    /// schedule counts only when it has one-off shifts (a tenant that plans with schedules
    /// leaves it empty).
    func schedulesWithCoverageGap(now: UnixMillis) -> Int {
        let view = self.view
        let week: UnixMillis = 7 * 86_400_000
        let defaultInUse = view.state.shifts.values.contains {
            $0.scheduleID.isEmpty || $0.scheduleID == ScheduleDefinition.defaultID
        }
        return view.indexes.filter { id, index in
            (id != ScheduleDefinition.defaultID || defaultInUse) && index.firstGap(from: now, to: now + week) != nil
        }.count
    }
}
