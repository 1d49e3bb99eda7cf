import NIOCore

/// Splits a byte stream into frames.
///
/// The declared length is checked against `maxFrameLength` as soon as the 4-byte length field is
/// readable, before any of the body is buffered, so an oversize frame costs at most one read's
/// worth of memory. The limit is shared with the connection handler through `FrameSizeLimit`: a
/// connection starts at the pre-handshake limit (4 KiB) and raises it after Welcome.
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = Frame

    public let limit: FrameSizeLimit

    public init(limit: FrameSizeLimit) {
        self.limit = limit
    }

    public init(maxFrameLength: Int) {
        self.init(limit: FrameSizeLimit(maxFrameLength))
    }

    /// The largest `length` value accepted (bytes after the length field).
    public var maxFrameLength: Int { limit.bytes }

    /// Decodes one frame from `buffer` if it holds a whole one.
    public mutating func decodeFrame(from buffer: inout ByteBuffer) throws(ProtocolError) -> Frame? {
        guard let declared = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        let length = Int(declared)
        if length > maxFrameLength { throw .frameTooLarge(declared: length, limit: maxFrameLength) }
        if length < Frame.headerRestLength {
            throw .malformedFrame("declared length \(length) is shorter than the \(Frame.headerRestLength)-byte header")
        }
        guard buffer.readableBytes >= 4 + length else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        let rawType: UInt8 = buffer.readInteger()!
        let flags: UInt8 = buffer.readInteger()!
        let requestID: UInt32 = buffer.readInteger()!
        let body = buffer.readSlice(length: length - Frame.headerRestLength)!
        return Frame(rawType: rawType, flags: FrameFlags(rawValue: flags), requestID: requestID, body: body)
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try decodeFrame(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0 {
            let expected = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self).map { Int($0) + 4 } ?? 4
            let received = buffer.readableBytes
            buffer.moveReaderIndex(forwardBy: received)
            throw ProtocolError.truncatedFrame(expected: expected, received: received)
        }
        return .needMoreData
    }
}

/// The frame size limit of one connection, read by its decoder and raised by its handler after
/// the handshake. Used on the connection's event loop only.
public final class FrameSizeLimit {
    public var bytes: Int
    public init(_ bytes: Int) { self.bytes = bytes }
}

/// Writes frames as bytes.
public struct FrameEncoder: MessageToByteEncoder, Sendable {
    public typealias OutboundIn = Frame

    public init() {}

    public func encode(data: Frame, out: inout ByteBuffer) throws {
        data.write(to: &out)
    }
}
