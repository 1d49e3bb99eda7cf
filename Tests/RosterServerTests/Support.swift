import Foundation
import NIOCore
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
#if canImport(Glibc)
import Glibc
#endif

/// Base instant for tests: 2026-01-01T00:00:00Z.
let t0: UnixMillis = 1_767_225_600_000
let minute: Int64 = 60_000

/// A real server on 127.0.0.1, port 0, in a fresh data directory, on a manual clock.
final class ServerHarness: Sendable {
    let clock: ManualClock
    let server: RosterServer
    let dataDirectory: String
    let port: Int

    static func start(now: UnixMillis = t0, dataDirectory: String? = nil, store: (any RosterStore)? = nil,
                      configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> ServerHarness {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("roster-test-\(UUID().uuidString)").path
        var configuration = ServerConfiguration(dataDirectory: directory)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.limits.progressIntervalMillis = 3_600_000
        configuration.limits.shutdownGraceMillis = 50
        configure(&configuration)
        let clock = ManualClock(now: now)
        let server = try RosterServer(configuration: configuration, clock: clock, store: store)
        try await server.start()
        return ServerHarness(clock: clock, server: server, dataDirectory: directory, port: server.port!)
    }

    private init(clock: ManualClock, server: RosterServer, dataDirectory: String, port: Int) {
        self.clock = clock
        self.server = server
        self.dataDirectory = dataDirectory
        self.port = port
    }

    func connect(tenant: String = "") async throws -> RosterConnection {
        try await RosterConnection.connect(host: "127.0.0.1", port: port, hello: .with { $0.tenant = tenant })
    }

    func stop() async {
        await server.shutdown()
    }
}

/// Reads a connection's inbound stream with a time limit, so a missing push fails the test
/// instead of hanging it.
actor Inbox {
    private var buffered: [InboundMessage] = []
    private var waiter: CheckedContinuation<InboundMessage?, Never>?
    private var finished = false

    init(_ connection: RosterConnection) {
        let stream = connection.inbound
        Task { [weak self] in
            for await message in stream { await self?.deliver(message) }
            await self?.finish()
        }
    }

    private func deliver(_ message: InboundMessage) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: message)
        } else {
            buffered.append(message)
        }
    }

    private func finish() {
        finished = true
        waiter?.resume(returning: nil)
        waiter = nil
    }

    struct Timeout: Error {}
    struct Closed: Error {}

    /// The next message, skipping Progress bookmarks unless asked for.
    func next(includingProgress: Bool = false, timeout: Duration = .seconds(10)) async throws -> InboundMessage {
        while true {
            let message = try await nextAny(timeout: timeout)
            if case .progress = message.message, !includingProgress { continue }
            return message
        }
    }

    private func nextAny(timeout: Duration) async throws -> InboundMessage {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if finished { throw Closed() }
        let message: InboundMessage? = await withCheckedContinuation { continuation in
            waiter = continuation
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(continuation)
            }
        }
        guard let message else { throw finished ? Closed() : Timeout() }
        return message
    }

    private func expire(_ continuation: CheckedContinuation<InboundMessage?, Never>) {
        // Only the waiter still pending is resumed; one already served is left alone.
        guard waiter != nil else { return }
        waiter = nil
        continuation.resume(returning: nil)
    }

    /// Reads through the subscribe exchange up to and including Synced; returns what it saw.
    func untilSynced() async throws -> [RosterMessage] {
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
    func admin(_ message: RosterMessage) async throws -> Roster_V1_MutationResult {
        guard case .mutationResult(let result) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected MutationResult")
        }
        return result
    }

    @discardableResult
    func addEmployee(_ first: String, _ last: String, id: String = "", position: String = "Engineer",
                     team: String = "Core") async throws -> String {
        try await admin(.upsertEmployee(.with {
            $0.employee = .with {
                $0.id = id
                $0.firstName = first
                $0.lastName = last
                $0.position = position
                $0.team = team
            }
        })).ids[0]
    }

    @discardableResult
    func addShift(_ employeeID: String, _ start: UnixMillis, _ end: UnixMillis, id: String = "") async throws -> String {
        try await admin(.addShift(.with {
            $0.shift = .with {
                $0.id = id
                $0.employeeID = employeeID
                $0.startMs = start
                $0.endMs = end
            }
        })).ids[0]
    }

    /// A round trip that every earlier push on this connection precedes.
    func barrier() async throws {
        _ = try await request(.ping(.with { $0.nonce = 1 }))
    }
}

/// A plain TCP socket for sending bytes no well-behaved client would.
final class RawSocket {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw RosterClientError.connectionFailed("raw connect: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ message: RosterMessage, requestID: UInt32 = 1) {
        send(Array(message.frame(requestID: requestID).encoded().readableBytesView))
    }

    /// Reads frames until the server closes the connection (or 10 s pass).
    func readUntilClosed() -> (frames: [RosterMessage], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true; break }
            if count < 0 { closed = errno == ECONNRESET; break }
            bytes += buffer[0..<count]
        }
        return (decodeFrames(bytes), closed)
    }

    /// Reads exactly one frame.
    func readFrame() -> RosterMessage? {
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
    var errorCode: Roster_V1_ErrorCode? {
        if case .error(let error) = self { return error.code }
        return nil
    }
}

/// The valid Hello of this protocol version.
let validHello = RosterMessage.hello(.with {
    $0.minVersion = 1
    $0.maxVersion = 1
    $0.clientName = "raw-test"
})
