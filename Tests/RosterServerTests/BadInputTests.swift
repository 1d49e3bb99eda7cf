import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// Each bad input gets its documented error and a close, and the server keeps serving others.
@Suite(.timeLimit(.minutes(10))) struct BadInputTests {
    func expectClosedWith(
        _ code: Roster_V1_ErrorCode, _ socket: RawSocket, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let (frames, closed) = await socket.readUntilClosed()
        #expect(frames.last?.errorCode == code, "frames: \(frames.map(\.type))", sourceLocation: sourceLocation)
        #expect(closed, sourceLocation: sourceLocation)
    }

    func expectHealthy(_ harness: ServerHarness) async throws {
        let client = try await harness.connect()
        guard case .onDuty = try await client.request(.getOnDuty(.init())) else {
            Issue.record("the server stopped answering")
            return
        }
        await client.close()
    }

    @Test func garbageBytes() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            await expectClosedWith(.frameTooLarge, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func lengthShorterThanAHeader() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send([0, 0, 0, 2, 1, 0])
            await expectClosedWith(.malformedFrame, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func oversizeFrameBeforeAndAfterTheHandshake() async throws {
        try await using(try await ServerHarness.start { $0.limits.maxFrameBytes = 64 * 1024 }) { harness in
            let early = try RawSocket(port: harness.port)
            early.send([0, 0, 0x13, 0x88])  // 5,000 bytes declared before Hello: over the 4 KiB limit
            await expectClosedWith(.frameTooLarge, early)

            let late = try RawSocket(port: harness.port)
            late.send(validHello)
            #expect(await late.readFrame()?.type == .welcome)
            late.send([0, 0x01, 0x86, 0xA0, 0x12, 0])  // 100,000 bytes declared: over 64 KiB
            await expectClosedWith(.frameTooLarge, late)
            try await expectHealthy(harness)
        }
    }

    @Test func noHelloBeforeTheDeadline() async throws {
        // Long enough that the healthy client below says Hello in time on a loaded machine (200 ms
        // was not, in a stress run; 2 s was not with the full suite beside a fuzz build), short
        // enough to wait for.
        try await using(try await ServerHarness.start { $0.limits.helloTimeout = .seconds(6) }) { harness in
            let socket = try RawSocket(port: harness.port)
            await expectClosedWith(.deadlineExceeded, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func unsupportedVersion() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(
                .hello(
                    .with {
                        $0.minVersion = 2; $0.maxVersion = 3
                    }))
            await expectClosedWith(.unsupportedVersion, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func unknownTypeIsRefusedUnlessIgnorable() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(validHello)
            #expect(await socket.readFrame()?.type == .welcome)
            // IGNORABLE: dropped, and the connection goes on.
            socket.send(
                Array(Frame(rawType: 0x7E, flags: .ignorable, requestID: 2, body: .init()).encoded().readableBytesView))
            socket.send(.ping(.with { $0.nonce = 3 }), requestID: 3)
            #expect(await socket.readFrame()?.type == .pong)
            socket.send(Array(Frame(rawType: 0x7F, requestID: 4, body: .init()).encoded().readableBytesView))
            await expectClosedWith(.unknownMessageType, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func requestBeforeHello() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(.getOnDuty(.init()))
            await expectClosedWith(.protocolViolation, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func bodyThatDoesNotDecode() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(validHello)
            #expect(await socket.readFrame()?.type == .welcome)
            socket.send(
                Array(Frame(type: .search, requestID: 5, body: .init(bytes: [0x0A, 0xFF])).encoded().readableBytesView))
            await expectClosedWith(.malformedFrame, socket)
            try await expectHealthy(harness)
        }
    }

    @Test func silentPeerIsPingedThenClosed() async throws {
        try await using(try await ServerHarness.start { $0.limits.pingInterval = .milliseconds(200) }) { harness in
            let socket = try RawSocket(port: harness.port)
            socket.send(validHello)
            #expect(await socket.readFrame()?.type == .welcome)
            let (frames, closed) = await socket.readUntilClosed()
            #expect(frames.first?.type == .ping)
            #expect(frames.last?.errorCode == .deadlineExceeded)
            #expect(closed)
            // The server keeps serving others. With a 200 ms ping interval it also closes, rightly,
            // a healthy client that the loaded test process leaves silent for 300 ms between its
            // Welcome and its request (CI saw that once): a new connection is then tried, and
            // every one of them failing still fails the test.
            var answered = false
            for _ in 0..<5 where !answered {
                guard let client = try? await harness.connect() else { continue }
                if case .onDuty? = try? await client.request(.getOnDuty(.init())) { answered = true }
                await client.close()
            }
            #expect(answered, "the server stopped answering")
        }
    }
}
