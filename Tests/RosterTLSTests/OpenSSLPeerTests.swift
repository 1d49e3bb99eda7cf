import Foundation
import NIOCore
import NIOPosix
import RosterTestSupport
import RosterTLS
import Testing

/// Our TLSHandler as a client of Debian's `openssl s_server` over real sockets.
@Suite(.timeLimit(.minutes(10))) struct OpenSSLPeerTests {
    /// Sends a line and waits for the answer or an error.
    final class LineExchange: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let line: String
        let answer: EventLoopPromise<String>
        var version = ""
        private var received = ""

        init(line: String, answer: EventLoopPromise<String>) {
            self.line = line
            self.answer = answer
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard let done = event as? TLSHandshakeCompleted else { return }
            version = done.negotiatedVersion
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line + "\n")), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readString(length: buffer.readableBytes) ?? ""
            if received.hasSuffix("\n") { answer.succeed(received) }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { answer.fail(error) }
        func channelInactive(context: ChannelHandlerContext) { answer.fail(ChannelError.eof) }
    }

    static func exchange(port: Int, hostname: String, trust: TLSTrust, line: String) async throws -> (
        answer: String, version: String
    ) {
        let context = try TLSContext.client(.init(trust: trust))
        let group = MultiThreadedEventLoopGroup.singleton
        let answer = group.next().makePromise(of: String.self)
        let handler = LineExchange(line: line, answer: answer)
        let channel = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    try TLSHandler(context: context, serverHostname: hostname))
                try channel.pipeline.syncOperations.addHandler(handler)
                return channel
            }
        }
        defer { channel.close(promise: nil) }
        let text = try await answer.futureResult.get()
        let version = try await channel.eventLoop.submit { handler.version }.get()
        return (text, version)
    }

    @Test func ourClientTalksToOpenSSLServer() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        let pki = try TestPKI()
        try await withOpenSSLServer(arguments: ["-cert", pki.serverChainFile, "-key", pki.serverKeyFile, "-rev"]) {
            server in
            let (answer, version) = try await Self.exchange(
                port: server.port, hostname: "localhost",
                trust: .caFile(pki.caFile), line: "roster")
            #expect(answer == "retsor\n")  // -rev: the line, reversed, came back through TLS
            #expect(version == "TLSv1.3")
        }
    }

    @Test func aServerOfferingOnlyTLS11IsRefused() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        let pki = try TestPKI()
        let refusal = try await withOpenSSLServer(arguments: [
            "-cert", pki.serverChainFile, "-key", pki.serverKeyFile, "-rev",
            "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0",
        ]) { server in
            await #expect(throws: TLSError.self) {
                _ = try await Self.exchange(
                    port: server.port, hostname: "localhost", trust: .caFile(pki.caFile), line: "x")
            }
        }
        let error = try #require(refusal)
        if case .protocolVersionRefused = error {
        } else {
            Issue.record("expected protocolVersionRefused, got \(error)")
        }
    }

    @Test func openSSLServerWithAnUntrustedCertificateIsRefused() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        let pki = try TestPKI()
        _ = try await withOpenSSLServer(arguments: ["-cert", pki.serverChainFile, "-key", pki.serverKeyFile, "-rev"]) {
            server in
            await #expect(throws: TLSError.self) {
                _ = try await Self.exchange(port: server.port, hostname: "localhost", trust: .system, line: "x")
            }
        }
    }
}
