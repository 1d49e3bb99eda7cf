import Foundation
import RosterDomain
import RosterHTTP
import RosterIdentity
import RosterServerCore
import RosterStore

/// `/sign-in/sso` and its callback (docs/SSO.md): the browser is sent to the tenant's identity
/// provider and comes back with a code, which the server exchanges and checks
/// (`SingleSignOn.finish`) before it opens the same session a token sign-in opens.
///
/// The attempt is bound to the browser that started it: its `state` is also kept in a cookie
/// for the callback's path (SameSite=Lax, so the provider's redirect brings it), and a callback
/// whose state is not that browser's is refused, so nobody can sign someone else in to their
/// own account by sending them a callback link.
enum SignInWithProvider {
    static let stateCookie = "roster_sso_state"

    /// GET /sign-in/sso[?tenant=ID]: off to the provider.
    static func begin(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        guard let core = side.context, let singleSignOn = core.singleSignOn else { return WebApp.starting(words) }
        let tenantID = request.query["tenant"] ?? core.defaultTenant
        guard core.tenant(tenantID) != nil else { return refused(.notConfigured, words: words) }
        let redirect = await redirectURI(request, core: core, tenantID: tenantID)
        switch await singleSignOn.begin(
            tenantID: tenantID, address: request.peerAddress, redirectURI: redirect,
            returnTo: returnPath(request.query["return"]), core: core)
        {
        case .success(let url):
            let state =
                URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first(where: { $0.name == "state" })?.value ?? ""
            return HTTPAPI.Reply(
                status: 303, contentType: "text/plain; charset=utf-8", body: Array("See the identity provider\n".utf8),
                headers: WebPage.headers + [
                    ("Location", url.absoluteString),
                    (
                        "Set-Cookie",
                        "\(stateCookie)=\(state); Max-Age=\(SignInAttempts.lifetime / 1000); Path=\(SingleSignOn.callbackPath); HttpOnly; SameSite=Lax"
                            + (side.isLoopback ? "" : "; Secure")
                    ),
                ])
        case .failure(let refusal):
            return refused(refusal, words: words)
        }
    }

    /// GET /sign-in/sso/callback: the provider's answer, to a session or a clear refusal.
    static func callback(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        guard let core = side.context, let singleSignOn = core.singleSignOn, let loop = request.loop else {
            return WebApp.starting(words)
        }
        let clearState = (
            "Set-Cookie", "\(stateCookie)=; Max-Age=0; Path=\(SingleSignOn.callbackPath); HttpOnly; SameSite=Lax"
        )
        let state = request.query["state"] ?? ""
        let now = core.clock.now()
        guard !state.isEmpty, WebSessions.matches(state, request.cookie(stateCookie) ?? "") else {
            core.auditSignInFailure(
                tenantID: singleSignOn.attempts.tenant(of: state) ?? core.defaultTenant, address: request.peer,
                detail: "otherBrowser: the callback came to a browser that did not start this sign-in", at: now)
            return refused(nil, words: words, headers: [clearState])
        }
        let tenantID = singleSignOn.attempts.tenant(of: state) ?? core.defaultTenant
        let redirect = await redirectURI(request, core: core, tenantID: tenantID)
        switch await singleSignOn.finish(
            query: request.query, redirectURI: redirect, core: core, address: request.peer, loop: loop)
        {
        case .success(let signedIn):
            guard
                let session = app.sessions.open(
                    tokenID: signedIn.token.id, tenantID: signedIn.token.tenantID, now: core.clock.now())
            else {
                return WebApp.html(
                    503,
                    WebPage.message(
                        title: words("Sign in"),
                        words("This server holds as many sessions as it may; try again later."), words: words),
                    headers: [clearState])
            }
            // A page, not a redirect: the session cookie is SameSite=Strict, and a browser does
            // not send it on a redirect in a chain that began at the provider's site.
            var html = HTML()
            WebPage.open(&html, title: words("Signed in"), words: words)
            html.raw("<main id=\"main\">")
            html.element("h1", words("Signed in"))
            html.raw("<p><a")
            html.attribute("href", signedIn.returnTo)
            html.raw(">")
            html.text(signedIn.returnTo == "/me" ? words("My shifts") : words("Continue"))
            html.raw("</a></p></main>")
            WebPage.close(&html)
            return WebApp.html(
                200, html.output,
                headers: [
                    WebSessions.cookie(session, secure: !side.isLoopback), clearState,
                    ("Refresh", "0;url=" + signedIn.returnTo),
                ])
        case .failure(let refusal):
            return refused(refusal, words: words, headers: [clearState])
        }
    }

    /// Where to land after signing in: a path on this server (never another host), else "/me".
    static func returnPath(_ asked: String?) -> String {
        guard let asked, asked.hasPrefix("/"), !asked.hasPrefix("//"), asked.utf8.count <= 200,
            !asked.contains("\\"), !asked.unicodeScalars.contains(where: { ControlCharacters.isControl($0) })
        else { return "/me" }
        return asked
    }

    /// The callback address for the tenant: as set up, else this server as the browser reached it.
    static func redirectURI(_ request: HTTPAPI.Request, core: ServerCore, tenantID: String) async -> String {
        if let configured = await core.singleSignOn?.redirectURI(tenantID: tenantID, core: core) {
            return configured
        }
        let scheme = core.configuration.tls == nil ? "http" : "https"
        return "\(scheme)://\(request.host ?? "127.0.0.1")\(SingleSignOn.callbackPath)"
    }

    /// The page for a refused sign-in: what went wrong in words for the person, nothing of the
    /// provider's internals; nil: the callback came to another browser.
    static func refused(_ refusal: SignInRefusal?, words: Words, headers: [(String, String)] = []) -> HTTPAPI.Reply {
        let sentence =
            refusal.map { String(describing: $0).prefix(1).uppercased() + String(describing: $0).dropFirst() + "." }
            ?? words("This sign-in was started in another browser. Start again from the sign-in page.")
        let status = refusal == .notConfigured ? 404 : 403
        return WebApp.html(
            status,
            WebPage.message(
                title: words("Sign-in refused"), sentence, words: words, link: ("/sign-in", words("Sign in"))),
            headers: headers)
    }
}
