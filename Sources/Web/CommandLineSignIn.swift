import Foundation
import RosterDomain
import RosterHTTP
import RosterServerCore

/// `roster-client login` and `logout` (docs/SSO.md): the terminal asks for a code
/// (`POST /sign-in/cli/start`), the person approves it on `/sign-in/cli` in a browser where they
/// are signed in, and the terminal's poll (`POST /sign-in/cli/token`) gets a token bound to them
/// (`DeviceLogins`). With `redirect_uri`, `code_challenge` and `state` at the start (RFC 8252's
/// loopback redirect with PKCE: `roster-client login --browser`), the approval sends the browser
/// back to the terminal with a code instead, exchanged with the verifier at the same token
/// endpoint. JSON in and out for the terminal, pages for the person.
enum CommandLineSignIn {
    static let path = "/sign-in/cli"

    struct Started: Encodable {
        var device_code: String
        var user_code: String
        var verification_uri: String
        var verification_uri_complete: String
        var expires_in: Int64
        var interval: Int64
    }

    /// A login's token and refresh secret, as the poll and a renewal answer them.
    struct Granted: Encodable {
        var token: String
        var expires_at: String
        var expires_at_ms: Int64
        var refresh_token: String
        var refresh_expires_at_ms: Int64

        init(_ grant: LoginGrant) {
            (token, expires_at, expires_at_ms) = (grant.token, TimeText.iso8601(grant.expiresAt), grant.expiresAt)
            (refresh_token, refresh_expires_at_ms) = (grant.refresh, grant.refreshExpiresAt)
        }
    }

    /// The JSON body's string fields (a bad body gives none).
    static func fields(_ request: HTTPAPI.Request) -> [String: String] {
        guard request.body.count <= 4_096,
            let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { $0 as? String }
    }

    static func json(_ status: Int, _ value: some Encodable) -> HTTPAPI.Reply {
        let body = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        return HTTPAPI.Reply(
            status: status, contentType: "application/json", body: Array(body), headers: [("Cache-Control", "no-store")]
        )
    }

    static func error(_ status: Int, _ code: String) -> HTTPAPI.Reply { json(status, ["error": code]) }

    /// POST /sign-in/cli/start {"tenant": ID[, "redirect_uri", "code_challenge",
    /// "code_challenge_method": "S256", "state"]}: a new login's codes. Without a loopback
    /// address, a tenant whose provider offers the device grant gets the provider's page and code
    /// (`SingleSignOn.startProviderLogin`); if the provider cannot start one, the web app's.
    static func start(_ request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply {
        guard let core = side.context, let singleSignOn = core.singleSignOn else { return error(503, "unavailable") }
        let fields = fields(request)
        let tenantID = fields["tenant"].flatMap { $0.isEmpty ? nil : $0 } ?? core.defaultTenant
        guard core.tenant(tenantID) != nil else { return error(404, "unknown_tenant") }
        var loopback: DeviceLogins.Loopback?
        if let redirect = fields["redirect_uri"] {
            switch DeviceLogins.Loopback.parse(
                redirectURI: redirect, challenge: fields["code_challenge"] ?? "",
                method: fields["code_challenge_method"] ?? "", state: fields["state"] ?? "")
            {
            case .success(let found): loopback = found
            case .failure(let refusal):
                return json(400, ["error": "invalid_request", "error_description": refusal.reason])
            }
        }
        if loopback == nil {
            switch await singleSignOn.startProviderLogin(tenantID: tenantID, address: request.peerAddress, core: core) {
            case .started(let login):
                let provider = login.provider
                return json(
                    200,
                    Started(
                        device_code: login.deviceCode, user_code: provider.userCode,
                        verification_uri: provider.verificationURI,
                        verification_uri_complete: provider.verificationURIComplete ?? provider.verificationURI,
                        expires_in: min(provider.expiresIn, DeviceLogins.lifetime / 1000),
                        interval: max(provider.interval, DeviceLogins.pollInterval / 1000)))
            case .tooMany: return error(429, "too_many_logins")
            case .notOffered, .failed: break
            }
        }
        guard
            let (device, user) = singleSignOn.logins.begin(
                tenantID: tenantID, address: request.peerAddress, now: core.clock.now(), loopback: loopback)
        else { return error(429, "too_many_logins") }
        let scheme = core.configuration.tls == nil ? "http" : "https"
        let page = "\(scheme)://\(request.host ?? "127.0.0.1")\(path)"
        let shown = DeviceLogins.shown(user)
        return json(
            200,
            Started(
                device_code: loopback == nil ? device : "", user_code: shown, verification_uri: page,
                verification_uri_complete: page + "?code=" + shown, expires_in: DeviceLogins.lifetime / 1000,
                interval: DeviceLogins.pollInterval / 1000))
    }

    /// POST /sign-in/cli/token {"device_code": CODE}: RFC 8628 §3.5's answers; or {"code": CODE,
    /// "code_verifier": V} for a loopback login (a wrong or spent code: `invalid_grant`).
    static func token(_ request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply {
        guard let core = side.context, let singleSignOn = core.singleSignOn, let loop = request.loop else {
            return error(503, "unavailable")
        }
        let fields = fields(request)
        if let code = fields["code"] {
            switch singleSignOn.logins.exchange(
                authorizationCode: code, verifier: fields["code_verifier"] ?? "", now: core.clock.now())
            {
            case .approved(let grant): return json(200, Granted(grant))
            case .denied: return error(400, "access_denied")
            default: return error(400, "invalid_grant")
            }
        }
        switch await singleSignOn.pollLogin(
            deviceCode: fields["device_code"] ?? "", core: core, address: request.peer, loop: loop)
        {
        case .pending: return error(400, "authorization_pending")
        case .slowDown: return error(400, "slow_down")
        case .denied: return error(400, "access_denied")
        case .expired: return error(400, "expired_token")
        case .approved(let grant): return json(200, Granted(grant))
        }
    }

    /// POST /sign-in/cli/refresh {"refresh_token": T}: a new token and refresh secret (RFC 6749
    /// §6's answers); the one presented is spent.
    static func refresh(_ request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply {
        guard let core = side.context, let singleSignOn = core.singleSignOn else { return error(503, "unavailable") }
        switch await singleSignOn.renewLogin(
            refresh: fields(request)["refresh_token"] ?? "", core: core, address: request.peer)
        {
        case .renewed(let grant): return json(200, Granted(grant))
        case .refused: return error(400, "invalid_grant")
        case .unavailable: return error(503, "unavailable")
        }
    }

    /// POST /sign-in/cli/logout with the login's token as Bearer and/or {"refresh_token": T}:
    /// the login ends.
    static func logout(_ request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply {
        guard let core = side.context, let singleSignOn = core.singleSignOn else { return error(503, "unavailable") }
        let header = request.authorization ?? ""
        let token = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)) : nil
        guard
            await singleSignOn.logout(
                token: token, refresh: fields(request)["refresh_token"], core: core, address: request.peer)
        else { return error(401, "not_a_login_token") }
        return json(200, ["revoked": "true"])
    }

    /// GET /sign-in/cli?code=…: the approval page, or the way to sign in first.
    static func page(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) -> HTTPAPI.Reply {
        let words = request.words
        guard let core = side.context, let singleSignOn = core.singleSignOn else { return WebApp.starting(words) }
        let code = String((request.query["code"] ?? "").prefix(16))
        let back = path + "?code=" + (code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        var html = HTML()
        WebPage.open(&html, title: words("Sign in to roster-client"), words: words)
        html.raw("<header><h1>\(words("Sign in to roster-client"))</h1></header><main id=\"main\">")
        if let (session, credential) = app.signedIn(request, core: core, now: core.clock.now()) {
            guard singleSignOn.logins.tenant(userCode: code, now: core.clock.now()) == credential.tenantID,
                credential.employeeID != nil
            else {
                html.element(
                    "p", class: "problem",
                    credential.employeeID == nil
                        ? words(
                            "You are signed in with a token that names nobody: roster-client can act only for a person."
                        )
                        : words(
                            "No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."))
                html.raw("</main>")
                WebPage.close(&html)
                return WebApp.html(404, html.output)
            }
            let viewer = Viewer(
                credential: credential, session: session, tenant: core.tenant(credential.tenantID), words: words)
            html.element(
                "p",
                words(
                    "A roster-client asks to act as \(viewer.personName ?? "") (\(credential.role.rawValue)) with the code \(code). Allow it only if you started it."
                ))
            html.raw("<form class=\"edit\" method=\"post\"")
            html.attribute("action", path)
            html.raw("><input type=\"hidden\" name=\"code\"")
            html.attribute("value", code)
            html.raw("><input type=\"hidden\" name=\"csrf\"")
            html.attribute("value", session.csrf)
            html.raw("><div class=\"actions\"><button type=\"submit\" name=\"decision\" value=\"allow\">")
            html.text(words("Allow"))
            html.raw("</button><button type=\"submit\" name=\"decision\" value=\"deny\">")
            html.text(words("Deny"))
            html.raw("</button></div></form>")
            // A loopback login: the answer sends the browser back to the terminal's address.
            if let origin = singleSignOn.logins.loopbackOrigin(userCode: code, now: core.clock.now()) {
                html.raw("</main>")
                WebPage.close(&html)
                return HTTPAPI.Reply(
                    status: 200, contentType: "text/html; charset=utf-8", body: Array(html.output.utf8),
                    headers: WebPage.headers(formAction: "'self' " + origin))
            }
        } else {
            html.element("p", words("Sign in first; you come back here to allow the roster-client."))
            html.raw("<p class=\"actions\"><a class=\"button\"")
            html.attribute(
                "href",
                "/sign-in/sso?return=" + (back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            html.raw(">")
            html.text(words("Sign in with your organisation’s account"))
            html.raw("</a></p>")
        }
        html.raw("</main>")
        WebPage.close(&html)
        return WebApp.html(200, html.output)
    }

    /// POST /sign-in/cli (code, csrf, decision): the person's answer.
    static func decide(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        let poster = WebForms.poster(request, app: app, side: side)
        guard case .success(let (viewer, _, core)) = poster else {
            if case .failure(let refusal) = poster { return refusal.reply }
            return WebApp.starting(words)
        }
        guard let singleSignOn = core.singleSignOn, let credential = viewer.credential else {
            return WebApp.starting(words)
        }
        let code = request.form["code"] ?? ""
        let done: String??
        if request.form["decision"] == "allow" {
            done = await singleSignOn.approveLogin(
                userCode: code, credential: credential, core: core, address: request.peer)
        } else {
            done = singleSignOn.logins.decideReturning(userCode: code, .denied, now: core.clock.now())
        }
        guard let done else {
            return WebApp.html(
                404,
                WebPage.message(
                    title: words("Sign in to roster-client"),
                    words("No roster-client is waiting for this code (it is wrong, used or older than 10 minutes)."),
                    words: words))
        }
        // A loopback login: the browser goes back to the terminal with the code.
        if let back = done {
            return HTTPAPI.Reply(
                status: 303, contentType: "text/plain", body: [],
                headers: [("Location", back), ("Cache-Control", "no-store")])
        }
        return WebApp.html(
            200,
            WebPage.message(
                title: words("Sign in to roster-client"),
                request.form["decision"] == "allow"
                    ? words("Done: go back to your terminal.") : words("Refused: the roster-client gets nothing."),
                words: words, link: ("/me", words("My shifts"))))
    }
}
