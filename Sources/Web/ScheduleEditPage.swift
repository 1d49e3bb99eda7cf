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
            guard let schedule = view.state.schedule(idOrName: name) else {
                return WebApp.noSchedule(name, words: viewer.words)
            }
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
            edit = try editRequest(
                for: fields, schedule: schedule, preview: form["action"] != "confirm", words: viewer.words)
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
                : (try? FormParts.instant(fields.handoff, "", zone: zoneOf(schedule), words: viewer.words)) ?? 0
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

    static func editRequest(
        for fields: Fields, schedule: ScheduleDefinition, preview: Bool, words: Words = .english
    ) throws(FormParts.Refusal) -> Roster_V1_EditScheduleRequest {
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
                throw FormParts.Refusal(message: words("Name the people of the rotation, one per line"))
            }
            guard slots.count <= maxSlots else {
                throw FormParts.Refusal(message: words("At most \(maxSlots) people (lines) in a rotation"))
            }
            guard let count = UInt32(fields.every), (1...1_000).contains(count) else {
                throw FormParts.Refusal(message: words("Every is a whole number from 1 to 1000"))
            }
            guard let unit = Fields.units.first(where: { $0.0 == fields.unit })?.1 else {
                throw FormParts.Refusal(message: words("The handoff unit is hours, days, weeks or months"))
            }
            guard let level = Int32(fields.layer), (0...ScheduleLimits.maxLayers).contains(Int(level)) else {
                throw FormParts.Refusal(
                    message: words("The layer is a whole number from 0 to \(ScheduleLimits.maxLayers)"))
            }
            _ = try FormParts.instant(fields.handoff, words("First handoff"), zone: zone, words: words)
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
                throw FormParts.Refusal(message: words("Choose two different people"))
            }
            let firstFrom = try FormParts.instant(
                fields.firstFrom, words("First person’s duty from"), zone: zone, words: words)
            let firstTo = try FormParts.instant(fields.firstTo, words("First person’s until"), zone: zone, words: words)
            let secondFrom = try FormParts.instant(
                fields.secondFrom, words("Second person’s duty from"), zone: zone, words: words)
            let secondTo = try FormParts.instant(
                fields.secondTo, words("Second person’s until"), zone: zone, words: words)
            guard firstFrom < firstTo, secondFrom < secondTo else {
                throw FormParts.Refusal(message: words("Each until must be after its from"))
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
        let words = viewer.words
        return (
            viewer.credential == nil ? 401 : 403,
            WebPage.message(
                title: words("Admins only"), words("Rotations and swaps are changed by an admin, signed in here."),
                words: words,
                link: viewer.credential == nil
                    ? ("/sign-in", words("Sign in"))
                    : ("/schedules/" + WebPage.pathComponent(schedule.name), schedule.name))
        )
    }

    static func page(
        view: TenantRuntime.View, schedule: ScheduleDefinition, fields: Fields, viewer: Viewer,
        preview: Roster_V1_MutationResult?, problem: String?
    ) -> String {
        let state = view.state, words = viewer.words
        let zone = words.clock(zoneOf(schedule))
        let people = state.sortedEmployees
        let action = "/schedules/" + WebPage.pathComponent(schedule.name) + "/edit"
        var html = HTML()
        WebPage.open(&html, title: words("Change — \(schedule.name)"), words: words)
        html.raw("<header><h1>\(words("Change the schedule"))</h1>")
        html.element("p", class: "tenant", schedule.name)
        html.element("p", class: "zone", words("Times in \(zone.name)"))
        html.raw("</header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\"><p><a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">\(words("Back to the timeline"))</a></p>")
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
                &html, "reason-\(kind.rawValue)", words("Reason"), type: "text",
                value: fields.kind == kind ? fields.reason : "",
                name: "reason", extra: " maxlength=\"\(Fields.maxReasonLength)\"")
            html.raw("<div class=\"actions\">")
            html.raw("<button type=\"submit\" name=\"action\" value=\"preview\">\(words("Preview"))</button>")
            if fields.kind == kind, preview != nil {
                html.raw(
                    "<button type=\"submit\" name=\"action\" value=\"confirm\" id=\"confirm\">\(words("Confirm"))</button>"
                )
            }
            html.raw("</div></form>")
            if fields.kind == kind, let preview {
                FormParts.preview(
                    &html, preview, label: zone, name: { state.employees[$0]?.fullName ?? $0 }, words: words)
            }
            html.raw("</section>")
        }

        start(.rotation, words("Add a rotation"))
        html.raw("<label for=\"people\">\(words("People, in turn order"))</label>")
        html.raw("<textarea id=\"people\" name=\"people\" rows=\"5\" required")
        html.attribute(
            "placeholder", words("One per line (full name or id); “Ada Lovelace + Alan Turing” share a turn"))
        html.raw(">")
        html.text(fields.people)
        html.raw("</textarea>")
        FormParts.input(
            &html, "every", words("Hand off every"), type: "number", value: fields.every,
            extra: " min=\"1\" max=\"1000\" required")
        html.raw("<label for=\"unit\">\(words("Unit"))</label><select id=\"unit\" name=\"unit\">")
        let unitTitles = [
            "hours": words("hours"), "days": words("days"), "weeks": words("weeks"), "months": words("months"),
        ]
        for (unit, _) in Fields.units {
            FormParts.option(&html, unit, unitTitles[unit] ?? unit, selected: unit == fields.unit)
        }
        html.raw("</select>")
        FormParts.input(
            &html, "handoff", words("First handoff"), type: "datetime-local", value: fields.handoff, extra: " required")
        FormParts.input(
            &html, "layer", words("Layer (the highest with anyone on duty wins)"), type: "number", value: fields.layer,
            extra: " min=\"0\" max=\"\(ScheduleLimits.maxLayers)\"")
        finish(.rotation)

        start(.swap, words("Swap duty"))
        let swapTitles = [
            ("first", words("First person"), words("First person’s duty from"), words("First person’s until")),
            ("second", words("Second person"), words("Second person’s duty from"), words("Second person’s until")),
        ]
        for (prefix, title, fromTitle, untilTitle) in swapTitles {
            let chosen = prefix == "first" ? fields.first : fields.second
            html.raw("<label")
            html.attribute("for", prefix)
            html.raw(">")
            html.text(title)
            html.raw("</label><select")
            html.attribute("id", prefix)
            html.attribute("name", prefix)
            html.raw(" required>")
            FormParts.option(&html, "", words("Choose a person"), selected: chosen.isEmpty)
            for person in people { FormParts.option(&html, person.id, person.fullName, selected: person.id == chosen) }
            html.raw("</select>")
            FormParts.input(
                &html, prefix + "From", fromTitle, type: "datetime-local",
                value: prefix == "first" ? fields.firstFrom : fields.secondFrom, extra: " required")
            FormParts.input(
                &html, prefix + "To", untilTitle, type: "datetime-local",
                value: prefix == "first" ? fields.firstTo : fields.secondTo, extra: " required")
        }
        finish(.swap)
        html.raw("</main>")
        WebPage.close(&html)
        return html.output
    }
}
