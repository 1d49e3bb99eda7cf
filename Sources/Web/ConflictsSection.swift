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
        mayOverride: Bool, words: Words
    ) {
        guard !conflicts.isEmpty else { return }
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        html.raw("<section class=\"conflicts\"><h2>\(words("Conflicts: on duty during time off"))</h2><ul>")
        for conflict in conflicts {
            html.raw("<li")
            html.attribute("id", conflict.id)
            html.raw(">")
            html.element("strong", name(conflict.employeeID))
            let reason = state.timeOff[conflict.timeOffID]?.reason ?? ""
            let from = label.label(conflict.start), to = label.label(conflict.end)
            html.text(
                " "
                    + (reason.isEmpty
                        ? words("has time off but is on duty from \(from) to \(to).")
                        : words("has time off (\(reason)) but is on duty from \(from) to \(to).")) + " ")
            if conflict.proposals.isEmpty {
                html.text(words("Nobody on this schedule is free then."))
            } else {
                let free = conflict.proposals.map {
                    words("\(name($0.employeeID)) (\(Int(($0.dutyAround + 1_800_000) / 3_600_000)) h)")
                }.joined(separator: ", ")
                html.text(words("Free, fewest hours around it first: \(free)."))
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
                    html.text(words("Cover with \(name(first.employeeID))"))
                    html.raw("</a>")
                }
            }
            html.raw("</li>")
        }
        html.raw("</ul></section>")
    }
}
