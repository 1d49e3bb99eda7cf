import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/schedules/NAME/hours`: who carried the load on a schedule over the last 7, 28 or 90 days
/// (admins, as GetReport): the quality figures, and each person's hours as a bar stacked by
/// category with the numbers beside it — the protocol's own report, so the page, the CLI and
/// /v1/reports give the same numbers.
enum HoursPage {
    static let spans = [7, 28, 90]
    /// The categories in the order they are stacked, with their CSS class and label.
    static func categories(_ words: Words) -> [(
        keyPath: KeyPath<Roster_V1_CategoryHours, Int64>, className: String, label: String
    )] {
        [
            (\.businessMs, "c-business", words("Business hours")),
            (\.outsideBusinessHoursMs, "c-outside", words("Outside business hours")),
            (\.nightMs, "c-night", words("Night")), (\.weekendMs, "c-weekend", words("Weekend")),
            (\.holidayMs, "c-holiday", words("Holiday")),
        ]
    }

    /// The columns of `report hours` (`ReportFormats.personColumns`), in its order.
    static func columns(_ words: Words) -> [String] {
        [
            words("Person"), words("Total"), words("Business"), words("Outside"), words("Night"), words("Weekend"),
            words("Holiday"), words("Override"), words("Cover taken"), words("Cover given"), words("Periods"),
            words("Stretches"), words("Longest"), words("Shortest rest"),
        ]
    }

    static func show(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        let page: WebApp.AdminScheduleContext
        switch app.adminSchedulePage(
            request, schedule: name, side: side,
            why: request.words("Reports of everyone’s hours are for admins, as over the protocol."))
        {
        case .success(let found): page = found
        case .failure(let refusal): return refusal.reply
        }
        let (viewer, tenant, core, loop, credential, schedule) = (
            page.viewer, page.tenant, page.core, page.loop, page.credential, page.schedule
        )
        let back = page.back, words = viewer.words
        let days = request.query["days"].flatMap(Int.init) ?? 28
        guard spans.contains(days) else {
            return WebApp.html(
                400,
                WebPage.message(title: words("Not a window"), words("days is 7, 28 or 90."), words: words, link: back))
        }
        let now = core.clock.now(), from = now - UnixMillis(days) * 86_400_000
        var reports: [Roster_V1_ReportResponse] = []
        for kind in [Roster_V1_GetReportRequest.Kind.hours, .quality] {
            let query = Roster_V1_GetReportRequest.with {
                $0.kind = kind
                $0.fromMs = from
                $0.toMs = now
                $0.schedule = schedule.id
            }
            let answer = try? await core.perform(
                .getReport(query), on: tenant, credential: credential, address: request.peer, loop: loop
            ).get()
            switch answer {
            case .success(.report(let report))?: reports.append(report)
            case .failure(let error)?:
                return WebApp.html(
                    400, WebPage.message(title: words("No report"), error.body.message, words: words, link: back))
            default:
                return WebApp.html(
                    503,
                    WebPage.message(
                        title: words("Busy"), words("The report could not be made now: try again in a moment."),
                        words: words))
            }
        }
        let (hours, quality) = (reports[0], reports[1])
        guard
            let body = await core.work.run(
                tenant.id, { render(schedule: schedule, days: days, hours: hours, quality: quality, viewer: viewer) })
        else {
            return WebApp.html(
                503,
                WebPage.message(title: words("Busy"), words("The server is busy: try again in a moment."), words: words)
            )
        }
        return WebApp.html(200, body)
    }

    static func render(
        schedule: ScheduleDefinition, days: Int, hours: Roster_V1_ReportResponse, quality: Roster_V1_ReportResponse,
        viewer: Viewer
    ) -> String {
        let words = viewer.words
        let label = words.clock(hours.zone)
        let base = "/schedules/" + WebPage.pathComponent(schedule.name)
        var html = HTML()
        WebPage.open(&html, title: words("Hours — \(schedule.name)"), words: words)
        html.raw("<header><h1>\(words("Hours and fairness"))</h1>")
        html.element("p", class: "tenant", schedule.name)
        html.element("p", class: "zone", words("Days and hours counted in \(label.name)"))
        html.raw("</header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\"><nav aria-label=\"\(words("Window"))\"><ul>")
        for span in spans {
            html.raw("<li><a")
            html.attribute("href", base + "/hours?days=\(span)")
            if span == days { html.raw(" aria-current=\"true\"") }
            html.raw(">\(words("Last \(span) days"))</a></li>")
        }
        html.raw("</ul></nav><p><a")
        html.attribute("href", base)
        html.raw(">\(words("Back to the timeline"))</a></p>")
        let from = label.label(hours.fromMs), to = label.label(hours.toMs)
        html.element(
            "p",
            hours.recordedSinceMs > 0
                ? words(
                    "From \(from) to \(to); before \(label.label(hours.recordedSinceMs)) as the schedule is defined now (the duty record begins then)."
                ) : words("From \(from) to \(to)."))
        let q = quality.quality
        html.raw("<dl class=\"quality\">")
        for (term, value) in [
            (words("Coverage"), String(format: "%.1f%%", q.coveragePercent)),
            (words("Gaps"), "\(q.gaps.count + Int(q.gapsOmitted))"),
            (words("Equity"), String(format: "%.1f", q.equity)),
            (words("Balance (Grafana OnCall’s score)"), String(format: "%.1f", q.balance)),
        ] {
            html.element("dt", term)
            html.element("dd", value)
        }
        html.raw("</dl>")
        if hours.people.isEmpty {
            html.element("p", class: "empty", words("Nobody was on duty in this window."))
        } else {
            chart(&html, hours.people, words: words)
            table(&html, hours.people, words: words)
        }
        html.raw("</main>")
        WebPage.close(&html)
        return html.output
    }

    /// One bar per person, stacked by category; widths in SVG units (no inline style: the CSP
    /// allows none). The table below carries the same numbers for screen readers.
    static func chart(_ html: inout HTML, _ people: [Roster_V1_PersonHours], words: Words) {
        let longest = max(1, people.map(\.totalMs).max() ?? 1)
        let (row, labelWidth, barWidth) = (22, 180, 520)
        let width = labelWidth + barWidth + 80
        let categories = categories(words)
        let legend = legendPlaces(width: width, categories: categories.map(\.label))
        let height = people.count * row + 30 + (legend.map(\.line).max() ?? 0) * row
        html.raw("<svg class=\"hours-chart\" role=\"img\" aria-hidden=\"true\" viewBox=\"0 0 \(width) \(height)\">")
        for (index, person) in people.enumerated() {
            let y = index * row
            html.raw("<text x=\"0\" y=\"\(y + 15)\">")
            html.text(person.name)
            html.raw("</text>")
            var x = Double(labelWidth)
            for category in categories {
                let width = Double(person.categories[keyPath: category.keyPath]) / Double(longest) * Double(barWidth)
                guard width > 0 else { continue }
                html.raw(
                    "<rect class=\"\(category.className)\" x=\"\(String(format: "%.2f", x))\" y=\"\(y + 3)\" width=\"\(String(format: "%.2f", width))\" height=\"16\"><title>"
                )
                let amount = ReportFormats.hours(person.categories[keyPath: category.keyPath])
                html.text(words("\(person.name): \(amount) h, \(category.label)"))
                html.raw("</title></rect>")
                x += width
            }
            html.raw(
                "<text x=\"\(String(format: "%.0f", x + 6))\" y=\"\(y + 15)\">\(ReportFormats.hours(person.totalMs)) h</text>"
            )
        }
        for (category, place) in zip(categories, legend) {
            let y = people.count * row + place.line * row
            html.raw(
                "<rect class=\"\(category.className)\" x=\"\(place.x)\" y=\"\(y + 12)\" width=\"12\" height=\"12\"/>")
            html.raw("<text x=\"\(place.x + 16)\" y=\"\(y + 23)\">\(category.label)</text>")
        }
        html.raw("</svg>")
    }

    /// Where each legend entry goes: after the one before it by its label's width (8 units a
    /// character, generous for the page's font at 13 px), on a new line when it would not fit.
    static func legendPlaces(width: Int, categories: [String]) -> [(x: Int, line: Int)] {
        var places: [(x: Int, line: Int)] = []
        var (x, line) = (0, 0)
        for label in categories {
            let entry = 16 + label.count * 8 + 24
            if x > 0 && x + entry > width { (x, line) = (0, line + 1) }
            places.append((x, line))
            x += entry
        }
        return places
    }

    static func table(_ html: inout HTML, _ people: [Roster_V1_PersonHours], words: Words) {
        html.raw("<table class=\"hours\"><thead><tr>")
        for title in columns(words) { html.element("th", title) }
        html.raw("</tr></thead><tbody>")
        for person in people {
            html.raw("<tr>")
            html.element("td", person.name)
            for text in ReportFormats.personRow(person) { html.element("td", text) }
            html.raw("</tr>")
        }
        html.raw("</tbody></table>")
    }
}
