import Foundation
import RosterTestSupport
import Testing

/// The web page of a service (issue #56): each step's people now, then the page's timeline with
/// each step at its own instant (a handoff during the page changes step 2 of the repeat), as the
/// protocol and `roster-client oncall --service --simulate` answer; the list of services; an
/// unknown name; German.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServicePageTests {
    /// A policy and a service over `ScheduleServerTests.team`'s Platform primary, for the pages'
    /// language and accessibility tests.
    static let payments = """
        version: 1
        escalationPolicies:
          - id: payments
            name: Payments
            repeat: 1
            steps:
              - delayMinutes: 10
                targets: [{schedule: Platform primary}]
              - delayMinutes: 5
                targets: [{person: Grace Hopper}]
        services:
          - id: api
            name: Payments API
            policy: Payments
            links: [{title: Runbook, url: "https://runbooks.example/payments"}]
        """

    /// The rows of each table of a page, as the text of their cells.
    static func tables(_ page: String) -> [[[String]]] {
        page.components(separatedBy: "<table").dropFirst().map { table in
            let body = table.components(separatedBy: "</table>")[0]
            return body.components(separatedBy: "<tr").dropFirst().map { row in
                row.components(separatedBy: "<td").dropFirst().map { cell in
                    let inner = cell.drop { $0 != ">" }.dropFirst().components(separatedBy: "</td>")[0]
                    return inner.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                        .replacingOccurrences(of: "&amp;", with: "&")
                }
            }.filter { !$0.isEmpty }
        }
    }

    @Test func eachStepNowThenAlongThePageAsTheCLISays() async throws {
        try await EscalationServerTests.withTenant { harness, _ in
            let base = "http://127.0.0.1:\(try #require(harness.server.httpPort))"
            let page = try await HTTPGet.request(base + "/services/Payments%20API", token: harness.adminToken)
            #expect(page.status == 200, "\(page.body)")
            let tables = Self.tables(page.body)
            try #require(tables.count == 2, "\(page.body)")
            // At 12:00: Ada on Primary until tomorrow's 09:00, Grace on Secondary until 12:30.
            #expect(
                tables[0] == [
                    ["Step 1", "Ada Lovelace", "everyone", "Primary", "Tue 1 Dec 09:00 UTC"],
                    ["Step 2", "Grace Hopper", "everyone", "Secondary", "Mon 30 Nov 12:30 UTC"],
                    ["Step 3", "Ada Lovelace", "everyone", "named in the step", "no change planned"],
                ])
            // Along the page: step 2 of the repeat comes at 12:45, after Secondary's handoff.
            #expect(
                tables[1].map { $0.prefix(3) } == [
                    ["Step 1", "Mon 30 Nov 12:00 UTC", "Ada Lovelace"],
                    ["Step 2", "Mon 30 Nov 12:10 UTC", "Grace Hopper"],
                    ["Step 3", "Mon 30 Nov 12:30 UTC", "Ada Lovelace"],
                    ["Step 1, repeat 1", "Mon 30 Nov 12:35 UTC", "Ada Lovelace"],
                    ["Step 2, repeat 1", "Mon 30 Nov 12:45 UTC", "Linus Torvalds"],
                    ["Step 3, repeat 1", "Mon 30 Nov 13:05 UTC", "Ada Lovelace"],
                ])
            #expect(page.body.contains("href=\"/people/linus\""))
            #expect(page.body.contains("It runs again 1 time after its last step."))

            let list = try await HTTPGet.request(base + "/services", token: harness.adminToken)
            #expect(list.status == 200 && list.body.contains("href=\"/services/Payments%20API\""), "\(list.body)")
            #expect(list.body.contains("policy Payments"))
            let missing = try await HTTPGet.request(base + "/services/Ledger", token: harness.adminToken)
            #expect(missing.status == 404 && missing.body.contains("There is no service named “Ledger”."))

            let german = try await HTTPGet.request(
                base + "/services/api", token: harness.adminToken, headers: ["Accept-Language: de"])
            let rows = Self.tables(german.body)
            #expect(german.status == 200 && german.body.contains("<html lang=\"de\">"))
            #expect(rows.count == 2 && rows[1].count == 6 && rows[1][4].first == "Schritt 2, Wiederholung 1", "\(rows)")
            #expect(german.body.contains("Jetzt alarmiert") && german.body.contains("im Schritt genannt"))
        }
    }
}
