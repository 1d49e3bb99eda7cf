import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// Issue #34 as a new user meets it, on the demo with the built binaries: Grace asks for cover
/// of her next Platform primary week; Ada and Alan run `request take ID` at once and exactly one
/// gets it; `oncall --json` names the request; Grace cancels and her week is back; the webhook
/// heard opened, taken, cancelled in order; a reader token without a person sees the requests
/// and may not take them.
@Suite(.timeLimit(.minutes(10))) struct SelfServiceCLITests {
    @Test func graceAsksAdaAndAlanRaceGraceCancelsAndTheWebhookHeardItAll() async throws {
        let receiver = try await WebhookReceiver.start()
        try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
            try await withServerProcess(arguments: ["--demo"]) { server in
                let admin = CLI(port: server.port, token: server.adminToken)
                defer { TestScratch.remove(admin.home) }
                let hook = try await admin.run([
                    "admin", "webhook", "add", receiver.url, "--events",
                    "request.opened,request.taken,request.cancelled,request.expired",
                ])
                try #require(hook.status == 0, "\(hook.stderr)")
                var clients: [String: CLI] = [:]
                for person in ["Grace Hopper", "Ada Lovelace", "Alan Turing", ""] {
                    var arguments = [
                        "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", server.dataDirectory,
                    ]
                    if !person.isEmpty { arguments += ["--employee", person] }
                    let created = try await admin.server(arguments)
                    try #require(created.status == 0, "\(created.stderr)")
                    clients[person] = CLI(
                        port: server.port, token: created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                defer { for client in clients.values { TestScratch.remove(client.home) } }
                // A name that is nobody's is refused, with whom it may have meant.
                let misspelt = try await admin.server([
                    "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", server.dataDirectory,
                    "--employee", "Grace Hoper",
                ])
                #expect(
                    misspelt.status != 0 && misspelt.stderr.contains("did you mean \"Grace Hopper\""),
                    "\(misspelt.stderr)")
                // `token list` says whom each token names ("-": nobody).
                let tokenList = try await admin.server(["token", "list", "--data-dir", server.dataDirectory])
                let rows = tokenList.stdout.split(separator: "\n").map {
                    $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                }
                let column = try #require(rows.first?.firstIndex(of: "PERSON"), "\(tokenList.stdout)")
                let people = rows.dropFirst().filter { $0.count > column && $0[2] == "reader" }.map { $0[column] }
                #expect(Set(people) == ["Grace Hopper", "Ada Lovelace", "Alan Turing", "-"], "\(tokenList.stdout)")
                let grace = clients["Grace Hopper"]!, ada = clients["Ada Lovelace"]!, alan = clients["Alan Turing"]!,
                    nobody = clients[""]!

                // The server picks new tokens up within a second.
                for client in [grace, ada, alan, nobody] {
                    let accepted = await eventually(10) { (try? await client.run(["requests"]))?.status == 0 }
                    try #require(accepted, "the server accepts each new token")
                }
                // Grace's next week on Platform primary.
                let next = try await grace.run(["next", "Grace Hopper", "--schedule", "Platform primary", "--json"])
                let turn = try #require((next.json as? [[String: Any]])?.first, "\(next.stdout) \(next.stderr)")
                let start = try #require(turn["start"] as? String), to = try #require(turn["end"] as? String)
                // On the days Grace is on duty now, her "next" stretch has begun: the cover asked
                // is then of what is still ahead of it.
                let iso = ISO8601DateFormatter()
                let began = try #require(iso.date(from: start), "\(start)")
                let soon = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.up) * 60 + 600)
                let from = began > soon ? start : iso.string(from: soon)
                let asked = try await grace.run([
                    "request", "cover", "--schedule", "Platform primary", "--from", from, "--to", to,
                    "--note", "dentist",
                ])
                try #require(asked.status == 0, "\(asked.stderr)")
                let id = asked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(id.hasPrefix("req_") && !id.contains(" "), "only the id on stdout: \(asked.stdout)")

                let listed = try await nobody.run(["requests", "--json"])
                let entries = listed.json as? [[String: Any]]
                #expect(
                    listed.status == 0 && entries?.count == 1 && entries?.first?["id"] as? String == id
                        && entries?.first?["state"] as? String == "open",
                    "one JSON array: \(listed.stdout) \(listed.stderr)")
                let refused = try await nobody.run(["request", "take", id])
                #expect(refused.status == 7 && refused.stderr.contains("bound to a person"), "\(refused.stderr)")

                // Ada and Alan at once.
                async let byAda = ada.run(["request", "take", id])
                async let byAlan = alan.run(["request", "take", id])
                let (adaResult, alanResult) = try await (byAda, byAlan)
                #expect(
                    [adaResult.status, alanResult.status].sorted() == [0, 9],
                    "\(adaResult.stderr) | \(alanResult.stderr)")
                let winner = adaResult.status == 0 ? "Ada Lovelace" : "Alan Turing"
                let loser = adaResult.status == 0 ? alanResult : adaResult
                #expect(loser.stderr.contains("already taken by \(winner)"), "\(loser.stderr)")

                let oncall = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--from", from, "--to", to, "--json",
                ])
                let shifts = (oncall.object["shifts"] as? [[String: Any]]) ?? []
                #expect(shifts.map { $0["employee"] as? String } == [winner], "\(oncall.stdout)")
                #expect(shifts.first?["overrideSource"] as? String == "request:\(id)", "\(oncall.stdout)")

                // Only Grace, who asked, may cancel: no other token would help the taker, so none is suggested.
                let notTheirs = try await (adaResult.status == 0 ? ada : alan).run(["request", "cancel", id])
                #expect(
                    notTheirs.status != 0 && notTheirs.stderr.contains("who asked, may cancel")
                        && !notTheirs.stderr.contains("--token"),
                    "\(notTheirs.stderr)")
                let cancelled = try await grace.run(["request", "cancel", id])
                #expect(cancelled.status == 0, "\(cancelled.stderr)")
                let back = try await admin.run([
                    "oncall", "--schedule", "Platform primary", "--from", from, "--to", to, "--json",
                ])
                let restored = (back.object["shifts"] as? [[String: Any]]) ?? []
                #expect(
                    restored.map { $0["employee"] as? String } == ["Grace Hopper"]
                        && restored.first?["source"] as? String == "rotation",
                    "\(back.stdout)")

                try await receiver.wait("opened, taken and cancelled") { $0.count >= 3 }
                #expect(receiver.requests.map(\.eventType) == ["request.opened", "request.taken", "request.cancelled"])
                let states = try await admin.run(["requests", "--state", "cancelled", "--json"])
                #expect(states.stdout.contains("\"id\":\"\(id)\""), "\(states.stdout)")
            }
        }
    }
}
