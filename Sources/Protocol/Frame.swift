import NIOCore

/// The kind of message a frame carries (docs/PROTOCOL.md, "Message types").
public enum MessageType: UInt8, Sendable, CaseIterable {
    case hello = 0x01
    case welcome = 0x02
    case error = 0x03
    case ping = 0x04
    case pong = 0x05
    case goingAway = 0x06

    case getOnDuty = 0x10
    case onDuty = 0x11
    case listEmployees = 0x12
    case employees = 0x13
    case search = 0x14
    case getEmployee = 0x15
    case employee = 0x16
    case listShifts = 0x17
    case shifts = 0x18
    case getSnapshot = 0x19
    case snapshot = 0x1A
    case listSchedules = 0x1B
    case schedules = 0x1C
    case getFinalSchedule = 0x1D
    case finalSchedule = 0x1E
    case getNextOnDuty = 0x1F

    case subscribe = 0x20
    case subscribed = 0x21
    case unsubscribe = 0x22
    case unsubscribed = 0x23
    case synced = 0x24
    case progress = 0x25
    case onDutyChanged = 0x26
    case rosterChanged = 0x27
    case notice = 0x28
    case escalationChanged = 0x29

    case upsertEmployee = 0x30
    case deleteEmployee = 0x31
    case addShift = 0x32
    case deleteShift = 0x33
    case setMotd = 0x34
    case importData = 0x35
    case mutationResult = 0x36
    case editSchedule = 0x37
    case getAudit = 0x38
    case audit = 0x39
    case getCalendar = 0x3A
    case calendar = 0x3B
    case notificationAdmin = 0x3C
    case notificationAdminResult = 0x3D
    case getReport = 0x3E
    case report = 0x3F
    case applyDefinition = 0x40
    case definitionPlan = 0x41
    case getEscalation = 0x42
    case escalation = 0x43
    case identityAdmin = 0x44
    case identityAdminResult = 0x45
    case personalTokens = 0x46
    case personalTokensResult = 0x47
    case push = 0x48
    case pushResult = 0x49
}

/// The release, as `--version` prints it.
public enum RosterVersion {
    public static let release = "0.4.0"
    /// The commit a release build was made from; "development" for any other build.
    public static var commit: String { BuildInfo.commit }
    public static var description: String {
        "\(release) (commit \(commit), wire protocol \(WireProtocol.supportedVersions.upperBound))"
    }
}

extension MessageType {
    /// The type's name in docs/PROTOCOL.md's table (section 3), as test vectors name it.
    public var name: String {
        switch self {
        case .importData: return "Import"
        default:
            let text = String(describing: self)
            return text.prefix(1).uppercased() + text.dropFirst()
        }
    }
}

/// Frame flag bits.
public struct FrameFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A receiver that does not know the frame's type drops it instead of answering
    /// UNKNOWN_MESSAGE_TYPE.
    public static let ignorable = FrameFlags(rawValue: 0x01)
}

/// One frame as it crosses the wire:
///
///     u32 length | u8 type | u8 flags | u32 request_id | body (length - 6 bytes)
///
/// All integers are big-endian; `length` counts every byte after itself. The type is kept raw so
/// that frames of types this build does not know can still be framed, skipped or refused.
public struct Frame: Sendable, Hashable {
    /// Bytes of `type`, `flags` and `request_id`: the part of the header that `length` counts.
    public static let headerRestLength = 6
    /// The whole header, including the length field.
    public static let headerLength = 10

    public var rawType: UInt8
    public var flags: FrameFlags
    public var requestID: UInt32
    public var body: ByteBuffer

    public init(rawType: UInt8, flags: FrameFlags = [], requestID: UInt32, body: ByteBuffer) {
        self.rawType = rawType
        self.flags = flags
        self.requestID = requestID
        self.body = body
    }

    public init(type: MessageType, flags: FrameFlags = [], requestID: UInt32, body: ByteBuffer) {
        self.init(rawType: type.rawValue, flags: flags, requestID: requestID, body: body)
    }

    public var type: MessageType? { MessageType(rawValue: rawType) }

    /// Appends the encoded frame to `buffer`.
    public func write(to buffer: inout ByteBuffer) {
        buffer.reserveCapacity(minimumWritableBytes: Frame.headerLength + body.readableBytes)
        buffer.writeInteger(UInt32(Frame.headerRestLength + body.readableBytes))
        buffer.writeInteger(rawType)
        buffer.writeInteger(flags.rawValue)
        buffer.writeInteger(requestID)
        var body = body
        buffer.writeBuffer(&body)
    }

    /// The encoded frame in a buffer of its own: what the push path encodes once and shares.
    public func encoded(allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: Frame.headerLength + body.readableBytes)
        write(to: &buffer)
        return buffer
    }
}
