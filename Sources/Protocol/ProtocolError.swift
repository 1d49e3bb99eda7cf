import NIOCore

/// Everything that can be wrong with bytes received from a peer. Each case maps to one wire
/// error code (see `errorCode`), so a bad peer always learns exactly what it did.
public enum ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The declared length exceeds the limit in force; detected before any body is buffered.
    case frameTooLarge(declared: Int, limit: Int)
    /// The declared length cannot even hold the header.
    case malformedFrame(String)
    /// The stream ended inside a frame.
    case truncatedFrame(expected: Int, received: Int)
    /// A frame type this peer does not know, without the IGNORABLE flag.
    case unknownMessageType(UInt8)
    /// The body does not decode as the message its type names.
    case undecodableBody(MessageType, String)
    /// A known message that may not be sent in this direction or at this point.
    case unexpectedMessage(MessageType, String)

    public var description: String {
        switch self {
        case .frameTooLarge(let declared, let limit):
            return "frame of \(declared) bytes exceeds the limit of \(limit) bytes"
        case .malformedFrame(let why):
            return "malformed frame: \(why)"
        case .truncatedFrame(let expected, let received):
            return "connection closed inside a frame (\(received) of \(expected) bytes received)"
        case .unknownMessageType(let type):
            return "unknown message type 0x\(String(type, radix: 16))"
        case .undecodableBody(let type, let why):
            return "body of \(type) does not decode: \(why)"
        case .unexpectedMessage(let type, let why):
            return "unexpected \(type): \(why)"
        }
    }

    /// The wire error code a receiver answers with.
    public var errorCode: Roster_V1_ErrorCode {
        switch self {
        case .frameTooLarge: return .frameTooLarge
        case .malformedFrame, .truncatedFrame, .undecodableBody: return .malformedFrame
        case .unknownMessageType: return .unknownMessageType
        case .unexpectedMessage: return .protocolViolation
        }
    }
}
