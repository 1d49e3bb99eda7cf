import Foundation
import RosterDomain
import RosterMigration
import Testing

/// How `migrate --api` reads an API, without a network: the pages it asks for, a 429's wait
/// (as the header says, at most a minute, at most five times), a refused token, and a list
/// that never ends.
@Suite(.timeLimit(.minutes(10))) struct SourceFetchTests {
    actor Log {
        var paths: [String] = []
        var waits: [Duration] = []
        func asked(_ path: String) { paths.append(path) }
        func waited(_ duration: Duration) { waits.append(duration) }
    }

    static func fetch(_ answer: @escaping @Sendable (String, Int) -> SourceResponse) async -> (Log, (any Error)?) {
        let log = Log()
        let counter = Counter()
        do {
            _ = try await Migration.fetchExport(
                from: .pagerDuty,
                call: { request in
                    await log.asked(request.path)
                    return answer(request.path, await counter.next())
                }, overrides: 0..<86_400_000, sleep: { await log.waited($0) })
            return (log, nil)
        } catch {
            return (log, error)
        }
    }

    actor Counter {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    static func list(_ key: String, _ count: Int, more: Bool) -> Data {
        let items = (0..<count).map { #"{"id": "X\#($0)"}"# }.joined(separator: ",")
        return Data(#"{"\#(key)": [\#(items)], "more": \#(more)}"#.utf8)
    }

    @Test func aRateLimitIsWaitedOutAsItsHeaderSaysWithinBounds() async throws {
        let (log, error) = await Self.fetch { path, call in
            if call == 1 { return SourceResponse(status: 429, retryAfter: "120", body: Data()) }
            if call == 2 { return SourceResponse(status: 429, retryAfter: "3", body: Data()) }
            if call == 3 {
                return SourceResponse(status: 429, retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT", body: Data())
            }
            let key = String(path.dropFirst().prefix { $0 != "?" })
            return SourceResponse(status: 200, body: Self.list(key, 0, more: false))
        }
        #expect(error == nil, "\(String(describing: error))")
        #expect(await log.waits == [.seconds(60), .seconds(3), .seconds(1)])
        let paths = await log.paths
        #expect(paths.prefix(4).allSatisfy { $0 == "/schedules?limit=100&offset=0" }, "the same request again")
    }

    @Test func pagesAreFollowedUntilNoMoreAndBounded() async throws {
        let (log, error) = await Self.fetch { path, _ in
            guard path.hasPrefix("/users") else {
                let key = String(path.dropFirst().prefix { $0 != "?" })
                return SourceResponse(status: 200, body: Self.list(key, 0, more: false))
            }
            let offset = Int(path.split(separator: "=").last!)!
            return SourceResponse(status: 200, body: Self.list("users", offset < 200 ? 100 : 7, more: offset < 200))
        }
        #expect(error == nil)
        #expect(
            await log.paths.filter { $0.hasPrefix("/users") } == [
                "/users?limit=100&offset=0", "/users?limit=100&offset=100", "/users?limit=100&offset=200",
            ])
        // A list that always has more stops at the bound, with the path said.
        let (_, endless) = await Self.fetch { path, _ in
            let key = String(path.dropFirst().prefix { $0 != "?" })
            return SourceResponse(status: 200, body: Self.list(key, 1, more: true))
        }
        #expect("\(endless!)" == "GET /schedules: more than 1000 pages")
    }

    @Test func refusalsStopTheFetchWithTheirStatus() async throws {
        let (log, always) = await Self.fetch { _, _ in SourceResponse(status: 429, body: Data()) }
        #expect("\(always!)".contains("still rate-limited (429) after 5 waits"))
        #expect(await log.paths.count == 6)
        let (_, token) = await Self.fetch { _, _ in SourceResponse(status: 401, body: Data("secret-echo".utf8)) }
        #expect("\(token!)" == "GET /schedules?limit=100&offset=0: 401: the API refused the token")
        let (_, garbage) = await Self.fetch { _, _ in SourceResponse(status: 200, body: Data("<html>".utf8)) }
        #expect("\(garbage!)".contains("the answer is not a JSON object"))
        let (_, odd) = await Self.fetch { path, _ in
            SourceResponse(
                status: path.hasPrefix("/schedules?") ? 200 : 500,
                body: Data(#"{"schedules": [{"id": "../users"}], "more": false}"#.utf8))
        }
        // An id never changes the path it is put in.
        #expect("\(odd!)".hasPrefix("GET /schedules/..%2Fusers: answered 500"), "\(odd!)")
    }

    @Test func aFetchedExportReadsAsTheFileDoes() async throws {
        let data = try await Migration.fetchExport(
            from: .pagerDuty,
            call: { request in
                let key = String(request.path.dropFirst().prefix { $0 != "?" })
                return SourceResponse(status: 200, body: Self.list(key, 0, more: false))
            }, overrides: 0..<1, sleep: { _ in })
        let migration = try Migration.read(
            data, from: .pagerDuty, name: "api", directory: RosterState(tenant: Tenant(id: "t", name: "T")), now: 0)
        #expect(migration.state.employees.count == 0 && migration.state.schedules.count == 1)
    }

    /// GoAlert's GraphQL: every request a POST of the one document with its operation's name,
    /// connections followed by cursor, `exportedAt` from GoAlert's `Date` header, and a 200 that
    /// carries `errors` stopping the fetch in GoAlert's words (a key made for another document
    /// told how to make the right one).
    @Test func goAlertsQueriesFollowCursorsAndTheirErrorsAreSaid() async throws {
        actor Asked {
            var operations: [String] = []
            func add(_ operation: String) { operations.append(operation) }
        }
        let asked = Asked()
        let data = try await Migration.fetchExport(
            from: .goAlert,
            call: { request in
                #expect(request.method == .post && request.path == "/api/graphql")
                let body = try #require(
                    request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
                #expect(body["query"] as? String == Migration.goAlertQueries)
                let operation = try #require(body["operationName"] as? String)
                let after = (body["variables"] as? [String: Any])?["after"] as? String ?? ""
                await asked.add("\(operation) \(after)")
                let field = [
                    "RosterUsers": "users", "RosterRotations": "rotations", "RosterSchedules": "schedules",
                    "RosterOverrides": "userOverrides", "RosterEscalationPolicies": "escalationPolicies",
                    "RosterServices": "services",
                ][operation]!
                let more = operation == "RosterUsers" && after.isEmpty
                let nodes =
                    operation == "RosterUsers"
                    ? #"[{"id": "u\#(after)", "name": "U", "email": "u\#(after)@example.com"}]"# : "[]"
                return SourceResponse(
                    status: 200, date: "Fri, 26 Feb 2027 12:00:00 GMT",
                    body: Data(
                        #"{"data": {"\#(field)": {"nodes": \#(nodes), "pageInfo": {"endCursor": "c1", "hasNextPage": \#(more)}}}}"#
                            .utf8))
            }, overrides: 0..<1, sleep: { _ in })
        #expect(await asked.operations.prefix(3) == ["RosterUsers ", "RosterUsers c1", "RosterRotations "])
        let export = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(export["exportedAt"] as? String == "2027-02-26T12:00:00Z")
        #expect((export["users"] as? [Any])?.count == 2)

        do {
            _ = try await Migration.fetchExport(
                from: .goAlert,
                call: { _ in
                    SourceResponse(
                        status: 200,
                        body: Data(
                            #"{"data": null, "errors": [{"message": "wrong query for API key", "extensions": {"code": "invalid_query"}}]}"#
                                .utf8))
                }, overrides: 0..<1, sleep: { _ in })
            Issue.record("a GraphQL error was taken for an answer")
        } catch {
            #expect(
                "\(error)"
                    == "POST /api/graphql (RosterUsers): wrong query for API key (the API key was made for another "
                    + "document: make one from docs/examples/goalert-api.graphql as it is)")
        }
    }

    /// Grafana OnCall's lists follow `next` by its page number only; a `next` that goes back (or
    /// names no page) stops the fetch rather than loop.
    @Test func grafanaOnCallsPagesGoOnlyForward() async throws {
        let answer: @Sendable (String) -> SourceResponse = { path in
            let next =
                path.hasSuffix("?page=2")
                ? "https://elsewhere.example/api/v1/users/?page=1" : "https://elsewhere.example/api/v1/users/?page=2"
            let link = path.hasPrefix("/api/v1/users/") ? "\"\(next)\"" : "null"
            return SourceResponse(status: 200, body: Data(#"{"results": [{"id": "U1"}], "next": \#(link)}"#.utf8))
        }
        do {
            _ = try await Migration.fetchExport(
                from: .grafanaOnCall, call: { answer($0.path) }, overrides: 0..<1, sleep: { _ in })
            Issue.record("a next page that goes back was followed")
        } catch {
            #expect(
                "\(error)"
                    == "GET /api/v1/users/?page=2: its next page is not a later page number: "
                    + "https://elsewhere.example/api/v1/users/?page=1")
        }
        #expect(MigrationSource.grafanaOnCall.apiHeaders(token: "k1").map(\.1) == ["k1"], "the key is the whole header")
    }
}
