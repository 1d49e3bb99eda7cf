import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/me/tokens` (docs/SSO.md, "Personal tokens"): the signed-in person's own tokens, made,
/// listed and revoked through the protocol's PersonalTokens request, so the web app keeps the
/// same rules as `roster-client token`. A new token is shown once, on the page that made it.
enum PersonalTokensPage {
    static let path = "/me/tokens"

    /// GET /me/tokens.
    static func render(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        let viewer: Viewer, session: WebSessions.Session, tenant: TenantRuntime, core: ServerCore
        switch WebForms.reader(
            request, app: app, side: side, title: words("My tokens"), why: words("Sign in to see your tokens."))
        {
        case .success(let found): (viewer, session, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        let listed = await perform(
            .with { $0.list = true }, viewer: viewer, tenant: tenant, core: core, request: request)
        var html = HTML()
        WebPage.open(&html, title: words("My tokens"), words: words)
        html.raw("<header><h1>\(words("My tokens"))</h1></header>")
        WebPage.navigation(&html, current: "/me", viewer: viewer)
        html.raw("<main id=\"main\">")
        html.element(
            "p",
            words(
                "Tokens of your own for scripts, calendar programs and status lights: each reads, or also does what you may do yourself, until it expires or you revoke it."
            ))
        switch listed {
        case .success(let answer): table(&html, answer.tokens, session: session, tenant: tenant, words: words)
        case .failure(let error): html.element("p", class: "problem", error.body.message)
        }
        html.raw("<h2>\(words("Make a token"))</h2><form class=\"edit\" method=\"post\"")
        html.attribute("action", path)
        html.raw(">")
        WebPage.csrf(&html, session)
        html.raw("<label for=\"label\">\(words("What it is for"))</label>")
        html.raw("<input id=\"label\" name=\"label\" maxlength=\"100\">")
        html.raw("<label for=\"days\">\(words("Days it lasts"))</label>")
        html.raw("<input id=\"days\" name=\"days\" type=\"number\" min=\"1\" max=\"365\" value=\"90\">")
        html.raw("<label><input type=\"checkbox\" name=\"read_only\" value=\"1\" checked> ")
        html.text(words("Reading only"))
        html.raw("</label><div class=\"actions\"><button type=\"submit\">\(words("Make the token"))</button></div>")
        html.raw("</form></main>")
        WebPage.close(&html)
        return WebApp.html(200, html.output)
    }

    private static func table(
        _ html: inout HTML, _ tokens: [Roster_V1_PersonalToken], session: WebSessions.Session, tenant: TenantRuntime,
        words: Words
    ) {
        guard !tokens.isEmpty else {
            html.element("p", class: "empty", words("No tokens."))
            return
        }
        let state = tenant.view.state
        html.raw("<table><thead><tr>")
        for heading in [words("Token"), words("For"), words("May"), words("Until")] {
            html.raw("<th>\(heading)</th>")
        }
        html.raw("<th></th></tr></thead><tbody>")
        for token in tokens {
            html.raw("<tr><td><code>")
            html.text(token.tokenID)
            html.raw("</code></td><td>")
            html.text(token.label)
            html.raw("</td><td>")
            let schedules = token.schedules.map { state.schedules[$0]?.name ?? $0 }.joined(separator: ", ")
            html.text(
                token.readOnly
                    ? words("read") : schedules.isEmpty ? words("read and act") : words("read, act on \(schedules)"))
            html.raw("</td><td>")
            html.text(TimeText.iso8601(token.expiresMs))
            html.raw("</td><td><form class=\"inline\" method=\"post\"")
            html.attribute("action", path + "/revoke")
            html.raw(">")
            WebPage.csrf(&html, session)
            FormParts.hidden(&html, "id", token.tokenID)
            html.raw("<button type=\"submit\">\(words("Revoke"))</button></form></td></tr>")
        }
        html.raw("</tbody></table>")
    }

    /// POST /me/tokens (label, days, read_only): the new token, shown this once.
    static func create(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let viewer: Viewer, tenant: TenantRuntime, core: ServerCore
        switch WebForms.poster(request, app: app, side: side) {
        case .success(let found): (viewer, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        let words = viewer.words
        guard let days = Int64(request.form["days"] ?? "90"), (1...365).contains(days) else {
            return refused(400, words("A token lasts from 1 to 365 days."), words: words)
        }
        let spec = Roster_V1_PersonalTokenSpec.with {
            $0.label = request.form["label"] ?? ""
            $0.readOnly = request.form["read_only"] == "1"
            $0.expiresInS = days * 86_400
        }
        switch await perform(.with { $0.create = spec }, viewer: viewer, tenant: tenant, core: core, request: request) {
        case .success(let answer):
            var html = HTML()
            WebPage.open(&html, title: words("My new token"), words: words)
            html.raw("<header><h1>\(words("My new token"))</h1></header>")
            WebPage.navigation(&html, current: "/me", viewer: viewer)
            html.raw("<main id=\"main\">")
            html.element("p", words("Copy it now: it is shown only this once. Keep it private."))
            html.raw("<p><code id=\"token\">")
            html.text(answer.token)
            html.raw("</code></p><p><a href=\"\(path)\">\(words("My tokens"))</a></p></main>")
            WebPage.close(&html)
            return WebApp.html(200, html.output)
        case .failure(let error):
            return refused(FormParts.status(of: error), error.body.message, words: words)
        }
    }

    /// POST /me/tokens/revoke (id): back to the list.
    static func revoke(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let viewer: Viewer, tenant: TenantRuntime, core: ServerCore
        switch WebForms.poster(request, app: app, side: side) {
        case .success(let found): (viewer, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        let id = String((request.form["id"] ?? "").prefix(40))
        switch await perform(.with { $0.revoke = id }, viewer: viewer, tenant: tenant, core: core, request: request) {
        case .success: return WebApp.seeOther(path)
        case .failure(let error): return refused(FormParts.status(of: error), error.body.message, words: viewer.words)
        }
    }

    private static func refused(_ status: Int, _ why: String, words: Words) -> HTTPAPI.Reply {
        WebApp.html(
            status, WebPage.message(title: words("My tokens"), why, words: words, link: (path, words("My tokens"))))
    }

    private static func perform(
        _ body: Roster_V1_PersonalTokensRequest, viewer: Viewer, tenant: TenantRuntime, core: ServerCore,
        request: HTTPAPI.Request
    ) async -> Result<Roster_V1_PersonalTokensResponse, WireError> {
        guard let loop = request.loop, let credential = viewer.credential else {
            return .failure(WireError(.unavailable, "the server is starting", retryable: true))
        }
        switch try? await core.perform(
            .personalTokens(body), on: tenant, credential: credential, address: request.peer, loop: loop
        ).get() {
        case .success(.personalTokensResult(let answer))?: return .success(answer)
        case .failure(let error)?: return .failure(error)
        default: return .failure(WireError(.unavailable, "the server is stopping", retryable: true))
        }
    }
}
