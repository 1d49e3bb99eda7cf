import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/schedules/NAME/edit` (admins): add a rotation, or swap two people's duty. Each form is
/// previewed first (who gains or loses what) and committed only on confirm, as the same
/// EditSchedule request `roster-client admin schedule rotation add` and `admin swap` send.
enum ScheduleEditPage {
    /// What the two forms hold; the one posted is `kind`.
    struct Fields: Sendable {
        enum Kind: String, Sendable { case rotation, swap }
        var kind = Kind.rotation
        // A rotation.
        var people = ""
        var every = "1"
        var unit = "weeks"
        var handoff = ""
        var layer = "0"
        // A swap.
        var first = "", firstFrom = "", firstTo = ""
        var second = "", secondFrom = "", secondTo = ""
        var reason = ""

        static let maxReasonLength = 500
        static let units: [(String, Roster_V1_Cadence.Unit)] = [
            ("hours", .hours), ("days", .days), ("weeks", .weeks), ("months", .months),
        ]

        init() {}

        init(form: [String: String]) {
            kind = Kind(rawValue: form["kind"] ?? "") ?? .rotation
            people = form["people"] ?? ""
            every = form["every"] ?? "1"
            unit = form["unit"] ?? "weeks"
            handoff = form["handoff"] ?? ""
            layer = form["layer"] ?? "0"
            first = form["first"] ?? ""
            firstFrom = form["firstFrom"] ?? ""
            firstTo = form["firstTo"] ?? ""
            second = form["second"] ?? ""
            secondFrom = form["secondFrom"] ?? ""
            secondTo = form["secondTo"] ?? ""
            reason = String((form["reason"] ?? "").prefix(Self.maxReasonLength))
        }
    }

    static func show(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        await app.statusPage(request, side: side) { view, viewer, now in
            guard let schedule = view.state.schedule(idOrName: name) else { return WebApp.noSchedule(name) }
            guard viewer.isAdmin, viewer.session != nil else { return adminsOnly(schedule, viewer: viewer) }
            var fields = Fields()
            let clock = WallClock(zone: schedule.zone.isEmpty ? "UTC" : schedule.zone) ?? WallClock(zone: "UTC")!
            let today = clock.day(of: now).day
            fields.handoff = String(format: "%04d-%02d-%02dT09:00", today.year, today.month, today.day)
            return (
                200, page(view: view, schedule: schedule, fields: fields, viewer: viewer, preview: nil, problem: nil)
            )
        }
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
        guard viewer.isAdmin else {
            let (status, body) = adminsOnly(schedule, viewer: viewer)
            return WebApp.html(status, body)
        }
        let form = request.form
        let fields = Fields(form: form)
        let edit: Roster_V1_EditScheduleRequest
        do {
            edit = try editRequest(for: fields, schedule: schedule, preview: form["action"] != "confirm")
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
            let start =
                fields.kind == .swap
                ? edit.swap.firstFromMs
                : (try? FormParts.instant(fields.handoff, "Handoff", zone: zoneOf(schedule))) ?? 0
            let day = (WallClock(zone: zoneOf(schedule)) ?? WallClock(zone: "UTC")!).day(of: start).day
            return WebApp.seeOther(
                "/schedules/" + WebPage.pathComponent(schedule.name)
                    + String(format: "?start=%04d-%02d-%02d", day.year, day.month, day.day))
        case .failure(let error):
            return WebApp.html(
                FormParts.status(of: error),
                page(
                    view: tenant.view, schedule: schedule, fields: fields, viewer: viewer,
                    preview: nil, problem: error.body.message))
        }
    }

    private static func zoneOf(_ schedule: ScheduleDefinition) -> String {
        schedule.zone.isEmpty ? "UTC" : schedule.zone
    }

    /// The most people (lines) a rotation form takes.
    static let maxSlots = 100

    static func editRequest(for fields: Fields, schedule: ScheduleDefinition, preview: Bool) throws(FormParts.Refusal)
        -> Roster_V1_EditScheduleRequest
    {
        let zone = zoneOf(schedule)
        var edit = Roster_V1_EditScheduleRequest.with {
            $0.schedule = schedule.id
            $0.preview = preview
            $0.reason = fields.reason
        }
        switch fields.kind {
        case .rotation:
            let slots = fields.people.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !slots.isEmpty else {
                throw FormParts.Refusal(message: "Name the people of the rotation, one per line")
            }
            guard slots.count <= maxSlots else {
                throw FormParts.Refusal(message: "At most \(maxSlots) people (lines) in a rotation")
            }
            guard let count = UInt32(fields.every), (1...1_000).contains(count) else {
                throw FormParts.Refusal(message: "Every is a whole number from 1 to 1000")
            }
            guard let unit = Fields.units.first(where: { $0.0 == fields.unit })?.1 else {
                throw FormParts.Refusal(message: "The handoff unit is hours, days, weeks or months")
            }
            guard let level = Int32(fields.layer), (0...ScheduleLimits.maxLayers).contains(Int(level)) else {
                throw FormParts.Refusal(message: "The layer is a whole number from 0 to \(ScheduleLimits.maxLayers)")
            }
            _ = try FormParts.instant(fields.handoff, "First handoff", zone: zone)
            edit.upsertRotation = .with {
                $0.level = level
                $0.rotation = .with {
                    $0.cadence = .with {
                        $0.unit = unit; $0.count = count
                    }
                    $0.handoff = fields.handoff
                    // "Ada Lovelace + Alan Turing": two people share a turn.
                    $0.slots = slots.map { line in
                        .with {
                            $0.employeeIds = line.split(separator: "+").map { $0.trimmingCharacters(in: .whitespaces) }
                                .filter { !$0.isEmpty }
                        }
                    }
                }
            }
        case .swap:
            guard !fields.first.isEmpty, !fields.second.isEmpty, fields.first != fields.second else {
                throw FormParts.Refusal(message: "Choose two different people")
            }
            let firstFrom = try FormParts.instant(fields.firstFrom, "First's from", zone: zone)
            let firstTo = try FormParts.instant(fields.firstTo, "First's until", zone: zone)
            let secondFrom = try FormParts.instant(fields.secondFrom, "Second's from", zone: zone)
            let secondTo = try FormParts.instant(fields.secondTo, "Second's until", zone: zone)
            guard firstFrom < firstTo, secondFrom < secondTo else {
                throw FormParts.Refusal(message: "Each until must be after its from")
            }
            edit.swap = .with {
                $0.first = fields.first
                $0.firstFromMs = firstFrom
                $0.firstToMs = firstTo
                $0.second = fields.second
                $0.secondFromMs = secondFrom
                $0.secondToMs = secondTo
                $0.reason = fields.reason
            }
        }
        return edit
    }

    private static func adminsOnly(_ schedule: ScheduleDefinition, viewer: Viewer) -> (Int, String) {
        (
            viewer.credential == nil ? 401 : 403,
            WebPage.message(
                title: "Admins only", "Rotations and swaps are changed by an admin, signed in here.",
                link: viewer.credential == nil
                    ? ("/sign-in", "Sign in") : ("/schedules/" + WebPage.pathComponent(schedule.name), schedule.name))
        )
    }

    static func page(
        view: TenantRuntime.View, schedule: ScheduleDefinition, fields: Fields, viewer: Viewer,
        preview: Roster_V1_MutationResult?, problem: String?
    ) -> String {
        let state = view.state
        let zone = ZoneLabel(zone: zoneOf(schedule))
        let people = state.sortedEmployees
        let action = "/schedules/" + WebPage.pathComponent(schedule.name) + "/edit"
        var html = HTML()
        WebPage.open(&html, title: "Change — \(schedule.name)")
        html.raw("<header><h1>Change the schedule</h1>")
        html.element("p", class: "tenant", schedule.name)
        html.element("p", class: "zone", "Times in \(zone.name)")
        html.raw("</header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\"><p><a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">Back to the timeline</a></p>")
        guard let session = viewer.session else {
            html.raw("</main>")
            WebPage.close(&html)
            return html.output
        }
        func start(_ kind: Fields.Kind, _ title: String) {
            html.raw("<section><h2>")
            html.text(title)
            html.raw("</h2>")
            if fields.kind == kind, let problem { html.element("p", class: "problem", role: "alert", problem) }
            html.raw("<form class=\"edit\" method=\"post\"")
            html.attribute("action", action)
            html.raw(">")
            WebPage.csrf(&html, session)
            FormParts.hidden(&html, "kind", kind.rawValue)
        }
        func finish(_ kind: Fields.Kind) {
            FormParts.input(
                &html, "reason-\(kind.rawValue)", "Reason", type: "text",
                value: fields.kind == kind ? fields.reason : "",
                name: "reason", extra: " maxlength=\"\(Fields.maxReasonLength)\"")
            html.raw(
                "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"preview\">Preview</button>")
            if fields.kind == kind, preview != nil {
                html.raw("<button type=\"submit\" name=\"action\" value=\"confirm\" id=\"confirm\">Confirm</button>")
            }
            html.raw("</div></form>")
            if fields.kind == kind, let preview {
                FormParts.preview(&html, preview, label: zone, name: { state.employees[$0]?.fullName ?? $0 })
            }
            html.raw("</section>")
        }

        start(.rotation, "Add a rotation")
        html.raw(
            "<label for=\"people\">People, in turn order</label><textarea id=\"people\" name=\"people\" rows=\"5\" required"
        )
        html.attribute("placeholder", "One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn")
        html.raw(">")
        html.text(fields.people)
        html.raw("</textarea>")
        FormParts.input(
            &html, "every", "Hand off every", type: "number", value: fields.every,
            extra: " min=\"1\" max=\"1000\" required")
        html.raw("<label for=\"unit\">Unit</label><select id=\"unit\" name=\"unit\">")
        for (unit, _) in Fields.units { FormParts.option(&html, unit, unit, selected: unit == fields.unit) }
        html.raw("</select>")
        FormParts.input(
            &html, "handoff", "First handoff", type: "datetime-local", value: fields.handoff, extra: " required")
        FormParts.input(
            &html, "layer", "Layer (the highest with anyone on duty wins)", type: "number", value: fields.layer,
            extra: " min=\"0\" max=\"\(ScheduleLimits.maxLayers)\"")
        finish(.rotation)

        start(.swap, "Swap duty")
        for (prefix, title) in [("first", "First person"), ("second", "Second person")] {
            let chosen = prefix == "first" ? fields.first : fields.second
            html.raw("<label")
            html.attribute("for", prefix)
            html.raw(">")
            html.text(title)
            html.raw("</label><select")
            html.attribute("id", prefix)
            html.attribute("name", prefix)
            html.raw(" required>")
            FormParts.option(&html, "", "Choose a person", selected: chosen.isEmpty)
            for person in people { FormParts.option(&html, person.id, person.fullName, selected: person.id == chosen) }
            html.raw("</select>")
            FormParts.input(
                &html, prefix + "From", "\(title)'s duty from", type: "datetime-local",
                value: prefix == "first" ? fields.firstFrom : fields.secondFrom, extra: " required")
            FormParts.input(
                &html, prefix + "To", "until", type: "datetime-local",
                value: prefix == "first" ? fields.firstTo : fields.secondTo, extra: " required")
        }
        finish(.swap)
        html.raw("</main>")
        WebPage.close(&html)
        return html.output
    }
}
