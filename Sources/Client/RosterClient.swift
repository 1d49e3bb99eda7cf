import Foundation
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterTLS

/// Where and how a `RosterClient` connects.
public struct RosterClientConfiguration: Sendable {
    /// The servers to use, in order of preference: nodes of one cluster (docs/SCALING.md).
    /// A lost connection is resumed on the next one; revisions are the shared store's, so the
    /// resume is gap-free on any node. Never empty.
    public var servers: [HostPort] {
        didSet { if servers.isEmpty { servers = oldValue } }
    }
    /// The first server's host and port.
    public var host: String {
        get { servers[0].host }
        set { servers[0].host = newValue }
    }
    public var port: Int {
        get { servers[0].port }
        set { servers[0].port = newValue }
    }
    /// Empty: the server's default tenant.
    public var tenant: String = ""
    public var token: String = ""
    /// nil connects in plaintext (loopback servers only allow that).
    public var tls: TLSClientConfiguration?
    public var clientName: String = "RosterClient"
    /// Where the cache file lives; nil keeps no cache.
    public var cacheDirectory: URL? = RosterCacheFile.defaultDirectory
    public var topics: [Roster_V1_Topic] = [.onDuty, .roster]
    /// Follow the on-duty sets of every schedule (`onDutyBySchedule`), not only the default one.
    public var allSchedules = false
    /// How long connecting, the handshake and each request may take.
    public var timeout: Duration = .seconds(10)
    public var reconnect = ReconnectPolicy()

    /// One immediate retry, then exponential backoff with full jitter up to `maxDelay`; the
    /// attempt count resets once a connection has stayed up for `stableAfter`.
    public struct ReconnectPolicy: Sendable {
        public var baseDelay: Duration = .milliseconds(500)
        public var maxDelay: Duration = .seconds(30)
        public var stableAfter: Duration = .seconds(30)

        public init() {}

        /// The delay before reconnect attempt `attempt` (1-based): a uniformly random delay in
        /// [0, min(maxDelay, baseDelay · 2^(attempt-2))], the first two within `baseDelay`. The
        /// first is random too: when a node dies, its clients reach the others spread over
        /// `baseDelay`, not all within a few milliseconds.
        public func delay(forAttempt attempt: Int) -> Duration {
            let exponent = max(0, min(attempt - 2, 30))
            let ceiling = min(maxDelay, baseDelay * (1 << exponent))
            let millis = ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000
            return .milliseconds(Int64.random(in: 0...max(0, millis)))
        }
    }

    public init(host: String, port: Int) {
        servers = [HostPort(host: host, port: port)]
    }

    /// Several nodes of one cluster, tried in this order; `servers` must not be empty.
    public init(servers: [HostPort]) {
        precondition(!servers.isEmpty, "a client needs at least one server")
        self.servers = servers
    }

    /// "HOST:PORT" (or the comma-separated list of a cluster's nodes), as the cache names the
    /// server: a cluster's nodes share one cache, as they share one history.
    public var serverName: String { servers.map(\.description).joined(separator: ",") }
}

/// The connection as an app would show it.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    case connecting
    /// Subscribed and synced: the cache follows the server.
    case live
    case reconnecting(attempt: Int, nextRetry: Date)
    /// Not running (before `start`, after `stop`, or refused for good).
    case offline

    public var description: String {
        switch self {
        case .connecting: return "connecting"
        case .live: return "live"
        case .reconnecting(let attempt, let next):
            return "reconnecting (attempt \(attempt), next in \(max(0, Int(next.timeIntervalSinceNow.rounded(.up))))s)"
        case .offline: return "offline"
        }
    }
}

/// A person on duty with the shift that puts them there.
public struct OnDutyEntry: Sendable, Hashable {
    public var employee: Employee
    public var shift: Shift
}

/// Who is on duty, until when, and who comes next.
public struct OnDutyStatus: Sendable, Hashable {
    public var at: UnixMillis
    public var current: [OnDutyEntry]
    public var until: UnixMillis?
    public var next: [OnDutyEntry]
    /// For pushed transitions: who was on duty before, and why it changed (nil for answers
    /// to queries and the cache's own).
    public var previous: [OnDutyEntry] = []
    public var cause: OnDutyCause?
    public var revision: UInt64 = 0
    /// The schedule this is the on-duty set of.
    public var scheduleID: String = ScheduleDefinition.defaultID
    public var scheduleName: String = ""

    /// Who comes on duty at `until`: `next` without those already on duty (who stay on), so a
    /// "Next:" line never names someone who is on duty now.
    public var incoming: [OnDutyEntry] {
        let onDuty = Set(current.map(\.employee.id))
        return next.filter { !onDuty.contains($0.employee.id) }
    }
}

/// What a running client reports, in order.
public enum RosterUpdate: Sendable {
    case connectionState(ConnectionState)
    /// The cache is whole at this revision (after a snapshot or a replay).
    case synced(CachedRoster)
    /// A revision was applied to the cache.
    case rosterChanged(revision: UInt64, changes: [RosterChange])
    case onDutyChanged(OnDutyStatus)
    /// The client is discarding its cache and taking a fresh snapshot.
    case resyncing(reason: String)
    case goingAway(reason: String, retryAfter: Duration)
    /// The cache file could not be used (it is ignored, never trusted).
    case cacheProblem(CacheProblem)
    /// The server refused the session for good (e.g. bad credentials); the client stops.
    case refused(RosterClientError)
}

/// A Roster client for apps and daemons: connects, subscribes, keeps a cache on disk that
/// answers offline, reconnects by itself and resumes from the last applied revision.
///
/// ```swift
/// let client = RosterClient(configuration: .init(host: "roster.example", port: 7400))
/// await client.start()
/// for await update in client.updates { ... }
/// ```
public actor RosterClient {
    public nonisolated let configuration: RosterClientConfiguration
    /// Updates in order. One consumer.
    public nonisolated let updates: AsyncStream<RosterUpdate>
    private let continuation: AsyncStream<RosterUpdate>.Continuation
    private let cacheDirectory: RosterCacheDirectory?
    /// The file of the tenant the server authenticated; before the first Welcome, the one the
    /// index remembers for this credential.
    private var cacheFile: RosterCacheFile?
    private nonisolated var credential: String {
        RosterCacheDirectory.credential(token: configuration.token, requestedTenant: configuration.tenant)
    }
    private let cacheWriter = CacheWriter()

    public private(set) var state: ConnectionState = .offline
    /// The rules that keep the copy in step with the server; this actor only performs them.
    private var sync: SubscriptionSync
    /// The cached roster: read from the cache file when first needed, kept current while live.
    public var roster: CachedRoster? {
        get async {
            await loadCacheIfNeeded()
            return sync.roster
        }
    }
    /// The latest on-duty status pushed by the server.
    public var onDuty: OnDutyStatus? { sync.onDuty }
    /// The latest on-duty status pushed, per schedule id (every schedule with `allSchedules`).
    public var onDutyBySchedule: [String: OnDutyStatus] { sync.onDutyBySchedule }
    /// The read of the cache file into `sync`, started the first time the copy is needed (nil:
    /// not yet), so a one-shot query whose cache is current never decodes it; whoever needs the
    /// copy while it runs waits for it.
    private var cacheRead: Task<Void, Never>?
    /// Revisions applied from live or replayed events, in order (for diagnostics and tests).
    public private(set) var appliedRevisions: [UInt64] = []

    private var runner: Task<Void, Never>?
    private var connection: RosterConnection?
    /// The connection requests use while the client is not following the server.
    private var requestConnection: RosterConnection?
    private var retryAfterGoingAway: Duration?
    /// Why the cache file could not be used when it was read (also sent as an update).
    public private(set) var cacheLoadProblem: CacheProblem?

    public init(configuration: RosterClientConfiguration) {
        self.configuration = configuration
        (updates, continuation) = AsyncStream<RosterUpdate>.makeStream()
        cacheDirectory = configuration.cacheDirectory.map(RosterCacheDirectory.init)
        cacheFile = cacheDirectory?.file(
            server: configuration.serverName,
            credential: RosterCacheDirectory.credential(token: configuration.token, requestedTenant: configuration.tenant))
        sync = SubscriptionSync(roster: nil, topics: configuration.topics, allSchedules: configuration.allSchedules)
    }

    /// Reads the cache file into the copy the first time the copy is needed.
    private func loadCacheIfNeeded() async {
        if cacheRead == nil { cacheRead = Task { await self.readCacheFile() } }
        await cacheRead?.value
    }

    /// Reads the cache file on a thread of NIOThreadPool (the read blocks); a bad file is
    /// reported as an update and ignored; a file no longer this client's is not applied.
    private func readCacheFile() async {
        guard let file = cacheFile else { return }
        let read = try? await NIOThreadPool.singleton.runIfActive { () -> Result<CachedRoster?, CacheProblem> in
            do throws(CacheProblem) { return .success(try file.load()) } catch { return .failure(error) }
        }
        switch read {
        case .success(let cached)?:
            if let cached, file.url == cacheFile?.url { _ = sync.fetched(cached) }
        case .failure(let problem)?:
            cacheLoadProblem = problem
            continuation.yield(.cacheProblem(problem))
        case nil:
            break
        }
    }

    // MARK: Running

    /// Starts connecting and following the server in the background.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Stops following the server and closes the connection. The cache stays.
    public func stop() async {
        runner?.cancel()
        await connection?.close()
        await requestConnection?.close()
        requestConnection = nil
        await runner?.value
        runner = nil
        await cacheWriter.flush()
        setState(.offline)
        continuation.finish()
    }

    private func setState(_ new: ConnectionState) {
        guard new != state else { return }
        state = new
        continuation.yield(.connectionState(new))
    }

    private func run() async {
        await loadCacheIfNeeded()
        var attempt = 0
        while !Task.isCancelled {
            setState(attempt == 0 ? .connecting : state)
            var stable = false
            do {
                let connection = try await connect()
                self.connection = connection
                let connectedAt = ContinuousClock.now
                try await follow(connection)
                stable = ContinuousClock.now - connectedAt >= configuration.reconnect.stableAfter
            } catch let error as RosterClientError where error.isPermanent {
                continuation.yield(.refused(error))
                setState(.offline)
                return
            } catch {
                // Connection failed or dropped: retry below.
            }
            connection = nil
            sync.disconnected()
            if Task.isCancelled { return }
            preferNextServer()
            attempt = stable ? 1 : attempt + 1
            var delay = configuration.reconnect.delay(forAttempt: attempt)
            if let retryAfter = retryAfterGoingAway {
                delay = max(delay, retryAfter)
                retryAfterGoingAway = nil
            }
            setState(.reconnecting(attempt: attempt, nextRetry: Date().addingTimeInterval(delay.seconds)))
            try? await Task.sleep(for: delay)
        }
    }

    private var tlsContext: TLSContext?

    func connect() async throws -> RosterConnection {
        if let tls = configuration.tls, tlsContext == nil {
            do { tlsContext = try TLSContext.client(tls) } catch let error as TLSError { throw RosterClientError.tls(error) }
        }
        let connection = try await connectToAServer()
        await authenticated(as: connection.welcome.tenant.id)
        return connection
    }

    /// The server tried first next time: the one that last answered, or after a lost
    /// connection the one after it.
    private var preferredServer = 0

    /// Tries each server once, from the preferred one on; the first that completes the
    /// handshake is kept. An authentication or protocol refusal is final (every node would
    /// say the same); a connection that fails moves on to the next node.
    private func connectToAServer() async throws -> RosterConnection {
        let servers = configuration.servers
        var lastError: (any Error)?
        for offset in 0..<servers.count {
            let index = (preferredServer + offset) % servers.count
            do {
                let connection = try await RosterConnection.connect(host: servers[index].host, port: servers[index].port, tls: tlsContext,
                                                                    timeout: configuration.timeout, hello: .with {
                    $0.clientName = configuration.clientName
                    $0.tenant = configuration.tenant
                    $0.token = configuration.token
                })
                preferredServer = index
                return connection
            } catch let error as RosterClientError where error.isPermanent {
                throw error
            } catch {
                lastError = error
            }
        }
        throw lastError ?? RosterClientError.connectionFailed("no server to connect to")
    }

    /// After a lost connection, the next attempt starts with the next node.
    private func preferNextServer() {
        preferredServer = (preferredServer + 1) % configuration.servers.count
    }

    /// The tenant the server authenticated is the one whose cache this client keeps. If the
    /// cache loaded at start belonged to another tenant (the index was stale), it is dropped
    /// for this tenant's own.
    private func authenticated(as tenant: String) async {
        guard let cacheDirectory else { return }
        let server = configuration.serverName, credential = self.credential
        let file = cacheDirectory.file(server: server, tenant: tenant)
        if file.url != cacheFile?.url {
            await cacheWriter.flush()
            cacheFile = file
            // Not read yet: it will be, from the right file, when needed.
            if let cacheRead {
                await cacheRead.value
                sync.replaceCopy(with: try? await NIOThreadPool.singleton.runIfActive { try file.load() })
            }
        }
        try? await NIOThreadPool.singleton.runIfActive {
            try cacheDirectory.remember(server: server, credential: credential, tenant: tenant)
        }
    }

    /// Subscribes (resuming when the cache allows) and applies what arrives until the
    /// connection closes, doing what `SubscriptionSync` says.
    private func follow(_ connection: RosterConnection) async throws {
        try await perform(sync.connected(serverID: connection.welcome.serverID), on: connection)
        for await inbound in connection.inbound {
            try await perform(sync.receive(inbound), on: connection)
        }
    }

    private func perform(_ actions: [SubscriptionSync.Action], on connection: RosterConnection) async throws {
        for action in actions {
            switch action {
            case .subscribe(let request):
                sync.subscribing(requestID: connection.subscribe(request))
            case .unsubscribe(let id):
                connection.post(.unsubscribe(.with { $0.subscriptionID = id }))
            case .saveCache:
                saveCache()
            case .emit(let update):
                if case .rosterChanged(let revision, _) = update { appliedRevisions.append(revision) }
                continuation.yield(update)
            case .live:
                setState(.live)
            case .delayReconnect(let delay):
                retryAfterGoingAway = delay
            case .fail(let error):
                await connection.close()
                throw error
            }
        }
    }

    private func saveCache() {
        guard let cacheFile, let roster = sync.roster else { return }
        cacheWriter.save(roster, to: cacheFile) { [continuation] error in
            continuation.yield(.cacheProblem(.unreadable("saving failed: \(error)")))
        }
    }

    /// Waits until every cache write asked for so far is on disk.
    public func flushCache() async {
        await cacheWriter.flush()
    }

    // MARK: Requests

    /// Sends a request over the live connection, or over a connection of its own when not
    /// running (one-shot use, as the CLI does).
    public func request(_ message: RosterMessage) async throws -> RosterMessage {
        if let connection, connection.isActive {
            return try await connection.request(message, timeout: configuration.timeout)
        }
        // Not following: one connection serves every request until `stop()` (a CLI command's
        // query and its cache refresh share it).
        if requestConnection?.isActive != true {
            requestConnection = try await connect()
        }
        return try await requestConnection!.request(message, timeout: configuration.timeout)
    }

    /// `refreshCache()` for one-shot use, after a request: when the cache already holds the
    /// revision the server had when this client's connection began (its Welcome), nothing is
    /// fetched, and a cache not read yet is not read either (its header says its revision), so
    /// a read of a large tenant neither pulls nor decodes the whole state every time.
    public func refreshCacheIfBehind() async throws {
        if let welcome = (connection ?? requestConnection)?.welcome {
            var held: (epoch: UInt64, revision: UInt64)?
            if let cacheRead {
                await cacheRead.value
                held = sync.roster.map { ($0.epoch, $0.revision) }
            } else if let file = cacheFile, let header = try? await NIOThreadPool.singleton.runIfActive({ file.header() }) {
                held = (header.epoch, header.revision)
            }
            if let held, held.epoch == welcome.epoch, held.revision >= welcome.revision {
                // Still current: only its age changes, in the file's header (8 bytes, no rewrite).
                let now = Date()
                sync.confirmedCurrent(at: now)
                if let file = cacheFile {
                    await cacheWriter.flush()
                    try? await NIOThreadPool.singleton.runIfActive { try file.touch(syncedAt: now) }
                }
                return
            }
        }
        try await refreshCache()
    }

    /// Fetches the whole state and stores it in the cache, unless the cache already holds a
    /// newer revision of the same epoch (a late answer never overwrites newer state).
    @discardableResult
    public func refreshCache() async throws -> CachedRoster {
        await loadCacheIfNeeded()
        guard case .snapshot(let snapshot) = try await request(.getSnapshot(.init())) else {
            throw RosterClientError.protocolViolation("expected Snapshot")
        }
        let kept = sync.fetched(CachedRoster(state: RosterState(snapshot), epoch: snapshot.epoch, revision: snapshot.revision,
                                             syncedAt: Date()))
        saveCache()
        await cacheWriter.flush()
        return kept
    }

    /// Who is on duty on a schedule (id or name; the default schedule when nil).
    public func onDuty(at instant: UnixMillis? = nil, schedule: String? = nil) async throws -> OnDutyStatus {
        let query = RosterMessage.getOnDuty(.with {
            if let instant { $0.atMs = instant }
            if let schedule { $0.schedule = schedule }
        })
        guard case .onDuty(let answer) = try await request(query) else {
            throw RosterClientError.protocolViolation("expected OnDuty")
        }
        return OnDutyStatus(answer)
    }

    public func employees(groupedBy grouping: EmployeeGrouping? = nil) async throws -> (employees: [Employee], groups: [EmployeeGroup]) {
        let message = RosterMessage.listEmployees(.with {
            $0.groupBy = switch grouping { case .position: .byPosition; case .team: .byTeam; case nil: .none }
        })
        guard case .employees(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Employees")
        }
        return (answer.employees.map(Employee.init),
                answer.groups.map { EmployeeGroup(name: $0.name, employees: $0.employees.map(Employee.init)) })
    }

    public func search(_ text: String, limit: Int = 0) async throws -> [Employee] {
        guard case .employees(let answer) = try await request(.search(.with { $0.text = text; $0.limit = UInt32(limit) })) else {
            throw RosterClientError.protocolViolation("expected Employees")
        }
        return answer.employees.map(Employee.init)
    }

    public func employee(_ idOrName: String) async throws -> (employee: Employee, shifts: [Shift]) {
        guard case .employee(let answer) = try await request(.getEmployee(.with { $0.idOrName = idOrName })) else {
            throw RosterClientError.protocolViolation("expected Employee")
        }
        return (Employee(answer.employee), answer.shifts.map(Shift.init))
    }

    public func shifts(from: UnixMillis? = nil, to: UnixMillis? = nil, employee: String? = nil) async throws -> [Shift] {
        try await shiftListing(from: from, to: to, employee: employee).shifts
    }

    /// The shifts overlapping [from, to), and the people they name by id (an older server
    /// names nobody: look them up in the cache then).
    public func shiftListing(from: UnixMillis? = nil, to: UnixMillis? = nil, employee: String? = nil) async throws
        -> (shifts: [Shift], people: [String: Employee]) {
        let message = RosterMessage.listShifts(.with {
            if let from { $0.fromMs = from }
            if let to { $0.toMs = to }
            if let employee { $0.employeeID = employee }
        })
        guard case .shifts(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Shifts")
        }
        let people = answer.employees.map(Employee.init)
        return (answer.shifts.map(Shift.init), Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    // MARK: Administration

    /// Sends an admin request; returns the committed revision and the ids it touched.
    /// Imports a file (docs/PROTOCOL.md, "Import formats"); with `dryRun`, only says what it would do.
    /// `reason` is kept in the audit log.
    public func importFile(_ data: Data, format: ImportFormat, options: ImportOptions, dryRun: Bool,
                           reason: String = "") async throws -> ImportResult {
        let message = RosterMessage.importData(.with {
            $0.format = .init(format)
            $0.data = data
            $0.replace = options.replace
            $0.updateExisting = options.updateExisting
            $0.dryRun = dryRun
            $0.reason = reason
        })
        let result: Roster_V1_MutationResult
        if dryRun {
            guard case .mutationResult(let answer) = try await request(message) else {
                throw RosterClientError.protocolViolation("expected MutationResult")
            }
            result = answer
        } else {
            result = try await change(message)
        }
        return ImportResult(revision: result.revision, ids: result.ids, dryRun: result.dryRun,
                            rows: result.importSummary.rows.compactMap { row in
                                ImportAction(row.action).map {
                                    ImportRow(action: $0, kind: row.kind, id: row.id, description: row.description_p,
                                              location: row.location)
                                }
                            })
    }

    /// Makes a change (MutationResult). Once it is sent, a lost connection or a missing answer
    /// is `outcomeUnknown`, not a connection failure: the change may have been made.
    public func administer(_ message: RosterMessage) async throws -> (revision: UInt64, ids: [String]) {
        let result = try await change(message)
        return (result.revision, result.ids)
    }

    func change(_ message: RosterMessage) async throws -> Roster_V1_MutationResult {
        guard case .mutationResult(let result) = try await sendChange(message) else {
            throw RosterClientError.protocolViolation("expected MutationResult")
        }
        return result
    }

    /// Sends a change and returns its answer: once sent, a lost connection or a missing answer
    /// is `outcomeUnknown` (the change may have been made), never retried.
    func sendChange(_ message: RosterMessage) async throws -> RosterMessage {
        let connection: RosterConnection
        if let live = self.connection, live.isActive {
            connection = live
        } else {
            if requestConnection?.isActive != true { requestConnection = try await connect() }
            connection = requestConnection!
        }
        let answer: RosterMessage
        do {
            answer = try await connection.request(message, timeout: configuration.timeout)
        } catch RosterClientError.connectionClosed {
            throw RosterClientError.outcomeUnknown("the connection closed before its answer")
        } catch RosterClientError.timedOut {
            throw RosterClientError.outcomeUnknown("no answer came within \(configuration.timeout)")
        }
        return answer
    }
}

extension OnDutyStatus {
    init(_ wire: Roster_V1_OnDutyChanged) {
        self.init(at: wire.atMs, current: wire.current.map(OnDutyEntry.init), until: wire.hasUntilMs ? wire.untilMs : nil,
                  next: wire.next.map(OnDutyEntry.init), previous: wire.previous.map(OnDutyEntry.init),
                  cause: OnDutyCause(wire.cause), revision: wire.revision,
                  scheduleID: wire.scheduleID.isEmpty ? ScheduleDefinition.defaultID : wire.scheduleID,
                  scheduleName: wire.scheduleName)
    }

    init(_ wire: Roster_V1_OnDutyResponse) {
        self.init(at: wire.atMs, current: wire.current.map(OnDutyEntry.init), until: wire.hasUntilMs ? wire.untilMs : nil,
                  next: wire.next.map(OnDutyEntry.init), revision: wire.revision,
                  scheduleID: wire.scheduleID.isEmpty ? ScheduleDefinition.defaultID : wire.scheduleID)
    }

    /// From the cache: computed by the shared engine over the cached plan.
    public init(_ lookup: OnDutyLookup, in state: RosterState, revision: UInt64) {
        let entry = { (shift: Shift) in
            OnDutyEntry(employee: state.employees[shift.employeeID] ?? Employee(id: shift.employeeID, firstName: "", lastName: shift.employeeID),
                        shift: shift)
        }
        self.init(at: lookup.at, current: lookup.current.map(entry), until: lookup.until, next: lookup.next.map(entry),
                  revision: revision)
    }
}

extension OnDutyEntry {
    init(_ wire: Roster_V1_OnDutyPerson) {
        self.init(employee: Employee(wire.employee), shift: Shift(wire.shift))
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// What an import did, or with a dry run would do.
public struct ImportResult: Sendable {
    public var revision: UInt64
    public var ids: [String]
    public var dryRun: Bool
    public var rows: [ImportRow]

    public func count(_ action: ImportAction) -> Int { rows.filter { $0.action == action }.count }

    /// "2 added, 1 updated, 3 unchanged, 0 removed".
    public var counts: String {
        ImportAction.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
    }
}
