import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterTLS
import ServiceLifecycle
import Logging
#if canImport(Glibc)
    import Glibc
#endif

/// Base instant for tests: 2026-01-01T00:00:00Z.
public let t0: UnixMillis = 1_767_225_600_000
public let minute: Int64 = 60_000

/// A real server on 127.0.0.1, port 0, in a fresh data directory, on a manual clock.
public final class ServerHarness: Sendable {
    public let clock: ManualClock
    public let server: RosterServer
    public let dataDirectory: String
    public let port: Int
    /// The server runs in a service group, as roster-server runs it; `stop` shuts it down gracefully.
    private let services: ServiceGroup
    private let running: Task<Void, any Error>
    /// Set when the harness made the data directory, so that `stop` removes it.
    private let ownsDataDirectory: Bool
    /// The admin token of the default tenant the server wrote at first start.
    public var adminToken: String {
        (try? String(contentsOfFile: dataDirectory + "/admin.token", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
    public var adminTokenFile: String { dataDirectory + "/admin.token" }

    public static func start(
        now: UnixMillis = t0, dataDirectory: String? = nil, port: Int = 0,
        store: (any RosterStore)? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> ServerHarness {
        let directory = dataDirectory ?? TestScratch.directory("roster-test").path
        var configuration = ServerConfiguration(dataDirectory: directory)
        configuration.listen.host = "127.0.0.1"
        configuration.listen.port = port
        configuration.limits.progressInterval = .seconds(3_600)
        configuration.limits.shutdownGrace = .milliseconds(50)
        // 30 s, not 5: with both cores busy this process's clients can wait seconds for a turn
        // on the cooperative pool between connecting and sending Hello. Tests of the deadline set it.
        configuration.limits.helloTimeout = .seconds(30)
        // The tests are written around a tenant called demo (stores made by earlier builds).
        configuration.defaultTenant = "demo"
        configure(&configuration)
        let clock = ManualClock(now: now)
        var logger = Logger(label: "roster.test.services")
        logger.logLevel = .error
        // A restart on a fixed port can briefly find it busy on a loaded machine: retry for a
        // couple of seconds, which a leaked listener would still fail.
        var attempts = 0
        while true {
            let server = RosterServer(configuration: configuration, clock: clock, store: store)
            let services = ServiceGroup(configuration: .init(services: [server], logger: logger))
            let running = Task { try await services.run() }
            do {
                let addresses = try await server.listening
                return ServerHarness(
                    clock: clock, server: server, services: services, running: running, dataDirectory: directory,
                    port: addresses.port, ownsDataDirectory: dataDirectory == nil)
            } catch ServerStartError.addressInUse where port != 0 && attempts < 20 {
                _ = try? await running.value
                attempts += 1
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                _ = try? await running.value
                throw error
            }
        }
    }

    private init(
        clock: ManualClock, server: RosterServer, services: ServiceGroup, running: Task<Void, any Error>,
        dataDirectory: String, port: Int, ownsDataDirectory: Bool
    ) {
        self.clock = clock
        self.server = server
        self.services = services
        self.running = running
        self.dataDirectory = dataDirectory
        self.port = port
        self.ownsDataDirectory = ownsDataDirectory
    }

    /// Starts on a port below the kernel's ephemeral range (32768 and up), so that a test which
    /// restarts its server on the same port does not find it taken by another test's port-0
    /// server or outgoing connection meanwhile.
    public static func startOnStablePort(
        dataDirectory: String? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> ServerHarness {
        var lastError: (any Error)?
        for _ in 0..<50 {
            do {
                return try await start(
                    dataDirectory: dataDirectory, port: Int.random(in: 20_000..<30_000), configure: configure)
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    /// Connects with the default tenant's admin token unless another token (or "" for an
    /// anonymous reader) is given.
    public func connect(
        tenant: String = "", token: String? = nil, tls: TLSContext? = nil,
        host: String = "127.0.0.1"
    ) async throws -> RosterConnection {
        let token = token ?? adminToken
        // A minute for the Hello's answer, not the library's 10 s: a wait in a test ends a hang,
        // and beside the whole suite on two busy cores one took longer (ScheduleServerTests).
        return try await RosterConnection.connect(
            host: host, port: port, tls: tls, timeout: .seconds(60),
            hello: .with {
                $0.tenant = tenant
                $0.token = token
            })
    }

    /// Runs `body` (a fixture that builds on this server); if it throws, stops the server first,
    /// so a fixture that fails half-way leaks nothing.
    public func stoppingOnError<T>(_ body: (ServerHarness) async throws -> T) async throws -> T {
        do {
            return try await body(self)
        } catch {
            await stop()
            throw error
        }
    }

    /// Shuts the server down and removes the data directory if the harness made it.
    public func stop() async {
        await services.triggerGracefulShutdown()
        _ = try? await running.value
        if ownsDataDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }
}

/// Runs `body` with a fresh server on port 0, stopped (and its data directory removed)
/// afterwards whether `body` returned or threw.
public func withServer<T>(
    now: UnixMillis = t0, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (ServerHarness) async throws -> T
) async throws -> T {
    let harness = try await ServerHarness.start(now: now, configure: configure)
    return try await withCleanup(harness, cleanUp: { await $0.stop() }, body)
}

/// Reads an async stream with a time limit, so a missing push fails the test instead of hanging it.
public actor AsyncInbox<Element: Sendable> {
    private var buffered: [Element] = []
    private var waiter: CheckedContinuation<Element?, Never>?
    /// Which wait the current `waiter` is: a timer left over from an earlier wait (its element
    /// came in time) must not expire a later one (stress runs saw waits end early with Timeout).
    private var waitNumber = 0
    private var finished = false

    public init(_ stream: AsyncStream<Element>) {
        Task { [weak self] in
            for await element in stream { await self?.deliver(element) }
            await self?.finish()
        }
    }

    private func deliver(_ element: Element) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: element)
        } else {
            buffered.append(element)
        }
    }

    private func finish() {
        finished = true
        waiter?.resume(returning: nil)
        waiter = nil
    }

    public struct Timeout: Error, CustomStringConvertible {
        public var waited: Duration
        public var description: String { "timed out waiting for the next element (\(waited))" }
    }
    public struct Closed: Error {}

    /// The next element; throws `Timeout` or `Closed`. The default wait is a minute: it is there
    /// to end a hang, and a push that takes a quarter of a second alone waited over 10 s for a
    /// core in a full run (EscalationServerTests, 2026-12-06).
    public func nextElement(timeout: Duration = .seconds(60)) async throws -> Element {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if finished { throw Closed() }
        waitNumber += 1
        let number = waitNumber
        let element: Element? = await withCheckedContinuation { continuation in
            waiter = continuation
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(number)
            }
        }
        guard let element else { throw finished ? Closed() : Timeout(waited: timeout) }
        return element
    }

    private func expire(_ number: Int) {
        guard number == waitNumber, let waiter else { return }
        self.waiter = nil
        waiter.resume(returning: nil)
    }

    /// Reads until `predicate` holds, returning everything read.
    @discardableResult
    public func until(timeout: Duration = .seconds(60), _ predicate: @Sendable (Element) -> Bool) async throws
        -> [Element]
    {
        var seen: [Element] = []
        while true {
            let element = try await nextElement(timeout: timeout)
            seen.append(element)
            if predicate(element) { return seen }
        }
    }
}

/// A connection's pushes and subscription frames.
public typealias Inbox = AsyncInbox<InboundMessage>

extension AsyncInbox where Element == InboundMessage {
    public init(_ connection: RosterConnection) {
        self.init(connection.inbound)
    }

    /// The next message, skipping Progress bookmarks unless asked for.
    public func next(includingProgress: Bool = false, timeout: Duration = .seconds(60)) async throws -> InboundMessage {
        while true {
            let message = try await nextElement(timeout: timeout)
            if case .progress = message.message, !includingProgress { continue }
            return message
        }
    }

    /// Reads through the subscribe exchange up to and including Synced (or an Error).
    public func untilSynced() async throws -> [RosterMessage] {
        var seen: [RosterMessage] = []
        while true {
            let message = try await next().message
            seen.append(message)
            if case .synced = message { return seen }
            if case .error = message { return seen }
        }
    }
}

extension RosterConnection {
    @discardableResult
    public func admin(_ message: RosterMessage) async throws -> Roster_V1_MutationResult {
        guard case .mutationResult(let result) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected MutationResult")
        }
        return result
    }

    @discardableResult
    public func addEmployee(
        _ first: String, _ last: String, id: String = "", position: String = "Engineer",
        team: String = "Core"
    ) async throws -> String {
        try await admin(
            .upsertEmployee(
                .with {
                    $0.employee = .with {
                        $0.id = id
                        $0.firstName = first
                        $0.lastName = last
                        $0.position = position
                        $0.team = team
                    }
                })
        ).ids[0]
    }

    @discardableResult
    public func addShift(_ employeeID: String, _ start: UnixMillis, _ end: UnixMillis, id: String = "") async throws
        -> String
    {
        try await admin(
            .addShift(
                .with {
                    $0.shift = .with {
                        $0.id = id
                        $0.employeeID = employeeID
                        $0.startMs = start
                        $0.endMs = end
                    }
                })
        ).ids[0]
    }

    /// A round trip that every earlier push on this connection precedes.
    public func barrier() async throws {
        _ = try await request(.ping(.with { $0.nonce = 1 }))
    }
}

/// A plain TCP socket for sending bytes no well-behaved client would. Its reads block, so they
/// run on a thread of NIOThreadPool; one test uses a socket at a time.
public final class RawSocket: @unchecked Sendable {
    private let fd: Int32
    /// Whether the last read that ended on a close ended on a reset rather than an orderly FIN.
    public private(set) var wasReset = false

    /// - Parameter receiveBufferBytes: a small kernel receive buffer makes a reader that stops
    ///   reading look slow to the server sooner.
    public init(port: Int, receiveBufferBytes: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let result = loopback(port: port) { connect(fd, $0, $1) }
        guard result == 0 else { throw RosterClientError.connectionFailed("raw connect: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    public func send(_ message: RosterMessage, requestID: UInt32 = 1) {
        send(Array(message.frame(requestID: requestID).encoded().readableBytesView))
    }

    /// Reads frames until the server closes the connection (or 10 s pass).
    public func readUntilClosed() async -> (frames: [RosterMessage], closed: Bool) {
        (try? await TestThreads.blocking.runIfActive { self.readUntilClosedBlocking() }) ?? ([], false)
    }

    /// Reads frames until nothing arrives for `quiet` seconds or the server closes.
    public func readFrames(quiet: Double) async -> (frames: [RosterMessage], closed: Bool) {
        (try? await TestThreads.blocking.runIfActive { self.readFramesBlocking(quiet: quiet) }) ?? ([], false)
    }

    /// Reads exactly one frame.
    public func readFrame() async -> RosterMessage? {
        try? await TestThreads.blocking.runIfActive { self.readFrameBlocking() }
    }

    private func readUntilClosedBlocking() -> (frames: [RosterMessage], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true; wasReset = false; break }
            if count < 0 { closed = errno == ECONNRESET; wasReset = closed; break }
            bytes += buffer[0..<count]
        }
        return (decodeFrames(bytes), closed)
    }

    private func readFramesBlocking(quiet: Double) -> (frames: [RosterMessage], closed: Bool) {
        var timeout = timeval(tv_sec: Int(quiet), tv_usec: Int((quiet - Double(Int(quiet))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer {
            var normal = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &normal, socklen_t(MemoryLayout<timeval>.size))
        }
        return readUntilClosedBlocking()
    }

    private func readFrameBlocking() -> RosterMessage? {
        var bytes: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 1)
        while true {
            if bytes.count >= 4 {
                let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
                if bytes.count == 4 + length { return decodeFrames(bytes).first }
            }
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte[0])
        }
    }

    private func decodeFrames(_ bytes: [UInt8]) -> [RosterMessage] {
        var decoder = FrameDecoder(maxFrameLength: 1 << 24)
        var buffer = ByteBuffer(bytes: bytes)
        var frames: [RosterMessage] = []
        while let frame = try? decoder.decodeFrame(from: &buffer), let message = try? RosterMessage.decode(frame) {
            frames.append(message)
        }
        return frames
    }
}

extension RosterMessage {
    public var errorCode: Roster_V1_ErrorCode? { errorBody?.code }

    /// The Error frame's body, or nil for any other message.
    public var errorBody: Roster_V1_Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}

/// The valid Hello of this protocol version.
public let validHello = RosterMessage.hello(
    .with {
        $0.minVersion = 1
        $0.maxVersion = 1
        $0.clientName = "raw-test"
    })

extension RosterMessage {
    /// This Snapshot's body; a failure naming what came instead (never a silent skip).
    public func snapshotBody() throws -> Roster_V1_Snapshot {
        guard case .snapshot(let snapshot) = self else { throw TestFailure("expected a Snapshot, got \(type)") }
        return snapshot
    }

    /// This Employees answer's body; a failure naming what came instead.
    public func employeesBody() throws -> Roster_V1_EmployeesResponse {
        guard case .employees(let employees) = self else { throw TestFailure("expected Employees, got \(type)") }
        return employees
    }
}

/// The server of a test that restarts it: `restart` stops the running one and starts the next,
/// and `stop` (at the end of `using`) stops whichever runs then.
public final class ServerSlot: StoppableTestResource, Sendable {
    private let current: NIOLockedValueBox<ServerHarness?>

    public init(_ harness: ServerHarness) { current = NIOLockedValueBox(harness) }

    /// The running server.
    public var harness: ServerHarness { current.withLockedValue { $0! } }

    /// Stops the running server (if any), then starts another in its place.
    public func restart(_ start: () async throws -> ServerHarness) async throws -> ServerHarness {
        await stop()
        let next = try await start()
        current.withLockedValue { $0 = next }
        return next
    }

    /// Stops the running server; for a test that checks what happens while none runs.
    public func stop() async {
        await current.withLockedValue { harness in
            defer { harness = nil }; return harness
        }?.stop()
    }
}

/// A loopback port held bound and not listening, so that a connection to it is refused: what a
/// test that stopped its server needs, or another test's port-0 listener may take the port
/// meanwhile and answer in its own protocol.
public final class RefusingPort: @unchecked Sendable {
    private let fd: Int32

    /// Binds 127.0.0.1:`port` (just freed by a stopped server); throws if someone listens there.
    ///
    /// The port may still be in use without a listener: another process's connection can take
    /// a freed port as its own end (the range port 0 draws from is the ephemeral one). Then
    /// nothing is held, and a connection is refused all the same, which is what the test needs.
    public init(holding port: Int) throws {
        let bound = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(bound, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard loopback(port: port, { bind(bound, $0, $1) }) != 0 else {
            fd = bound
            return
        }
        let code = errno
        close(bound)
        guard code == EADDRINUSE, !Self.accepts(port: port) else {
            throw TestFailure("could not hold port \(port): errno \(code)")
        }
        fd = -1
    }

    /// Whether something listens on 127.0.0.1:`port` (a loopback connect is answered at once).
    private static func accepts(port: Int) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        return loopback(port: port) { connect(probe, $0, $1) } == 0
    }

    deinit { if fd >= 0 { close(fd) } }
}

/// Calls `body` (connect or bind) with 127.0.0.1:`port` as a socket address and its length.
public func loopback(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

extension ServerHarness {
    /// Waits until the webhook outbox has looked at the store wholly after this call (so after
    /// a clock move made before it) and has no delivery under way: then what was due has been
    /// sent, and what was not was rightly kept. False when the server sends no webhooks or the
    /// rounds do not come within 30 s.
    public func outboxSettled() async -> Bool {
        guard let outbox = server.outboxForTests else { return false }
        // A round under way when this is called may have read the clock before the move: wait
        // for the one after it.
        let seen = outbox.completedRounds
        outbox.lookAgain()
        return await eventually(30) {
            outbox.lookAgain()
            return outbox.completedRounds >= seen + 2 && outbox.deliveriesInFlight == 0
        }
    }
}
