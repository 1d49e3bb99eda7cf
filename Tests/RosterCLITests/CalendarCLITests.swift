import Foundation
import RosterTestSupport
import Testing

/// `roster-client calendar url` and `export --ical` through the built binaries, with curl fetching
/// the feed and Python's icalendar reading it as a calendar program would.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CalendarCLITests {
    @Test func aCalendarURLServesTheFeedThatExportWrites() async throws {
        // The widest window (a year each way) holds the March 2027 change until 2028-03.
        try await withServerProcess(arguments: ["--calendar-days-back", "366", "--calendar-days-ahead", "366"]) {
            server in
            let admin = CLI(port: server.port, token: server.adminToken)
            for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
                #expect(
                    try await admin.run(["admin", "employee", "add", "--first", first, "--last", last]).status == 0)
            }
            #expect(
                try await admin.run(["admin", "schedule", "add", "Platform primary", "--zone", "Europe/Berlin"]).status
                    == 0)
            let rotation = try await admin.run([
                "admin", "rotation", "add", "--schedule", "Platform primary", "--every", "1w",
                "--handoff", "2026-11-30T09:00", "--people", "Ada Lovelace,Alan Turing",
            ])
            #expect(rotation.status == 0, "\(rotation.stderr)")

            // A reader may subscribe a calendar (with a token: an anonymous link could not be
            // listed or revoked by whoever made it); the URL names the host the client uses.
            let anonymous = CLI(port: server.port, token: nil)
            let refusedAnonymously = try await anonymous.run(["calendar", "url", "--schedule", "Platform primary"])
            #expect(
                refusedAnonymously.status == 7 && refusedAnonymously.stderr.contains("with a token"),
                "\(refusedAnonymously.stderr)")
            let created = try await admin.server([
                "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", server.dataDirectory,
            ])
            let reader = CLI(port: server.port, token: created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(
                await eventually(10) { (try? await reader.run(["now"]).status) == 0 }, "the server knows the new token")
            let printed = try await reader.run(["calendar", "url", "--schedule", "Platform primary", "--alarm", "15m"])
            #expect(printed.status == 0, "\(printed.stderr)")
            let url = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let port = try #require(server.httpPort)
            #expect(
                url.hasPrefix("http://127.0.0.1:\(port)/v1/calendar/rst_") && url.hasSuffix(".ics?alarm=15m"), "\(url)")
            #expect(!url.contains("\n"), "one line")
            let fetched = try await HTTPGet.request(url)
            #expect(
                fetched.status == 200 && fetched.body.contains("BEGIN:VCALENDAR")
                    && fetched.body.contains("TRIGGER:-PT15M"))

            // The served feed, read by an independent implementation (events overlapping the window): a week each,
            // 09:00 Berlin on Mondays, which is 08:00Z before 28 March 2027 and 07:00Z after it.
            let calendar = try await ICalendarReader.read(
                fetched.body, from: "2027-03-15T12:00:00+00:00", to: "2027-04-12T00:00:00+00:00")
            #expect(calendar.name.contains("Platform primary"), "\(calendar.name)")
            let onCall = calendar.confirmed
            if Date() < Date(timeIntervalSince1970: 1_835_481_600) {  // 2028-03-01: the window still holds the change
                #expect(
                    onCall.map(\.start) == [
                        "2027-03-15T08:00:00+00:00", "2027-03-22T08:00:00+00:00",
                        "2027-03-29T07:00:00+00:00", "2027-04-05T07:00:00+00:00",
                    ], "\(onCall)")
                #expect(
                    onCall.map(\.end) == [
                        "2027-03-22T08:00:00+00:00", "2027-03-29T07:00:00+00:00",
                        "2027-04-05T07:00:00+00:00", "2027-04-12T07:00:00+00:00",
                    ])
                // 2026-11-30 + 15 weeks: Alan's turn, then alternating.
                #expect(
                    onCall.map(\.summary) == [
                        "Alan Turing on call: Platform primary", "Ada Lovelace on call: Platform primary",
                        "Alan Turing on call: Platform primary", "Ada Lovelace on call: Platform primary",
                    ])
                #expect(onCall.allSatisfy { $0.transparency == "TRANSPARENT" && $0.alarms == 1 })
            }

            let exported = try await reader.run(["export", "--ical", "--schedule", "Platform primary"])
            #expect(exported.status == 0, "\(exported.stderr)")
            func uids(_ text: String) -> [String] {
                text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
            }
            #expect(
                !uids(exported.stdout).isEmpty && uids(exported.stdout) == uids(fetched.body),
                "the same events as the feed")

            // Listed by the token that made them, by feed; revoked, the URL stops at once.
            let other = try await reader.run(["calendar", "url", "--person", "Ada Lovelace", "--label", "phone"])
            #expect(other.status == 0, "\(other.stderr)")
            let listed = try await reader.run(["calendar", "list", "--json"])
            let links = listed.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(
                links.compactMap { $0["feed"] as? String } == ["schedule Platform primary", "person Ada Lovelace"],
                "\(listed.stdout)")
            #expect(links.last?["label"] as? String == "phone")
            let firstID = try #require(links.first?["tokenId"] as? String)
            #expect(url.contains(firstID), "the list names the link by the id in its URL")
            #expect(
                try await admin.run(["calendar", "list"]).stdout.contains(firstID),
                "an admin sees every link of the tenant")
            let revoked = try await reader.run(["calendar", "revoke", firstID])
            #expect(
                revoked.status == 0 && revoked.stdout.contains("Revoked calendar link \(firstID)"), "\(revoked.stderr)")
            #expect(try await HTTPGet.request(url).status == 404, "a revoked link opens nothing")
            #expect(!(try await reader.run(["calendar", "list"]).stdout.contains(firstID)))
            #expect(try await reader.run(["calendar", "revoke", firstID]).status == 8, "revoked already: not found")

            let refused = try await reader.run(["calendar", "url"])
            #expect(refused.status == 64, "give --schedule or --person")
            let unknown = try await reader.run(["calendar", "url", "--person", "Nobody Here"])
            #expect(unknown.status == 8, "\(unknown.stderr)")
        }
    }
}
