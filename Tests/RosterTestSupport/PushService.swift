import Foundation

/// The push service of Tests/RosterServerTests/Fixtures/push_service.py on 127.0.0.1: checks
/// every Web Push request as RFC 8030/8291/8292 say (decrypting with Python's `http_ece`),
/// keeps what it received, and answers what a test asks for next (201, 404, 410, 413, 429).
public final class PushService: Sendable, StoppableTestResource {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RosterServerTests/Fixtures/push_service.py").path

    let child: ChildProcess
    public let port: Int
    public var base: String { "http://127.0.0.1:\(port)" }

    /// A subscription's endpoint and keys, as a browser's PushManager gives them.
    public struct Subscription: Sendable {
        public var endpoint: String
        public var p256dh: String
        public var auth: String
    }

    /// One request the service received, as it checked it.
    public struct Received: @unchecked Sendable {
        public var record: [String: Any]
        public var payload: [String: Any]? { record["payload"] as? [String: Any] }
        public var problems: [String] { record["problems"] as? [String] ?? [] }
        public var status: Int { record["status"] as? Int ?? 0 }
        public var ttl: Int? { (record["ttl"] as? String).flatMap { Int($0) } }
        public var urgency: String? { record["urgency"] as? String }
        public var topic: String? { record["topic"] as? String }
        /// When the service had read it (Unix seconds).
        public var receivedAt: Double? { record["received_at"] as? Double }
        public var vapid: [String: Any]? { record["vapid"] as? [String: Any] }
        /// An ntfy publish's JSON.
        public var publish: [String: Any]? { record["publish"] as? [String: Any] }
    }

    init(child: ChildProcess, port: Int) { (self.child, self.port) = (child, port) }

    public static func start() async throws -> PushService {
        let child = try ChildProcess("/usr/bin/env", ["python3", "-u", script, "serve"], stdin: true)
        guard
            let port = await child.waitForOutput(
                timeout: .seconds(60),
                { output in
                    output.split(separator: "\n").first.flatMap { Int($0) }
                })
        else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("push_service.py did not start: \(child.output)")
        }
        return PushService(child: child, port: port)
    }

    public func stop() async {
        child.closeInput()
        _ = await child.stop(grace: .seconds(5))
    }

    public func subscribe(_ name: String) async throws -> Subscription {
        let answer = try await HTTPGet.request(base + "/subscriptions/\(name)", method: "POST").json
        guard let endpoint = answer["endpoint"] as? String, let p256dh = answer["p256dh"] as? String,
            let auth = answer["auth"] as? String
        else { throw TestFailure("the push service made no subscription: \(answer)") }
        return Subscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }

    /// The next answers to `name`'s pushes, in order (then 201 again); 0 keeps a message and
    /// never answers it.
    public func answer(_ name: String, with statuses: [Int], retryAfter: String? = nil) async throws {
        var asked: [String: Any] = ["statuses": statuses]
        if let retryAfter { asked["retry_after"] = retryAfter }
        let body = String(decoding: try JSONSerialization.data(withJSONObject: asked), as: UTF8.self)
        _ = try await HTTPGet.request(base + "/answers/\(name)", method: "POST", data: body)
    }

    /// What `name` received so far (an ntfy topic's: "ntfy:TOPIC").
    public func received(_ name: String) async throws -> [Received] {
        let answer = try await HTTPGet.request(base + "/received/\(name)")
        let list = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [[String: Any]] ?? []
        return list.map(Received.init)
    }

    /// Waits until `name` received `count` requests (or `seconds` pass); what it received.
    public func received(_ name: String, count: Int, within seconds: Double = 20) async throws -> [Received] {
        var found: [Received] = []
        _ = try await eventually(seconds) {
            found = try await received(name)
            return found.count >= count
        }
        return found
    }
}
