import Foundation
import RosterDomain
import RosterServerCore

/// `/schedules/NAME`: the final schedule as a timeline over 1 week, 2 weeks or 1 month, with a
/// lane per layer, one for one-off shifts and one for overrides, a "now" line and the gaps
/// marked; then the same stretches as a table (for reading without pictures). Times are in one
/// zone at a time, always labelled. Drawn as SVG with positions in attributes: the page's
/// Content-Security-Policy allows no inline style.
enum SchedulePage {
    /// The most stretches one lane draws; past it the lane says how many it left out.
    static let maxBarsPerLane = 2_000

    struct Bar {
        enum Kind { case person(String), override, gap }
        var start: UnixMillis
        var end: UnixMillis
        var label: String
        var kind: Kind
        /// Where clicking it leads (an override pre-filled with this stretch), if anywhere.
        var link: String?
    }

    struct Lane {
        var title: String
        var bars: [Bar]
        var truncated = false
    }

    static func render(
        view: TenantRuntime.View, schedule: ScheduleDefinition, window: TimelineWindow, now: UnixMillis,
        viewer: Viewer
    ) -> String {
        let state = view.state, words = viewer.words
        let label = words.clock(window.zoneIdentifier)
        let base = "/schedules/" + WebPage.pathComponent(schedule.name)
        var budget = ResolutionBudget.standard
        var lanes: [Lane] = []
        var problem: String?
        var conflicts: [DutyConflict] = []
        let definition = state.definition(of: schedule.id, from: window.from, to: window.to) ?? schedule
        let name: (String) -> String = { id in state.employees[id].map { "\($0.firstName) \($0.lastName)" } ?? id }
        let mayOverride = viewer.mayEdit(schedule)
        do throws(ScheduleResolver.Problem) {
            let final = try ScheduleResolver.resolve(
                definition, from: window.from, to: window.to, limit: maxBarsPerLane, budget: &budget)
            var finalLane = Lane(
                title: words("Final schedule"),
                bars: final.shifts.map { shift in
                    Bar(
                        start: shift.start, end: shift.end, label: name(shift.employeeID),
                        kind: .person(shift.employeeID),
                        link: mayOverride ? overrideLink(base, shift: shift, window: window) : nil)
                }, truncated: final.truncated)
            if !final.truncated { finalLane.bars += gaps(in: final.shifts, window: window, words: words) }
            lanes.append(finalLane)
            conflicts = state.conflicts(in: final.shifts.map { (schedule.id, $0) })
            let spans = definition.temporary.filter { $0.start < window.to && $0.end > window.from }
            if !spans.isEmpty {
                lanes.append(
                    Lane(
                        title: words("Temporary schedules"),
                        bars: spans.flatMap(\.shifts).filter { $0.start < window.to && $0.end > window.from }
                            .prefix(maxBarsPerLane).map {
                                Bar(
                                    start: $0.start, end: $0.end, label: name($0.employeeID),
                                    kind: .person($0.employeeID))
                            }))
            }
            let away = state.timeOff(from: window.from, to: window.to, of: definition.mentionedEmployees)
            if !away.isEmpty {
                lanes.append(
                    Lane(
                        title: words("Time off"),
                        bars: away.prefix(maxBarsPerLane).map {
                            Bar(
                                start: $0.start, end: $0.end, label: words("\(name($0.employeeID)) off"),
                                kind: .override)
                        }, truncated: away.count > maxBarsPerLane))
            }
            for layer in definition.layers.sorted(by: { $0.level > $1.level }) where !layer.rotations.isEmpty {
                var only = definition
                only.layers = [layer]
                only.overrides = []
                only.shifts = []
                let shifts = try ScheduleResolver.resolve(
                    only, from: window.from, to: window.to, limit: maxBarsPerLane, budget: &budget)
                let rotations = layer.rotations.count
                lanes.append(
                    Lane(
                        title: words.plural(
                            rotations, "Layer \(layer.level) (\(rotations) rotation)",
                            "Layer \(layer.level) (\(rotations) rotations)"),
                        bars: shifts.shifts.map {
                            Bar(start: $0.start, end: $0.end, label: name($0.employeeID), kind: .person($0.employeeID))
                        }, truncated: shifts.truncated))
            }
            let oneOff = definition.shifts.filter { $0.start < window.to && $0.end > window.from }
            if !oneOff.isEmpty {
                lanes.append(
                    Lane(
                        title: words("One-off shifts"),
                        bars: oneOff.prefix(maxBarsPerLane).map {
                            Bar(start: $0.start, end: $0.end, label: name($0.employeeID), kind: .person($0.employeeID))
                        }, truncated: oneOff.count > maxBarsPerLane))
            }
            let overrides = definition.overrides.filter { $0.start < window.to && $0.end > window.from }.sorted {
                $0.start < $1.start
            }
            lanes.append(
                Lane(
                    title: words("Overrides"),
                    bars: overrides.prefix(maxBarsPerLane).map { override in
                        let text: String
                        switch override.kind {
                        case .replace(let replaced, let replacement):
                            text = words("\(name(replacement)) for \(name(replaced))")
                        case .add(let person): text = "+ \(name(person))"
                        case .remove(let person): text = "− \(name(person))"
                        }
                        return Bar(start: override.start, end: override.end, label: text, kind: .override)
                    }, truncated: overrides.count > maxBarsPerLane))
        } catch {
            problem = words("This schedule could not be drawn for this window: \(String(describing: error))")
        }

        var html = HTML()
        WebPage.open(&html, title: words("\(schedule.name) — schedule"), words: words, live: true)
        html.raw("<header><h1>")
        html.text(schedule.name)
        html.raw("</h1>")
        html.element("p", class: "zone", words("Times in \(label.name)"))
        html.raw("<p class=\"status\" id=\"status\" role=\"status\"></p></header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        WebPage.main(&html, rendered: now)
        if !schedule.description.isEmpty { html.element("p", class: "motd", schedule.description) }
        controls(&html, window: window, schedule: schedule, base: base, viewer: viewer)
        if let problem {
            html.element("p", class: "problem", problem)
        } else {
            timeline(&html, lanes: lanes, window: window, label: label, now: now, words: words)
            // The timeline is a picture: its text equivalent is the table below.
            html.raw(
                "<p class=\"as-table\"><a href=\"#stretches\">\(words("The same stretches as a table"))</a></p>")
            ConflictsSection.render(
                &html, conflicts: conflicts, state: state, label: label, base: base, mayOverride: mayOverride,
                words: words)
            table(&html, lane: lanes[0], label: label, words: words)
        }
        CoverRequestsSection.render(
            &html, schedule: schedule, state: state, now: now, label: label, base: base, viewer: viewer)
        html.raw("<footer>")
        html.text(words("As of \(TimeText.iso8601(now)), revision \(view.revision)."))
        html.raw("</footer></main>")
        WebPage.close(&html)
        return html.output
    }

    /// `/schedules`: every schedule, with its zone and team, linked to its timeline.
    static func renderList(view: TenantRuntime.View, viewer: Viewer) -> String {
        let words = viewer.words
        var html = HTML()
        WebPage.open(&html, title: words("Schedules"), words: words)
        html.raw("<header><h1>\(words("Schedules"))</h1></header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\">")
        let schedules = view.state.sortedSchedules
        if schedules.isEmpty { html.element("p", class: "empty", words("No schedules yet.")) }
        html.raw("<ul class=\"schedules\">")
        for schedule in schedules {
            html.raw("<li><a")
            html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
            html.raw(">")
            html.text(schedule.name)
            html.raw("</a>")
            html.element(
                "span", class: "when",
                [ZoneLabel(zone: schedule.zone).name, schedule.team].filter { !$0.isEmpty }.joined(separator: " · "))
            html.raw("</li>")
        }
        html.raw("</ul></main>")
        WebPage.close(&html)
        return html.output
    }

    /// The stretches of the window nobody covers.
    static func gaps(in shifts: [ResolvedShift], window: TimelineWindow, words: Words = .english) -> [Bar] {
        var bars: [Bar] = []
        var covered = window.from
        let nobody = words("Nobody on duty")
        for shift in shifts.sorted(by: { $0.start < $1.start }) {
            if shift.start > covered { bars.append(Bar(start: covered, end: shift.start, label: nobody, kind: .gap)) }
            covered = max(covered, shift.end)
        }
        if covered < window.to { bars.append(Bar(start: covered, end: window.to, label: nobody, kind: .gap)) }
        return bars
    }

    private static func overrideLink(_ base: String, shift: ResolvedShift, window: TimelineWindow) -> String {
        var components = URLComponents()
        var items = [
            URLQueryItem(name: "replacing", value: shift.employeeID),
            URLQueryItem(name: "from", value: String(shift.start)),
            URLQueryItem(name: "to", value: String(shift.end)),
        ]
        if window.zone != .schedule { items.append(URLQueryItem(name: "tz", value: window.zone.query)) }
        components.queryItems = items
        return base + "/override?" + (components.percentEncodedQuery ?? "")
    }

    /// Span, previous/today/next, the zone switch and the link to the schedule's changes.
    private static func controls(
        _ html: inout HTML, window: TimelineWindow, schedule: ScheduleDefinition, base: String, viewer: Viewer
    ) {
        let words = viewer.words
        html.raw("<nav class=\"controls\" aria-label=\"\(words("Timeline"))\"><ul>")
        for span in TimelineWindow.Span.allCases {
            link(&html, base + window.query(span: span), span.title(words), current: span == window.span)
        }
        html.raw("</ul><ul>")
        link(&html, base + window.query(start: window.shifted(-1)), words("← Previous"))
        link(&html, base + window.query(today: true), words("Today"))
        link(&html, base + window.query(start: window.shifted(1)), words("Next →"))
        html.raw("</ul><ul class=\"zones\"><li>\(words("View in:"))</li>")
        let scheduleZone = ZoneLabel(zone: schedule.zone).name
        link(
            &html, base + window.query(zone: .schedule), words("Schedule zone (\(scheduleZone))"),
            current: window.zone == .schedule)
        link(&html, base + window.query(zone: .utc), "UTC", current: window.zone == .utc)
        // Filled in and shown by the page's script, which knows the browser's zone.
        html.raw("<li hidden class=\"browser-zone\"><a")
        html.attribute("href", base + window.query(zone: .utc))
        if case .named = window.zone { html.raw(" aria-current=\"true\"") }
        html.raw(">\(words("Browser zone"))</a></li></ul>")
        if viewer.isAdmin {
            html.raw("<ul>")
            link(&html, base + "/edit", words("Add a rotation or swap"))
            link(&html, base + "/changes", words("Changes to this schedule"))
            link(&html, base + "/hours", words("Hours and fairness"))
            html.raw("</ul>")
        }
        html.raw("</nav>")
    }

    private static func link(_ html: inout HTML, _ href: String, _ title: String, current: Bool = false) {
        html.raw("<li><a")
        html.attribute("href", href)
        if current { html.raw(" aria-current=\"true\"") }
        html.raw(">")
        html.text(title)
        html.raw("</a></li>")
    }

    static let rowHeight = 26

    /// A day's label on the scale: "Sat 12" on a week; on a month the weekday every seventh day
    /// and the day's number otherwise, none on the day after a weekday's (its wider label would
    /// run into it: "Sat 1213").
    static func dayLabel(index: Int, day: Int, weekday: String, span: TimelineWindow.Span) -> String? {
        guard span == .month else { return "\(weekday) \(day)" }
        switch index % 7 {
        case 0: return "\(weekday) \(day)"
        case 1: return nil
        default: return "\(day)"
        }
    }

    /// The final schedule's stretches as a table, each with its override link when allowed.
    private static func table(_ html: inout HTML, lane: Lane, label: ZoneLabel, words: Words) {
        html.raw("<h2 id=\"stretches\">\(words("Stretches"))</h2><table class=\"stretches\"><thead><tr>")
        html.raw("<th scope=\"col\">\(words("Who"))</th><th scope=\"col\">\(words("From"))</th>")
        html.raw("<th scope=\"col\">\(words("Until"))</th>")
        html.raw("<th scope=\"col\"><span class=\"visually-hidden\">\(words("Action"))</span></th></tr></thead><tbody>")
        for bar in lane.bars.sorted(by: { $0.start < $1.start }) {
            html.raw(bar.kind.isGap ? "<tr class=\"gap\">" : "<tr>")
            html.element("td", bar.label)
            html.element("td", label.label(bar.start))
            html.element("td", label.label(bar.end))
            html.raw("<td>")
            if let link = bar.link {
                html.raw("<a")
                html.attribute("href", link)
                html.raw(">\(words("Override…"))</a>")
            }
            html.raw("</td></tr>")
        }
        html.raw("</tbody></table>")
    }
}

extension SchedulePage.Bar.Kind {
    var isGap: Bool { if case .gap = self { true } else { false } }
}
