import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterProtocol
import RosterTLS

/// Shared by all benchmark subscribers: who is ready, and when each push arrived.
final class PushRecorder: Sendable {
    private struct State {
        var ready = 0
        var stalled = 0
        var receipts: [[UInt64]]
        var sampleFrame: [UInt8]?
    }
    private let state: NIOLockedValueBox<State>

    init(pushes: Int) {
        state = NIOLockedValueBox(State(receipts: Array(repeating: [], count: pushes)))
    }

    func subscriberReady() { state.withLockedValue { $0.ready += 1 } }
    func stalledReady() { state.withLockedValue { $0.stalled += 1 } }
    var stalled: Int { state.withLockedValue { $0.stalled } }
    var ready: Int { state.withLockedValue { $0.ready } }

    func record(push index: Int, at time: UInt64, frame: () -> [UInt8]) {
        state.withLockedValue { state in
            guard index < state.receipts.count else { return }
            state.receipts[index].append(time)
            if state.sampleFrame == nil { state.sampleFrame = frame() }
        }
    }

    func received(push index: Int) -> Int { state.withLockedValue { $0.receipts[index].count } }
    func receipts(push index: Int) -> [UInt64] { state.withLockedValue { $0.receipts[index] } }
    var sampleFrame: [UInt8]? { state.withLockedValue { $0.sampleFrame } }
}

/// A subscriber that does the least a client can: handshake, subscribe to on-duty, then count
/// pushes by arrival order without decoding their bodies.
final class CountingSubscriber: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let recorder: PushRecorder
    private var pushesSeen = 0
    private var synced = false
    /// A stalled subscriber stops reading once synced, as a client that hangs would.
    private let stalls: Bool
    /// Also follows the roster, as `roster-client watch` and the web app's event stream do.
    private let roster: Bool
    /// Follows these services' escalation (topic ESCALATION) instead of on-duty, and counts its
    /// pushes, as `roster-client watch --service` does.
    private let services: [String]

    init(recorder: PushRecorder, stalls: Bool = false, roster: Bool = false, services: [String] = []) {
        self.recorder = recorder
        self.stalls = stalls
        self.roster = roster
        self.services = services
    }

    func channelActive(context: ChannelHandlerContext) {
        let hello = RosterMessage.hello(
            .with {
                $0.minVersion = 1; $0.maxVersion = 1; $0.clientName = "roster-bench"
            })
        context.writeAndFlush(wrapOutboundOut(hello.frame(requestID: 1)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch MessageType(rawValue: frame.rawType) {
        case .welcome:
            let subscribe = RosterMessage.subscribe(
                .with {
                    if !services.isEmpty {
                        $0.topics = [.escalation]
                        $0.services = services
                    } else {
                        $0.topics = stalls || roster ? [.onDuty, .roster] : [.onDuty]
                    }
                })
            context.writeAndFlush(wrapOutboundOut(subscribe.frame(requestID: 2)), promise: nil)
        case .synced where stalls:
            synced = true
            context.channel.setOption(.autoRead, value: false).whenComplete { _ in }
            recorder.stalledReady()
        case .synced:
            synced = true
            recorder.subscriberReady()
        case .onDutyChanged where synced && frame.requestID == 0 && !stalls && services.isEmpty,
            .escalationChanged where synced && frame.requestID == 0 && !services.isEmpty:
            let now = nanos()
            recorder.record(push: pushesSeen, at: now) { Array(frame.encoded().readableBytesView) }
            pushesSeen += 1
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(RosterMessage.pong(.init()).frame(requestID: frame.requestID)), promise: nil)
        default:
            break
        }
    }
}

/// A bench subscriber's pipeline: TLS when asked, framing, and the counting subscriber.
func installSubscriber(
    on channel: any Channel, tls: TLSContext?, recorder: PushRecorder,
    stalls: Bool, roster: Bool = false, services: [String] = []
) -> EventLoopFuture<Void> {
    channel.eventLoop.makeCompletedFuture {
        if let tls {
            try channel.pipeline.syncOperations.addHandler(try TLSHandler(context: tls, serverHostname: "127.0.0.1"))
        }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameLength: 1 << 20)))
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
        try channel.pipeline.syncOperations.addHandler(
            CountingSubscriber(recorder: recorder, stalls: stalls, roster: roster, services: services))
    }
}

/// Opens `count` subscribers that stop reading once synced, with a 4 KB receive buffer.
func openStalledSubscribers(
    count: Int, port: Int, tls: TLSContext?, group: any EventLoopGroup,
    recorder: PushRecorder
) async throws -> [any Channel] {
    guard count > 0 else { return [] }
    let bootstrap = ClientBootstrap(group: group)
        .channelOption(.socketOption(.so_rcvbuf), value: 4096)
        .channelInitializer { installSubscriber(on: $0, tls: tls, recorder: recorder, stalls: true) }
    var channels: [any Channel] = []
    for _ in 0..<count { channels.append(try await bootstrap.connect(host: "127.0.0.1", port: port).get()) }
    let deadline = nanos() + 60_000_000_000
    while recorder.stalled < count {
        guard nanos() < deadline else {
            throw BenchError("only \(recorder.stalled) of \(count) stalled subscribers synced")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    return channels
}

/// Opens `count` subscribers, `batch` connects at a time, and waits until all are synced.
func openSubscribers(
    count: Int, port: Int, tls: TLSContext? = nil, group: any EventLoopGroup,
    recorder: PushRecorder, roster: Bool = false, services: [String] = []
) async throws -> [any Channel] {
    let bootstrap = ClientBootstrap(group: group)
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .channelInitializer {
            installSubscriber(on: $0, tls: tls, recorder: recorder, stalls: false, roster: roster, services: services)
        }
    return try await connectInBatches(
        count: count, port: port, bootstrap: bootstrap, recorder: recorder, waitingFor: "subscribers synced")
}

/// Opens `count` connections, 256 connects at a time, then waits until `recorder` counts each
/// ready (synced, or said hello).
func connectInBatches(
    count: Int, port: Int, bootstrap: ClientBootstrap, recorder: PushRecorder,
    waitingFor what: String
) async throws -> [any Channel] {
    var channels: [any Channel] = []
    channels.reserveCapacity(count)
    var opened = 0
    while opened < count {
        let batch = min(256, count - opened)
        let futures = (0..<batch).map { _ in bootstrap.connect(host: "127.0.0.1", port: port) }
        for future in futures { channels.append(try await future.get()) }
        opened += batch
    }
    let deadline = nanos() + 120_000_000_000
    while recorder.ready < count {
        guard nanos() < deadline else { throw BenchError("only \(recorder.ready) of \(count) \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
    return channels
}

/// One closed-loop "on duty now" requester: send, wait for the answer, send again, until the
/// deadline. Latencies are kept per connection and merged at the end.
final class OnDutyRequester: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = Frame

    private let deadline: UInt64
    private let done: EventLoopPromise<[UInt64]>
    private var latencies: [UInt64] = []
    private var sentAt: UInt64 = 0
    private var requestID: UInt32 = 1
    private static let request = RosterMessage.getOnDuty(.init())

    init(deadline: UInt64, done: EventLoopPromise<[UInt64]>) {
        self.deadline = deadline
        self.done = done
        latencies.reserveCapacity(1 << 16)
    }

    func channelActive(context: ChannelHandlerContext) {
        let hello = RosterMessage.hello(
            .with {
                $0.minVersion = 1; $0.maxVersion = 1; $0.clientName = "roster-bench"
            })
        context.writeAndFlush(wrapOutboundOut(hello.frame(requestID: 0)), promise: nil)
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        requestID &+= 1
        sentAt = nanos()
        context.writeAndFlush(wrapOutboundOut(Self.request.frame(requestID: requestID)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch MessageType(rawValue: frame.rawType) {
        case .welcome:
            sendNext(context)
        case .onDuty:
            let now = nanos()
            latencies.append(now - sentAt)
            if now < deadline { sendNext(context) } else { done.succeed(latencies) }
        case .error:
            done.fail(BenchError("the server answered with an error"))
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.succeed(latencies)
    }
}
