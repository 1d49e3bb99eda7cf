import Foundation
import RosterDomain
import RosterHTTP
import RosterServerCore

/// `/sign-in` and `/sign-out`: a token is exchanged for a session cookie (WebSessions), and
/// signing out ends the session on the server, not only in the browser.
enum SignIn {
    /// The longest token text read from the form (tokens are far shorter).
    static let maxTokenLength = 200

    static func form(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide, problem: String? = nil, status: Int = 200)
        async -> HTTPAPI.Reply
    {
        let words = request.words
        var html = HTML()
        WebPage.open(&html, title: words("Sign in"), words: words)
        html.raw("<header><h1>\(words("Sign in"))</h1></header><main id=\"main\">")
        if let problem { html.element("p", class: "problem", problem) }
        // The tenant's identity provider first, when it has one (docs/SSO.md).
        if let core = side.context, let singleSignOn = core.singleSignOn {
            let tenantID = request.query["tenant"] ?? core.defaultTenant
            if core.tenant(tenantID) != nil, await singleSignOn.isConfigured(tenantID, core: core) {
                html.raw("<p class=\"actions\"><a class=\"button\"")
                html.attribute(
                    "href",
                    "/sign-in/sso"
                        + (request.query["tenant"].map {
                            "?tenant=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                        } ?? ""))
                html.raw(">")
                html.text(words("Sign in with your organisation’s account"))
                html.raw("</a></p>")
            }
        }
        html.raw("<form class=\"edit\" method=\"post\" action=\"/sign-in\">")
        html.raw("<label for=\"token\">\(words("Token"))</label>")
        html.raw("<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" required")
        html.attribute("maxlength", String(maxTokenLength))
        html.raw(">")
        html.raw("<div class=\"actions\"><button type=\"submit\">\(words("Sign in"))</button></div></form>")
        html.element(
            "p", class: "when",
            words(
                "A token from roster-server token create (the demo writes roster-data/admin.token). This browser keeps a session, not the token; signing out ends it."
            ))
        html.raw("</main><footer>")
        WebPage.languageForm(&html, back: "/sign-in", words: words, chosen: request.languageChosen)
        html.raw("</footer>")
        WebPage.close(&html)
        return WebApp.html(status, html.output)
    }

    static func signIn(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        guard let core = side.context else { return WebApp.starting(words) }
        guard WebForms.sameOrigin(request) else { return WebForms.forged(words) }
        let now = core.clock.now()
        let text = String(
            (request.form["token"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(maxTokenLength))
        guard let credential = core.tokens.authenticate(text, now: now), let tokenID = credential.tokenID else {
            side.metrics?.counters.authenticationFailed()
            core.auditAuthenticationFailure(token: text, address: request.peer, door: "web sign-in", at: now)
            return await form(
                request, app: app, side: side, problem: words("That token is not valid (wrong, revoked or expired)."),
                status: 401)
        }
        guard let session = app.sessions.open(tokenID: tokenID, tenantID: credential.tenantID, now: now) else {
            return await form(
                request, app: app, side: side,
                problem: words("This server holds as many sessions as it may; try again later."), status: 503)
        }
        return WebApp.seeOther("/", headers: [WebSessions.cookie(session, secure: !side.isLoopback)])
    }

    static func signOut(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        guard let core = side.context else { return WebApp.starting(request.words) }
        guard let (session, _) = app.signedIn(request, core: core, now: core.clock.now()) else {
            return WebApp.seeOther("/sign-in", headers: [WebSessions.cookie(nil, secure: !side.isLoopback)])
        }
        guard WebForms.verified(request, session: session) else { return WebForms.forged(request.words) }
        app.sessions.close(session.id)
        // A token minted by a sign-in with the provider ends with its session.
        if let singleSignOn = core.singleSignOn {
            await singleSignOn.signedOut(tokenID: session.tokenID, core: core, address: request.peer)
        }
        // The pages the service worker kept for offline reading go too.
        return WebApp.seeOther(
            "/sign-in",
            headers: [
                WebSessions.cookie(nil, secure: !side.isLoopback),
                ("Clear-Site-Data", "\"cache\", \"storage\""),
            ])
    }
}

/// The checks every form post passes before it changes anything (CSRF): it comes from this
/// server's own page (Origin, when the browser sends it, names this host) and carries the
/// session's CSRF value. The cookie is SameSite=Strict besides.
enum WebForms {
    static func sameOrigin(_ request: HTTPAPI.Request) -> Bool {
        guard let origin = request.origin, origin != "null" else { return request.origin == nil }
        guard let host = request.host else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    static func verified(_ request: HTTPAPI.Request, session: WebSessions.Session) -> Bool {
        sameOrigin(request) && WebSessions.matches(request.form["csrf"] ?? "", session.csrf)
    }

    static func forged(_ words: Words) -> HTTPAPI.Reply {
        WebApp.html(
            403,
            WebPage.message(
                title: words("Refused"),
                words(
                    "This change did not come from this server’s own page (its CSRF check failed). Reload the page and try again."
                ), words: words))
    }

    /// The viewer of a form post that may change something: signed in, and the post verified.
    static func poster(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) -> Result<
        (Viewer, TenantRuntime, ServerCore), Refusal
    > {
        let words = request.words
        guard let core = side.context else { return .failure(Refusal(reply: WebApp.starting(words))) }
        guard let (session, credential) = app.signedIn(request, core: core, now: core.clock.now()) else {
            return .failure(
                Refusal(
                    reply: WebApp.html(
                        401,
                        WebPage.message(
                            title: words("Not signed in"), words("Sign in to make changes."), words: words,
                            link: ("/sign-in", words("Sign in"))))))
        }
        guard verified(request, session: session) else { return .failure(Refusal(reply: forged(words))) }
        guard let tenant = core.tenant(credential.tenantID) else {
            return .failure(Refusal(reply: WebApp.starting(words)))
        }
        var viewer = Viewer(credential: credential, session: session, tenant: tenant, words: words)
        viewer.languageChosen = request.languageChosen
        return .success((viewer, tenant, core))
    }

    /// The viewer of a page that is a signed-in person's own (their tokens, their phones); not
    /// signed in, the refusal is a page titled `title` that says `why` and links to sign-in.
    static func reader(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide, title: String, why: String)
        -> Result<(Viewer, WebSessions.Session, TenantRuntime, ServerCore), Refusal>
    {
        let words = request.words
        guard let core = side.context else { return .failure(Refusal(reply: WebApp.starting(words))) }
        guard let (session, credential) = app.signedIn(request, core: core, now: core.clock.now()),
            let tenant = core.tenant(credential.tenantID)
        else {
            return .failure(
                Refusal(
                    reply: WebApp.html(
                        401,
                        WebPage.message(title: title, why, words: words, link: ("/sign-in", words("Sign in"))))))
        }
        let viewer = Viewer(credential: credential, session: session, tenant: tenant, words: words)
        return .success((viewer, session, tenant, core))
    }

    /// `poster`, for a form that changes the schedule named in its path: that schedule too.
    static func poster(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide)
        -> Result<(viewer: Viewer, tenant: TenantRuntime, core: ServerCore, schedule: ScheduleDefinition), Refusal>
    {
        poster(request, app: app, side: side).flatMap { viewer, tenant, core in
            guard let schedule = tenant.view.state.schedule(idOrName: name) else {
                return .failure(Refusal(reply: WebApp.html(404, WebApp.noSchedule(name, words: viewer.words).1)))
            }
            return .success((viewer, tenant, core, schedule))
        }
    }

    struct Refusal: Error { var reply: HTTPAPI.Reply }
}
