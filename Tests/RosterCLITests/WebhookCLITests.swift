import Foundation
import RosterClient
import RosterProtocol
import RosterServer
import RosterNotifications
import RosterServerCore
import RosterTestSupport
import Testing

/// Webhooks through the built binaries: `admin webhook add|list|deliveries`, and a server
/// killed with SIGKILL while it delivers a backlog, restarted on the same data directory.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebhookCLITests {
    static let hour: Int64 = 3_600_000

    @Test func aKilledServerDeliversEveryAcknowledgedChangeAfterItsRestartAndInventsNone() async throws {
        // The receiver takes the first requests slowly (the first while the changes are made) and
        // holds the fourth, so that the server is killed with it in flight and a backlog behind it.
        let receiver = try await WebhookReceiver.start { _, index in
            .init(status: 204, delay: .milliseconds(index == 0 ? 2_000 : index < 3 ? 150 : 120_000))
        }
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            let scratch = TestScratch.directory("roster-webhook")
            defer { TestScratch.remove(scratch) }
            let arguments = ["--webhook-retry-base-ms", "200", "--webhook-timeout-ms", "120000"]
            let first = try await ServerProcess.start(dataDirectory: scratch.path, arguments: arguments)
            let restarted = try await withCleanup(first, cleanUp: { await $0.kill9() }) { server in
                let cli = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(cli.home) }
                let added = try await cli.run(["admin", "webhook", "add", receiver.url, "--events", "shifts.changed"])
                #expect(added.status == 0, "\(added.stderr)")
                let secret = try #require(added.stdout.split(separator: "\n").last.map(String.init))
                #expect(secret.hasPrefix("whsec_"))
                let person = try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])
                #expect(person.status == 0, "\(person.stderr)")
                // The first change through the CLI, the rest through the library (quicker than a process each).
                let base = Int64(Date().timeIntervalSince1970 * 1000) + Self.hour
                let start = Date(timeIntervalSince1970: Double(base) / 1000)
                let shift = try await cli.run([
                    "admin", "shift", "add", "--employee", "Ada Lovelace",
                    "--start", ISO8601DateFormatter().string(from: start),
                    "--end", ISO8601DateFormatter().string(from: start.addingTimeInterval(1800)),
                ])
                #expect(shift.status == 0, "\(shift.stderr)")
                // "Added a shift for Ada Lovelace (revision N, ID)"
                let revision = shift.stdout.split(separator: "(revision ").last?.prefix { $0.isNumber }
                var acknowledged = [try #require(revision.flatMap { UInt64($0) })]
                let admin = try await RosterConnection.connect(
                    host: "127.0.0.1", port: server.port, tls: nil,
                    hello: .with { $0.token = server.adminToken })
                try await withCleanup(admin, cleanUp: { await $0.close() }) { admin in
                    let ada = try await admin.request(.search(.with { $0.text = "Ada Lovelace" }))
                    guard case .employees(let found) = ada, let id = found.employees.first?.id else {
                        throw TestFailure("no Ada Lovelace: \(ada)")
                    }
                    for i in 1..<12 {
                        let begin = base + Int64(i) * Self.hour
                        let result = try await admin.admin(
                            .addShift(
                                .with {
                                    $0.shift = .with {
                                        $0.employeeID = id; $0.startMs = begin; $0.endMs = begin + Self.hour / 2
                                    }
                                }))
                        acknowledged.append(result.revision)
                    }
                }
                try await receiver.wait("the fourth request, held") { $0.count >= 4 }
                await server.kill9()
                receiver.answer { _, _ in .init(status: 204) }
                let delivered = Set(receiver.requests.compactMap { $0.json["revision"] as? UInt64 })
                #expect(delivered.count < acknowledged.count, "the kill should come with a backlog left")
                let again = try await ServerProcess.start(dataDirectory: scratch.path, arguments: arguments)
                return (again, acknowledged, secret)
            }
            let (server, acknowledged, secret) = restarted
            try await withCleanup(server, cleanUp: { await $0.terminate() }) { server in
                try await receiver.wait(timeout: .seconds(60), "every acknowledged change") { requests in
                    Set(requests.compactMap { $0.json["revision"] as? UInt64 }).isSuperset(of: acknowledged)
                }
                let requests = receiver.requests
                let now = Int64(Date().timeIntervalSince1970)
                // None invented: every event is of an acknowledged change; one id per change, which a
                // repeat (at least once) keeps.
                var idOfRevision: [UInt64: String] = [:]
                for request in requests {
                    let revision = try #require(request.json["revision"] as? UInt64)
                    #expect(acknowledged.contains(revision))
                    #expect(idOfRevision[revision, default: request.eventID] == request.eventID)
                    idOfRevision[revision] = request.eventID
                    #expect(
                        WebhookSignature.verify(
                            header: request.headers["roster-signature"] ?? "", body: request.body,
                            secret: secret, now: now))
                }
                #expect(Set(idOfRevision.keys) == Set(acknowledged))
                // Still in order: a repeat is of the event delivered last before the kill, then the rest follow.
                let firstSeen = requests.map { $0.json["revision"] as? UInt64 ?? 0 }.reduce(into: [UInt64]()) {
                    order, revision in
                    if !order.contains(revision) { order.append(revision) }
                }
                #expect(firstSeen == acknowledged)
                // The event in flight at the kill was never answered: it came again, with the same id.
                #expect(requests.filter { $0.eventID == requests[3].eventID }.count >= 2)

                let cli = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(cli.home) }
                // The receiver records a request before it answers; the server marks it delivered after.
                var list = try await cli.run(["admin", "webhook", "list"])
                for _ in 0..<50 where !list.stdout.contains("pending: 0") {
                    try await Task.sleep(for: .milliseconds(100))
                    list = try await cli.run(["admin", "webhook", "list"])
                }
                #expect(list.status == 0, "\(list.stderr)")
                #expect(list.stdout.contains(receiver.url) && list.stdout.contains("pending: 0"), "\(list.stdout)")
                let deliveries = try await cli.run(["admin", "webhook", "deliveries", "--limit", "5"])
                #expect(deliveries.stdout.split(separator: "\n").count == 5, "\(deliveries.stdout)")
                #expect(
                    deliveries.stdout.contains("shifts.changed") && deliveries.stdout.contains("HTTP 204"),
                    "\(deliveries.stdout)")
            }
        }
    }

    @Test func badArgumentsAreRefusedBeforeAnythingIsSent() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let badURL = try await cli.run(["admin", "webhook", "add", "mailto:ops@example.com"])
            #expect(badURL.status != 0)
            #expect(badURL.stderr.contains("http:// or https://"), "\(badURL.stderr)")
            let badEvent = try await cli.run([
                "admin", "webhook", "add", "http://127.0.0.1:9/x", "--events", "shift.started",
            ])
            #expect(badEvent.status != 0)
            #expect(badEvent.stderr.contains("unknown event type shift.started"), "\(badEvent.stderr)")
            let both = try await cli.run([
                "admin", "reminder", "add", "--before", "15m", "--days-before", "1", "--at", "18:00",
            ])
            #expect(both.status != 0)
            #expect(both.stderr.contains("--before or --days-before"), "\(both.stderr)")
            let noTime = try await cli.run(["admin", "reminder", "add", "--days-before", "1"])
            #expect(noTime.stderr.contains("--at HH:MM"), "\(noTime.stderr)")
            let evening = try await cli.run([
                "admin", "reminder", "add", "--days-before", "1", "--at", "18:00", "--zone", "Europe/Berlin",
            ])
            #expect(evening.status == 0, "\(evening.stderr)")
            #expect(
                evening.stdout.contains("1 day before each shift at 18:00 Europe/Berlin, every schedule"),
                "\(evening.stdout)")
            let listed = try await cli.run(["admin", "reminder", "list"])
            #expect(listed.stdout.contains("18:00 Europe/Berlin"), "\(listed.stdout)")

            // Schedules and people are shown by name, however they were given.
            #expect(
                try await cli.run(["admin", "schedule", "add", "Payments primary", "--zone", "Europe/Berlin"]).status
                    == 0)
            #expect(
                try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Hopper"]).status == 0)
            let webhook = try await cli.run([
                "admin", "webhook", "add", "http://127.0.0.1:9/x", "--schedule", "payments PRIMARY",
            ])
            #expect(webhook.stdout.contains("schedules: Payments primary"), "\(webhook.stdout) \(webhook.stderr)")
            let webhooks = try await cli.run(["admin", "webhook", "list"])
            #expect(webhooks.stdout.contains("schedules: Payments primary"), "\(webhooks.stdout)")
            let personal = try await cli.run([
                "admin", "reminder", "add", "--before", "15m", "--schedule", "Payments primary",
                "--person", "Grace Hopper",
            ])
            #expect(
                personal.stdout.contains("15m before each shift, schedule Payments primary, only Grace Hopper"),
                "\(personal.stdout)")
            #expect(
                try await cli.run(["admin", "reminder", "list"]).stdout.contains(
                    "schedule Payments primary, only Grace Hopper"))
            let reader = CLI(port: server.port, token: nil)
            defer { TestScratch.remove(reader.home) }
            let refused = try await reader.run(["admin", "webhook", "list"])
            #expect(refused.status == 7, "\(refused.stderr)")
        }
    }
}
