import RosterDomain
import RosterProtocol
import RosterServerCore

/// `/services` and `/services/NAME`: whom a page for a service reaches at each step of its
/// escalation policy (docs/ESCALATION.md). Each step as if the page reached it now, then the
/// page's timeline from now, each step at its own instant: the answers `roster-client oncall
/// --service NAME` and `--simulate` print, from the same query (GetEscalation).
enum ServicePage {
    static func renderList(view: TenantRuntime.View, viewer: Viewer) -> String {
        let words = viewer.words, state = view.state
        var html = HTML()
        WebPage.open(&html, title: words("Services"), words: words)
        html.raw("<header><h1>\(words("Services"))</h1></header>")
        WebPage.navigation(&html, current: "/services", viewer: viewer)
        html.raw("<main id=\"main\">")
        let services = state.escalation.sortedServices
        if services.isEmpty {
            html.element("p", class: "empty", words("No services yet: an admin adds them in a definition file."))
        }
        html.raw("<ul class=\"schedules\">")
        for service in services {
            html.raw("<li><a")
            html.attribute("href", "/services/" + WebPage.pathComponent(service.name))
            html.raw(">")
            html.text(service.name)
            html.raw("</a>")
            let policy = state.escalation.policies[service.policyID]?.name ?? service.policyID
            html.element(
                "span", class: "when",
                [service.team, words("policy \(policy)")].filter { !$0.isEmpty }.joined(separator: " · "))
            html.raw("</li>")
        }
        html.raw("</ul></main>")
        WebPage.close(&html)
        return html.output
    }

    static func render(view: TenantRuntime.View, name: String, now: UnixMillis, viewer: Viewer) -> (Int, String) {
        let words = viewer.words, state = view.state
        guard let service = state.escalation.service(idOrName: name),
            let policy = state.escalation.policies[service.policyID]
        else {
            return (
                404,
                WebPage.message(
                    title: words("No such service"), words("There is no service named “\(name)”."), words: words,
                    link: ("/services", words("All services")))
            )
        }
        func answer(simulate: Bool) -> Result<Roster_V1_EscalationResponse, WireError> {
            let query = Roster_V1_GetEscalationRequest.with {
                $0.service = service.id
                $0.atMs = now
                $0.simulate = simulate
            }
            switch Queries.answer(.getEscalation(query), view: view, now: now) {
            case .success(.escalation(let answer)): return .success(answer)
            case .success(let other): return .failure(WireError(.internal, "an answer of type \(other.type)"))
            case .failure(let error): return .failure(error)
            }
        }
        let clock = words.clock(state.zone(of: policy))
        var html = HTML()
        WebPage.open(&html, title: service.name, words: words, live: true)
        html.raw("<header>")
        html.element("h1", service.name)
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: "/services", viewer: viewer)
        WebPage.main(&html, rendered: now)
        if !service.description.isEmpty { html.element("p", service.description) }
        let again = Int(policy.repeatCount)
        var about = [words("Pages through the escalation policy \(policy.name).")]
        if again > 0 {
            about.append(
                words.plural(
                    again, "It runs again \(again) time after its last step.",
                    "It runs again \(again) times after its last step."))
        }
        if !service.team.isEmpty { about.append(words("Team \(service.team).")) }
        about.append(words("Times in \(clock.name)."))
        html.element("p", class: "when", about.joined(separator: " "))
        if !service.links.isEmpty {
            html.raw("<ul class=\"links\">")
            for link in service.links {
                html.raw("<li><a")
                html.attribute("href", link.url)
                html.raw(" rel=\"noopener noreferrer\">")
                html.text(link.title)
                html.raw("</a></li>")
            }
            html.raw("</ul>")
        }
        for (simulate, title) in [(false, words("Paged now")), (true, words("If a page started now"))] {
            html.element("h2", title)
            switch answer(simulate: simulate) {
            case .success(let found):
                table(&html, found, timeline: simulate, clock: clock, state: state, words: words)
            case .failure(let error):
                html.element(
                    "p", class: "problem", words("The policy could not be worked out now: \(error.body.message)"))
            }
        }
        html.raw("<footer>")
        html.text(words("As of \(TimeText.iso8601(now)), revision \(view.revision)."))
        html.raw("</footer></main>")
        WebPage.close(&html)
        return (200, html.output)
    }

    /// One row per step and person: who, from which schedule (or named), how the step pages,
    /// and until when that holds; with `timeline`, the instant each step is reached first.
    private static func table(
        _ html: inout HTML, _ answer: Roster_V1_EscalationResponse, timeline: Bool, clock: ZoneLabel,
        state: RosterState, words: Words
    ) {
        html.raw("<table class=\"escalation\"><thead><tr>")
        var columns = [words("Step")]
        if timeline { columns.append(words("At")) }
        columns += [words("Pages"), words("How"), words("Through"), words("Until")]
        for title in columns { html.element("th", title) }
        html.raw("</tr></thead><tbody>")
        for step in answer.steps {
            let label =
                step.round == 0
                ? words("Step \(Int(step.index) + 1)")
                : words("Step \(Int(step.index) + 1), repeat \(Int(step.round))")
            let how = step.strategy == .strategyRoundRobin ? words("in turn") : words("everyone")
            let until = step.hasUntilMs ? clock.label(step.untilMs) : words("no change planned")
            let people = step.people.isEmpty ? [nil] : step.people.map { Optional($0) }
            for (row, person) in people.enumerated() {
                html.raw(person == nil ? "<tr class=\"gap\">" : "<tr>")
                html.element("td", row == 0 ? label : "")
                if timeline { html.element("td", row == 0 ? clock.label(step.atMs) : "") }
                if let person {
                    html.raw("<td><a")
                    html.attribute("href", "/people/" + WebPage.pathComponent(person.employee.id))
                    html.raw(">")
                    let employee = person.employee
                    html.text(
                        employee.firstName.isEmpty && employee.lastName.isEmpty
                            ? employee.id : "\(employee.firstName) \(employee.lastName)")
                    html.raw("</a></td>")
                } else {
                    html.element("td", words("Nobody: the page still waits \(Int(step.delayMinutes)) min"))
                }
                html.element("td", row == 0 ? how : "")
                let source =
                    person.map {
                        $0.scheduleID.isEmpty
                            ? words("named in the step")
                            : state.schedules[$0.scheduleID]?.name
                                ?? $0.scheduleID
                    } ?? ""
                html.element("td", source)
                html.element("td", row == 0 ? until : "")
                html.raw("</tr>")
            }
        }
        html.raw("</tbody></table>")
    }
}
