import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 between clients and a server that injects network faults, in the
/// spirit of etcd's robustness-test proxy: added delay, a blackhole (bytes silently dropped both
/// ways, connections kept), resets of every connection, and a cut in the middle of the next
/// chunk the server sends. The upstream port may change (a restarted server).
public final class FaultProxy: Sendable {
    public enum Mode: Sendable, Equatable {
        case pass
        case delay(TimeAmount)
        case blackhole
    }

    private struct State {
        var mode = Mode.pass
        var upstreamPort: Int
        var cutNextServerChunk = false
        var pairs: [ObjectIdentifier: (client: any Channel, server: any Channel)] = [:]
    }

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let state: NIOLockedValueBox<State>
    private let listener: NIOLockedValueBox<(any Channel)?> = NIOLockedValueBox(nil)
    public let port: Int

    public init(upstreamPort: Int) async throws {
        state = NIOLockedValueBox(State(upstreamPort: upstreamPort))
        let proxy = Unowned(value: nil)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { client in
                client.eventLoop.makeCompletedFuture { proxy.value?.accept(client) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress!.port!
        listener.withLockedValue { $0 = channel }
        proxy.value = self
    }

    private final class Unowned: @unchecked Sendable {
        weak var value: FaultProxy?
        init(value: FaultProxy?) { self.value = value }
    }

    public func setMode(_ mode: Mode) { state.withLockedValue { $0.mode = mode } }
    public func setUpstream(port: Int) { state.withLockedValue { $0.upstreamPort = port } }
    var mode: Mode { state.withLockedValue { $0.mode } }

    /// Resets every proxied connection (RST to both ends).
    public func resetAll() {
        let pairs = state.withLockedValue { Array($0.pairs.values) }
        for pair in pairs {
            Self.reset(pair.client)
            Self.reset(pair.server)
        }
    }

    /// The next chunk from the server is forwarded only in part, then both ends are reset.
    public func cutNextServerChunk() { state.withLockedValue { $0.cutNextServerChunk = true } }

    public var connectionCount: Int { state.withLockedValue { $0.pairs.count } }

    public func close() async {
        resetAll()
        try? await listener.withLockedValue { $0 }?.close()
        try? await group.shutdownGracefully()
    }

    static func reset(_ channel: any Channel) {
        // SO_LINGER 0: close sends RST instead of FIN.
        let lingering =
            (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            ?? channel.eventLoop.makeSucceededVoidFuture()
        lingering.whenComplete { _ in channel.close(promise: nil) }
    }

    private func accept(_ client: any Channel) {
        let upstream = state.withLockedValue { $0.upstreamPort }
        let key = ObjectIdentifier(client)
        ClientBootstrap(group: client.eventLoop)
            .connect(host: "127.0.0.1", port: upstream)
            .whenComplete { result in
                switch result {
                case .failure:
                    client.close(promise: nil)
                case .success(let server):
                    self.state.withLockedValue { $0.pairs[key] = (client, server) }
                    let toServer = Relay(proxy: self, peer: server, fromServer: false)
                    let toClient = Relay(proxy: self, peer: client, fromServer: true)
                    do {
                        try client.pipeline.syncOperations.addHandler(toServer)
                        try server.pipeline.syncOperations.addHandler(toClient)
                    } catch {
                        client.close(promise: nil)
                        server.close(promise: nil)
                        return
                    }
                    client.closeFuture.whenComplete { _ in
                        server.close(promise: nil)
                        self.state.withLockedValue { _ = $0.pairs.removeValue(forKey: key) }
                    }
                    server.closeFuture.whenComplete { _ in client.close(promise: nil) }
                    client.setOption(.autoRead, value: true).whenFailure { _ in client.close(promise: nil) }
                }
            }
    }

    func takeCut() -> Bool {
        state.withLockedValue { state in
            defer { state.cutNextServerChunk = false }
            return state.cutNextServerChunk
        }
    }

    /// Copies bytes read on one side to the other, applying the proxy's current fault.
    final class Relay: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        private let proxy: FaultProxy
        private let peer: any Channel
        private let fromServer: Bool

        init(proxy: FaultProxy, peer: any Channel, fromServer: Bool) {
            self.proxy = proxy
            self.peer = peer
            self.fromServer = fromServer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            if fromServer && proxy.takeCut() && bytes.readableBytes > 1 {
                let half = bytes.getSlice(at: bytes.readerIndex, length: bytes.readableBytes / 2)!
                let peer = self.peer, own = context.channel
                peer.writeAndFlush(half).whenComplete { _ in
                    FaultProxy.reset(peer)
                    FaultProxy.reset(own)
                }
                return
            }
            switch proxy.mode {
            case .pass:
                peer.writeAndFlush(bytes, promise: nil)
            case .delay(let amount):
                let peer = self.peer
                context.eventLoop.scheduleTask(in: amount) { peer.writeAndFlush(bytes, promise: nil) }
            case .blackhole:
                break
            }
        }
    }
}
