import Foundation
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterTLS

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
    private nonisolated var credential: String { Self.credential(configuration) }

    private static func credential(_ configuration: RosterClientConfiguration) -> String {
        configuration.credentialName
            ?? RosterCacheDirectory.credential(token: configuration.token, requestedTenant: configuration.tenant)
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
        cacheFile = cacheDirectory?.file(server: configuration.serverName, credential: Self.credential(configuration))
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
            var connected = false
            do {
                let connection = try await connect()
                self.connection = connection
                connected = true
                let connectedAt = ContinuousClock.now
                try await follow(connection)
                stable = ContinuousClock.now - connectedAt >= configuration.reconnect.stableAfter
            } catch let error as RosterClientError
                where error.isPermanent
                && !(connected && error.code == .unauthenticated && configuration.renewToken != nil)
            {
                // (A renewable token that expired on a live connection is retried below: the
                // next connection asks for a new one, and only a refused handshake ends here.)
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
            do { tlsContext = try TLSContext.client(tls) } catch let error as TLSError {
                throw RosterClientError.tls(error)
            }
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
        let token = await configuration.renewToken?() ?? configuration.token
        var lastError: (any Error)?
        for offset in 0..<servers.count {
            let index = (preferredServer + offset) % servers.count
            do {
                let connection = try await RosterConnection.connect(
                    host: servers[index].host, port: servers[index].port, tls: tlsContext,
                    timeout: configuration.timeout,
                    hello: .with {
                        $0.clientName = configuration.clientName
                        $0.tenant = configuration.tenant
                        $0.token = token
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
            } else if let file = cacheFile,
                let header = try? await NIOThreadPool.singleton.runIfActive({ file.header() })
            {
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
        let kept = sync.fetched(
            CachedRoster(
                state: RosterState(snapshot), epoch: snapshot.epoch, revision: snapshot.revision,
                syncedAt: Date()))
        saveCache()
        await cacheWriter.flush()
        return kept
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
