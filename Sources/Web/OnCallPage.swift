import Foundation
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
        let state = view.state
        var html = HTML()
        let tenantName = state.tenant.name.isEmpty ? state.tenant.id : state.tenant.name
        WebPage.open(&html, title: "On call now — \(tenantName)", live: true)
        html.raw("<header><h1>On call now</h1>")
        html.element("p", class: "tenant", tenantName)
        // What the script says of the connection (empty without JavaScript: the page is as of its footer).
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: "/", viewer: viewer)
        WebPage.main(&html, rendered: now)
        if !state.tenant.motd.isEmpty { html.element("p", class: "motd", state.tenant.motd) }
        let schedules = state.sortedSchedules
        if schedules.isEmpty { html.element("p", class: "empty", "No schedules yet.") }
        for schedule in schedules {
            let query = RosterMessage.getOnDuty(.with {
                $0.schedule = schedule.id
                $0.atMs = now
            })
            switch Queries.answer(query, view: view, now: now) {
            case .success(.onDuty(let answer)):
                section(&html, schedule: schedule, answer: answer, plan: plan(view: view, schedule: schedule, first: answer, now: now))
            case .success, .failure:
                html.raw("<section class=\"schedule\">")
                html.element("h2", schedule.name)
                html.element("p", class: "problem", "This schedule could not be worked out now.")
                html.raw("</section>")
            }
        }
        html.raw("<footer>")
        html.text("As of \(TimeText.iso8601(now)), revision \(view.revision).")
        html.raw("</footer></main>")
        WebPage.close(&html)
        return html.output
    }

    /// How far ahead the page carries the plan, for the offline page to hand off by itself.
    static let planHorizon: UnixMillis = 24 * 3_600_000
    /// The most handoffs carried per schedule.
    static let maxPlanSteps = 12

    /// One stretch of the plan: who is on duty from `from` until `until`, as the server would
    /// answer GetOnDuty at `from` (labels written here, in the schedule's zone).
    struct PlanStep: Encodable {
        struct Person: Encodable { var id, name, role, since, email, phone: String }
        var from: UnixMillis
        var until: UnixMillis?
        var untilLabel: String
        var people: [Person]
    }

    /// The stretch shown and those after it: the answers at each coming handoff, up to a day
    /// or `maxPlanSteps` ahead (the same lookups as GetOnDuty, so offline the page shows what
    /// the server would).
    static func plan(view: TenantRuntime.View, schedule: ScheduleDefinition, first: Roster_V1_OnDutyResponse, now: UnixMillis) -> [PlanStep] {
        let clock = ZoneLabel(zone: schedule.zone)
        var steps: [PlanStep] = []
        var answer = first, from = now
        while steps.count < maxPlanSteps {
            steps.append(PlanStep(from: from, until: answer.hasUntilMs ? answer.untilMs : nil,
                                  untilLabel: answer.hasUntilMs ? clock.label(answer.untilMs) : "",
                                  people: answer.current.map { person in
                                      PlanStep.Person(id: person.employee.id, name: "\(person.employee.firstName) \(person.employee.lastName)",
                                                      role: person.shift.role, since: clock.label(person.shift.startMs),
                                                      email: person.employee.email, phone: person.employee.phone)
                                  }))
            guard answer.hasUntilMs, answer.untilMs <= now + planHorizon else { break }
            from = answer.untilMs
            let query = RosterMessage.getOnDuty(.with {
                $0.schedule = schedule.id
                $0.atMs = from
            })
            guard case .success(.onDuty(let next)) = Queries.answer(query, view: view, now: now) else { break }
            answer = next
        }
        return steps
    }

    private static func section(_ html: inout HTML, schedule: ScheduleDefinition, answer: Roster_V1_OnDutyResponse, plan: [PlanStep]) {
        let clock = ZoneLabel(zone: schedule.zone)
        html.raw("<section class=\"schedule\"")
        html.attribute("data-schedule", schedule.id)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        if let json = try? encoder.encode(plan) { html.attribute("data-plan", String(decoding: json, as: UTF8.self)) }
        html.raw("><h2><a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">")
        html.text(schedule.name)
        html.raw("</a></h2>")
        html.element("p", class: "zone", "Times in \(clock.name)")
        if answer.current.isEmpty {
            html.element("p", class: "nobody", "Nobody is on duty.")
        } else {
            html.raw("<ul class=\"on-duty\">")
            for person in answer.current { item(&html, person, clock: clock, since: true) }
            html.raw("</ul>")
        }
        if answer.hasUntilMs {
            html.raw("<p class=\"until\"")
            html.attribute("data-until", String(answer.untilMs))
            html.raw(">")
            html.text("Until \(clock.label(answer.untilMs)) ")
            html.raw("<span class=\"countdown\"></span></p>")
        } else {
            html.element("p", class: "until", "No change planned.")
        }
        if !answer.next.isEmpty {
            html.element("h3", "Next")
            html.raw("<ul class=\"next\">")
            for person in answer.next { item(&html, person, clock: clock, since: false) }
            html.raw("</ul>")
        }
        html.raw("</section>")
    }

    private static func item(_ html: inout HTML, _ person: Roster_V1_OnDutyPerson, clock: ZoneLabel, since: Bool) {
        let employee = person.employee
        html.raw("<li>")
        html.raw("<a class=\"name\"")
        html.attribute("href", "/people/" + WebPage.pathComponent(employee.id))
        html.raw(">")
        html.text("\(employee.firstName) \(employee.lastName)")
        html.raw("</a>")
        if !person.shift.role.isEmpty { html.element("span", class: "role", person.shift.role) }
        html.element("span", class: "when", since ? "since \(clock.label(person.shift.startMs))" : "from \(clock.label(person.shift.startMs))")
        WebPage.contacts(&html, email: employee.email, phone: employee.phone)
        html.raw("</li>")
    }
}

/// An instant as a schedule's zone shows it, with the zone's abbreviation: "Thu 26 Nov 21:00 CET".
struct ZoneLabel {
    let name: String
    private let clock: WallClock
    private let zone: TimeZone

    /// Zones that are UTC however the host names them (Linux's Foundation calls UTC "GMT").
    private static let utc: Set = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "UCT", "Etc/UCT"]
    private let isUTC: Bool

    init(zone identifier: String) {
        let zone = TimeZone(identifier: identifier.isEmpty ? "UTC" : identifier) ?? TimeZone(identifier: "UTC")!
        self.zone = zone
        isUTC = Self.utc.contains(zone.identifier)
        name = isUTC ? "UTC" : zone.identifier
        clock = WallClock(zone: zone.identifier) ?? WallClock(zone: "UTC")!
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    var wallClock: WallClock { clock }

    /// "Mon" for a day.
    func weekday(_ day: WallClock.Day) -> String { Self.weekdays[clock.weekday(of: day) - 1] }

    func label(_ instant: UnixMillis) -> String {
        let local = clock.local(instant)
        let weekday = clock.day(of: instant).weekday
        let date = Date(timeIntervalSince1970: Double(instant) / 1000)
        let abbreviation = isUTC ? "UTC" : (zone.abbreviation(for: date) ?? zone.identifier)
        let time = String(format: "%02d:%02d", local.hour, local.minute)
        return "\(Self.weekdays[weekday - 1]) \(local.day) \(Self.months[local.month - 1]) \(time) \(abbreviation)"
    }
}
