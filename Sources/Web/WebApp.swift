import RosterDomain
import RosterHTTP
import RosterServerCore

/// The web app people open in a browser, served on the HTTP listener beside /v1 (docs/WEB.md).
/// Pages are rendered on the server and read without JavaScript. Who may read follows the
/// protocol's rule: on a loopback listener anyone reads the default tenant (development), and a
/// bearer token reads its own tenant anywhere.
package struct WebApp: HTTPPages {
    package init() {}

    package func respond(to request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply? {
        switch request.path {
        case "/":
            return await page(request, side: side) { view, now in OnCallPage.render(view: view, now: now) }
        case "/people":
            guard let grouping = EmployeeGrouping(rawValue: request.query["group"] ?? EmployeeGrouping.position.rawValue) else {
                return Self.html(400, WebPage.message(title: "Unknown grouping", "Group people by position or team."))
            }
            let search = request.query["q"] ?? ""
            return await page(request, side: side) { view, _ in DirectoryPage.render(view: view, search: search, grouping: grouping) }
        case "/assets/app.css":
            return HTTPAPI.Reply(status: 200, contentType: "text/css; charset=utf-8", body: Array(WebAssets.styleSheet.utf8),
                                 headers: WebPage.headers)
        case "/assets/live.js":
            return HTTPAPI.Reply(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(LiveScript.source.utf8),
                                 headers: WebPage.headers)
        default:
            return nil
        }
    }

    /// A page of the reader's tenant, rendered by `render` on the tenant work pool.
    private func page(_ request: HTTPAPI.Request, side: HTTPSide,
                      _ render: @escaping @Sendable (TenantRuntime.View, UnixMillis) -> String) async -> HTTPAPI.Reply {
        guard let core = side.context else {
            return Self.html(503, WebPage.message(title: "Starting", "The server is starting: try again in a moment."))
        }
        let tenant: TenantRuntime
        switch side.reader(request) {
        case .tenant(let found): tenant = found
        case .starting: return Self.html(503, WebPage.message(title: "Starting", "The server is starting: try again in a moment."))
        case .refused:
            return Self.html(401, WebPage.message(title: "Not signed in", "That token is not valid (wrong, revoked or expired)."))
        case .signInNeeded:
            return Self.html(401, WebPage.message(
                title: "Not signed in", "This server reads only for a token here: send it as Authorization: Bearer rst_…"))
        }
        let now = core.clock.now()
        let view = tenant.view
        guard let body = await core.work.run(tenant.id, { render(view, now) }) else {
            return Self.html(503, WebPage.message(title: "Busy", "The server is busy: try again in a moment."))
        }
        return Self.html(200, body)
    }

    static func html(_ status: Int, _ text: String) -> HTTPAPI.Reply {
        HTTPAPI.Reply(status: status, contentType: "text/html; charset=utf-8", body: Array(text.utf8), headers: WebPage.headers)
    }
}

extension HTTPRequestHarness {
    /// The harness with the web app's pages behind the API, as roster-server serves them.
    public static func withWebApp(_ harness: InboundPathHarness) -> HTTPRequestHarness {
        HTTPRequestHarness(harness, pages: WebApp())
    }
}
