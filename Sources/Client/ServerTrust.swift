import Foundation
import NIOCore
import NIOPosix
import RosterDomain
import RosterTLS
import RosterSystem

/// Pinned certificate authorities, one line per server, like ssh's known_hosts:
///
///     HOST:PORT SHA256:AB:CD:... BASE64-DER
///
/// `roster-client trust HOST:PORT` adds a line after showing the fingerprint; later connections
/// to that server trust only that CA, and a different one is refused with a warning.
public struct KnownHosts: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var server: String
        public var fingerprint: String
        public var der: [UInt8]
    }

    public enum Problem: Error, CustomStringConvertible {
        case alreadyPinned(server: String, fingerprint: String)
        case unwritable(String)

        public var description: String {
            switch self {
            case .alreadyPinned(let server, let fingerprint):
                return
                    "\(server) is already pinned to a different CA (\(fingerprint)); add --replace to pin the new one"
            case .unwritable(let path): return "cannot write \(path)"
            }
        }
    }

    public let file: URL

    public init(file: URL = KnownHosts.defaultFile()) { self.file = file }

    /// $XDG_CONFIG_HOME/roster/known_hosts, or ~/.config/roster/known_hosts.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGPaths.config("known_hosts", environment: environment)
    }

    /// Lines that do not parse are skipped, never trusted.
    public func entries() -> [Entry] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let der = Data(base64Encoded: String(fields[2])) else { return nil }
            return Entry(server: String(fields[0]), fingerprint: String(fields[1]), der: [UInt8](der))
        }
    }

    public func entry(for server: String) -> Entry? {
        entries().last { $0.server.lowercased() == server.lowercased() }
    }

    public func pin(_ certificate: Certificate, for server: String, replace: Bool) throws {
        var kept = entries()
        if let existing = kept.first(where: { $0.server.lowercased() == server.lowercased() }),
            existing.fingerprint != certificate.fingerprint, !replace
        {
            throw Problem.alreadyPinned(server: server, fingerprint: existing.fingerprint)
        }
        kept.removeAll { $0.server.lowercased() == server.lowercased() }
        kept.append(Entry(server: server, fingerprint: certificate.fingerprint, der: certificate.der))
        let text =
            kept.map { "\($0.server) \($0.fingerprint) \(Data($0.der).base64EncodedString())" }.joined(separator: "\n")
            + "\n"
        do {
            try AtomicFile.write(text, to: file.path, mode: 0o644)
        } catch {
            throw Problem.unwritable(file.path)
        }
    }
}

/// Fetches the certificate chain a server presents, without trusting it, so that a person can
/// compare its fingerprint with the one the server logged before pinning it.
public enum ServerTrust {
    public static func presentedChain(
        host: String, port: Int, timeout: Duration = .seconds(10),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> [Certificate] {
        let context: TLSContext
        do { context = try TLSContext.client(.init(trust: .insecureProbe)) } catch let error as TLSError {
            throw RosterClientError.tls(error)
        }
        let channel: any Channel
        let presented: EventLoopPromise<[Certificate]>
        do {
            (channel, presented) = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let tls = try TLSHandler(context: context, serverHostname: host)
                        let probe = ChainProbe(tls: tls, promise: channel.eventLoop.makePromise())
                        try channel.pipeline.syncOperations.addHandler(tls)
                        try channel.pipeline.syncOperations.addHandler(probe)
                        return (channel, probe.promise)
                    }
                }
        } catch {
            throw RosterClientError.connectionFailed("\(host):\(port): \(error)")
        }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            presented.fail(RosterClientError.timedOut)
        }
        defer { timer.cancel() }
        let chain = try await presented.futureResult.get()
        try? await channel.close()
        return chain
    }
}

private final class ChainProbe: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let tls: TLSHandler
    let promise: EventLoopPromise<[Certificate]>

    init(tls: TLSHandler, promise: EventLoopPromise<[Certificate]>) {
        self.tls = tls
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is TLSHandshakeCompleted { promise.succeed(tls.presentedChain) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail((error as? TLSError).map(RosterClientError.tls) ?? RosterClientError.connectionFailed("\(error)"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(RosterClientError.connectionClosed)
    }
}
