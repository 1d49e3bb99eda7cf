import NIOCore
import RosterDomain
import RosterHTTP
import RosterServerCore

/// The web app people open in a browser, served on the HTTP listener beside /v1 (docs/WEB.md).
/// Pages are rendered on the server and read without JavaScript; changes are forms posted
/// with the session's CSRF value and performed as the same requests over the protocol.
package struct WebApp: HTTPPages {
    let sessions = WebSessions()

    package init() {}

    package func respond(to request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply? {
        switch Self.routes.route(request.method, request.path) {
        case .notFound: return nil
        case .wrongMethod(let allowed):
            // The path is a page, the method is not one it takes: 405, with what it does take.
            let words = request.words
            var reply = Self.html(
                405,
                WebPage.message(
                    title: words("Not here"), words("This page does not take \(request.method) requests."),
                    words: words))
            reply.headers.append(("Allow", allowed.joined(separator: ", ")))
            return reply
        case .found(let handle, let parameters):
            return await handle(self, request, side, parameters)
        }
    }

    /// One page or form: its method and path (a `nil` segment is a parameter, such as a
    /// schedule's name), and what answers it (nil: not found after all, an asset the app does
    /// not have). The routes below are every page the app has; a path one of them matches with
    /// another method is 405, any other is not the app's.
    typealias Route = HTTPRoute<@Sendable (WebApp, HTTPAPI.Request, HTTPSide, [String]) async -> HTTPAPI.Reply?>

    static let routes: [Route] = [
        // From the on-duty indexes: short work, as the directory and the list of schedules.
        Route("GET", [""]) { app, request, side, _ in
            await app.page(request, side: side, lane: .short) { view, viewer, now in
                OnCallPage.render(view: view, now: now, viewer: viewer)
            }
        },
        Route("GET", ["people"]) { app, request, side, _ in
            guard
                let grouping = EmployeeGrouping(rawValue: request.query["group"] ?? EmployeeGrouping.position.rawValue)
            else {
                let words = request.words
                return Self.html(
                    400,
                    WebPage.message(
                        title: words("Unknown grouping"), words("Group people by position or team."), words: words))
            }
            let search = request.query["q"] ?? ""
            return await app.page(request, side: side, lane: .short) { view, viewer, _ in
                DirectoryPage.render(view: view, search: search, grouping: grouping, viewer: viewer)
            }
        },
        Route("GET", ["people", nil]) { app, request, side, parameters in
            let id = parameters[0]
            return await app.statusPage(request, side: side) { view, viewer, now in
                PersonPage.render(view: view, id: id, now: now, viewer: viewer)
            }
        },
        Route("GET", ["me"]) { app, request, side, _ in
            await app.statusPage(request, side: side) { view, viewer, now in
                PersonPage.renderMine(view: view, now: now, viewer: viewer)
            }
        },
        Route("POST", ["me", "calendar"]) { app, request, side, _ in
            await PersonPage.calendarLink(request, app: app, side: side)
        },
        Route("GET", ["me", "tokens"]) { app, request, side, _ in
            await PersonalTokensPage.render(request, app: app, side: side)
        },
        Route("POST", ["me", "tokens"]) { app, request, side, _ in
            await PersonalTokensPage.create(request, app: app, side: side)
        },
        Route("POST", ["me", "tokens", "revoke"]) { app, request, side, _ in
            await PersonalTokensPage.revoke(request, app: app, side: side)
        },
        Route("GET", ["me", "push"]) { app, request, side, _ in
            await PushPage.render(request, app: app, side: side)
        },
        Route("POST", ["me", "push"]) { app, request, side, _ in
            await PushPage.add(request, app: app, side: side)
        },
        Route("POST", ["me", "push", "remove"]) { app, request, side, _ in
            await PushPage.remove(request, app: app, side: side)
        },
        Route("POST", ["me", "push", "settings"]) { app, request, side, _ in
            await PushPage.settings(request, app: app, side: side)
        },
        Route("GET", ["schedules"]) { app, request, side, _ in
            await app.page(request, side: side, lane: .short) { view, viewer, _ in
                SchedulePage.renderList(view: view, viewer: viewer)
            }
        },
        Route("GET", ["schedules", nil]) { app, request, side, parameters in
            let name = parameters[0], query = request.query
            return await app.statusPage(request, side: side) { view, viewer, now in
                guard let schedule = view.state.schedule(idOrName: name) else {
                    return Self.noSchedule(name, words: viewer.words)
                }
                do throws(TimelineWindow.Refusal) {
                    let window = try TimelineWindow(
                        query: query, scheduleZone: schedule.zone, now: now, words: viewer.words)
                    return (
                        200,
                        SchedulePage.render(view: view, schedule: schedule, window: window, now: now, viewer: viewer)
                    )
                } catch {
                    return (
                        400, WebPage.message(title: viewer.words("Not a window"), error.message, words: viewer.words)
                    )
                }
            }
        },
        Route("GET", ["services"]) { app, request, side, _ in
            await app.page(request, side: side, lane: .short) { view, viewer, _ in
                ServicePage.renderList(view: view, viewer: viewer)
            }
        },
        Route("GET", ["services", nil]) { app, request, side, parameters in
            let name = parameters[0]
            return await app.statusPage(request, side: side) { view, viewer, now in
                ServicePage.render(view: view, name: name, now: now, viewer: viewer)
            }
        },
        Route("GET", ["schedules", nil, "override"]) { app, request, side, p in
            await OverrideForm.show(request, schedule: p[0], app: app, side: side)
        },
        Route("POST", ["schedules", nil, "override"]) { app, request, side, p in
            await OverrideForm.submit(request, schedule: p[0], app: app, side: side)
        },
        Route("GET", ["schedules", nil, "edit"]) { app, request, side, p in
            await ScheduleEditPage.show(request, schedule: p[0], app: app, side: side)
        },
        Route("POST", ["schedules", nil, "edit"]) { app, request, side, p in
            await ScheduleEditPage.submit(request, schedule: p[0], app: app, side: side)
        },
        Route("POST", ["schedules", nil, "requests"]) { app, request, side, p in
            await CoverRequestsSection.submit(request, schedule: p[0], app: app, side: side)
        },
        Route("GET", ["schedules", nil, "changes"]) { app, request, side, p in
            await ChangesPage.show(request, schedule: p[0], app: app, side: side)
        },
        Route("GET", ["schedules", nil, "hours"]) { app, request, side, p in
            await HoursPage.show(request, schedule: p[0], app: app, side: side)
        },
        Route("GET", ["language"]) { _, request, side, _ in Self.chooseLanguage(request, side: side) },
        Route("GET", ["sign-in"]) { app, request, side, _ in await SignIn.form(request, app: app, side: side) },
        Route("POST", ["sign-in"]) { app, request, side, _ in await SignIn.signIn(request, app: app, side: side) },
        Route("GET", ["sign-in", "sso"]) { app, request, side, _ in
            await SignInWithProvider.begin(request, app: app, side: side)
        },
        Route("GET", ["sign-in", "sso", "callback"]) { app, request, side, _ in
            await SignInWithProvider.callback(request, app: app, side: side)
        },
        Route("GET", ["sign-in", "cli"]) { app, request, side, _ in
            CommandLineSignIn.page(request, app: app, side: side)
        },
        Route("POST", ["sign-in", "cli"]) { app, request, side, _ in
            await CommandLineSignIn.decide(request, app: app, side: side)
        },
        Route("POST", ["sign-in", "cli", "start"]) { _, request, side, _ in
            await CommandLineSignIn.start(request, side: side)
        },
        Route("POST", ["sign-in", "cli", "token"]) { _, request, side, _ in
            await CommandLineSignIn.token(request, side: side)
        },
        Route("POST", ["sign-in", "cli", "refresh"]) { _, request, side, _ in
            await CommandLineSignIn.refresh(request, side: side)
        },
        Route("POST", ["sign-in", "cli", "logout"]) { _, request, side, _ in
            await CommandLineSignIn.logout(request, side: side)
        },
        Route("POST", ["sign-out"]) { app, request, side, _ in await SignIn.signOut(request, app: app, side: side) },
        Route("GET", ["assets", nil]) { _, request, _, p in WebAssets.reply(for: p[0], gzip: Gzip.accepted(by: request))
        },
        // At the root, so that its scope is every page.
        Route("GET", ["sw.js"]) { _, _, _, _ in
            HTTPAPI.Reply(
                status: 200, contentType: "text/javascript; charset=utf-8",
                body: Array(ServiceWorkerScript.source.utf8),
                headers: WebPage.headers)
        },
    ]

    /// A page of the reader's tenant, rendered by `render` on the tenant work pool (pages
    /// resolve schedules): the status and the HTML.
    func statusPage(
        _ request: HTTPAPI.Request, side: HTTPSide, lane: TenantWorkPool.Lane = .long,
        _ render: @escaping @Sendable (TenantRuntime.View, Viewer, UnixMillis) -> (Int, String)
    ) async -> HTTPAPI.Reply {
        let reading = reading(request, side: side)
        guard case .viewer(let viewer, let tenant) = reading, let core = side.context else {
            return Self.refusal(reading, words: request.words)
        }
        let now = core.clock.now(), view = tenant.view
        let gzip = Gzip.accepted(by: request)
        guard
            let (status, body, compressed) = await core.work.run(
                tenant.id, lane: lane,
                { () -> (Int, [UInt8], Bool) in
                    let (status, text) = render(view, viewer, now)
                    let sent = Gzip.encode(Array(text.utf8), wanted: gzip)
                    return (status, sent.body, sent.compressed)
                })
        else {
            let words = viewer.words
            return Self.html(
                503,
                WebPage.message(title: words("Busy"), words("The server is busy: try again in a moment."), words: words)
            )
        }
        return HTTPAPI.Reply(
            status: status, contentType: "text/html; charset=utf-8", body: body,
            headers: WebPage.headers + Gzip.headers(compressed: compressed) + [("Vary", "Accept-Language, Cookie")])
    }

    /// `/language?lang=de&back=/`: the reader's choice kept in a cookie for a year (an empty
    /// choice clears it: the browser's languages again), then back to the page it came from.
    static func chooseLanguage(_ request: HTTPAPI.Request, side: HTTPSide) -> HTTPAPI.Reply {
        let chosen = Language(rawValue: request.query["lang"] ?? "")
        let back = request.query["back"] ?? "/"
        // Only a path of this server: never a way to send the reader elsewhere.
        let location = back.hasPrefix("/") && !back.hasPrefix("//") && !back.contains("\\") ? back : "/"
        let value =
            chosen.map { "\(Language.cookieName)=\($0.rawValue); Max-Age=31536000" }
            ?? "\(Language.cookieName)=; Max-Age=0"
        return seeOther(
            location,
            headers: [("Set-Cookie", value + "; Path=/; SameSite=Lax" + (side.isLoopback ? "" : "; Secure"))])
    }

    /// The page for a request that may not read.
    static func refusal(_ reading: Reading, words: Words) -> HTTPAPI.Reply {
        switch reading {
        case .viewer, .starting: return starting(words)
        case .refused:
            return html(
                401,
                WebPage.message(
                    title: words("Not signed in"), words("That token is not valid (wrong, revoked or expired)."),
                    words: words, link: ("/sign-in", words("Sign in"))))
        case .signInNeeded:
            return html(
                401,
                WebPage.message(
                    title: words("Not signed in"), words("Sign in with your token to read this server."),
                    words: words, link: ("/sign-in", words("Sign in"))))
        }
    }

    func page(
        _ request: HTTPAPI.Request, side: HTTPSide, lane: TenantWorkPool.Lane = .long,
        _ render: @escaping @Sendable (TenantRuntime.View, Viewer, UnixMillis) -> String
    ) async -> HTTPAPI.Reply {
        await statusPage(request, side: side, lane: lane) { view, viewer, now in (200, render(view, viewer, now)) }
    }

    package func sessionTenant(_ request: HTTPAPI.Request, side: HTTPSide) -> (TenantRuntime, tokenID: String)? {
        guard let core = side.context, let (session, credential) = signedIn(request, core: core, now: core.clock.now()),
            let tenant = core.tenant(credential.tenantID)
        else { return nil }
        return (tenant, session.tokenID)
    }

    /// A page answered instead of the one asked for.
    struct PageRefusal: Error {
        var reply: HTTPAPI.Reply
        init(_ reply: HTTPAPI.Reply) { self.reply = reply }
    }

    /// What an admin's page of one schedule starts from (the audit log, hours and fairness).
    struct AdminScheduleContext {
        var viewer: Viewer, tenant: TenantRuntime, core: ServerCore, loop: any EventLoop, credential: Credential
        var schedule: ScheduleDefinition
        /// The link back to the schedule's timeline.
        var back: (href: String, title: String) {
            ("/schedules/" + WebPage.pathComponent(schedule.name), schedule.name)
        }
    }

    /// The reader, the schedule named and an admin's credential; or the page that refuses (not
    /// signed in, starting, no such schedule, or "Admins only" saying `why`).
    func adminSchedulePage(_ request: HTTPAPI.Request, schedule name: String, side: HTTPSide, why: String)
        -> Result<AdminScheduleContext, PageRefusal>
    {
        let reading = reading(request, side: side)
        guard case .viewer(let viewer, let tenant) = reading else {
            return .failure(PageRefusal(Self.refusal(reading, words: request.words)))
        }
        let words = viewer.words
        guard let core = side.context, let loop = request.loop else {
            return .failure(PageRefusal(Self.starting(words)))
        }
        guard let schedule = tenant.view.state.schedule(idOrName: name) else {
            return .failure(PageRefusal(Self.html(404, Self.noSchedule(name, words: words).1)))
        }
        guard let credential = viewer.credential, viewer.isAdmin else {
            return .failure(
                PageRefusal(
                    Self.html(
                        403,
                        WebPage.message(
                            title: words("Admins only"), why, words: words,
                            link: ("/schedules/" + WebPage.pathComponent(schedule.name), schedule.name)))))
        }
        return .success(
            AdminScheduleContext(
                viewer: viewer, tenant: tenant, core: core, loop: loop, credential: credential, schedule: schedule))
    }

    static func starting(_ words: Words) -> HTTPAPI.Reply {
        html(
            503,
            WebPage.message(
                title: words("Starting"), words("The server is starting: try again in a moment."), words: words))
    }

    static func noSchedule(_ name: String, words: Words) -> (Int, String) {
        (
            404,
            WebPage.message(
                title: words("No such schedule"), words("There is no schedule named “\(name)”."), words: words,
                link: ("/schedules", words("All schedules")))
        )
    }

    static func html(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPAPI.Reply {
        HTTPAPI.Reply(
            status: status, contentType: "text/html; charset=utf-8", body: Array(text.utf8),
            headers: WebPage.headers + headers)
    }

    /// A 303 to `location` (after a form: the browser then gets the page).
    static func seeOther(_ location: String, headers: [(String, String)] = []) -> HTTPAPI.Reply {
        HTTPAPI.Reply(
            status: 303, contentType: "text/plain; charset=utf-8", body: Array("See \(location)\n".utf8),
            headers: WebPage.headers + [("Location", location)] + headers)
    }
}

extension HTTPRequestHarness {
    /// The harness with the web app's pages behind the API, as roster-server serves them.
    public static func withWebApp(_ harness: InboundPathHarness) -> HTTPRequestHarness {
        HTTPRequestHarness(harness, pages: WebApp())
    }
}
