import Foundation
import RosterTestSupport
import RosterTLS
import Testing

/// Issue #35 as a new user meets it, on the demo with the built binaries: a Mattermost-style
/// receiver on loopback gets the minute's handoff in words, an announcement rule and a chat
/// handle are set with `admin`, and "/oncall Platform primary" is answered when Slack signed it
/// and refused (401, nothing else) when not.
@Suite(.timeLimit(.minutes(10))) struct ChatCLITests {
    @Test func aMattermostReceiverGetsTheHandoffAndSlackGetsOnlySignedAnswers() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServerProcess(arguments: ["--demo"]) { server in
                let admin = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(admin.home) }
                let handle = try await admin.run([
                    "admin", "employee", "update", "John Backus", "--chat", "mattermost=jbackus",
                ])
                #expect(handle.status == 0, "\(handle.stderr)")
                let audit = try await admin.run(["admin", "audit", "--person", "John Backus"])
                #expect(audit.stdout.contains("chat \"\" → \"mattermost=jbackus\""), "\(audit.stdout)")
                let badHandle = try await admin.run(["admin", "employee", "update", "John Backus", "--chat", "irc=jb"])
                #expect(
                    badHandle.status != 0 && badHandle.stderr.contains("\"irc\" is not a chat platform"),
                    "\(badHandle.stderr)")

                let added = try await admin.run([
                    "admin", "webhook", "add", receiver.url, "--format", "mattermost",
                    "--events", "on-duty.changed", "--schedule", "Demo fast rotation", "--json",
                ])
                try #require(added.status == 0, "\(added.stderr)")
                let webhook = try #require((added.json as? [String: Any])?["id"] as? String)
                #expect((added.json as? [String: Any])?["secret"] == nil, "a chat webhook shows no signing secret")
                let listed = try await admin.run(["admin", "webhook", "list"])
                #expect(listed.stdout.contains("format: mattermost"), "\(listed.stdout)")

                let announce = try await admin.run([
                    "admin", "announce", "add", "--schedule", "Platform primary", "--webhook", webhook,
                    "--at", "09:00", "--weekdays", "Mon-Fri",
                ])
                #expect(
                    announce.status == 0 && announce.stdout.contains("at 09:00 on Mon,Tue,Wed,Thu,Fri"),
                    "\(announce.stdout)\(announce.stderr)")
                let id = try #require(
                    announce.stdout.split(separator: " ").dropFirst(2).first.map { String($0.dropLast()) })
                let rules = try await admin.run(["admin", "announce", "list"])
                #expect(rules.stdout.contains(id), "\(rules.stdout)")
                let deleted = try await admin.run(["admin", "announce", "delete", id])
                #expect(
                    deleted.status == 0 && deleted.stdout.contains("Removed announcement \(id)"),
                    "\(deleted.stdout)\(deleted.stderr)")
                let wrongTime = try await admin.run([
                    "admin", "announce", "add", "--schedule", "Platform primary", "--webhook", webhook,
                    "--at", "9am",
                ])
                #expect(
                    wrongTime.status != 0 && wrongTime.stderr.contains("--at takes a local time"), "\(wrongTime.stderr)"
                )

                // The demo's fast rotation hands off every minute.
                try await receiver.wait(timeout: .seconds(75), "the minute's handoff") { !$0.isEmpty }
                let text = try #require(receiver.requests.first?.json["text"] as? String)
                let pattern =
                    #/^(?<now>[A-Z][a-z]+ [A-Z][a-z]+)( \(@\w+\))? is on call for Demo fast rotation until (?<until>\d\d:\d\d) UTC; next: (?<next>[A-Z][a-z]+ [A-Z][a-z]+)( \(@\w+\))? \(handoff\)$/#
                let match = try #require(text.wholeMatch(of: pattern), "\(text)")
                #expect(match.output.now != match.output.next)
                #expect(
                    !text.contains("Backus") || text.contains("John Backus (@jbackus)"), "the handle is shown: \(text)")

                try await Self.slashCommand(admin: admin, server: server)
            }
        }
    }

    static func slashCommand(admin: CLI, server: ServerProcess) async throws {
        let secretFile = admin.home.appendingPathComponent("slack-signing-secret").path
        try "8f742231b10e8888abcd99yyyzzz85a5\n".write(toFile: secretFile, atomically: false, encoding: .utf8)
        let set = try await admin.run(["admin", "chat", "slack", "--signing-secret-file", secretFile])
        #expect(set.status == 0 && set.stdout.contains("/v1/chat/slack/command"), "\(set.stdout)\(set.stderr)")
        let url = "http://127.0.0.1:\(try #require(server.httpPort))/v1/chat/slack/command"
        let body = "team_id=T1&user_id=U0&command=%2Foncall&text=Platform+primary"
        let timestamp = Int64(Date().timeIntervalSince1970)
        let mac = Crypto.hmacSHA256(
            key: Array("8f742231b10e8888abcd99yyyzzz85a5".utf8), message: Array("v0:\(timestamp):\(body)".utf8))
        let signed = try await HTTPGet.request(
            url, method: "POST",
            headers: [
                "Content-Type: application/x-www-form-urlencoded", "X-Slack-Request-Timestamp: \(timestamp)",
                "X-Slack-Signature: v0=\(Crypto.hex(mac))",
            ], data: body)
        #expect(signed.status == 200, "\(signed.body)")
        let text = try #require(signed.json["text"] as? String)
        #expect(text.contains(" on call for Platform primary until <!date^") && text.contains("; next: "), "\(text)")
        let unsigned = try await HTTPGet.request(
            url, method: "POST", headers: ["Content-Type: application/x-www-form-urlencoded"], data: body)
        #expect(unsigned.status == 401 && !unsigned.body.contains("on call"), "\(unsigned.body)")
    }
}
