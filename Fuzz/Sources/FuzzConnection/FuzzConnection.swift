import Foundation
import NIOCore
import NIOEmbedded
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// One server connection's whole inbound path, from the first byte through the handshake to
/// dispatch: the bytes arrive in two reads (the first input byte picks where they split), the
/// server's timers then run (Hello deadline, liveness, authentication delay), and everything the
/// server wrote must be well-formed frames that decode.

private let loop = EmbeddedEventLoop()
private let dataDirectory = NSTemporaryDirectory() + "roster-fuzz-\(getpid())"
private let harness: InboundPathHarness = {
    atexit { try? FileManager.default.removeItem(atPath: dataDirectory) }  // leave nothing in /tmp
    try! DataDirectory(dataDirectory).create()
    let store = try! SQLiteRosterStore(path: DataDirectory(dataDirectory).database)
    return try! InboundPathHarness(loop: loop, store: store, dataDirectory: dataDirectory, now: 1_767_225_600_000)
}()

public func fuzzConnection(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let cut = input.isEmpty ? 0 : Int(data[0]) % (input.count + 1)
    let channel = EmbeddedChannel(loop: loop)
    try! harness.attach(to: channel)
    _ = try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    for part in [UnsafeBufferPointer(rebasing: input[..<cut]), UnsafeBufferPointer(rebasing: input[cut...])]
    where !part.isEmpty && channel.isActive {
        _ = try? channel.writeInbound(ByteBuffer(bytes: part))
        settle()
    }
    loop.advanceTime(by: .seconds(30))
    settle()

    var written = ByteBuffer()
    while let chunk = try? channel.readOutbound(as: ByteBuffer.self) { written.writeImmutableBuffer(chunk) }
    var decoder = FrameDecoder(maxFrameLength: 1 << 24)
    do {
        while let frame = try decoder.decodeFrame(from: &written) {
            _ = try RosterMessage.decode(frame)
        }
    } catch {
        preconditionFailure("the server wrote a malformed frame: \(error)")
    }
    precondition(written.readableBytes == 0, "the server wrote a partial frame")
    _ = try? channel.finish()
    settle()
    return 0
}

/// Lets what the connection handed off the loop run (requests queued behind admin changes, a
/// refused Hello's audit entry) while this thread leaves the loop alone, then runs what that work
/// scheduled back on the loop, until nothing is left.
private func settle() {
    harness.settle { loop.run() }
}
