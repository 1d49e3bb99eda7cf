import NIOConcurrencyHelpers
import NIOCore
import RosterProtocol
import RosterTLS

/// Told to every connection when the server shuts down.
package struct GoingAwayEvent: Sendable {
    var reason: String
    var retryAfterMillis: UInt32

    package init(reason: String, retryAfterMillis: UInt32) {
        self.reason = reason
        self.retryAfterMillis = retryAfterMillis
    }
}

/// Told to every connection when a token stops being usable; those using it close.
package struct CredentialRevokedEvent: Sendable {
    var tokenIDs: Set<String>

    package init(tokenIDs: Set<String>) { self.tokenIDs = tokenIDs }
}

/// The protocol listener's connections: the TLS new ones get, the connection cap, the open
/// connections (to tell them of a shutdown or a revoked token) and each loop's liveness sweeper.
/// `configurePipeline(of:)` is the one pipeline every connection gets.
package final class ProtocolConnections: Sendable {
    package let core: ServerCore
    /// The TLS configuration new connections get; SIGHUP may replace it (`replaceTLS`), while
    /// connections already open keep the one they started with.
    private let currentTLS: NIOLockedValueBox<TLSContext?>
    package var tls: TLSContext? { currentTLS.withLockedValue { $0 } }
    /// Whether this listener serves TLS (fixed for its life, unlike the certificate).
    let servesTLS: Bool
    /// Whether the listener is bound to a loopback address: plaintext and anonymous readers are
    /// allowed there only.
    let isLoopback: Bool
    package let sweepers: [LivenessSweeper]
    private let openConnections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
    /// Connections accepted since start, refused ones included.
    package let acceptedConnections = NIOLockedValueBox(0)

    package init(core: ServerCore, tls: TLSContext?, loops: [any EventLoop], isLoopback: Bool) {
        self.core = core
        currentTLS = NIOLockedValueBox(tls)
        servesTLS = tls != nil
        self.isLoopback = isLoopback
        sweepers = loops.map {
            LivenessSweeper(loop: $0, intervalMillis: core.configuration.limits.pingInterval.milliseconds)
        }
    }

    package func replaceTLS(_ context: TLSContext) { currentTLS.withLockedValue { $0 = context } }

    func sweeper(for loop: any EventLoop) -> LivenessSweeper {
        sweepers.first { $0.loop === loop }!
    }

    /// Tracks a new connection; false when the limit is reached.
    func connectionOpened(_ channel: any Channel) -> Bool {
        acceptedConnections.withLockedValue { $0 += 1 }
        return openConnections.withLockedValue { open in
            guard open.count < core.configuration.limits.maxConnections else { return false }
            open[ObjectIdentifier(channel)] = channel
            core.metrics?.connectionOpened(tls: servesTLS)
            return true
        }
    }

    func connectionClosed(_ channel: any Channel) {
        if openConnections.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(channel)) }) != nil {
            core.metrics?.connectionClosed(tls: servesTLS)
        }
    }

    package var connections: [any Channel] { openConnections.withLockedValue { Array($0.values) } }

    /// The one pipeline of a server connection (TLS when configured, then the connection handler,
    /// which also cuts the frames), used by the listener and by the fuzz target alike; past the
    /// connection limit a refusal instead. Call on the channel's loop.
    package func configurePipeline(of channel: any Channel) throws {
        guard connectionOpened(channel) else {
            let refusal = WireError(.resourceExhausted, "too many connections", retryable: true)
            try channel.pipeline.syncOperations.addHandler(RefusingHandler(refusal))
            return
        }
        let limit = FrameSizeLimit(core.configuration.limits.handshakeMaxFrameBytes)
        if let tls {
            try channel.pipeline.syncOperations.addHandler(
                try TLSHandler(context: tls, plaintextRefusal: Self.tlsRequired))
        }
        try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(listener: self, frameLimit: limit, channel: channel))
    }

    /// What a plaintext client on a TLS port gets: an Error frame it can read.
    static let tlsRequired = RosterMessage.error(
        WireError(
            .tlsRequired,
            "this port requires TLS: connect with --tls or --ca-file, or pin the server with `roster-client trust`"
        ).body
    ).frame().encoded()
}

/// Answers a connection the server cannot take with one Error frame, then closes it.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let refusal: WireError

    init(_ refusal: WireError) { self.refusal = refusal }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(RosterMessage.error(refusal.body).frame().encoded()))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
