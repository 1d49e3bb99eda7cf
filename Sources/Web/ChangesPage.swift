import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// `/schedules/NAME/changes`: the audit log's entries that touch a schedule, newest first (the
/// protocol's GetAudit, so admins only, as there), each with who, when, why and what: overrides
/// and rotations added or removed, the definition changed.
enum ChangesPage {
    /// Entries shown (GetAudit's newest).
    static let limit: UInt32 = 200

    static func show(_ request: HTTPAPI.Request, schedule name: String, app: WebApp, side: HTTPSide) async
        -> HTTPAPI.Reply
    {
        let page: WebApp.AdminScheduleContext
        switch app.adminSchedulePage(
            request, schedule: name, side: side,
            why: request.words("The audit log is for admins, as over the protocol."))
        {
        case .success(let found): page = found
        case .failure(let refusal): return refusal.reply
        }
        let (viewer, tenant, core, loop, credential, schedule) = (
            page.viewer, page.tenant, page.core, page.loop, page.credential, page.schedule
        )
        let query = Roster_V1_GetAuditRequest.with {
            $0.schedule = schedule.id
            $0.limit = limit
        }
        let answer = try? await core.perform(
            .getAudit(query), on: tenant, credential: credential, address: request.peer, loop: loop
        ).get()
        let words = viewer.words
        guard case .success(.audit(let audit)) = answer else {
            return WebApp.html(
                503,
                WebPage.message(
                    title: words("Busy"), words("The audit log could not be read now: try again in a moment."),
                    words: words))
        }
        let view = tenant.view
        guard
            let body = await core.work.run(
                tenant.id, { render(view: view, schedule: schedule, audit: audit, viewer: viewer) })
        else {
            return WebApp.html(
                503,
                WebPage.message(title: words("Busy"), words("The server is busy: try again in a moment."), words: words)
            )
        }
        return WebApp.html(200, body)
    }

    static func render(
        view: TenantRuntime.View, schedule: ScheduleDefinition, audit: Roster_V1_AuditResponse, viewer: Viewer
    ) -> String {
        let words = viewer.words
        let label = words.clock(schedule.zone)
        let name: (String) -> String = { id in view.state.employees[id]?.fullName ?? id }
        var html = HTML()
        WebPage.open(&html, title: words("Changes — \(schedule.name)"), words: words)
        html.raw("<header><h1>\(words("Changes"))</h1>")
        html.element("p", class: "tenant", schedule.name)
        html.element("p", class: "zone", words("Times in \(label.name)"))
        html.raw("</header>")
        WebPage.navigation(&html, current: "/schedules", viewer: viewer)
        html.raw("<main id=\"main\"><p><a")
        html.attribute("href", "/schedules/" + WebPage.pathComponent(schedule.name))
        html.raw(">\(words("Back to the timeline"))</a></p>")
        if audit.entries.isEmpty { html.element("p", class: "empty", words("No changes recorded.")) }
        html.raw("<ol class=\"changes\" reversed>")
        for entry in audit.entries.reversed() {
            html.raw("<li><div>")
            html.element("strong", label.label(entry.atMs))
            let actor = entry.actor.isEmpty ? (entry.tokenID.isEmpty ? words("server") : entry.tokenID) : entry.actor
            html.text(" — " + words("\(actor), revision \(entry.revision)"))
            // Quoted as the language quotes („…“ in German, « … » in French).
            if !entry.reason.isEmpty { html.text(": " + words("“\(entry.reason)”")) }
            html.raw("</div><ul>")
            // A revision that changed several schedules (an import, an apply) lists this one's part.
            for change in entry.changes where touches(change, schedule: schedule.id) {
                for line in describe(change, schedule: schedule.id, name: name, label: label, words: words) {
                    html.element("li", line)
                }
            }
            html.raw("</ul></li>")
        }
        html.raw("</ol>")
        if audit.truncated {
            html.element("p", words("Older changes are left out (the newest \(limit) are shown)."))
        }
        html.raw("</main>")
        WebPage.close(&html)
        return html.output
    }

    /// Whether a change is this schedule's: its definition, or a one-off shift on it.
    static func touches(_ change: Roster_V1_AuditChange, schedule: String) -> Bool {
        func onSchedule(_ shift: Roster_V1_Shift) -> Bool {
            (shift.scheduleID.isEmpty ? ScheduleDefinition.defaultID : shift.scheduleID) == schedule
        }
        switch change.change.kind {
        case .scheduleUpserted(let definition)?: return definition.id == schedule
        case .scheduleDeleted(let id)?: return id == schedule
        case .shiftAdded(let shift)?: return onSchedule(shift)
        case .shiftDeleted?:
            if case .shiftAdded(let shift)? = change.before.kind { return onSchedule(shift) }
            return false
        default: return false
        }
    }

    /// What one change did to the schedule, in words.
    static func describe(
        _ change: Roster_V1_AuditChange, schedule: String, name: (String) -> String, label: ZoneLabel,
        words: Words = .english
    ) -> [String] {
        switch change.change.kind {
        case .scheduleUpserted(let after)?:
            guard case .scheduleUpserted(let before)? = change.before.kind else { return [words("Schedule created")] }
            var lines: [String] = []
            let beforeOverrides = Dictionary(before.overrides.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let afterOverrides = Dictionary(after.overrides.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for override in after.overrides where beforeOverrides[override.id] == nil {
                lines.append(words("Override added: \(overrideText(override, name: name, label: label, words: words))"))
            }
            for override in before.overrides where afterOverrides[override.id] == nil {
                lines.append(
                    words("Override removed: \(overrideText(override, name: name, label: label, words: words))"))
            }
            let rotationsBefore = Set(before.layers.flatMap { $0.rotations.map(\.id) })
            let rotationsAfter = Set(after.layers.flatMap { $0.rotations.map(\.id) })
            if rotationsBefore != rotationsAfter || before.layers != after.layers {
                lines.append(words("Rotations changed"))
            }
            if before.name != after.name || before.zone != after.zone || before.team != after.team
                || before.description_p != after.description_p
            {
                lines.append(words("Details changed"))
            }
            return lines.isEmpty ? [words("Definition saved")] : lines
        case .scheduleDeleted?: return [words("Schedule deleted")]
        case .shiftAdded(let shift)?:
            let from = label.label(shift.startMs), until = label.label(shift.endMs)
            return [words("One-off shift added: \(name(shift.employeeID)), \(from) – \(until)")]
        case .shiftDeleted?: return [words("One-off shift removed")]
        default: return [words("Changed")]
        }
    }

    private static func overrideText(
        _ override: Roster_V1_ScheduleOverride, name: (String) -> String, label: ZoneLabel, words: Words
    ) -> String {
        let who: String
        switch override.kind {
        case .replace: who = words("\(name(override.employeeID)) for \(name(override.replacedEmployeeID))")
        case .remove: who = words("without \(name(override.employeeID))")
        default: who = "+ \(name(override.employeeID))"
        }
        return "\(who), \(label.label(override.startMs)) – \(label.label(override.endMs))"
    }
}
