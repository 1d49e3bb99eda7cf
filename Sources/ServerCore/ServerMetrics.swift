import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol

/// What the server counts, through swift-metrics. The instruments are made from the factory it
/// is given (the HTTP side's Prometheus registry, one per server, so that several servers in one
/// process, as in tests, do not mix), emitted by `GET /metrics`.
/// Every instrument is made once here: making one looks it up by name and labels under a lock,
/// adding to one is an atomic add. Docs: docs/HTTP.md, "Metrics".
package final class ServerMetrics: Sendable {
    private let connections: [Bool: CoreMetrics.Meter]
    private let subscriptionsByTopic: [String: CoreMetrics.Meter]
    private let framesReceived: [UInt8: CoreMetrics.Counter]
    private let framesReceivedUnknown: CoreMetrics.Counter
    private let framesSent: [UInt8: CoreMetrics.Counter]
    private let errorsSent: [Int: CoreMetrics.Counter]
    private let pushes: [String: CoreMetrics.Counter]
    private let fanoutLatency: CoreMetrics.Timer
    private let coalesced: CoreMetrics.Counter
    private let slowDisconnects: CoreMetrics.Counter
    private let caughtUpRevisions: CoreMetrics.Counter
    private let adminChanges: [String: CoreMetrics.Counter]
    private let storeCommit: CoreMetrics.Timer
    private let authFailures: CoreMetrics.Counter
    private let httpRefusals: CoreMetrics.Counter
    private let httpStreamRefusals: CoreMetrics.Counter

    /// The types a client sends (docs/PROTOCOL.md §3); the others, and Ping and Pong, a server sends.
    static let sentByClients: Set<MessageType> = [
        .hello, .ping, .pong, .getOnDuty, .listEmployees, .search, .getEmployee, .listShifts, .getSnapshot,
        .listSchedules,
        .getFinalSchedule, .getNextOnDuty, .subscribe, .unsubscribe, .upsertEmployee, .deleteEmployee, .addShift,
        .deleteShift,
        .setMotd, .importData, .editSchedule, .getAudit, .getReport, .getCalendar, .notificationAdmin, .applyDefinition,
        .getEscalation, .identityAdmin, .personalTokens, .push,
    ]

    static let changeKinds = [
        "employee_upserted", "employee_deleted", "shift_added", "shift_deleted", "motd_set",
        "schedule_upserted", "schedule_deleted",
    ]

    /// Fan-out: 100 µs to 2.5 s; store commits: 250 µs to 1 s (a factory with histograms uses these).
    package static let durationBuckets: [String: [Duration]] = [
        "roster_push_fanout_seconds": [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500),
            .seconds(1), .seconds(2.5),
        ],
        "roster_store_commit_seconds": [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
            .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ],
    ]

    package init(factory: any MetricsFactory) {
        connections = [
            false: CoreMetrics.Meter(
                label: "roster_connections_open", dimensions: [("tls", "false")], factory: factory),
            true: CoreMetrics.Meter(label: "roster_connections_open", dimensions: [("tls", "true")], factory: factory),
        ]
        subscriptionsByTopic = Dictionary(
            uniqueKeysWithValues: ["on_duty", "roster"].map {
                (
                    $0,
                    CoreMetrics.Meter(label: "roster_subscriptions_open", dimensions: [("topic", $0)], factory: factory)
                )
            })
        framesReceived = Dictionary(
            uniqueKeysWithValues: MessageType.allCases.filter(Self.sentByClients.contains).map {
                (
                    $0.rawValue,
                    CoreMetrics.Counter(
                        label: "roster_frames_received_total", dimensions: [("type", $0.name)], factory: factory)
                )
            })
        framesReceivedUnknown = CoreMetrics.Counter(
            label: "roster_frames_received_total", dimensions: [("type", "unknown")], factory: factory)
        framesSent = Dictionary(
            uniqueKeysWithValues: MessageType.allCases.filter {
                !Self.sentByClients.contains($0) || $0 == .ping || $0 == .pong
            }.map {
                (
                    $0.rawValue,
                    CoreMetrics.Counter(
                        label: "roster_frames_sent_total", dimensions: [("type", $0.name)], factory: factory)
                )
            })
        errorsSent = Dictionary(
            uniqueKeysWithValues: Roster_V1_ErrorCode.allCases.map {
                (
                    $0.rawValue,
                    CoreMetrics.Counter(
                        label: "roster_errors_sent_total", dimensions: [("code", Self.protocolName($0))],
                        factory: factory)
                )
            })
        pushes = Dictionary(
            uniqueKeysWithValues: ["on_duty_changed", "roster_changed", "notice", "progress", "escalation_changed"].map
            {
                (
                    $0,
                    CoreMetrics.Counter(label: "roster_pushes_sent_total", dimensions: [("type", $0)], factory: factory)
                )
            })
        fanoutLatency = CoreMetrics.Timer(label: "roster_push_fanout_seconds", factory: factory)
        coalesced = CoreMetrics.Counter(label: "roster_slow_consumer_coalesced_total", factory: factory)
        slowDisconnects = CoreMetrics.Counter(label: "roster_slow_consumer_disconnects_total", factory: factory)
        caughtUpRevisions = CoreMetrics.Counter(label: "roster_node_caught_up_revisions_total", factory: factory)
        adminChanges = Dictionary(
            uniqueKeysWithValues: Self.changeKinds.map {
                (
                    $0,
                    CoreMetrics.Counter(
                        label: "roster_admin_changes_total", dimensions: [("kind", $0)], factory: factory)
                )
            })
        storeCommit = CoreMetrics.Timer(label: "roster_store_commit_seconds", factory: factory)
        authFailures = CoreMetrics.Counter(label: "roster_auth_failures_total", factory: factory)
        httpRefusals = CoreMetrics.Counter(label: "roster_http_connections_refused_total", factory: factory)
        httpStreamRefusals = CoreMetrics.Counter(label: "roster_http_streams_refused_total", factory: factory)
    }

    // MARK: Counting (hot paths: one dictionary lookup and an atomic add)

    func connectionOpened(tls: Bool) { connections[tls]?.increment() }
    func connectionClosed(tls: Bool) { connections[tls]?.decrement() }

    func subscribed(onDuty: Bool, roster: Bool, by delta: Int) {
        if onDuty { subscriptionsByTopic["on_duty"]?.increment(by: Double(delta)) }
        if roster { subscriptionsByTopic["roster"]?.increment(by: Double(delta)) }
    }

    func received(rawType: UInt8) { (framesReceived[rawType] ?? framesReceivedUnknown).increment() }

    func sent(_ frame: Frame) {
        framesSent[frame.rawType]?.increment()
        if frame.type == .error, let body = try? Roster_V1_Error(serializedBytes: Array(frame.body.readableBytesView)) {
            errorSent(body.code)
        }
    }

    func errorSent(_ code: Roster_V1_ErrorCode) { errorsSent[code.rawValue]?.increment() }

    /// One fan-out on one loop handed `count` frames of `kind` to connections.
    func pushed(_ kind: ConnectionStateMachine.PushKind, count: Int) {
        guard count > 0 else { return }
        let (type, frameType): (String, MessageType) =
            switch kind {
            case .onDuty: ("on_duty_changed", .onDutyChanged)
            case .roster: ("roster_changed", .rosterChanged)
            case .notice: ("notice", .notice)
            case .escalation: ("escalation_changed", .escalationChanged)
            case .progress: ("progress", .progress)
            }
        pushes[type]?.increment(by: count)
        framesSent[frameType.rawValue]?.increment(by: count)
    }

    func fanoutFinished(after duration: Duration) { fanoutLatency.recordNanoseconds(duration.nanoseconds) }
    func coalescedOnDuty() { coalesced.increment() }
    func slowConsumerDisconnected() { slowDisconnects.increment() }
    /// A revision another node committed, applied here from the shared store.
    func caughtUp() { caughtUpRevisions.increment() }
    package func authenticationFailed() { authFailures.increment() }
    /// An HTTP connection past `httpMaxConnections`.
    package func httpRefused() { httpRefusals.increment() }
    /// An event stream past `StreamAdmission`'s bounds (429).
    package func httpStreamRefused() { httpStreamRefusals.increment() }

    func committed(_ changes: [RosterChange], after duration: Duration) {
        storeCommit.recordNanoseconds(duration.nanoseconds)
        for change in changes { adminChanges[Self.kind(of: change)]?.increment() }
    }

    /// "RESYNC_REQUIRED" for .resyncRequired: the code as docs/PROTOCOL.md names it.
    static func protocolName(_ code: Roster_V1_ErrorCode) -> String {
        var name = ""
        for character in "\(code)" {
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
        return name
    }

    static func kind(of change: RosterChange) -> String {
        switch change {
        case .employeeUpserted: "employee_upserted"
        case .employeeDeleted: "employee_deleted"
        case .shiftAdded: "shift_added"
        case .shiftDeleted: "shift_deleted"
        case .motdSet: "motd_set"
        case .scheduleUpserted: "schedule_upserted"
        case .scheduleDeleted: "schedule_deleted"
        case .timeOffSet: "time_off_set"
        case .timeOffDeleted: "time_off_deleted"
        case .holidaysSet: "holidays_set"
        case .holidaysDeleted: "holidays_deleted"
        case .escalationPolicySet: "escalation_policy_set"
        case .escalationPolicyDeleted: "escalation_policy_deleted"
        case .serviceSet: "service_set"
        case .serviceDeleted: "service_deleted"
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}

/// Counts down the loops of one fan-out; the last to finish records trigger-to-last-write.
final class FanoutClock: Sendable {
    private let started: ContinuousClock.Instant
    private let remaining: NIOLockedValueBox<Int>
    private let metrics: ServerMetrics

    init(loops: Int, metrics: ServerMetrics) {
        started = .now
        remaining = NIOLockedValueBox(loops)
        self.metrics = metrics
    }

    func loopFinished() {
        let last = remaining.withLockedValue { count -> Bool in
            count -= 1
            return count == 0
        }
        if last { metrics.fanoutFinished(after: .now - started) }
    }
}
