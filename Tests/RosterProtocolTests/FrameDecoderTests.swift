import NIOCore
import NIOEmbedded
import NIOTestUtils
import RosterProtocol
import Testing

@Suite(.timeLimit(.minutes(10))) struct FrameDecoderTests {
    func frame(_ type: MessageType, _ requestID: UInt32, _ body: [UInt8]) -> Frame {
        Frame(type: type, requestID: requestID, body: ByteBuffer(bytes: body))
    }

    @Test func headerLayoutIsBigEndianLengthTypeFlagsRequestID() {
        let encoded = Frame(type: .ping, flags: .ignorable, requestID: 0x0102_0304, body: ByteBuffer(bytes: [0xAA]))
            .encoded()
        #expect(Array(encoded.readableBytesView) == [0, 0, 0, 7, 0x04, 0x01, 1, 2, 3, 4, 0xAA])
    }

    @Test func decodesByteAtATimeAndManyFramesPerRead() throws {
        let frames = [
            frame(.ping, 1, [8, 1]), frame(.getSnapshot, 2, []), frame(.search, 3, Array(repeating: 0x41, count: 300)),
        ]
        var input = ByteBuffer()
        for frame in frames { frame.write(to: &input) }
        // The verifier feeds the input whole, byte by byte, and in other splits.
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: [(input, frames)],
            decoderFactory: { FrameDecoder(maxFrameLength: 4096) })
    }

    @Test func oversizeFrameIsRefusedBeforeItsBodyArrives() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder(maxFrameLength: 4096)))
        var header = ByteBuffer()
        header.writeInteger(UInt32(5_000))
        #expect(throws: ProtocolError.frameTooLarge(declared: 5_000, limit: 4_096)) {
            try channel.writeInbound(header)
        }
        _ = try? channel.finish()
    }

    @Test func hugeDeclaredLengthDoesNotBuffer() throws {
        var decoder = FrameDecoder(maxFrameLength: 1 << 20)
        var buffer = ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(throws: ProtocolError.frameTooLarge(declared: 0xFFFF_FFFF, limit: 1 << 20)) {
            try decoder.decodeFrame(from: &buffer)
        }
    }

    @Test func lengthShorterThanTheHeaderIsMalformed() {
        var decoder = FrameDecoder(maxFrameLength: 4096)
        var buffer = ByteBuffer(bytes: [0, 0, 0, 2, 0x01, 0x00])
        #expect(throws: ProtocolError.malformedFrame("declared length 2 is shorter than the 6-byte header")) {
            try decoder.decodeFrame(from: &buffer)
        }
    }

    @Test func streamEndingInsideAFrameIsTruncated() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder(maxFrameLength: 4096)))
        var partial = frame(.ping, 1, Array(repeating: 1, count: 10)).encoded()
        partial.moveWriterIndex(to: 8)
        try channel.writeInbound(partial)
        #expect(throws: ProtocolError.truncatedFrame(expected: 20, received: 8)) {
            _ = try channel.finish()
        }
    }

    @Test func garbageNeverCrashesAndAlwaysEndsInATypedError() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let garbage = (0..<Int.random(in: 1...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            var decoder = FrameDecoder(maxFrameLength: 4096)
            var buffer = ByteBuffer(bytes: garbage)
            do {
                while let frame = try decoder.decodeFrame(from: &buffer) {
                    _ = try? RosterMessage.decode(frame)
                }
            } catch {
                // Any throw is a ProtocolError by the signature; it must be one of the framing ones.
                switch error {
                case .frameTooLarge, .malformedFrame: break
                default: Issue.record("unexpected \(error)")
                }
            }
        }
    }
}
