import Foundation
import NIOCore
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS

/// Closed-loop "on duty now" requests from C connections for S seconds.
package struct QueryBenchmark {
    package var connections: Int
    package var seconds: Double
    package var serverExecutable: URL
    /// A running server's port (e.g. one being profiled); nil starts a fresh one.
    package var existingServerPort: Int?
    package var tls: Bool

    package init(
        connections: Int, seconds: Double, serverExecutable: URL, existingServerPort: Int? = nil, tls: Bool = false
    ) {
        self.tls = tls
        self.connections = connections
        self.seconds = seconds
        self.serverExecutable = serverExecutable
        self.existingServerPort = existingServerPort
    }

    package func run() async throws -> (requestsPerSecond: Double, latency: LatencySummary) {
        let port = existingServerPort ?? freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-\(UUID().uuidString)"
        ).path
        let server =
            existingServerPort != nil
            ? nil
            : try ChildProcess(
                executable: serverExecutable,
                arguments: [
                    "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "127.0.0.1:0", "--data-dir", directory,
                    "--demo", "--log-level", "warning",
                    "--shutdown-grace-ms", "0",
                ] + (tls ? ["--tls"] : []))
        defer {
            server?.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        try waitForListener(port: port)
        let clientTLS = tls ? try BenchTLS(dataDirectory: directory) : nil
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let start = nanos()
        let deadline = start + UInt64(seconds * 1e9)
        var results: [EventLoopFuture<[UInt64]>] = []
        for _ in 0..<connections {
            let loop = group.next()
            let done = loop.makePromise(of: [UInt64].self)
            _ = try await ClientBootstrap(group: loop)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let clientTLS {
                            try channel.pipeline.syncOperations.addHandler(
                                try TLSHandler(
                                    context: clientTLS.context,
                                    serverHostname: "127.0.0.1"))
                        }
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(FrameDecoder(maxFrameLength: 1 << 20)))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
                        try channel.pipeline.syncOperations.addHandler(OnDutyRequester(deadline: deadline, done: done))
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            results.append(done.futureResult)
        }
        var samples: [UInt64] = []
        for result in results { samples += (try? await result.get()) ?? [] }
        let elapsed = Double(nanos() - start) / 1e9
        try? await group.shutdownGracefully()
        return (Double(samples.count) / elapsed, LatencySummary(samples))
    }
}
