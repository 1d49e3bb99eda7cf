import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/people/ID`: a person's details (photo, position, team, projects, biography, contacts) and
/// their duty over the next four weeks; `/me`: the same for the person a token is bound to,
/// with their recent duty and a calendar feed of their own. The stretches are the final
/// schedule's (`RosterState.finalSchedule`), as GetFinalSchedule and `roster-client next` give.
enum PersonPage {
    static let ahead: UnixMillis = 28 * 86_400_000
    static let behind: UnixMillis = 14 * 86_400_000
    /// Stretches listed per schedule and direction.
    static let maxListed = 20

    static func render(view: TenantRuntime.View, id: String, now: UnixMillis, viewer: Viewer) -> (Int, String) {
        let words = viewer.words
        guard let person = view.state.employee(idOrName: id) else {
            return (
                404,
                WebPage.message(
                    title: words("No such person"), words("Nobody here has the id “\(id)”."), words: words,
                    link: ("/people", words("People")))
            )
        }
        var html = HTML()
        WebPage.open(&html, title: person.fullName, words: words, live: true)
        html.raw("<header>")
        html.element("h1", person.fullName)
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: viewer.employeeID == person.id ? "/me" : "/people", viewer: viewer)
        WebPage.main(&html, rendered: now)
        details(&html, person, words: words)
        duty(
            &html, view: view, stretches: stretches(view: view, person: person, from: now, to: now + ahead),
            title: words("Next on duty"), recent: false, now: now, words: words)
        footer(&html, view: view, now: now, words: words)
        WebPage.close(&html)
        return (200, html.output)
    }

    static func renderMine(view: TenantRuntime.View, now: UnixMillis, viewer: Viewer) -> (Int, String) {
        let words = viewer.words
        guard let id = viewer.employeeID, let person = view.state.employees[id] else {
            let made =
                "roster-server token create --tenant \(view.state.tenant.id) --role reader --employee \"Your Name\""
            let why =
                viewer.credential == nil
                ? words(
                    "Sign in with a token that names you (an admin makes one on the server: \(made)) to see your shifts."
                )
                : words("This token names no person here: ask an admin for one made with \(made).")
            return (
                403,
                WebPage.message(
                    title: words("My shifts"), why, words: words,
                    link: viewer.credential == nil ? ("/sign-in", words("Sign in")) : nil)
            )
        }
        var html = HTML()
        WebPage.open(&html, title: words("My shifts — \(person.fullName)"), words: words, live: true)
        html.raw("<header><h1>\(words("My shifts"))</h1>")
        html.element("p", class: "tenant", person.fullName)
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: "/me", viewer: viewer)
        WebPage.main(&html, rendered: now)
        nextOnDuty(&html, view: view, person: person, now: now, words: words)
        // One window across now, resolved once: the stretch under way is upcoming (whole), not
        // also recent.
        let around = stretches(view: view, person: person, from: now - behind, to: now + ahead)
        duty(
            &html, view: view, stretches: around.map { $0.filter { $0.end > now } }, title: words("Upcoming"),
            recent: false, now: now, words: words)
        duty(
            &html, view: view, stretches: around.map { $0.filter { $0.end <= now } }, title: words("Recent"),
            recent: true, now: now, words: words)
        CoverRequestsSection.renderMine(&html, state: view.state, now: now, viewer: viewer)
        if let session = viewer.session {
            html.raw("<h2>\(words("Calendar"))</h2><form method=\"post\" action=\"/me/calendar\">")
            WebPage.csrf(&html, session)
            html.element(
                "p", words("A private feed of your shifts for your calendar app (iCalendar). The link is shown once."))
            html.raw("<button type=\"submit\">\(words("Make my calendar link"))</button></form>")
            html.raw("<p><a href=\"\(PushPage.path)\">\(words("Notifications"))</a> ")
            html.text(words("on your phone or in this browser"))
            html.raw("</p>")
            html.raw("<p><a href=\"\(PersonalTokensPage.path)\">\(words("My tokens"))</a> ")
            html.text(words("for scripts and status lights"))
            html.raw("</p>")
        }
        footer(&html, view: view, now: now, words: words)
        WebPage.close(&html)
        return (200, html.output)
    }

    /// "On duty now on X until …", or "Next on duty: X, from …" (GetNextOnDuty's answer).
    private static func nextOnDuty(
        _ html: inout HTML, view: TenantRuntime.View, person: Employee, now: UnixMillis, words: Words
    ) {
        let state = view.state
        guard let next = try? state.nextOnDuty(employee: person.id, schedule: nil, at: now).first,
            let schedule = state.schedules[next.scheduleID]
        else {
            html.element("p", class: "motd", words("No duty planned."))
            return
        }
        let label = words.clock(schedule.zone)
        let from = label.label(next.shift.start), until = label.label(next.shift.end)
        let text =
            next.shift.start <= now
            ? words("On duty now on \(schedule.name), until \(until).")
            : words("Next on duty: \(schedule.name), \(from) – \(until).")
        html.element("p", class: "motd", text)
    }

    private static func details(_ html: inout HTML, _ person: Employee, words: Words) {
        html.raw("<section class=\"person\">")
        // Only a photo this server serves (or a data: URL) is shown: the page loads nothing from
        // elsewhere. Any other is offered as a link.
        if person.photoURL.hasPrefix("data:image/")
            || (person.photoURL.hasPrefix("/") && !person.photoURL.hasPrefix("//"))
        {
            html.raw("<img class=\"photo\" width=\"96\" height=\"96\" alt=\"\"")
            html.attribute("src", person.photoURL)
            html.raw(">")
        } else {
            let initials = [person.firstName, person.lastName].compactMap(\.first).map(String.init).joined()
            html.raw("<div class=\"photo\" aria-hidden=\"true\">")
            html.text(initials)
            html.raw("</div>")
        }
        html.raw("<dl>")
        for (term, value) in [
            (words("Position"), person.position), (words("Team"), person.team),
            (words("Projects"), person.projects.joined(separator: ", ")),
        ]
        where !value.isEmpty {
            html.element("dt", term)
            html.element("dd", value)
        }
        if !person.email.isEmpty || !person.phone.isEmpty {
            html.element("dt", words("Contact"))
            html.raw("<dd>")
            WebPage.contacts(&html, email: person.email, phone: person.phone)
            html.raw("</dd>")
        }
        if let url = URL(string: person.photoURL), ["http", "https"].contains(url.scheme ?? "") {
            html.element("dt", words("Photo"))
            html.raw("<dd><a rel=\"noreferrer\"")
            html.attribute("href", person.photoURL)
            html.raw(">\(words("Open photo"))</a></dd>")
        }
        html.raw("</dl>")
        if !person.biography.isEmpty { html.element("p", class: "biography", person.biography) }
        html.raw("</section>")
    }

    typealias Stretch = WholeStretches.Stretch<(scheduleID: String, shift: ResolvedShift)>
    typealias Stretches = Result<[Stretch], RosterError>

    /// The person's stretches that meet [from, to) on every schedule, whole (not cut at the
    /// window's edges) and joined where one follows another on the same schedule.
    private static func stretches(view: TenantRuntime.View, person: Employee, from: UnixMillis, to: UnixMillis)
        -> Stretches
    {
        Result { () throws(RosterError) in
            let outer = WholeStretches.resolving(from: from, to: to)
            let resolved = try view.state.finalSchedule(
                schedule: nil, employee: person.id, from: outer.from, to: outer.to
            ).shifts
            return WholeStretches.shown(
                resolved, from: from, to: to, group: { $0.scheduleID }, range: { $0.shift.start..<$0.shift.end })
        }
    }

    /// The stretches per schedule, in each schedule's zone.
    private static func duty(
        _ html: inout HTML, view: TenantRuntime.View, stretches: Stretches, title: String, recent: Bool,
        now: UnixMillis, words: Words
    ) {
        html.element("h2", title)
        let state = view.state
        let answer: [Stretch]
        switch stretches {
        case .success(let found): answer = found
        case .failure(let error):
            html.element(
                "p", class: "problem",
                words("The schedules could not be worked out now: \(String(describing: error))"))
            return
        }
        if answer.isEmpty {
            html.element(
                "p", class: "empty",
                recent ? words("No duty in the last 14 days.") : words("No duty in the next 28 days.")
            )
            return
        }
        for schedule in state.sortedSchedules {
            let stretches = answer.filter { $0.item.scheduleID == schedule.id }
            guard !stretches.isEmpty else { continue }
            let label = words.clock(schedule.zone)
            html.raw("<section class=\"schedule\"><h3><a")
            html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
            html.raw(">")
            html.text(schedule.name)
            html.raw("</a></h3><ul>")
            let listed = recent ? Array(stretches.suffix(maxListed)) : Array(stretches.prefix(maxListed))
            for stretch in listed {
                html.raw(stretch.start <= now && now < stretch.end ? "<li class=\"current\">" : "<li>")
                // A stretch longer than was followed says so rather than ending at a made-up edge.
                let from = label.label(stretch.start), until = label.label(stretch.end)
                let when =
                    switch (stretch.startedEarlier, stretch.continues) {
                    case (false, false): words("\(from) – \(until)")
                    case (true, false): words("before \(from) – \(until)")
                    case (false, true): words("\(from) – \(until) and on")
                    case (true, true): words("before \(from) – \(until) and on")
                    }
                html.element("span", class: "when", when)
                if stretch.start <= now && now < stretch.end {
                    html.element("span", class: "role", words("on duty now"))
                }
                html.raw("</li>")
            }
            html.raw("</ul></section>")
        }
    }

    private static func footer(_ html: inout HTML, view: TenantRuntime.View, now: UnixMillis, words: Words) {
        html.raw("<footer>")
        html.text(words("As of \(TimeText.iso8601(now)), revision \(view.revision)."))
        html.raw("</footer></main>")
    }
}

extension PersonPage {
    /// `POST /me/calendar`: a calendar token for the signed-in person's own feed (the protocol's
    /// GetCalendar with create_token), its URL shown once.
    static func calendarLink(_ request: HTTPAPI.Request, app: WebApp, side: HTTPSide) async -> HTTPAPI.Reply {
        let viewer: Viewer, tenant: TenantRuntime, core: ServerCore
        switch WebForms.poster(request, app: app, side: side) {
        case .success(let found): (viewer, tenant, core) = found
        case .failure(let refusal): return refusal.reply
        }
        let words = viewer.words
        guard let person = viewer.employeeID, let credential = viewer.credential, let loop = request.loop else {
            return WebApp.html(
                403,
                WebPage.message(title: words("My shifts"), words("This token names no person here."), words: words))
        }
        let query = Roster_V1_GetCalendarRequest.with {
            $0.person = person
            $0.createToken = true
            $0.label = "web: my shifts"
        }
        let answer = try? await core.perform(
            .getCalendar(query), on: tenant, credential: credential, address: request.peer,
            loop: loop
        ).get()
        switch answer {
        case .success(.calendar(let calendar))?:
            let host = request.host ?? "127.0.0.1:\(calendar.httpPort)"
            let url = (calendar.https ? "https://" : "http://") + host + "/v1/calendar/" + calendar.token + ".ics"
            var html = HTML()
            WebPage.open(&html, title: words("My calendar link"), words: words)
            html.raw("<header><h1>\(words("My calendar link"))</h1></header>")
            WebPage.navigation(&html, current: "/me", viewer: viewer)
            html.raw("<main id=\"main\">")
            html.element(
                "p", words("Subscribe to this address in your calendar app. It is shown only now; keep it private."))
            html.raw("<p><code id=\"feed\">")
            html.text(url)
            html.raw("</code></p><p><a")
            html.attribute("href", "webcal://" + host + "/v1/calendar/" + calendar.token + ".ics")
            html.raw(">\(words("Open in my calendar app"))</a></p></main>")
            WebPage.close(&html)
            return WebApp.html(200, html.output)
        case .failure(let error)?:
            return WebApp.html(
                400,
                WebPage.message(
                    title: words("No calendar link"), error.body.message, words: words,
                    link: ("/me", words("My shifts"))))
        default:
            return WebApp.html(
                503,
                WebPage.message(
                    title: words("Busy"), words("Try again in a moment."), words: words,
                    link: ("/me", words("My shifts"))))
        }
    }
}
