import Foundation
import NIOCore
import NIOEmbedded
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// Regression for what FuzzConnection found first: a closed connection must not keep its
/// handler, context and pipeline alive (the handler held its context, which holds the handler).
@Suite(.timeLimit(.minutes(10))) struct ConnectionLifetimeTests {
    static let inputs: [(String, [ByteBuffer])] = [
        ("nothing", []),
        (
            "hello and subscribe",
            [
                RosterMessage.hello(
                    .with {
                        $0.minVersion = 1; $0.maxVersion = 1
                    }
                ).frame(requestID: 1).encoded(),
                RosterMessage.subscribe(.with { $0.topics = [.onDuty, .roster] }).frame(requestID: 2).encoded(),
            ]
        ),
        ("garbage", [ByteBuffer(bytes: [UInt8](repeating: 0xFF, count: 20))]),
        (
            "a bad token",
            [
                RosterMessage.hello(
                    .with {
                        $0.minVersion = 1; $0.maxVersion = 1; $0.token = "rst_x_y"
                    }
                ).frame(requestID: 1).encoded()
            ]
        ),
        ("half a frame", [ByteBuffer(bytes: [0, 0, 0, 40, 1, 0])]),
    ]

    @Test(arguments: 0..<inputs.count)
    func aClosedConnectionIsFreed(case index: Int) throws {
        let (name, input) = Self.inputs[index]
        let loop = EmbeddedEventLoop()
        let directory = TestScratch.directory("roster-life").path
        let harness = try InboundPathHarness(
            loop: loop, store: try SQLiteRosterStore(path: directory + "/roster.sqlite"),
            dataDirectory: directory, now: t0)
        weak var released: ChannelPipeline?
        do {
            let channel = EmbeddedChannel(loop: loop)
            try harness.attach(to: channel)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
            for bytes in input where channel.isActive { _ = try? channel.writeInbound(bytes) }
            loop.advanceTime(by: .seconds(30))
            while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
            _ = try? channel.finish(acceptAlreadyClosed: true)
            loop.advanceTime(by: .seconds(60))
            released = channel.pipeline
        }
        #expect(released == nil, "after \(name), the pipeline and its handlers are freed once closed")
    }
}
