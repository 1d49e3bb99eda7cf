import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterProtocol
import RosterServerCore

/// `/`: each schedule with who is on duty, since and until when, who is next and how to reach
/// them, and the tenant's message of the day. The answers are `Queries.answer`'s, as over the
/// protocol and `/v1/oncall`, so the page cannot disagree with them. Times are shown in each
/// schedule's zone, always labelled with it.
enum OnCallPage {
    /// The page for `view` at `now`; resolves schedules, so it runs on the tenant work pool.
    static func render(view: TenantRuntime.View, now: UnixMillis, viewer: Viewer) -> String {
        let state = view.state, words = viewer.words
        var html = HTML()
        let tenantName = state.tenant.name.isEmpty ? state.tenant.id : state.tenant.name
        WebPage.open(&html, title: words("On call now — \(tenantName)"), words: words, live: true)
        html.raw("<header><h1>\(words("On call now"))</h1>")
        html.element("p", class: "tenant", tenantName)
        // What the script says of the connection (empty without JavaScript: the page is as of its footer).
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: "/", viewer: viewer)
        WebPage.main(&html, rendered: now)
        if !state.tenant.motd.isEmpty { html.element("p", class: "motd", state.tenant.motd) }
        let schedules = state.sortedSchedules
        if schedules.isEmpty { html.element("p", class: "empty", words("No schedules yet.")) }
        var plan = Plan()
        for schedule in schedules {
            let query = RosterMessage.getOnDuty(
                .with {
                    $0.schedule = schedule.id
                    $0.atMs = now
                })
            switch Queries.answer(query, view: view, now: now) {
            case .success(.onDuty(let answer)):
                section(&html, schedule: schedule, answer: answer, words: words)
                plan.add(view: view, schedule: schedule, first: answer, now: now, words: words)
            case .success, .failure:
                html.raw("<section class=\"schedule\">")
                html.element("h2", schedule.name)
                html.element("p", class: "problem", words("This schedule could not be worked out now."))
                html.raw("</section>")
            }
        }
        html.raw("<footer>")
        html.text(words("As of \(TimeText.iso8601(now)), revision \(view.revision)."))
        html.raw("</footer>")
        // Data, not a script: the CSP runs no inline script, and none is here.
        html.raw("<script type=\"application/json\" id=\"plan\">")
        html.json(plan.json)
        html.raw("</script></main>")
        WebPage.close(&html)
        return html.output
    }

    /// What the page carries for handing off by itself offline: for each schedule, GetOnDuty's
    /// answers at each coming handoff after the one shown (the same lookups as the server's own
    /// answers, with labels written here in the schedule's zone), up to a day or `maxSteps`
    /// ahead; each person once. LiveScript reads it.
    struct Plan {
        static let horizon: UnixMillis = 24 * 3_600_000
        static let maxSteps = 12

        struct Person: Encodable { var name, email, phone: String }
        struct Step: Encodable {
            struct Duty: Encodable { var id, role, since: String }
            var from: UnixMillis
            var until: UnixMillis?
            var untilLabel: String
            var people: [Duty]
        }

        var people: [String: Person] = [:]
        var schedules: [String: [Step]] = [:]

        mutating func add(
            view: TenantRuntime.View, schedule: ScheduleDefinition, first: Roster_V1_OnDutyResponse, now: UnixMillis,
            words: Words
        ) {
            let clock = words.clock(schedule.zone)
            var steps: [Step] = []
            var answer = first
            while steps.count < Self.maxSteps, answer.hasUntilMs, answer.untilMs <= now + Self.horizon {
                let from = answer.untilMs
                let query = RosterMessage.getOnDuty(
                    .with {
                        $0.schedule = schedule.id
                        $0.atMs = from
                    })
                guard case .success(.onDuty(let next)) = Queries.answer(query, view: view, now: now) else { break }
                answer = next
                steps.append(
                    Step(
                        from: from, until: answer.hasUntilMs ? answer.untilMs : nil,
                        untilLabel: answer.hasUntilMs ? clock.label(answer.untilMs) : "",
                        people: answer.current.map { person in
                            let employee = person.employee
                            people[employee.id] = Person(
                                name: "\(employee.firstName) \(employee.lastName)", email: employee.email,
                                phone: employee.phone)
                            return Step.Duty(
                                id: employee.id, role: person.shift.role, since: clock.label(person.shift.startMs))
                        }))
            }
            if !steps.isEmpty { schedules[schedule.id] = steps }
        }

        /// The plan as JSON (`HTML.json` makes it safe inside a `<script>` element).
        var json: String {
            struct Document: Encodable {
                var people: [String: Person]
                var schedules: [String: [Step]]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let json = try? encoder.encode(Document(people: people, schedules: schedules)) else { return "{}" }
            return String(decoding: json, as: UTF8.self)
        }
    }

    private static func section(
        _ html: inout HTML, schedule: ScheduleDefinition, answer: Roster_V1_OnDutyResponse, words: Words
    ) {
        let clock = words.clock(schedule.zone)
        html.raw("<section class=\"schedule\"")
        html.attribute("data-schedule", schedule.id)
        html.raw("><h2><a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">")
        html.text(schedule.name)
        html.raw("</a></h2>")
        html.element("p", class: "zone", words("Times in \(clock.name)"))
        if answer.current.isEmpty {
            html.element("p", class: "nobody", words("Nobody is on duty."))
        } else {
            html.raw("<ul class=\"on-duty\">")
            for person in answer.current { item(&html, person, clock: clock, since: true, words: words) }
            html.raw("</ul>")
        }
        if answer.hasUntilMs {
            html.raw("<p class=\"until\"")
            html.attribute("data-until", String(answer.untilMs))
            html.raw(">")
            html.text(words("Until \(clock.label(answer.untilMs))") + " ")
            html.raw("<span class=\"countdown\"></span></p>")
        } else {
            html.element("p", class: "until", words("No change planned."))
        }
        // Next: who comes on at the handoff; who is on duty already and stays is said so, not
        // listed as coming "from" a start that has passed (as `roster-client now` says it).
        let onDuty = Set(answer.current.map(\.employee.id))
        let incoming = answer.next.filter { !onDuty.contains($0.employee.id) }
        let staying = answer.next.filter { onDuty.contains($0.employee.id) }.map {
            "\($0.employee.firstName) \($0.employee.lastName)"
        }
        if !answer.next.isEmpty {
            html.element("h3", words("Next"))
            if incoming.isEmpty { html.element("p", class: "next", words("Nobody new.")) }
            if !incoming.isEmpty {
                html.raw("<ul class=\"next\">")
                for person in incoming { item(&html, person, clock: clock, since: false, words: words) }
                html.raw("</ul>")
            }
            if !staying.isEmpty {
                let names = staying.joined(separator: ", ")
                html.element(
                    "p", class: "stays", words.plural(staying.count, "\(names) stays on.", "\(names) stay on."))
            }
        }
        html.raw("</section>")
    }

    private static func item(
        _ html: inout HTML, _ person: Roster_V1_OnDutyPerson, clock: ZoneLabel, since: Bool, words: Words
    ) {
        let employee = person.employee
        html.raw("<li>")
        html.raw("<a class=\"name\"")
        html.attribute("href", "/people/" + WebPage.pathComponent(employee.id))
        html.raw(">")
        html.text("\(employee.firstName) \(employee.lastName)")
        html.raw("</a>")
        if !person.shift.role.isEmpty { html.element("span", class: "role", person.shift.role) }
        html.element(
            "span", class: "when",
            since
                ? words("since \(clock.label(person.shift.startMs))")
                : words("from \(clock.label(person.shift.startMs))"))
        WebPage.contacts(&html, email: employee.email, phone: employee.phone)
        html.raw("</li>")
    }
}
