import Foundation
import NIOCore
import NIOEmbedded
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// Requests with their bodies through one server connection, past the handshake: the input is a
/// list of messages, each `type u8, length u16 (big-endian), body`, sent after an anonymous
/// Hello as frames numbered from 2. Unlike FuzzConnection, which mutates raw bytes and seldom
/// gets past framing, every input here reaches dispatch and the answer of its message types:
/// queries worked out on the (inline) work pool, subscriptions, refusals. Then the server's
/// timers run, and everything it wrote must decode as whole frames.

private let loop = EmbeddedEventLoop()
private let dataDirectory = NSTemporaryDirectory() + "roster-fuzz-requests-\(getpid())"
private let harness: InboundPathHarness = {
    atexit { try? FileManager.default.removeItem(atPath: dataDirectory) }  // leave nothing in /tmp
    try! DataDirectory(dataDirectory).create()
    let store = try! SQLiteRosterStore(path: DataDirectory(dataDirectory).database)
    return try! InboundPathHarness(loop: loop, store: store, dataDirectory: dataDirectory, now: 1_767_225_600_000)
}()

private let hello = RosterMessage.hello(
    .with {
        $0.minVersion = WireProtocol.supportedVersions.lowerBound
        $0.maxVersion = WireProtocol.supportedVersions.upperBound
    }
).frame(requestID: 1).encoded()

public func fuzzRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = hello
    var offset = 0, requestID: UInt32 = 2
    while offset + 3 <= size, requestID < 200 {
        let type = data[offset]
        let length = min(Int(data[offset + 1]) << 8 | Int(data[offset + 2]), size - offset - 3)
        var body = ByteBuffer()
        body.writeBytes(UnsafeBufferPointer(start: data + offset + 3, count: length))
        bytes.writeImmutableBuffer(Frame(rawType: type, requestID: requestID, body: body).encoded())
        offset += 3 + length
        requestID += 1
    }
    let channel = EmbeddedChannel(loop: loop)
    try! harness.attach(to: channel)
    _ = try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    _ = try? channel.writeInbound(bytes)
    settle()
    loop.advanceTime(by: .seconds(30))
    settle()

    var written = ByteBuffer()
    while let chunk = try? channel.readOutbound(as: ByteBuffer.self) { written.writeImmutableBuffer(chunk) }
    var decoder = FrameDecoder(maxFrameLength: 1 << 24)
    do {
        while let frame = try decoder.decodeFrame(from: &written) { _ = try RosterMessage.decode(frame) }
    } catch {
        preconditionFailure("the server wrote a malformed frame: \(error)")
    }
    precondition(written.readableBytes == 0, "the server wrote a partial frame")
    _ = try? channel.finish()
    settle()
    return 0
}

/// Lets the work handed off the loop run while this thread leaves the loop alone, then runs what
/// it scheduled back on the loop (`InboundPathHarness.settle`).
private func settle() {
    harness.settle { loop.run() }
}
