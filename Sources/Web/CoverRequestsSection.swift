import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// A schedule's cover requests on its page (docs/WEB.md, "Cover requests"): the open ones and
/// those closed in the last days, each with the buttons its viewer may press — Take or Decline
/// for the people it is offered to, Cancel for whoever asked, Back out for whoever took it. A
/// button posts `/schedules/NAME/requests` and performs the protocol's own CoverRequestEdit.
enum CoverRequestsSection {
    static func render(
        _ html: inout HTML, schedule: ScheduleDefinition, state: RosterState, now: UnixMillis,
        label: ZoneLabel, base: String, viewer: Viewer, heading: String? = nil,
        only: ((CoverRequest) -> Bool)? = nil
    ) {
        let words = viewer.words
        let shown = schedule.requests.filter { $0.state(at: now) == .open || $0.changed > now - 7 * 86_400_000 }
            .filter { only?($0) ?? true }
            .sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        guard !shown.isEmpty || only == nil else { return }
        html.raw("<section class=\"requests\"><h2>")
        html.text(heading ?? words("Cover requests"))
        html.raw("</h2>")
        guard !shown.isEmpty else {
            html.element("p", class: "empty", words("No open cover requests."))
            html.raw("</section>")
            return
        }
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        html.raw("<table><thead><tr>")
        for heading in [words("Who asks"), words("From"), words("To"), words("For"), words("State"), words("Note")] {
            html.raw("<th>\(heading)</th>")
        }
        html.raw("<th></th></tr></thead><tbody>")
        for request in shown {
            let current = request.state(at: now)
            html.raw("<tr")
            html.attribute("id", request.id)
            html.raw("><td>")
            html.text(name(request.requester))
            html.raw("</td><td>")
            html.text(label.label(request.start))
            html.raw("</td><td>")
            html.text(label.label(request.end))
            html.raw("</td><td>")
            html.text(
                request.addressedTo.isEmpty ? words("everyone") : request.addressedTo.map(name).joined(separator: ", "))
            html.raw("</td><td>")
            html.text(title(of: current, taker: name(request.taker ?? ""), words: words))
            html.raw("</td><td>")
            html.text(request.note)
            html.raw("</td><td>")
            if let session = viewer.session {
                for step in steps(for: request, at: now, schedule: schedule, viewer: viewer) {
                    html.raw("<form class=\"inline\" method=\"post\"")
                    html.attribute("action", base + "/requests")
                    html.raw(">")
                    WebPage.csrf(&html, session)
                    FormParts.hidden(&html, "request", request.id)
                    FormParts.hidden(&html, "step", step.value)
                    if only != nil { FormParts.hidden(&html, "back", "me") }  // pressed on /me: back there
                    html.raw("<button type=\"submit\">")
                    html.text(step.title)
                    html.raw("</button></form>")
                }
            }
            html.raw("</td></tr>")
        }
        html.raw("</tbody></table></section>")
    }

    static func title(of state: CoverRequest.State, taker: String, words: Words) -> String {
        switch state {
        case .open: words("open")
        case .taken: words("taken by \(taker)")
        case .cancelled: words("cancelled")
        case .expired: words("expired")
        }
    }

    /// `/me`: per schedule, the requests offered to the viewer's person and their own, with
    /// the same buttons.
    static func renderMine(_ html: inout HTML, state: RosterState, now: UnixMillis, viewer: Viewer) {
        guard let me = viewer.employeeID else { return }
        for schedule in state.sortedSchedules where !schedule.requests.isEmpty {
            CoverRequestsSection.render(
                &html, schedule: schedule, state: state, now: now, label: viewer.words.clock(schedule.zone),
                base: "/schedules/" + WebPage.pathComponent(schedule.name), viewer: viewer,
                heading: viewer.words("Cover requests on \(schedule.name)")
            ) { request in
                request.requester == me || request.taker == me
                    || !steps(for: request, at: now, schedule: schedule, viewer: viewer).isEmpty
            }
        }
    }

    /// The buttons a viewer's person may press (the server checks again when pressed).
    static func steps(
        for request: CoverRequest, at now: UnixMillis, schedule: ScheduleDefinition,
        viewer: Viewer
    ) -> [(value: String, title: String)] {
        guard let me = viewer.employeeID, !schedule.selfServiceOff else { return [] }
        let words = viewer.words
        let current = request.state(at: now), ahead = now < request.start
        var steps: [(String, String)] = []
        if current == .open,
            request.isOffered(to: me, in: schedule) || request.addressedTo.isEmpty && schedule.readersMayVolunteer
        {
            steps.append(("take", words("Take")))
            if !request.declinedBy.contains(me) { steps.append(("decline", words("Decline"))) }
        }
        if request.requester == me, current == .open || current == .taken && ahead {
            steps.append(("cancel", words("Cancel")))
        }
        if current == .taken, request.taker == me, ahead { steps.append(("back-out", words("Back out"))) }
        return steps
    }

    /// `POST /schedules/NAME/requests`: one step, then back to the schedule's page.
    static func submit(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        let posted: (viewer: Viewer, tenant: TenantRuntime, core: ServerCore, schedule: ScheduleDefinition)
        switch WebForms.poster(request, schedule: name, app: app, side: side) {
        case .success(let found): posted = found
        case .failure(let refusal): return refusal.reply
        }
        let form = request.form, words = posted.viewer.words
        guard let id = form["request"], let step = form["step"], let action = HTTPAPI.coverSteps[step] else {
            return WebApp.html(
                400,
                WebPage.message(
                    title: words("Not a step"),
                    words("Say which request and which step: take, decline, cancel or back out."), words: words))
        }
        let edit = Roster_V1_EditScheduleRequest.with {
            $0.schedule = posted.schedule.id
            $0.coverRequest = .with {
                $0.action = action; $0.requestID = id
            }
        }
        switch await FormParts.perform(
            edit, viewer: posted.viewer, tenant: posted.tenant, core: posted.core, request: request)
        {
        case .success:
            // Back where the button was: /me, or the timeline at the week the request is about
            // (not this week: a request three weeks ahead would leave the page).
            if form["back"] == "me" { return WebApp.seeOther("/me#" + id) }
            var location = "/schedules/" + WebPage.pathComponent(posted.schedule.name)
            if let start = posted.schedule.requests.first(where: { $0.id == id })?.start,
                let clock = WallClock(zone: posted.schedule.zone)
            {
                let day = clock.day(of: start).day
                location += String(format: "?start=%04d-%02d-%02d", day.year, day.month, day.day)
            }
            return WebApp.seeOther(location + "#" + id)
        case .failure(let error):
            return WebApp.html(
                FormParts.status(of: error),
                WebPage.message(
                    title: words("Not done"), error.body.message, words: words,
                    link: ("/schedules/" + WebPage.pathComponent(posted.schedule.name), words("Back to the schedule"))))
        }
    }
}
