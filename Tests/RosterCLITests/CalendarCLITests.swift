import Foundation
import RosterTestSupport
import Testing

/// `roster-client calendar url` and `export --ical` through the built binaries, with curl fetching
/// the feed and Python's icalendar reading it as a calendar program would.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CalendarCLITests {
    @Test func aCalendarURLServesTheFeedThatExportWrites() async throws {
        // The widest window (a year each way) holds the March 2027 change until 2028-03.
        try await withServerProcess(arguments: ["--calendar-days-back", "366", "--calendar-days-ahead", "366"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
                #expect(try await admin.run(["admin", "employee", "add", "--first", first, "--last", last]).status == 0)
            }
            #expect(try await admin.run(["admin", "schedule", "add", "Platform primary", "--zone", "Europe/Berlin"]).status == 0)
            let rotation = try await admin.run(["admin", "rotation", "add", "--schedule", "Platform primary", "--every", "1w",
                                                "--handoff", "2026-11-30T09:00", "--people", "Ada Lovelace,Alan Turing"])
            #expect(rotation.status == 0, "\(rotation.stderr)")

            // A reader may subscribe a calendar; the URL names the host the client uses.
            let reader = CLI(port: server.port, token: nil)
            let printed = try await reader.run(["calendar", "url", "--schedule", "Platform primary", "--alarm", "15m"])
            #expect(printed.status == 0, "\(printed.stderr)")
            let url = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let port = try #require(server.httpPort)
            #expect(url.hasPrefix("http://127.0.0.1:\(port)/v1/calendar/rst_") && url.hasSuffix(".ics?alarm=15m"), "\(url)")
            #expect(!url.contains("\n"), "one line")
            let fetched = try await HTTPGet.request(url)
            #expect(fetched.status == 200 && fetched.body.contains("BEGIN:VCALENDAR") && fetched.body.contains("TRIGGER:-PT15M"))

            // The served feed, read by an independent implementation (events overlapping the window): a week each,
            // 09:00 Berlin on Mondays, which is 08:00Z before 28 March 2027 and 07:00Z after it.
            let calendar = try await ICalendarReader.read(fetched.body, from: "2027-03-15T12:00:00+00:00", to: "2027-04-12T00:00:00+00:00")
            #expect(calendar.name.contains("Platform primary"), "\(calendar.name)")
            let onCall = calendar.confirmed
            if Date() < Date(timeIntervalSince1970: 1_835_481_600) {  // 2028-03-01: the window still holds the change
                #expect(onCall.map(\.start) == ["2027-03-15T08:00:00+00:00", "2027-03-22T08:00:00+00:00",
                                                 "2027-03-29T07:00:00+00:00", "2027-04-05T07:00:00+00:00"], "\(onCall)")
                #expect(onCall.map(\.end) == ["2027-03-22T08:00:00+00:00", "2027-03-29T07:00:00+00:00",
                                               "2027-04-05T07:00:00+00:00", "2027-04-12T07:00:00+00:00"])
                // 2026-11-30 + 15 weeks: Alan's turn, then alternating.
                #expect(onCall.map(\.summary) == ["Alan Turing on call: Platform primary", "Ada Lovelace on call: Platform primary",
                                                   "Alan Turing on call: Platform primary", "Ada Lovelace on call: Platform primary"])
                #expect(onCall.allSatisfy { $0.transparency == "TRANSPARENT" && $0.alarms == 1 })
            }

            let exported = try await reader.run(["export", "--ical", "--schedule", "Platform primary"])
            #expect(exported.status == 0, "\(exported.stderr)")
            func uids(_ text: String) -> [String] {
                text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
            }
            #expect(!uids(exported.stdout).isEmpty && uids(exported.stdout) == uids(fetched.body), "the same events as the feed")

            let refused = try await reader.run(["calendar", "url"])
            #expect(refused.status == 64, "give --schedule or --person")
            let unknown = try await reader.run(["calendar", "url", "--person", "Nobody Here"])
            #expect(unknown.status == 8, "\(unknown.stderr)")
        }
    }
}
