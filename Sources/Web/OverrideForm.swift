import Foundation
import NIOCore
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/schedules/NAME/override`: an override made from the timeline. Clicking a stretch opens
/// this form pre-filled with that person and those times; "Preview" shows who gains or loses
/// what (the protocol's EditSchedule preview) and commits nothing; "Confirm" performs the same
/// request over the same queue as `roster-client admin override`, then shows the timeline.
/// Times are wall-clock times in the zone the timeline was viewed in, labelled.
enum OverrideForm {
    /// What the form holds, read from a query (pre-filled) or a post; one reader for both.
    struct Fields: Sendable {
        var replacing = ""
        var with = ""
        var from = ""
        var to = ""
        var reason = ""
        var zone = TimelineWindow.ZoneChoice.schedule

        static let maxReasonLength = 500
    }

    static func show(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        let query = request.query
        return await app.statusPage(request, side: side) { view, viewer, now in
            guard let schedule = view.state.schedule(idOrName: name) else {
                return WebApp.noSchedule(name, words: viewer.words)
            }
            guard viewer.mayEdit(schedule) else { return refusal(viewer, schedule: schedule) }
            var fields = Fields()
            let zone = zoneIdentifier(query["tz"], schedule: schedule, into: &fields)
            let clock = WallClock(zone: zone) ?? WallClock(zone: "UTC")!
            fields.replacing = query["replacing"] ?? ""
            fields.with = viewer.isAdmin ? (query["with"] ?? "") : (viewer.employeeID ?? "")
            let given = ["from", "to"].map {
                query[$0].flatMap { Int64($0) }.flatMap { TimeRange.supported.contains($0) ? $0 : nil }
            }
            if let from = given[0], let to = given[1] {
                // A bar the timeline's window cut stands for the whole stretch: pre-fill all of it.
                let whole =
                    fields.replacing.isEmpty
                    ? (from, to)
                    : wholeStretch(of: fields.replacing, on: schedule, state: view.state, from: from, to: to, now: now)
                (fields.from, fields.to) = (clock.local(whole.0).description, clock.local(whole.1).description)
            } else {
                for (value, target) in zip(given, [\Fields.from, \Fields.to]) {
                    if let value { fields[keyPath: target] = clock.local(value).description }
                }
            }
            return (
                200, page(view: view, schedule: schedule, fields: fields, viewer: viewer, preview: nil, problem: nil)
            )
        }
    }

    /// The whole stretch of `person` on `schedule` that [from, to) lies in (followed up to
    /// `WholeStretches.reach` past it), starting no earlier than the given start or now,
    /// whichever is earlier: what lies further back is over.
    static func wholeStretch(
        of person: String, on schedule: ScheduleDefinition, state: RosterState, from: UnixMillis, to: UnixMillis,
        now: UnixMillis
    ) -> (UnixMillis, UnixMillis) {
        guard from < to else { return (from, to) }
        let outer = WholeStretches.resolving(from: from, to: to)
        guard let definition = state.definition(of: schedule.id, from: outer.from, to: outer.to),
            let resolved = try? ScheduleResolver.resolve(definition, from: outer.from, to: outer.to)
        else { return (from, to) }
        let theirs = resolved.filter { $0.employeeID == person }
        guard
            let found = WholeStretches.shown(
                theirs, from: from, to: to, group: { _ in "" }, range: { $0.start..<$0.end }
            )
            .first(where: { $0.start <= from && $0.end >= to })
        else { return (from, to) }
        return (max(found.start, min(from, now)), found.end)
    }

    static func submit(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        let viewer: Viewer, tenant: TenantRuntime, core: ServerCore, schedule: ScheduleDefinition
        switch WebForms.poster(request, schedule: name, app: app, side: side) {
        case .success(let found): (viewer, tenant, core, schedule) = found
        case .failure(let refusal): return refusal.reply
        }
        let view = tenant.view
        // The page offers no form to whom may not use it; the server checks again (ScheduleEdit.refusal).
        guard viewer.mayEdit(schedule) else {
            let (status, body) = refusal(viewer, schedule: schedule)
            return WebApp.html(status, body)
        }
        let form = request.form
        var fields = Fields(
            replacing: form["replacing"] ?? "", with: form["with"] ?? "", from: form["from"] ?? "",
            to: form["to"] ?? "", reason: String((form["reason"] ?? "").prefix(Fields.maxReasonLength)))
        if !viewer.isAdmin { fields.with = viewer.employeeID ?? "" }
        let zone = zoneIdentifier(form["tz"], schedule: schedule, into: &fields)
        let edit: Roster_V1_EditScheduleRequest
        do {
            edit = try editRequest(
                for: fields, schedule: schedule, zone: zone, preview: form["action"] != "confirm", words: viewer.words)
        } catch {
            return WebApp.html(
                400,
                page(
                    view: view, schedule: schedule, fields: fields, viewer: viewer, preview: nil, problem: error.message
                ))
        }
        switch await FormParts.perform(edit, viewer: viewer, tenant: tenant, core: core, request: request) {
        case .success(.mutationResult(let result)) where result.dryRun:
            return WebApp.html(
                200,
                page(
                    view: tenant.view, schedule: schedule, fields: fields, viewer: viewer, preview: result, problem: nil
                ))
        case .success:
            // Back to the timeline, in the zone and at the week the override starts.
            let clock = WallClock(zone: zone) ?? WallClock(zone: "UTC")!
            let day = clock.day(of: edit.addOverride.startMs).day
            var location =
                "/schedules/" + WebPage.pathComponent(schedule.name)
                + String(format: "?start=%04d-%02d-%02d", day.year, day.month, day.day)
            if fields.zone != .schedule {
                location +=
                    "&tz=" + (fields.zone.query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "utc")
            }
            return WebApp.seeOther(location)
        case .failure(let error):
            return WebApp.html(
                FormParts.status(of: error),
                page(
                    view: tenant.view, schedule: schedule, fields: fields, viewer: viewer, preview: nil,
                    problem: error.body.message))
        }
    }

    private static func zoneIdentifier(_ text: String?, schedule: ScheduleDefinition, into fields: inout Fields)
        -> String
    {
        let window = try? TimelineWindow(query: ["tz": text ?? "schedule"], scheduleZone: schedule.zone, now: 0)
        fields.zone = window?.zone ?? .schedule
        return window?.zoneIdentifier ?? (schedule.zone.isEmpty ? "UTC" : schedule.zone)
    }

    typealias Refusal = FormParts.Refusal

    /// The protocol request the fields ask for.
    static func editRequest(
        for fields: Fields, schedule: ScheduleDefinition, zone: String, preview: Bool, words: Words = .english
    ) throws(Refusal) -> Roster_V1_EditScheduleRequest {
        let start = try FormParts.instant(fields.from, words("From"), zone: zone, words: words),
            end = try FormParts.instant(fields.to, words("Until"), zone: zone, words: words)
        guard start < end else { throw Refusal(message: words("Until must be after From")) }
        guard !fields.with.isEmpty else { throw Refusal(message: words("Choose who is on duty instead")) }
        return .with {
            $0.schedule = schedule.id
            $0.preview = preview
            $0.reason = fields.reason
            $0.addOverride = .with {
                $0.kind = fields.replacing.isEmpty ? .add : .replace
                $0.employeeID = fields.with
                $0.replacedEmployeeID = fields.replacing
                $0.startMs = start
                $0.endMs = end
                $0.reason = fields.reason
            }
        }
    }

    private static func refusal(_ viewer: Viewer, schedule: ScheduleDefinition) -> (Int, String) {
        let words = viewer.words
        if viewer.credential == nil {
            return (
                401,
                WebPage.message(
                    title: words("Sign in to make changes"),
                    words(
                        "Overrides are made by an admin, or by a person for themselves where the schedule allows it."),
                    words: words, link: ("/sign-in", words("Sign in")))
            )
        }
        return (
            403,
            WebPage.message(
                title: words("Not allowed"),
                viewer.employeeID == nil
                    ? words("Only an admin may change \(schedule.name).")
                    : words("\(schedule.name) does not let people put themselves on duty; ask an admin."),
                words: words, link: ("/schedules/" + WebPage.pathComponent(schedule.name), schedule.name))
        )
    }

    /// The form, with the preview of what it would do when there is one (then Confirm).
    static func page(
        view: TenantRuntime.View, schedule: ScheduleDefinition, fields: Fields, viewer: Viewer,
        preview: Roster_V1_MutationResult?, problem: String?
    ) -> String {
        let state = view.state, words = viewer.words
        let zoneName = ZoneLabel(
            zone: (try? TimelineWindow(query: ["tz": fields.zone.query], scheduleZone: schedule.zone, now: 0))?
                .zoneIdentifier ?? "UTC"
        ).name
        var html = HTML()
        WebPage.open(&html, title: words("Override — \(schedule.name)"), words: words)
        html.raw("<header><h1>\(words("Override"))</h1>")
        html.element("p", class: "tenant", schedule.name)
        html.raw("</header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\">")
        if let problem { html.element("p", class: "problem", role: "alert", problem) }
        guard let session = viewer.session else {
            html.element(
                "p",
                words("Sign in to make changes from this page (a bearer token can use roster-client admin override)."))
            html.raw("</main>")
            WebPage.close(&html)
            return html.output
        }
        let people = state.sortedEmployees
        let name: (String) -> String = { id in state.employees[id]?.fullName ?? id }
        html.raw("<form class=\"edit\" method=\"post\"")
        html.attribute("action", "/schedules/" + WebPage.pathComponent(schedule.name) + "/override")
        html.raw(">")
        WebPage.csrf(&html, session)
        FormParts.hidden(&html, "tz", fields.zone.query)
        html.raw("<label for=\"replacing\">\(words("Instead of"))</label><select id=\"replacing\" name=\"replacing\">")
        FormParts.option(&html, "", words("(nobody: add a person)"), selected: fields.replacing.isEmpty)
        for person in people {
            FormParts.option(&html, person.id, person.fullName, selected: person.id == fields.replacing)
        }
        html.raw("</select><label for=\"with\">\(words("On duty"))</label>")
        if viewer.isAdmin {
            html.raw("<select id=\"with\" name=\"with\" required>")
            FormParts.option(&html, "", words("Choose a person"), selected: fields.with.isEmpty)
            for person in people {
                FormParts.option(&html, person.id, person.fullName, selected: person.id == fields.with)
            }
            html.raw("</select>")
        } else {
            html.raw("<output id=\"with\">")
            html.text(name(fields.with))
            html.raw("</output>")
        }
        html.raw("<label for=\"from\">\(words("From"))</label>")
        html.raw("<input id=\"from\" name=\"from\" type=\"datetime-local\" required")
        html.attribute("value", fields.from)
        html.raw("><label for=\"to\">\(words("Until"))</label>")
        html.raw("<input id=\"to\" name=\"to\" type=\"datetime-local\" required")
        html.attribute("value", fields.to)
        html.raw(">")
        html.element("p", class: "zone", words("Times in \(zoneName)"))
        html.raw("<span></span><label for=\"reason\">\(words("Reason"))</label>")
        html.raw("<input id=\"reason\" name=\"reason\" type=\"text\"")
        html.attribute("maxlength", String(Fields.maxReasonLength))
        html.attribute("value", fields.reason)
        html.raw("><div class=\"actions\">")
        html.raw("<button type=\"submit\" name=\"action\" value=\"preview\">\(words("Preview"))</button>")
        if preview != nil {
            html.raw(
                "<button type=\"submit\" name=\"action\" value=\"confirm\" id=\"confirm\">\(words("Confirm"))</button>")
        }
        html.raw("<a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">\(words("Cancel"))</a></div></form>")
        if let preview {
            let label = words.clock(
                (try? TimelineWindow(query: ["tz": fields.zone.query], scheduleZone: schedule.zone, now: 0))?
                    .zoneIdentifier ?? "UTC")
            FormParts.preview(&html, preview, label: label, name: name, words: words)
        }
        html.raw("</main>")
        WebPage.close(&html)
        return html.output
    }
}
