import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// `admin audit` through the built binaries: "who changed the motd?"
@Suite(.serialized, .timeLimit(.minutes(10))) struct AuditCLITests {
    @Test func whoChangedTheMotdAsTextAndAsJSONLinesAndReadersAreRefused() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            let set = try await cli.run(["admin", "motd", "set", "Freeze from Friday", "--reason", "release freeze"])
            #expect(set.status == 0, "\(set.stderr)")
            let added = try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--team", "Core",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let moved = try await cli.run([
                "admin", "employee", "update", "Ada Lovelace", "--team", "Platform", "--reason", "reorg",
            ])
            #expect(moved.status == 0, "\(moved.stderr)")

            let text = try await cli.run(["admin", "audit", "--since", "1h ago"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("motd: \"\" → \"Freeze from Friday\""), "\(text.stdout)")
            #expect(text.stdout.contains("reason: release freeze"))
            #expect(text.stdout.contains("by initial admin token (token "))
            #expect(text.stdout.contains("employee Ada Lovelace: team \"Core\" → \"Platform\""))

            let json = try await cli.run(["admin", "audit", "--person", "Ada Lovelace", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let lines = json.stdout.split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            #expect(lines.count == 2 && lines.allSatisfy { $0 != nil }, "one JSON object per line: \(json.stdout)")
            #expect(lines.last??["reason"] as? String == "reorg" && lines.last??["kind"] as? String == "change")
            #expect((lines.last??["address"] as? String)?.hasPrefix("127.0.0.1:") == true)
            // Numbers are numbers, and the time is there to read.
            let last = try #require(lines.last ?? nil)
            #expect(last["id"] is NSNumber && last["revision"] is NSNumber && last["at_ms"] is NSNumber, "\(last)")
            let at = try #require(last["at"] as? String)
            #expect(at.hasSuffix("Z") && at.count == "2026-01-01T00:00:00.000Z".count, "\(at)")
            let parsed: UnixMillis = try #require(TimeText.parseISO8601(at))
            #expect((last["at_ms"] as? NSNumber)?.int64Value == parsed, "at and at_ms agree")
            #expect(!json.stdout.contains("_ms\":\""), "no instant as a string: \(json.stdout)")

            let anonymous = CLI(port: server.port, token: nil)
            let refused = try await anonymous.run(["admin", "audit"])
            #expect(refused.status == 7, "permission denied: \(refused.stderr)")
            #expect(refused.stderr.contains("the audit log is for admins"))
        }
    }

    /// Webhook and reminder changes are in the audit log with who, why and what (never a secret).
    @Test func webhookAndReminderChangesAreAuditedWithTheirReason() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            #expect(
                try await cli.run(["admin", "schedule", "add", "Payments primary", "--zone", "Europe/Berlin"]).status
                    == 0)
            let added = try await cli.run([
                "admin", "webhook", "add", "http://127.0.0.1:9/hook?key=s3cret", "--schedule", "Payments primary",
                "--reason", "ops channel", "--json",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let webhook = try #require(added.json as? [String: Any])
            let webhookID = try #require(webhook["id"] as? String)
            let secret = try #require(webhook["secret"] as? String)
            #expect(
                try await cli.run(["admin", "webhook", "remove", webhookID, "--reason", "channel archived"]).status == 0
            )
            let reminder = try await cli.run([
                "admin", "reminder", "add", "--before", "15m", "--reason", "people forgot",
            ])
            #expect(reminder.status == 0, "\(reminder.stderr)")
            let reminderID = try #require(
                reminder.stdout.split(separator: " ").dropFirst(2).first.map { String($0.dropLast()) })
            #expect(
                try await cli.run(["admin", "reminder", "remove", reminderID, "--reason", "too noisy"]).status == 0)

            let text = try await cli.run(["admin", "audit", "--since", "1h ago"])
            #expect(text.status == 0, "\(text.stderr)")
            for expected in [
                "webhook.added", "webhook.removed", "reminder.added", "reminder.removed",
                "reason: ops channel", "reason: channel archived", "reason: people forgot", "reason: too noisy",
                "webhook \(webhookID) → ", "schedules: Payments primary",
                "reminder \(reminderID): 15m before each shift",
            ] {
                #expect(text.stdout.contains(expected), "\(expected) in \(text.stdout)")
            }
            #expect(!text.stdout.contains(secret) && !text.stdout.contains("s3cret"), "no secret in the audit log")
            let lines = try await cli.run(["admin", "audit", "--since", "1h ago", "--json"])
            let kinds = lines.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String
            }
            #expect(
                kinds.suffix(4) == ["webhook.added", "webhook.removed", "reminder.added", "reminder.removed"],
                "\(kinds)")
        }
    }
}
