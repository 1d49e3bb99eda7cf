import Foundation
import NIOCore
import NIOEmbedded
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// The server's real connection pipeline on an EmbeddedChannel, without a listener or a socket:
/// a subscriber gets its initial on-duty set, and a handoff reaches it as a BOUNDARY push at the
/// handoff's instant, through the tracker, the tenant's fan-out and the connection's one write path.
@Suite(.timeLimit(.minutes(10))) struct PushPipelineTests {
    static let hour: UnixMillis = 3_600_000

    /// Everything written so far, decoded.
    static func written(_ channel: EmbeddedChannel) throws -> [RosterMessage] {
        var bytes = ByteBuffer()
        while let chunk = try channel.readOutbound(as: ByteBuffer.self) { bytes.writeImmutableBuffer(chunk) }
        var decoder = FrameDecoder(maxFrameLength: 1 << 24)
        var messages: [RosterMessage] = []
        while let frame = try decoder.decodeFrame(from: &bytes) {
            messages.append(try #require(try RosterMessage.decode(frame)))
        }
        #expect(bytes.readableBytes == 0, "no partial frame")
        return messages
    }

    static func onDuty(_ messages: [RosterMessage]) -> [Roster_V1_OnDutyChanged] {
        messages.compactMap { if case .onDutyChanged(let push) = $0 { push } else { nil } }
    }

    @Test func aHandoffIsPushedToASubscriberWithoutASocket() throws {
        let loop = EmbeddedEventLoop()
        let scratch = TestScratch.directory("roster-pipeline")
        defer { TestScratch.remove(scratch) }
        let harness = try InboundPathHarness(
            loop: loop, store: try SQLiteRosterStore(path: scratch.path + "/roster.sqlite"),
            dataDirectory: scratch.path, now: t0)
        let channel = EmbeddedChannel(loop: loop)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        try harness.attach(to: channel)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()

        try channel.writeInbound(
            RosterMessage.hello(
                .with {
                    $0.minVersion = 1; $0.maxVersion = 1
                }
            ).frame(requestID: 1).encoded())
        try channel.writeInbound(RosterMessage.subscribe(.with { $0.topics = [.onDuty] }).frame(requestID: 2).encoded())
        loop.run()
        let start = try Self.written(channel)
        #expect(start.contains { if case .welcome = $0 { true } else { false } })
        let initial = try #require(Self.onDuty(start).first)
        #expect(initial.cause == .initial && initial.current.count == 1)
        let first = try #require(initial.current.first?.employee.id)
        let handoff = try #require(initial.hasUntilMs ? initial.untilMs : nil)
        #expect(handoff == t0 + Self.hour, "the harness's shifts change hands on the hour")
        let incoming = try #require(initial.next.first?.employee.id)

        // Just before the handoff nothing is pushed; at it, one BOUNDARY push stating it.
        harness.advanceClock(to: handoff - 1)
        loop.run()
        #expect(Self.onDuty(try Self.written(channel)).isEmpty)
        harness.advanceClock(to: handoff)
        loop.run()
        let pushes = Self.onDuty(try Self.written(channel))
        let push = try #require(pushes.first)
        #expect(pushes.count == 1)
        #expect(push.cause == .boundary && push.atMs == handoff)
        #expect(push.previous.map(\.employee.id) == [first] && push.current.map(\.employee.id) == [incoming])
        #expect(push.sequence > initial.sequence)
    }
}
