import NIOCore
import NIOEmbedded
import NIOTestUtils
import RosterProtocol
import Testing

@Suite(.timeLimit(.minutes(10))) struct MessageDecodingTests {
    @Test func unknownTypeWithoutIgnorableFlagIsAnError() {
        #expect(throws: ProtocolError.unknownMessageType(0x7F)) {
            try RosterMessage.decode(Frame(rawType: 0x7F, requestID: 1, body: ByteBuffer()))
        }
    }

    @Test func unknownIgnorableTypeIsDropped() throws {
        #expect(
            try RosterMessage.decode(Frame(rawType: 0x7F, flags: .ignorable, requestID: 0, body: ByteBuffer())) == nil)
    }

    @Test func bodyThatDoesNotDecodeIsTyped() {
        #expect {
            try RosterMessage.decode(Frame(type: .hello, requestID: 1, body: ByteBuffer(bytes: [0x0A, 0xFF, 0x01])))
        } throws: { error in
            guard case .undecodableBody(.hello, _) = error as? ProtocolError else { return false }
            return true
        }
    }

    @Test func unknownFieldsAreSkipped() throws {
        var body = Roster_V1_Ping.with { $0.nonce = 5 }.serializedBytesForTest()
        body += [0xF8, 0x06, 0x01]  // field 111, varint 1: unknown to this build
        let decoded = try RosterMessage.decode(Frame(type: .ping, requestID: 1, body: ByteBuffer(bytes: body)))
        guard case .ping(let ping) = decoded else { Issue.record("not a ping"); return }
        #expect(ping.nonce == 5)
    }

    @Test func errorCodesOfProtocolErrors() {
        #expect(ProtocolError.frameTooLarge(declared: 2, limit: 1).errorCode == .frameTooLarge)
        #expect(ProtocolError.unknownMessageType(1).errorCode == .unknownMessageType)
        #expect(ProtocolError.truncatedFrame(expected: 2, received: 1).errorCode == .malformedFrame)
        #expect(ProtocolError.unexpectedMessage(.hello, "again").errorCode == .protocolViolation)
    }
}

extension Roster_V1_Ping {
    func serializedBytesForTest() -> [UInt8] { (try? serializedBytes()) ?? [] }
}
