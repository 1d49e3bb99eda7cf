import Foundation
import RosterDomain
import RosterHTTP
import RosterServerCore

/// A schedule's conflicts on its page (docs/TIME-OFF.md): duty in the window whose person has
/// time off then, with the free people fewest hours first. For whoever may override, each links
/// to the override form filled in with the conflict and its first proposal, which shows the
/// preview and commits only on confirm.
enum ConflictsSection {
    static func render(
        _ html: inout HTML, conflicts: [DutyConflict], state: RosterState, label: ZoneLabel, base: String,
        mayOverride: Bool
    ) {
        guard !conflicts.isEmpty else { return }
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        html.raw("<section class=\"conflicts\"><h2>Conflicts: on duty during time off</h2><ul>")
        for conflict in conflicts {
            html.raw("<li")
            html.attribute("id", conflict.id)
            html.raw(">")
            html.element("strong", name(conflict.employeeID))
            let reason = state.timeOff[conflict.timeOffID]?.reason ?? ""
            html.text(
                " has time off" + (reason.isEmpty ? "" : " (\(reason))")
                    + " but is on duty from \(label.label(conflict.start)) to \(label.label(conflict.end)). ")
            if conflict.proposals.isEmpty {
                html.text("Nobody on this schedule is free then.")
            } else {
                html.text(
                    "Free, fewest hours around it first: "
                        + conflict.proposals.map {
                            "\(name($0.employeeID)) (\(Int(($0.dutyAround + 1_800_000) / 3_600_000)) h)"
                        }.joined(separator: ", ") + ".")
                if mayOverride, let first = conflict.proposals.first {
                    var components = URLComponents()
                    components.queryItems = [
                        URLQueryItem(name: "replacing", value: conflict.employeeID),
                        URLQueryItem(name: "with", value: first.employeeID),
                        URLQueryItem(name: "from", value: String(conflict.start)),
                        URLQueryItem(name: "to", value: String(conflict.end)),
                    ]
                    html.text(" ")
                    html.raw("<a")
                    html.attribute("href", base + "/override?" + (components.percentEncodedQuery ?? ""))
                    html.raw(">")
                    html.text("Cover with \(name(first.employeeID))")
                    html.raw("</a>")
                }
            }
            html.raw("</li>")
        }
        html.raw("</ul></section>")
    }
}
