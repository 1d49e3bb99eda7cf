import NIOCore
import RosterProtocol

/// Any byte stream through the frame decoder, then every frame through message decoding: it may
/// throw a ProtocolError, never crash, and never buffer past the limit.

public func fuzzFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var buffer = ByteBuffer(bytes: UnsafeBufferPointer(start: data, count: size))
    var decoder = FrameDecoder(maxFrameLength: 4096)
    do {
        while let frame = try decoder.decodeFrame(from: &buffer) {
            precondition(
                frame.body.readableBytes <= 4096 - Frame.headerRestLength, "a frame over the limit was accepted")
            _ = try? RosterMessage.decode(frame)
        }
    } catch {
        // A typed ProtocolError is the expected outcome for bad input.
    }
    return 0
}
