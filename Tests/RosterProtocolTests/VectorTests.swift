import Foundation
import NIOCore
import RosterProtocol
import SwiftProtobuf
import Testing

/// The test vectors under Vectors/ pin the wire format: for every message type, the frame as hex
/// and its decoded body as protobuf JSON. docs/PROTOCOL.md points implementers at them.
/// Set ROSTER_WRITE_VECTORS=1 to rewrite them after a deliberate format change.
@Suite(.timeLimit(.minutes(10))) struct VectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    static func fileName(_ message: RosterMessage) -> String {
        String(format: "%02x-%@.json", message.type.rawValue, message.type.name)
    }

    static func hex(_ buffer: ByteBuffer) -> String {
        buffer.readableBytesView.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    @Test func everyMessageTypeHasASample() {
        #expect(Set(SampleMessages.all.map(\.1.type)) == Set(MessageType.allCases))
    }

    @Test(arguments: SampleMessages.all.map { $0 })
    func vectorMatchesBothWays(requestID: UInt32, message: RosterMessage) throws {
        try Self.check(
            Self.directory.appendingPathComponent(Self.fileName(message)), requestID: requestID, message: message)
    }

    @Test(arguments: SampleMessages.more.map { $0 })
    func furtherVectorMatchesBothWays(name: String, requestID: UInt32, message: RosterMessage) throws {
        let file = Self.fileName(message).replacingOccurrences(of: ".json", with: "-\(name).json")
        try Self.check(Self.directory.appendingPathComponent(file), requestID: requestID, message: message)
    }

    static func check(_ url: URL, requestID: UInt32, message: RosterMessage) throws {
        let encoded = message.frame(requestID: requestID).encoded()
        if ProcessInfo.processInfo.environment["ROSTER_WRITE_VECTORS"] == "1" {
            let body = try JSONSerialization.jsonObject(with: Data(message.body.jsonString().utf8))
            let document: [String: Any] = [
                "type": message.type.name, "code": Int(message.type.rawValue),
                "requestId": Int(requestID), "flags": 0, "frame": Self.hex(encoded), "body": body,
            ]
            try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]).write(to: url)
        }
        let vector = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
            "missing \(url.lastPathComponent)")

        // Encode: our bytes equal the vector's bytes.
        let hex = try #require(vector["frame"] as? String)
        #expect(Self.hex(encoded) == hex)

        // Decode: the vector's bytes decode to the sample, header and body.
        var buffer = ByteBuffer(bytes: Self.bytes(hex: hex))
        var decoder = FrameDecoder(maxFrameLength: WireProtocol.defaultMaxFrameLength)
        let frame = try #require(try decoder.decodeFrame(from: &buffer))
        #expect(buffer.readableBytes == 0)
        #expect(frame.rawType == UInt8(vector["code"] as! Int))
        #expect(frame.requestID == UInt32(vector["requestId"] as! Int))
        #expect(try RosterMessage.decode(frame) == message)

        // The JSON rendering of the body is the same message.
        let bodyJSON = try JSONSerialization.data(withJSONObject: vector["body"] as Any)
        let parsed = try type(of: message.body).init(jsonUTF8Bytes: bodyJSON)
        #expect(parsed.isEqualTo(message: message.body))
    }
}
