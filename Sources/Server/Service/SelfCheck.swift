import Foundation
import Logging
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import ServiceLifecycle

/// `roster-server self-check`: the whole server started once on loopback, as an image build or a
/// new host checks it can run at all. It starts (the store opened and migrated, the listeners
/// bound), answers `/readyz` with 200 over a real socket, answers a protocol Hello with
/// Welcome, and stops. Each step is a line of the report; the first that fails ends the check with why.
///
/// The whole check has one deadline (`deadline`, 60 s by default), which each step's wait takes
/// what is left of, so a root filesystem that lacks something the server needs late (a CA file,
/// the zone database) fails the build instead of hanging it.
public enum SelfCheck {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs the check in `dataDirectory` (made if missing), on `store` if given (else SQLite
    /// there), and returns the report's lines.
    public static func run(
        dataDirectory: String, store: StoreLocation?, drivers: StoreDrivers,
        deadline: Duration = .seconds(60), logger: Logger
    ) async throws -> [String] {
        var configuration = ServerConfiguration(dataDirectory: dataDirectory)
        configuration.listen = HostPort(host: "127.0.0.1", port: 0)
        configuration.httpListen = HostPort(host: "127.0.0.1", port: 0)
        configuration.store = store
        configuration.storeDrivers = drivers
        configuration.limits.shutdownGrace = .milliseconds(100)
        var report = ["store: \(store?.description ?? "sqlite in \(dataDirectory)")"]

        let server = RosterServer(configuration: configuration, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let running = Task { try await services.run() }
        let end = ContinuousClock.now + deadline
        func left() -> Duration { max(.zero, end - ContinuousClock.now) }
        do {
            let addresses = try await withDeadline(left(), "the server did not start") {
                try await server.listening
            }
            report.append(
                "started: protocol on 127.0.0.1:\(addresses.port), http on 127.0.0.1:\(addresses.httpPort ?? 0)")
            let ready = try await withDeadline(left(), "/readyz did not answer 200") {
                try await waitUntilReady(port: addresses.httpPort ?? 0)
            }
            report.append("http: GET /readyz \(ready)")
            let welcome = try await withDeadline(left(), "the protocol listener did not answer Hello") {
                try await helloWelcome(port: addresses.port)
            }
            report.append("protocol: Hello answered by \(welcome)")
        } catch {
            await services.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        await services.triggerGracefulShutdown()
        do { try await running.value } catch { throw Failure(description: "the server did not stop cleanly: \(error)") }
        report.append("stopped")
        return report
    }

    /// Asks `/readyz` until it answers 200 (the tenants load after the listener is up, so a 503
    /// or a closed connection may come first); returns the status line's rest. Cancelled at the
    /// deadline, it throws what the last answer was.
    static func waitUntilReady(port: Int) async throws -> String {
        var last = "no answer"
        while true {
            do {
                let (status, line) = try await get("/readyz", port: port)
                if status == 200 { return line }
                last = line
            } catch let failure as Failure {
                throw failure
            } catch {
                last = "\(error)"
            }
            do { try await Task.sleep(for: .milliseconds(100)) } catch { throw Failure(description: "last: \(last)") }
        }
    }

    /// One HTTP/1.1 GET on its own connection (`Connection: close`); the response's status code
    /// and status line. The response is read up to 64 KiB: /readyz says a line, not a page.
    static func get(_ path: String, port: Int) async throws -> (Int, String) {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        var response = ByteBuffer()
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
            for try await var part in inbound {
                response.writeBuffer(&part)
                guard response.readableBytes <= 65_536 else { break }
            }
        }
        let text = String(buffer: response)
        // "\r\n" is one Character in Swift: split on it as a string.
        let statusLine = text.components(separatedBy: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/1."), let status = Int(fields[1]) else {
            throw Failure(description: "not an HTTP response from /readyz: \(statusLine.prefix(80))")
        }
        return (status, fields.dropFirst().joined(separator: " "))
    }

    /// A Hello as a client sends it (anonymous: the check's listener is loopback, where reads need
    /// no token), answered by Welcome: the listener accepts, reads, and speaks the protocol.
    static func helloWelcome(port: Int) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let hello = RosterMessage.hello(
            .with {
                $0.minVersion = WireProtocol.supportedVersions.lowerBound
                $0.maxVersion = WireProtocol.supportedVersions.upperBound
                $0.clientName = "roster-server self-check"
            })
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(hello.frame().encoded())
            var received = ByteBuffer()
            var decoder = FrameDecoder(maxFrameLength: 1 << 20)
            for try await var part in inbound {
                received.writeBuffer(&part)
                guard let frame = try decoder.decodeFrame(from: &received) else { continue }
                switch try RosterMessage.decode(frame) {
                case .welcome(let welcome): return "Welcome, wire protocol \(welcome.version)"
                case .error(let error): throw Failure(description: "the server answered Hello with: \(error.message)")
                default: throw Failure(description: "the server answered Hello with frame type \(frame.rawType)")
                }
            }
            throw Failure(description: "the server closed the connection without answering Hello")
        }
    }

    /// `body`, or `Failure(what)` once `limit` has passed (the body is cancelled).
    static func withDeadline<T: Sendable>(
        _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                do { return try await body() } catch let failure as Failure { throw failure } catch {
                    throw Failure(description: "\(what): \(error)")
                }
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw Failure(description: "\(what) before the check's deadline")
            }
            return value
        }
    }
}
