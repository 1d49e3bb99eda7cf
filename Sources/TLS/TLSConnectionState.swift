/// The life of one TLS connection, separate from OpenSSL and from NIO so that every transition
/// can be tested on its own: idle → handshaking → active → closing → closed.
///
/// The handler asks it what to do at each event and carries out the returned action.
public struct TLSConnectionState: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case idle, handshaking, active, closing, closed }

    public private(set) var phase: Phase = .idle
    public let isClient: Bool

    public init(isClient: Bool) { self.isClient = isClient }

    public enum ActiveAction: Sendable, Equatable {
        /// Client: send the ClientHello now.
        case startHandshake
        /// Server: wait for the ClientHello.
        case awaitPeer
        case none
    }

    /// The TCP connection is up.
    public mutating func channelActive() -> ActiveAction {
        guard phase == .idle else { return .none }
        phase = .handshaking
        return isClient ? .startHandshake : .awaitPeer
    }

    /// Ciphertext arrived before `channelActive` was seen (a server reading at once).
    public mutating func bytesReceived() {
        if phase == .idle { phase = .handshaking }
    }

    public enum HandshakeAction: Sendable, Equatable {
        /// Announce the handshake and encrypt the writes buffered during it.
        case flushBufferedWrites
        case none
    }

    public mutating func handshakeCompleted() -> HandshakeAction {
        guard phase == .handshaking else { return .none }
        phase = .active
        return .flushBufferedWrites
    }

    public mutating func handshakeFailed() {
        phase = .closed
    }

    public enum WriteAction: Sendable, Equatable { case buffer, encrypt, fail }

    public func write() -> WriteAction {
        switch phase {
        case .idle, .handshaking: return .buffer
        case .active: return .encrypt
        case .closing, .closed: return .fail
        }
    }

    public enum CloseAction: Sendable, Equatable {
        /// Send our close_notify, then close the socket once it is written.
        case sendCloseNotify
        /// Nothing encrypted was ever exchanged: close the socket.
        case closeSocket
        /// Already under way.
        case none
    }

    /// The application asked to close.
    public mutating func closeRequested() -> CloseAction {
        switch phase {
        case .active:
            phase = .closing
            return .sendCloseNotify
        case .idle, .handshaking:
            phase = .closed
            return .closeSocket
        case .closing, .closed:
            return .none
        }
    }

    /// The peer's close_notify arrived.
    public mutating func closeNotifyReceived() -> CloseAction {
        switch phase {
        case .active, .handshaking:
            phase = .closing
            return .sendCloseNotify
        case .closing:
            phase = .closed
            return .closeSocket
        case .idle, .closed:
            return .none
        }
    }

    public enum InactiveAction: Sendable, Equatable {
        /// The socket closed with no close_notify: report a ragged EOF (truncation is possible).
        case reportUncleanShutdown
        case none
    }

    /// The TCP connection is gone.
    public mutating func channelInactive() -> InactiveAction {
        defer { phase = .closed }
        switch phase {
        case .handshaking, .active: return .reportUncleanShutdown
        case .idle, .closing, .closed: return .none
        }
    }
}
