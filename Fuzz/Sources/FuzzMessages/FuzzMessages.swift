import NIOCore
import RosterProtocol

/// The first byte picks the message type, the rest is its body. A body that decodes must
/// re-encode to bytes that decode to the same message (round trip).

public func fuzzMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let body = ByteBuffer(bytes: UnsafeBufferPointer(start: data + 1, count: size - 1))
    let frame = Frame(rawType: data[0], flags: FrameFlags(rawValue: data[0] & 1), requestID: 1, body: body)
    guard let message = try? RosterMessage.decode(frame) else { return 0 }
    let again = try? RosterMessage.decode(message.frame(requestID: 1))
    precondition(again == message, "re-encoding changed the message")
    return 0
}
