import Foundation
import NIOCore
import NIOPosix
import RosterClient
import RosterProtocol
import RosterTLS

/// "/oncall" from Slack against a roster-server process with a big tenant: each request signed
/// (a different body each time, as Slack's are, so none is a replay), one at a time on one
/// keep-alive connection on loopback. Times from request to the answer's last byte, and the
/// server's CPU per answer: verifying the signature, reading the form, working out who is on call
/// (on the work pool) and the platform's JSON.
package struct ChatBenchmark {
    package var people: Int
    package var schedules: Int
    package var requests: Int
    package var serverExecutable: URL

    package init(people: Int, schedules: Int, requests: Int, serverExecutable: URL) {
        (self.people, self.schedules, self.requests, self.serverExecutable) = (
            people, schedules, requests, serverExecutable
        )
    }

    package struct Command {
        package var text: String
        package var latency: LatencySummary
        package var cpuMillis: Double
        package var answerBytes: Int
    }

    static let secret = "8f742231b10e8888abcd99yyyzzz85a5"

    package func run() async throws -> [Command] {
        let running = try HTTPBenchServer(executable: serverExecutable)
        defer { running.stop() }
        let (server, httpPort) = (running.process, running.httpPort)
        let admin = try await running.connectAdmin()
        _ = try await WebPagesBenchmark.seed(admin, people: people, schedules: schedules)
        guard
            case .notificationAdminResult = try await admin.request(
                .notificationAdmin(
                    .with {
                        $0.setChatCommand = .with {
                            $0.platform = "slack"; $0.secret = Self.secret
                        }
                    }))
        else { throw BenchError("the slash command was not set up") }
        await admin.close()

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let client = try await PageClient.connect(port: httpPort, group: group)
            var commands: [Command] = []
            var serial = 0
            for text in ["", "Schedule 7", "next Schedule 7"] {
                func ask() async throws -> Int {
                    serial += 1
                    let body = Array(
                        "team_id=T1&user_id=U0&command=%2Foncall&trigger_id=\(serial)&text=\(text.replacingOccurrences(of: " ", with: "+"))"
                            .utf8)
                    let timestamp = Int64(Date().timeIntervalSince1970)
                    let mac = Crypto.hmacSHA256(
                        key: Array(Self.secret.utf8), message: Array("v0:\(timestamp):".utf8) + body)
                    return try await client.send(
                        .POST, "/v1/chat/slack/command",
                        headers: [
                            ("Content-Type", "application/x-www-form-urlencoded"),
                            ("X-Slack-Request-Timestamp", "\(timestamp)"),
                            ("X-Slack-Signature", "v0=\(Crypto.hex(mac))"),
                        ], body: body
                    ).count
                }
                var bytes = try await ask()  // warms up
                var samples: [UInt64] = []
                let cpuBefore = cpuMillis(pid: server.pid)
                for _ in 0..<requests {
                    let start = nanos()
                    bytes = try await ask()
                    samples.append(nanos() - start)
                }
                commands.append(
                    Command(
                        text: "/oncall " + text, latency: LatencySummary(samples),
                        cpuMillis: (cpuMillis(pid: server.pid) - cpuBefore) / Double(requests), answerBytes: bytes))
            }
            try await client.close()
            try? await group.shutdownGracefully()
            return commands
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }
}
