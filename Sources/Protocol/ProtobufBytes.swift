import NIOCore
import SwiftProtobuf

/// A ByteBuffer seen as protobuf's "bag of bytes", so bodies decode straight from the received
/// buffer and encode straight into a new one, without an intermediate [UInt8] or Data.
struct ProtobufBytes: SwiftProtobufContiguousBytes {
    var buffer: ByteBuffer

    init(_ buffer: ByteBuffer) { self.buffer = buffer }

    init(repeating: UInt8, count: Int) {
        buffer = ByteBuffer(repeating: repeating, count: count)
    }

    init<S: Sequence>(_ sequence: S) where S.Element == UInt8 {
        buffer = ByteBuffer(bytes: sequence)
    }

    var count: Int { buffer.readableBytes }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeReadableBytes(body)
    }

    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeMutableReadableBytes(body)
    }
}

extension SwiftProtobuf.Message {
    /// Decodes a body. Unknown fields are kept, so a newer peer's additions survive a relay.
    init(body: ByteBuffer) throws {
        self = try Self(serializedBytes: ProtobufBytes(body))
    }

    /// Encodes this message as a frame body.
    func bodyBuffer() -> ByteBuffer {
        // Serialising an initialised proto3 message cannot fail.
        (try? serializedBytes() as ProtobufBytes)?.buffer ?? ByteBuffer()
    }
}
