import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/me/push` (docs/PUSH.md): the signed-in person's phones and browsers, and what they are
/// told. "Notify me on this device" subscribes the browser with PushManager and the tenant's
/// VAPID key (assets/push.js) and posts the subscription here; everything goes through the
/// protocol's Push request, so the web app keeps the same rules as `roster-client push`.
enum PushPage {
    static let path = "/me/push"
    /// What a person may be told, as the protocol names them (docs/PUSH.md).
    static let kinds = ["on-duty", "cover-asked", "my-requests", "conflicts", "shift-changes"]

    /// GET /me/push.
    static func render(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let words = request.words
        let viewer: Viewer, session: WebSessions.Session, tenant: TenantRuntime, core: ServerCore
        switch WebForms.reader(
            request, app: app, side: side, title: words("Notifications"),
            why: words("Sign in to be notified on your phone."))
        {
        case .success(let found): (viewer, session, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        let listed = await perform(
            .with { $0.list = true }, viewer: viewer, tenant: tenant, core: core, request: request)
        var html = HTML()
        WebPage.open(&html, title: words("Notifications"), words: words)
        html.raw("<script type=\"module\" src=\"/assets/push.js\"></script>")
        html.raw("<header><h1>\(words("Notifications"))</h1></header>")
        WebPage.navigation(&html, current: "/me", viewer: viewer)
        html.raw("<main id=\"main\">")
        html.element(
            "p", words("Your phone or this browser tells you when you go on duty and when someone asks you to cover."))
        switch listed {
        case .success(let answer):
            // The button shows only where the browser can subscribe (push.js decides).
            html.raw("<form id=\"push-subscribe\" method=\"post\" hidden")
            html.attribute("action", path)
            html.attribute("data-key", answer.vapidPublicKey)
            html.attribute("data-denied", words("This browser may not show notifications: allow them in its settings."))
            html.attribute("data-failed", words("This device could not be subscribed:"))
            html.attribute("data-renewed", words("This device was subscribed again with the server's new key."))
            html.raw(">")
            WebPage.csrf(&html, session)
            html.raw("<button type=\"submit\">\(words("Notify me on this device"))</button></form>")
            html.raw("<p id=\"push-status\" role=\"status\"></p>")
            table(&html, answer.subscriptions, session: session, words: words)
            settingsForm(&html, answer.settings, session: session, words: words)
        case .failure(let error):
            html.element("p", class: "problem", error.body.message)
        }
        html.raw("</main>")
        WebPage.close(&html)
        return WebApp.html(200, html.output)
    }

    private static func table(
        _ html: inout HTML, _ subscriptions: [Roster_V1_PushSubscription], session: WebSessions.Session, words: Words
    ) {
        html.raw("<h2>\(words("My devices"))</h2>")
        guard !subscriptions.isEmpty else {
            html.element("p", class: "empty", words("No devices yet."))
            return
        }
        html.raw(
            "<table><thead><tr><th>\(words("Device"))</th><th>\(words("Through"))</th><th></th></tr></thead><tbody>")
        for subscription in subscriptions {
            html.raw("<tr><td>")
            html.text(subscription.label.isEmpty ? subscription.id : subscription.label)
            if !subscription.disabledReason.isEmpty { html.text(" (" + words("stopped: it kept failing") + ")") }
            html.raw("</td><td>")
            html.text(subscription.origin)
            html.raw("</td><td><form class=\"inline\" method=\"post\"")
            html.attribute("action", path + "/remove")
            html.raw(">")
            WebPage.csrf(&html, session)
            FormParts.hidden(&html, "id", subscription.id)
            html.raw("<button type=\"submit\">\(words("Remove"))</button></form></td></tr>")
        }
        html.raw("</tbody></table>")
    }

    private static func settingsForm(
        _ html: inout HTML, _ settings: Roster_V1_PushSettings, session: WebSessions.Session, words: Words
    ) {
        html.raw("<h2>\(words("What I am told"))</h2><form class=\"edit\" method=\"post\"")
        html.attribute("action", path + "/settings")
        html.raw(">")
        WebPage.csrf(&html, session)
        let labels = [
            words("Going on duty"), words("Cover asked of me"), words("My requests taken or expired"),
            words("Duty during my time off"), words("Changes to my shifts"),
        ]
        for (kind, label) in zip(kinds, labels) {
            html.raw("<label><input type=\"checkbox\" value=\"1\"")
            html.attribute("name", "kind-" + kind)
            if settings.kinds.contains(kind) { html.raw(" checked") }
            html.raw("> ")
            html.text(label)
            html.raw("</label>")
        }
        html.raw("<label><input type=\"checkbox\" name=\"quiet\" value=\"1\"")
        if settings.quiet { html.raw(" checked") }
        html.raw("> \(words("Quiet hours (going on duty still rings)"))</label>")
        func time(_ minute: Int32) -> String {
            (minute / 60 < 10 ? "0" : "") + "\(minute / 60):" + (minute % 60 < 10 ? "0" : "") + "\(minute % 60)"
        }
        html.raw(
            "<label for=\"quiet-from\">\(words("From"))</label><input id=\"quiet-from\" name=\"from\" type=\"time\"")
        html.attribute("value", time(settings.quiet ? settings.quietStartMinute : 22 * 60))
        html.raw("><label for=\"quiet-to\">\(words("To"))</label><input id=\"quiet-to\" name=\"to\" type=\"time\"")
        html.attribute("value", time(settings.quiet ? settings.quietEndMinute : 7 * 60))
        html.raw("><label for=\"quiet-zone\">\(words("Time zone"))</label><input id=\"quiet-zone\" name=\"zone\"")
        html.attribute("value", settings.quietZone.isEmpty ? "UTC" : settings.quietZone)
        html.raw("><div class=\"actions\"><button type=\"submit\">\(words("Save"))</button></div></form>")
    }

    /// POST /me/push (endpoint, p256dh, auth, label): what push.js sends after PushManager
    /// subscribed; answered 303 to the page, or the refusal.
    static func add(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        await act(request, app: app, side: side) { form in
            .with {
                $0.add = .with {
                    $0.endpoint = form["endpoint"] ?? ""
                    $0.p256Dh = form["p256dh"] ?? ""
                    $0.auth = form["auth"] ?? ""
                    $0.label = String((form["label"] ?? "").prefix(100))
                }
            }
        }
    }

    /// POST /me/push/remove (id).
    static func remove(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        await act(request, app: app, side: side) { form in .with { $0.remove = String((form["id"] ?? "").prefix(40)) } }
    }

    /// POST /me/push/settings (kind…, quiet, from, to, zone).
    static func settings(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        await act(request, app: app, side: side) { form in
            .with {
                $0.setSettings = .with {
                    $0.kinds = kinds.filter { form["kind-" + $0] == "1" }
                    $0.quiet = form["quiet"] == "1"
                    if $0.quiet {
                        // An unreadable time is -1, which the request refuses in words.
                        $0.quietStartMinute = Int32(RestrictionWindow.minuteOfDay(form["from"] ?? "") ?? -1)
                        $0.quietEndMinute = Int32(RestrictionWindow.minuteOfDay(form["to"] ?? "") ?? -1)
                        $0.quietZone = String((form["zone"] ?? "").prefix(64))
                    }
                }
            }
        }
    }

    private static func act(
        _ request: HTTPAPI.Request, app: WebApp, side: HTTPSide,
        _ make: ([String: String]) -> Roster_V1_PushRequest
    ) async -> HTTPAPI.Reply {
        let viewer: Viewer, tenant: TenantRuntime, core: ServerCore
        switch WebForms.poster(request, app: app, side: side) {
        case .success(let found): (viewer, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        switch await perform(make(request.form), viewer: viewer, tenant: tenant, core: core, request: request) {
        case .success: return WebApp.seeOther(path)
        case .failure(let error):
            let words = viewer.words
            return WebApp.html(
                FormParts.status(of: error),
                WebPage.message(
                    title: words("Notifications"), error.body.message, words: words,
                    link: (path, words("Notifications"))))
        }
    }

    private static func perform(
        _ body: Roster_V1_PushRequest, viewer: Viewer, tenant: TenantRuntime, core: ServerCore,
        request: HTTPAPI.Request
    ) async -> Result<Roster_V1_PushResponse, WireError> {
        guard let loop = request.loop, let credential = viewer.credential else {
            return .failure(WireError(.unavailable, "the server is starting", retryable: true))
        }
        switch try? await core.perform(
            .push(body), on: tenant, credential: credential, address: request.peer, loop: loop
        )
        .get()
        {
        case .success(.pushResult(let answer))?: return .success(answer)
        case .failure(let error)?: return .failure(error)
        default: return .failure(WireError(.unavailable, "the server is stopping", retryable: true))
        }
    }
}
