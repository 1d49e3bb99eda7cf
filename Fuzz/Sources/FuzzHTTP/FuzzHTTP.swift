import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import RosterHTTP
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterWeb

/// HTTP requests as bytes: NIO's decoder reads them as the listener's pipeline does, and each
/// head is answered by the server's HTTP routes (health, metrics, /v1 on call and next, calendar
/// feeds, with their query parameters), with the demo tenant's admin token when the first byte
/// is odd. No crash, and every answer is a status the routes use.

private let loop = EmbeddedEventLoop()
private let dataDirectory = NSTemporaryDirectory() + "roster-fuzz-http-\(getpid())"
private let harness: InboundPathHarness = {
    atexit { try? FileManager.default.removeItem(atPath: dataDirectory) }
    try! DataDirectory(dataDirectory).create()
    let store = try! SQLiteRosterStore(path: DataDirectory(dataDirectory).database)
    return try! InboundPathHarness(loop: loop, store: store, dataDirectory: dataDirectory, now: 1_767_225_600_000)
}()
private let http = HTTPRequestHarness.withWebApp(harness)

private final class Heads: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    var heads: [HTTPRequestHead] = []
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { heads.append(head) }
    }
    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}

private let statuses: Set<Int> = [200, 400, 401, 403, 404, 405, 429, 500, 503]

public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let authorized = data[0] & 1 == 1
    let heads = Heads()
    let channel = EmbeddedChannel(loop: loop)
    try! channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
    try! channel.pipeline.syncOperations.addHandler(heads)
    _ = try? channel.writeInbound(ByteBuffer(bytes: UnsafeBufferPointer(start: data + 1, count: size - 1)))
    _ = try? channel.finish()
    for head in heads.heads.prefix(8) {
        let authorization = authorized ? "Bearer \(harness.adminToken)" : head.headers.first(name: "authorization")
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await http.respond(method: head.method.rawValue, uri: head.uri, authorization: authorization)
            done.signal()
        }
        done.wait()
        precondition(statuses.contains(status.value), "an answer with status \(status.value)")
    }
    return 0
}

private final class StatusBox: @unchecked Sendable {  // written by one task, read after its signal
    var value = 0
}
