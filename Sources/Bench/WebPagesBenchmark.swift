import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol

/// The web app's pages for a big tenant (people and schedules), against a roster-server
/// process: how long each takes from request to last byte on one keep-alive connection on
/// loopback (the server's rendering, on its work pool, is nearly all of it), the server CPU per
/// page, and the bytes a browser fetches (the page, and the one style sheet and script).
package struct WebPagesBenchmark {
    package var people: Int
    package var schedules: Int
    package var requests: Int
    package var serverExecutable: URL
    /// The Accept-Language every page is asked with (nil: none, so English).
    package var language: String?

    package init(people: Int, schedules: Int, requests: Int, serverExecutable: URL, language: String? = nil) {
        (self.people, self.schedules, self.requests, self.serverExecutable, self.language) = (
            people, schedules, requests, serverExecutable, language
        )
    }

    package struct Page {
        package var path: String
        /// Asked for as a browser does (Accept-Encoding: gzip): rendered and compressed.
        package var latency: LatencySummary
        /// The HTML, and what goes over the wire gzipped.
        package var bytes: Int
        package var wireBytes: Int
        package var cpuMillis: Double
    }

    package struct Result {
        package var setupSeconds: Double
        package var pages: [Page]
        /// /assets/app.css and /assets/live.js, gzipped: fetched once, then from the browser's cache.
        package var assetBytes: Int
    }

    package func run() async throws -> Result {
        let running = try HTTPBenchServer(executable: serverExecutable)
        defer { running.stop() }
        let (server, httpPort) = (running.process, running.httpPort)
        let admin = try await running.connectAdmin()
        let setup = nanos()
        let ids = try await Self.seed(admin, people: people, schedules: schedules)
        await admin.close()
        let setupSeconds = Double(nanos() - setup) / 1e9

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let pages = try await measure(port: httpPort, group: group, serverPID: server.pid, first: ids[0])
            try? await group.shutdownGracefully()
            return Result(setupSeconds: setupSeconds, pages: pages.pages, assetBytes: pages.assetBytes)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func measure(port httpPort: Int, group: any EventLoopGroup, serverPID: Int32, first: String) async throws
        -> (pages: [Page], assetBytes: Int)
    {
        let client = try await PageClient.connect(port: httpPort, group: group)
        var assetBytes = 0
        for asset in ["/assets/app.css", "/assets/live.js"] {
            assetBytes += try await client.get(asset, gzip: true).count
        }
        var pages: [Page] = []
        for path in [
            "/", "/people", "/people?q=person%201", "/people/\(first)", "/schedules/Schedule%200",
            "/schedules/Schedule%200?span=1m", "/schedules",
        ] {
            let bytes = try await client.get(path, gzip: false, language: language).count  // also warms up
            var samples: [UInt64] = []
            var wireBytes = 0
            let cpuBefore = cpuMillis(pid: serverPID)
            for _ in 0..<requests {
                let start = nanos()
                wireBytes = try await client.get(path, gzip: true, language: language).count
                samples.append(nanos() - start)
            }
            pages.append(
                Page(
                    path: path, latency: LatencySummary(samples), bytes: bytes, wireBytes: wireBytes,
                    cpuMillis: (cpuMillis(pid: serverPID) - cpuBefore) / Double(requests)))
        }
        try await client.close()
        return (pages, assetBytes)
    }

    /// `people` people in one import, and `schedules` weekly rotations of ten of them in four
    /// zones, each with an override this week.
    static func seed(_ admin: RosterConnection, people: Int, schedules: Int) async throws -> [String] {
        var csv = "id,first_name,last_name,email,phone,position,team\n"
        let positions = ["Engineer", "Designer", "Manager", "Support", "Writer"]
        for index in 0..<people {
            csv +=
                "p\(index),Person,\(index),person\(index)@example.com,+1 555 \(1000 + index),\(positions[index % 5]),Team \(index % 20)\n"
        }
        guard
            case .mutationResult = try await admin.request(
                .importData(
                    .with {
                        $0.format = .employeesCsv
                        $0.data = Data(csv.utf8)
                    }))
        else { throw BenchError("the import was refused") }
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"]
        let now = UnixMillis.now
        for index in 0..<schedules {
            func edit(_ request: Roster_V1_EditScheduleRequest) async throws {
                guard case .mutationResult = try await admin.request(.editSchedule(request)) else {
                    throw BenchError("no MutationResult")
                }
            }
            try await edit(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = "Schedule \(index)"; $0.zone = zones[index % zones.count]
                    }
                })
            try await edit(
                .with {
                    $0.schedule = "Schedule \(index)"
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = .with {
                                $0.unit = .weeks; $0.count = 1
                            }
                            $0.handoff = "2026-01-05T09:00"
                            $0.slots = (0..<10).map { offset in
                                .with { $0.employeeIds = ["p\((index * 10 + offset) % people)"] }
                            }
                        }
                    }
                })
            try await edit(
                .with {
                    $0.schedule = "Schedule \(index)"
                    $0.addOverride = .with {
                        $0.kind = .add; $0.employeeID = "p\((index * 10 + 5) % people)"; $0.startMs = now + 3_600_000;
                        $0.endMs = now + 7_200_000
                    }
                })
        }
        return ["p0"]
    }
}

/// A roster-server process with its protocol and HTTP listeners on free loopback ports and a
/// data directory of its own, removed by `stop`.
struct HTTPBenchServer {
    let process: ChildProcess
    let port: Int
    let httpPort: Int
    let directory: String

    init(executable: URL) throws {
        (port, httpPort) = (freePort(), freePort())
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("roster-bench-\(UUID().uuidString)").path
        process = try ChildProcess(
            executable: executable,
            arguments: [
                "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "127.0.0.1:\(httpPort)", "--data-dir",
                directory,
                "--log-level", "warning", "--ping-interval-ms", "3600000", "--shutdown-grace-ms", "0",
            ])
        do {
            try waitForListener(port: port)
            try waitForListener(port: httpPort)
        } catch {
            stop()
            throw error
        }
    }

    /// A connection with the admin token the server wrote to its data directory.
    func connectAdmin() async throws -> RosterConnection {
        try await RosterConnection.connect(
            host: "127.0.0.1", port: port,
            hello: .with { $0.token = (try? adminToken(dataDirectory: directory)) ?? "" })
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// GET requests one at a time on one keep-alive HTTP/1.1 connection.
final class PageClient: Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<PageReader>

    private init(channel: any Channel, handler: NIOLoopBound<PageReader>) {
        self.channel = channel
        self.handler = handler
    }

    static func connect(port: Int, group: any EventLoopGroup) async throws -> PageClient {
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(PageReader())
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let reader = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: PageReader.self), eventLoop: channel.eventLoop)
        }.get()
        return PageClient(channel: channel, handler: reader)
    }

    /// The body of `path` as sent (a status other than 200 throws).
    func get(_ path: String, gzip: Bool, language: String? = nil) async throws -> [UInt8] {
        let headers = (gzip ? [("Accept-Encoding", "gzip")] : []) + (language.map { [("Accept-Language", $0)] } ?? [])
        return try await send(.GET, path, headers: headers, body: [])
    }

    /// The answer's body to a request (a status other than 2xx throws).
    func send(_ method: HTTPMethod, _ path: String, headers extra: [(String, String)], body: [UInt8]) async throws
        -> [UInt8]
    {
        let handler = self.handler
        let channel = self.channel
        return try await channel.eventLoop.flatSubmit {
            let promise = channel.eventLoop.makePromise(of: [UInt8].self)
            handler.value.waiting = promise
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: "127.0.0.1")
            for (name, value) in extra { headers.add(name: name, value: value) }
            if !body.isEmpty { headers.add(name: "Content-Length", value: "\(body.count)") }
            channel.write(
                HTTPClientRequestPart.head(
                    HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers)),
                promise: nil)
            if !body.isEmpty {
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            return promise.futureResult
        }.get()
    }

    func close() async throws { try await channel.close() }
}

final class PageReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    var waiting: EventLoopPromise<[UInt8]>?
    private var status = 0
    private var body: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body = []
        case .body(var part):
            body += part.readBytes(length: part.readableBytes) ?? []
        case .end:
            if (200..<300).contains(status) {
                waiting?.succeed(body)
            } else {
                waiting?.fail(BenchError("HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))"))
            }
            waiting = nil
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        waiting?.fail(BenchError("the connection closed"))
        waiting = nil
    }
}
