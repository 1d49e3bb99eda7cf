import RosterTLS
import Testing

/// The TLS state machine on its own: idle → handshaking → active → closing → closed.
@Suite(.timeLimit(.minutes(10))) struct TLSConnectionStateTests {
    @Test func clientStartsTheHandshakeAndServerWaits() {
        var client = TLSConnectionState(isClient: true)
        var server = TLSConnectionState(isClient: false)
        #expect(client.channelActive() == .startHandshake)
        #expect(server.channelActive() == .awaitPeer)
        #expect(client.phase == .handshaking && server.phase == .handshaking)
        #expect(client.channelActive() == .none)
    }

    @Test func writesAreBufferedUntilTheHandshakeCompletes() {
        var state = TLSConnectionState(isClient: true)
        #expect(state.write() == .buffer)
        _ = state.channelActive()
        #expect(state.write() == .buffer)
        #expect(state.handshakeCompleted() == .flushBufferedWrites)
        #expect(state.phase == .active)
        #expect(state.write() == .encrypt)
        #expect(state.handshakeCompleted() == .none)
    }

    @Test func closingSendsCloseNotifyOnceAndRefusesWrites() {
        var state = TLSConnectionState(isClient: false)
        _ = state.channelActive()
        _ = state.handshakeCompleted()
        #expect(state.closeRequested() == .sendCloseNotify)
        #expect(state.phase == .closing)
        #expect(state.write() == .fail)
        #expect(state.closeRequested() == .none)
        // The peer's reply to our close_notify ends it.
        #expect(state.closeNotifyReceived() == .closeSocket)
        #expect(state.phase == .closed)
    }

    @Test func peerCloseNotifyIsAnswered() {
        var state = TLSConnectionState(isClient: true)
        _ = state.channelActive()
        _ = state.handshakeCompleted()
        #expect(state.closeNotifyReceived() == .sendCloseNotify)
        #expect(state.phase == .closing)
        #expect(state.channelInactive() == .none)
        #expect(state.phase == .closed)
    }

    @Test func socketClosingWithoutCloseNotifyIsARaggedEOF() {
        var active = TLSConnectionState(isClient: true)
        _ = active.channelActive()
        _ = active.handshakeCompleted()
        #expect(active.channelInactive() == .reportUncleanShutdown)

        var handshaking = TLSConnectionState(isClient: true)
        _ = handshaking.channelActive()
        #expect(handshaking.channelInactive() == .reportUncleanShutdown)

        var idle = TLSConnectionState(isClient: false)
        #expect(idle.channelInactive() == .none)
    }

    @Test func closeBeforeTheHandshakeJustClosesTheSocket() {
        var state = TLSConnectionState(isClient: true)
        _ = state.channelActive()
        #expect(state.closeRequested() == .closeSocket)
        #expect(state.phase == .closed)
        #expect(state.write() == .fail)
    }

    @Test func aFailedHandshakeIsFinal() {
        var state = TLSConnectionState(isClient: false)
        state.bytesReceived()
        #expect(state.phase == .handshaking)
        state.handshakeFailed()
        #expect(state.phase == .closed)
        #expect(state.handshakeCompleted() == .none)
        #expect(state.write() == .fail)
    }
}
