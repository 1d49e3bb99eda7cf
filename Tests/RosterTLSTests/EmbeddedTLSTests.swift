import NIOCore
import NIOEmbedded
import RosterTestSupport
import RosterTLS
import Testing

/// Two TLSHandlers talking through EmbeddedChannels: OpenSSL on both ends, no sockets.
@Suite(.timeLimit(.minutes(10))) struct EmbeddedTLSTests {
    /// Collects what arrives above a TLSHandler.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var received = ""
        var handshake: TLSHandshakeCompleted?
        var errors: [any Error] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readString(length: buffer.readableBytes) ?? ""
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? TLSHandshakeCompleted { handshake = event }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { errors.append(error) }
    }

    struct Pair {
        let client = EmbeddedChannel()
        let server = EmbeddedChannel()
        let clientSide = Collector()
        let serverSide = Collector()

        init(pki: TestPKI, hostname: String = "localhost", trust: TLSTrust? = nil) throws {
            let serverContext = try TLSContext.server(
                .init(certificateChainFile: pki.serverChainFile, privateKeyFile: pki.serverKeyFile))
            let clientContext = try TLSContext.client(.init(trust: trust ?? .caFile(pki.caFile)))
            try client.pipeline.syncOperations.addHandler(
                try TLSHandler(context: clientContext, serverHostname: hostname))
            try client.pipeline.syncOperations.addHandler(clientSide)
            try server.pipeline.syncOperations.addHandler(try TLSHandler(context: serverContext))
            try server.pipeline.syncOperations.addHandler(serverSide)
        }

        func connect() throws {
            try server.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
            try client.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
            try shuttle()
        }

        /// Moves bytes between the two until neither has anything to send.
        func shuttle() throws {
            var moved = true
            while moved {
                moved = false
                while let bytes = try client.readOutbound(as: ByteBuffer.self) {
                    moved = true
                    if server.isActive { _ = try? server.writeInbound(bytes) }
                }
                while let bytes = try server.readOutbound(as: ByteBuffer.self) {
                    moved = true
                    if client.isActive { _ = try? client.writeInbound(bytes) }
                }
            }
        }

        func send(_ text: String, from channel: EmbeddedChannel) {
            channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
        }
    }

    @Test func handshakeThenDataBothWays() throws {
        let pair = try Pair(pki: try TestPKI())
        try pair.connect()
        #expect(pair.clientSide.handshake?.negotiatedVersion == "TLSv1.3")
        #expect(pair.serverSide.handshake?.negotiatedVersion == "TLSv1.3")
        pair.send("ping from client", from: pair.client)
        try pair.shuttle()
        #expect(pair.serverSide.received == "ping from client")
        pair.send(String(repeating: "x", count: 100_000), from: pair.server)  // several records
        try pair.shuttle()
        #expect(pair.clientSide.received.count == 100_000)
    }

    @Test func writesBeforeTheHandshakeAreBufferedAndDelivered() throws {
        let pair = try Pair(pki: try TestPKI())
        try pair.server.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        try pair.client.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).wait()
        let written = pair.client.eventLoop.makePromise(of: Void.self)
        pair.client.writeAndFlush(ByteBuffer(string: "early"), promise: written)
        // Only the ClientHello may have left so far: no application data before the handshake.
        try pair.shuttle()
        #expect(pair.serverSide.received == "early")
        #expect(throws: Never.self) { try written.futureResult.wait() }
    }

    @Test func closeNotifyBothWays() throws {
        let pair = try Pair(pki: try TestPKI())
        try pair.connect()
        pair.send("last words", from: pair.client)
        let closed = pair.client.close()
        try pair.shuttle()
        // Data written before close arrives first; the server answers close_notify and closes.
        #expect(pair.serverSide.received == "last words")
        #expect(!pair.server.isActive)
        #expect(pair.serverSide.errors.isEmpty, "a clean close is not an error: \(pair.serverSide.errors)")
        try closed.wait()
        #expect(!pair.client.isActive)
    }

    @Test func aSocketClosedWithoutCloseNotifyIsReportedAsRaggedEOF() throws {
        let pair = try Pair(pki: try TestPKI())
        try pair.connect()
        pair.client.pipeline.fireChannelInactive()  // the TCP connection vanished
        #expect(pair.clientSide.errors.contains { ($0 as? TLSError) == .uncleanShutdown })
    }

    @Test func wrongHostnameIsRefused() throws {
        let pair = try Pair(pki: try TestPKI(), hostname: "elsewhere.example")
        try pair.connect()
        let error = pair.clientSide.errors.compactMap { $0 as? TLSError }.first
        guard case .certificateRejected(let code, let reason) = error else {
            Issue.record("expected certificateRejected, got \(String(describing: error))")
            return
        }
        #expect(code == 62)  // X509_V_ERR_HOSTNAME_MISMATCH
        #expect(reason.contains("hostname mismatch"))
        #expect(pair.clientSide.handshake == nil)
        #expect(pair.serverSide.received.isEmpty)
    }

    @Test func unknownCAIsRefused() throws {
        let pair = try Pair(pki: try TestPKI(), trust: .caFile(try TestPKI().caFile))
        try pair.connect()
        guard case .certificateRejected(_, let reason) = pair.clientSide.errors.compactMap({ $0 as? TLSError }).first
        else {
            Issue.record("expected certificateRejected, got \(pair.clientSide.errors)")
            return
        }
        #expect(reason.contains("issuer") || reason.contains("self-signed"))
    }

    @Test func aChangedPinnedCAIsRefusedWithItsFingerprint() throws {
        let pki = try TestPKI()
        let other = try CertificateIssuer.makeAuthority(commonName: "Someone Else")
        let pair = try Pair(
            pki: pki, trust: .pinned(der: other.certificate.der, fingerprint: other.certificate.fingerprint))
        try pair.connect()
        let error = pair.clientSide.errors.compactMap { $0 as? TLSError }.first
        guard case .pinnedFingerprintChanged(_, let pinned, let presented) = error else {
            Issue.record("expected pinnedFingerprintChanged, got \(String(describing: error))")
            return
        }
        #expect(pinned == other.certificate.fingerprint)
        #expect(presented == pki.authority.certificate.fingerprint)
        #expect(error!.description.contains("CHANGED"))
    }

    @Test func aPinnedLeafIsTrustedWhenTheServerSendsNoCA() throws {
        let pki = try TestPKI()
        let leaf = try Certificate.load(pemFile: pki.serverChainFile)[0]
        let pair = try Pair(pki: pki, trust: .pinned(der: leaf.der, fingerprint: leaf.fingerprint))
        try pair.connect()
        #expect(pair.clientSide.handshake != nil, "\(pair.clientSide.errors)")
    }

    @Test func thePinnedCAIsTrusted() throws {
        let pki = try TestPKI()
        let pair = try Pair(
            pki: pki,
            trust: .pinned(der: pki.authority.certificate.der, fingerprint: pki.authority.certificate.fingerprint))
        try pair.connect()
        #expect(pair.clientSide.handshake != nil)
        #expect(pair.clientSide.errors.isEmpty)
    }
}
