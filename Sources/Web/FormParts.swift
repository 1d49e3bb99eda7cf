import Foundation
import RosterDomain
import RosterHTTP
import RosterProtocol
import RosterServerCore

/// What the schedule's forms (override, rotation, swap) share: reading a wall-clock time in a
/// zone, performing the EditSchedule they build, and showing its preview.
enum FormParts {
    struct Refusal: Error { var message: String }

    /// "YYYY-MM-DDTHH:MM" (as a datetime-local field sends it) read in `zone`.
    static func instant(_ text: String, _ name: String, zone: String, words: Words) throws(Refusal) -> UnixMillis {
        guard let clock = WallClock(zone: zone) else { throw Refusal(message: words("unknown zone \(zone)")) }
        guard let local = LocalDateTime(parsing: text) else {
            throw Refusal(
                message: words("\(name) is a date and time, YYYY-MM-DDTHH:MM (in \(ZoneLabel(zone: zone).name))"))
        }
        return clock.instant(
            WallClock.Day(year: local.year, month: local.month, day: local.day),
            minuteOfDay: local.hour * 60 + local.minute)
    }

    /// The request performed for the viewer, as over the protocol: queued behind the tenant's
    /// other changes, checked, durable before it is answered, then published.
    static func perform(
        _ edit: Roster_V1_EditScheduleRequest, viewer: Viewer, tenant: TenantRuntime, core: ServerCore,
        request: HTTPAPI.Request
    ) async -> Result<RosterMessage, WireError> {
        guard let loop = request.loop, let credential = viewer.credential else {
            return .failure(WireError(.unavailable, "the server is starting", retryable: true))
        }
        do {
            return try await core.perform(
                .editSchedule(edit), on: tenant, credential: credential, address: request.peer, loop: loop
            ).get()
        } catch {
            return .failure(WireError(.unavailable, "the server is stopping", retryable: true))
        }
    }

    /// The page status for a refused change.
    static func status(of error: WireError) -> Int {
        switch error.body.code {
        case .permissionDenied: 403
        case .notFound: 404
        case .resourceExhausted, .unavailable: 503
        default: 400
        }
    }

    /// Who gains and who loses what, from an EditSchedule preview.
    static func preview(
        _ html: inout HTML, _ result: Roster_V1_MutationResult, label: ZoneLabel, name: (String) -> String,
        words: Words
    ) {
        html.raw("<section class=\"preview\" aria-live=\"polite\"><h2>\(words("What it changes"))</h2>")
        if result.preview.isEmpty {
            html.element("p", words("Nobody gains or loses duty: this changes nothing that is planned."))
        } else {
            html.raw("<ul>")
            for delta in result.preview {
                html.raw(delta.gained ? "<li class=\"gained\">" : "<li class=\"lost\">")
                let who = delta.employeeName.isEmpty ? name(delta.employeeID) : delta.employeeName
                let from = label.label(delta.startMs), to = label.label(delta.endMs)
                html.text(delta.gained ? words("\(who) gains \(from) – \(to)") : words("\(who) loses \(from) – \(to)"))
                html.raw("</li>")
            }
            html.raw("</ul>")
            let omitted = Int(result.previewOmitted)
            if omitted > 0 {
                html.element("p", words.plural(omitted, "and \(omitted) more stretch", "and \(omitted) more stretches"))
            }
        }
        html.element("p", words("Nothing is changed until you confirm."))
        html.raw("</section>")
    }

    static func hidden(_ html: inout HTML, _ name: String, _ value: String) {
        html.raw("<input type=\"hidden\"")
        html.attribute("name", name)
        html.attribute("value", value)
        html.raw(">")
    }

    static func option(_ html: inout HTML, _ value: String, _ title: String, selected: Bool) {
        html.raw("<option")
        html.attribute("value", value)
        if selected { html.raw(" selected") }
        html.raw(">")
        html.text(title)
        html.raw("</option>")
    }

    /// `<label>` and `<input>` for one field, its value escaped.
    /// - Parameter name: the field's name when it is not its id (two forms on a page).
    static func input(
        _ html: inout HTML, _ id: String, _ title: String, type: String, value: String, name: String? = nil,
        extra: Markup = ""
    ) {
        html.raw("<label")
        html.attribute("for", id)
        html.raw(">")
        html.text(title)
        html.raw("</label><input")
        html.attribute("id", id)
        html.attribute("name", name ?? id)
        html.attribute("type", type)
        html.attribute("value", value)
        html.raw(extra)
        html.raw(">")
    }
}
