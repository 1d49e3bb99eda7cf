import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import RosterClient
import RosterProtocol
import RosterTLS
#if canImport(Glibc)
    import Glibc
#endif

/// A real roster-server process for a hostile-client test: the attack comes at the default
/// tenant (anonymous on loopback, or with its admin token), while the admin of a second tenant,
/// "bystander", is the healthy client whose answers must keep coming. The server's memory and CPU
/// are read from /proc.
public struct HostileRig: Sendable {
    public let server: ServerProcess
    public let bystanderToken: String
    public let cli: CLI
    /// Trusts the server's generated CA when it serves TLS (`--tls`).
    public let tls: TLSContext?

    /// Starts the server with `arguments`, makes the bystander tenant and its admin token, waits
    /// until the server serves it, runs `body`, and stops everything whatever happens.
    public static func with<T>(arguments: [String] = [], _ body: (HostileRig) async throws -> T) async throws -> T {
        try await withServerProcess(arguments: ["--demo"] + arguments) { server in
            let cli = CLI(port: server.port)
            defer { TestScratch.remove(cli.home) }
            let tenant = try await cli.server(["tenant", "create", "bystander", "--data-dir", server.dataDirectory])
            guard tenant.status == 0 else { throw TestFailure("tenant create: \(tenant.stderr)") }
            let token = try await cli.server([
                "token", "create", "--tenant", "bystander", "--role", "admin",
                "--data-dir", server.dataDirectory,
            ])
            guard token.status == 0 else { throw TestFailure("token create: \(token.stderr)") }
            let tls =
                arguments.contains("--tls")
                ? try TLSContext.client(.init(trust: .caFile(server.dataDirectory + "/tls/ca.pem"))) : nil
            let rig = HostileRig(
                server: server, bystanderToken: token.stdout.trimmingCharacters(in: .whitespacesAndNewlines), cli: cli,
                tls: tls)
            // The server picks up tenants and tokens made beside it within a second.
            guard await eventually(20, { (try? await rig.bystanderRoundTrip()) != nil }) else {
                throw TestFailure("the server never served the bystander tenant")
            }
            return try await body(rig)
        }
    }

    /// The bystander's admin: connects, has a change acknowledged and a query answered, and
    /// says how long that took. Throws if any step takes longer than `limit`.
    @discardableResult
    public func bystanderRoundTrip(limit: Duration = .seconds(15)) async throws -> Duration {
        let started = ContinuousClock.now
        let client = try await RosterConnection.connect(
            host: "127.0.0.1", port: server.port, tls: tls, timeout: limit,
            hello: .with {
                $0.tenant = "bystander"
                $0.token = bystanderToken
            })
        defer { Task { await client.close() } }
        _ = try await client.request(
            .setMotd(.with { $0.motd = "still here \(UInt64.random(in: 0...UInt64.max))" }), timeout: limit)
        _ = try await client.request(.listEmployees(.init()), timeout: limit)
        return .now - started
    }

    /// The server's resident memory, in bytes (VmRSS).
    public var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(server.child.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// CPU seconds the server has used (user and system).
    public var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(server.child.pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Whether the server process is still running.
    public var isAlive: Bool { server.child.isRunning }
}

/// A TCP connection that sends without blocking the test for long: its sends give up after
/// `sendTimeout` (a peer that stops reading fills the kernel's buffers), and it never reads
/// unless asked.
public final class HostileSocket: @unchecked Sendable {
    public let fd: Int32

    public init(port: Int, receiveBufferBytes: Int32 = 4_096, sendTimeout: Double = 0.2) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size = receiveBufferBytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: Int(sendTimeout), tv_usec: Int((sendTimeout - Double(Int(sendTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var receive = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receive, socklen_t(MemoryLayout<timeval>.size))
        let result = loopback(port: port) { connect(fd, $0, $1) }
        guard result == 0 else {
            close(fd)
            throw TestFailure("connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends what the kernel takes within the send timeout; the bytes sent.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else {
                lastSendError = count < 0 ? errno : 0
                break
            }
            sent += count
        }
        return sent
    }

    /// errno of the last send that took nothing (EAGAIN: the buffers are full; EPIPE or
    /// ECONNRESET: the server closed), for a failure's message.
    public private(set) var lastSendError: Int32 = 0

    public func send(_ message: RosterMessage, requestID: UInt32) {
        send(Array(message.frame(requestID: requestID).encoded().readableBytesView))
    }

    /// This socket's local port.
    public var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Bytes this socket sent that the server's end has not read yet (its receive queue, from
    /// /proc/net/tcp): more than zero for a while means the server stopped reading.
    public func unreadByServer(serverPort: Int) -> Int {
        connectionRows(serverPort: serverPort).unread
    }

    /// The rows of /proc/net/tcp for this connection (both ends), for a failure's message, and
    /// the server end's receive queue.
    public func connectionRows(serverPort: Int) -> (unread: Int, rows: [String]) {
        // Read to the end with read(2): the kernel makes the file a page at a time, and a reader
        // that trusts its (zero) size gets only part of the table.
        var data = [UInt8]()
        let file = open("/proc/net/tcp", O_RDONLY)
        if file >= 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(file, &chunk, chunk.count)
                guard count > 0 else { break }
                data += chunk.prefix(count)
            }
            close(file)
        }
        let table = String(decoding: data, as: UTF8.self)
        func hex(_ port: Int) -> String {
            let digits = String(port, radix: 16, uppercase: true)
            return "0100007F:" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        let local = hex(serverPort), remote = hex(localPort)
        var unread = 0, rows: [String] = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4,
                (fields[1] == local && fields[2] == remote) || (fields[1] == remote && fields[2] == local)
            else { continue }
            rows.append(fields.prefix(6).joined(separator: " "))
            if fields[1] == local { unread = Int(fields[4].split(separator: ":").last ?? "", radix: 16) ?? 0 }
        }
        return (unread, rows)
    }

    /// Whether the server's end of this connection is still established (/proc/net/tcp, state
    /// 01). A server that closes a connection with unread input resets it and its end is gone at
    /// once, even when this end, whose window is shut, never accepts the reset and stays open.
    public func serverEndIsOpen(serverPort: Int) -> Bool {
        connectionRows(serverPort: serverPort).rows.contains { row in
            let fields = row.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(Self.hexPort(serverPort)) && fields[3] == "01"
        }
    }

    static func hexPort(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return ":" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Reads until what arrived contains `text`; returns everything read, or nil when `seconds`
    /// pass first or the server closes.
    public func receive(until text: String, within seconds: Double) async -> String? {
        let fd = self.fd
        return
            (try? await TestThreads.blocking.runIfActive { () -> String? in
                let deadline = Date().addingTimeInterval(seconds)
                var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 65_536)
                while Date() < deadline {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count == 0 { return nil }
                    if count < 0 {
                        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                        return nil
                    }
                    received += buffer.prefix(count)
                    let seen = String(decoding: received, as: UTF8.self)
                    if seen.contains(text) { return seen }
                }
                return nil
            }) ?? nil
    }

    /// Reads everything that arrives, on a blocking thread of its own, until the server closes or
    /// the drain is stopped: a reader that keeps up, as a browser does.
    public func drain() -> SocketDrain {
        let drain = SocketDrain()
        let fd = self.fd
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Task {
            _ = try? await TestThreads.blocking.runIfActive {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while !drain.isStopped {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        drain.finish()
                        return
                    }
                    if count > 0 { drain.append(buffer.prefix(count)) }
                }
            }
        }
        return drain
    }

    /// Everything that arrives within `seconds` (or until the server closes), and whether it closed.
    public func receiveAll(within seconds: Double) async -> (text: String, closed: Bool) {
        let fd = self.fd
        return
            (try? await TestThreads.blocking.runIfActive { () -> (String, Bool) in
                let deadline = Date().addingTimeInterval(seconds)
                var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 65_536)
                while Date() < deadline {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
                    if count < 0 {
                        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                        return (String(decoding: received, as: UTF8.self), true)
                    }
                    received += buffer.prefix(count)
                }
                return (String(decoding: received, as: UTF8.self), false)
            }) ?? ("", false)
    }

    /// Whether the server has closed the connection: a read returns 0 (or fails with a reset)
    /// within `seconds`, discarding whatever arrives before.
    public func closedByServer(within seconds: Double) async -> Bool {
        let fd = self.fd
        return
            (try? await TestThreads.blocking.runIfActive { () -> Bool in
                let deadline = Date().addingTimeInterval(seconds)
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while Date() < deadline {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count == 0 { return true }
                    if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
                }
                return false
            }) ?? false
    }
}

/// What `HostileSocket.drain()` has read so far.
public final class SocketDrain: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var closed = false
        var stopped = false
        /// Per marker: matches counted, and where the next match may start.
        var counts: [String: (count: Int, next: Int)] = [:]
    }
    private let state = NIOLockedValueBox(State())

    public var text: String { String(decoding: state.withLockedValue { $0.bytes }, as: UTF8.self) }
    /// The server closed the connection.
    public var closed: Bool { state.withLockedValue { $0.closed } }
    var isStopped: Bool { state.withLockedValue { $0.stopped } }

    func append(_ bytes: ArraySlice<UInt8>) { state.withLockedValue { $0.bytes += bytes } }
    func finish() { state.withLockedValue { $0.closed = true } }
    public func stop() { state.withLockedValue { $0.stopped = true } }

    /// How many times `marker` has arrived so far; only what arrived since the last call is
    /// searched.
    public func count(_ marker: String) -> Int {
        let needle = Array(marker.utf8)
        return state.withLockedValue { state in
            var (count, index) = state.counts[marker] ?? (0, 0)
            while index + needle.count <= state.bytes.count {
                if state.bytes[index..<(index + needle.count)].elementsEqual(needle) {
                    count += 1
                    index += needle.count
                } else {
                    index += 1
                }
            }
            state.counts[marker] = (count, index)
            return count
        }
    }
}
