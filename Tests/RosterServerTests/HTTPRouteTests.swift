import Foundation
import NIOEmbedded
import RosterDomain
@testable import RosterHTTP
import RosterServerCore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// The API's route table: the one place a path is routed, what the OpenAPI document lists, and
/// the 405s it derives; answered in process, without a port.
@Suite(.timeLimit(.minutes(10))) struct HTTPRouteTests {
    /// Every route is in the OpenAPI document with its method, and the document has no other.
    @Test func theOpenAPIDocumentListsExactlyTheRoutes() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        let routed = Set(HTTPAPI.routes.map { "\($0.method) \($0.template)" })
        #expect(
            routed == documented,
            "only routed: \(routed.subtracting(documented)); only documented: \(documented.subtracting(routed))")
        #expect(routed.count == HTTPAPI.routes.count, "no route twice")
    }

    @Test func aPatternMatchesWholeSegmentsAndDecodesThem() {
        let routes: [HTTPRoute<Int>] = [
            HTTPRoute("GET", [.literal("v1"), .literal("calendar"), .parameter("token", suffix: ".ics")], 1),
            HTTPRoute("GET", [.literal("v1"), .literal("people"), .parameter("person"), .literal("next")], 2),
            HTTPRoute("POST", [.literal("v1"), .literal("people"), .parameter("person"), .literal("next")], 3),
        ]
        func found(_ method: String, _ path: String) -> [String]? {
            if case .found(_, let values) = routes.route(method, path) { return values }
            return nil
        }
        #expect(found("GET", "/v1/calendar/cal_abc.ics") == ["cal_abc"])
        #expect(found("GET", "/v1/calendar/.ics") == nil, "a parameter is never empty")
        #expect(found("GET", "/v1/calendar/cal_abc") == nil)
        #expect(found("HEAD", "/v1/people/Ada%20Lovelace/next") == ["Ada Lovelace"])
        #expect(found("GET", "/v1/people//next") == nil)
        #expect(found("GET", "/v1/people/ada/next/") == nil)
        guard case .wrongMethod(let allowed) = routes.route("DELETE", "/v1/people/ada/next") else {
            Issue.record("a route's path with another method is 405")
            return
        }
        #expect(allowed == ["GET", "HEAD", "POST"])
        guard case .notFound = routes.route("DELETE", "/v1/nothing") else {
            Issue.record("a path no route has is not found, whatever its method")
            return
        }
        #expect(routes[0].template == "/v1/calendar/{token}.ics" && routes[1].example("x") == "/v1/people/x/next")
    }

    /// Through the API as the listener calls it: each route answers, a route's path with another
    /// method is 405 with its methods, and any other path is 404.
    @Test func theAPIAnswersItsRoutesAndDerivesItsRefusals() async throws {
        let scratch = TestScratch.directory("roster-routes")
        defer { TestScratch.remove(scratch) }
        let server = try InboundPathHarness(
            loop: EmbeddedEventLoop(), store: try SQLiteRosterStore(path: scratch.path + "/roster.sqlite"),
            dataDirectory: scratch.path, now: t0)
        let http = HTTPRequestHarness(server)
        let admin = "Bearer \(server.adminToken)"
        let live = await http.reply(method: "GET", uri: "/livez", authorization: nil)
        #expect(live.status == 200 && String(decoding: live.body, as: UTF8.self) == "ok\n")
        let now = await http.reply(method: "GET", uri: "/v1/oncall", authorization: admin)
        #expect(now.status == 200 && now.contentType == "application/json")
        #expect(String(decoding: now.body, as: UTF8.self).contains("\"tenant\":\"demo\""))
        let post = await http.reply(method: "POST", uri: "/livez", authorization: nil)
        #expect(post.status == 405 && post.headers.contains { $0 == ("Allow", "GET, HEAD") })
        let step = await http.reply(method: "GET", uri: "/v1/requests/req_1/take", authorization: admin)
        #expect(step.status == 405 && step.headers.contains { $0 == ("Allow", "POST") })
        let chat = await http.reply(method: "GET", uri: "/v1/chat/slack/command", authorization: nil)
        #expect(chat.status == 405 && chat.headers.contains { $0 == ("Allow", "POST") })
        #expect(await http.respond(method: "DELETE", uri: "/v1/nothing", authorization: admin) == 404)
        #expect(await http.respond(method: "GET", uri: "/v1/chat/teams/command", authorization: nil) == 404)
        for route in HTTPAPI.routes {
            for method in ["GET", "POST", "PUT", "DELETE"]
            where !HTTPAPI.routes.contains(where: { $0.method == method && $0.template == route.template }) {
                #expect(
                    await http.respond(method: method, uri: route.example("x"), authorization: admin) == 405,
                    "\(method) \(route.template)")
            }
        }
    }
}
