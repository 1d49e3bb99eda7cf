import RosterDomain
import RosterServerCore

/// `/people`: the directory, grouped by position or team (groups A→Z, people by last name), with a
/// search over names, e-mail, phone, projects, position and team that ignores case and accents.
/// The grouping and the search are the domain's (`grouped(by:)`, `matching`), as in the protocol's
/// ListEmployees and Search and in the apps' view models; the empty directory says what the
/// original apps said.
enum DirectoryPage {
    /// At most this many characters of a search are used (the query is the visitor's).
    static let maxSearchLength = 200

    static func render(view: TenantRuntime.View, search rawSearch: String, grouping: EmployeeGrouping, viewer: Viewer)
        -> String
    {
        let search = String(rawSearch.prefix(maxSearchLength))
        let state = view.state, words = viewer.words
        var html = HTML()
        let tenantName = state.tenant.name.isEmpty ? state.tenant.id : state.tenant.name
        WebPage.open(&html, title: words("People — \(tenantName)"), words: words)
        html.raw("<header><h1>\(words("People"))</h1>")
        html.element("p", class: "tenant", tenantName)
        html.raw("</header>")
        WebPage.navigation(&html, current: "/people", viewer: viewer)
        html.raw("<main id=\"main\"><form class=\"search\" method=\"get\" action=\"/people\" role=\"search\">")
        html.raw("<label for=\"q\">\(words("Search"))</label><input id=\"q\" name=\"q\" type=\"search\"")
        html.attribute("value", search)
        html.attribute("maxlength", String(maxSearchLength))
        html.raw("><label for=\"group\">\(words("Group by"))</label><select id=\"group\" name=\"group\">")
        for option in EmployeeGrouping.allCases {
            html.raw("<option")
            html.attribute("value", option.rawValue)
            if option == grouping { html.raw(" selected") }
            html.raw(">")
            html.text(option == .position ? words("Position") : words("Team"))
            html.raw("</option>")
        }
        html.raw("</select><button type=\"submit\">\(words("Show"))</button></form>")
        let people = state.employees.values.matching(search)
        if state.employees.isEmpty {
            html.element("p", class: "empty", words("No employees found"))
        } else if people.isEmpty {
            html.element("p", class: "empty", words("No one matches “\(search)”"))
        } else {
            for group in people.grouped(by: grouping) {
                html.raw("<section class=\"group\">")
                html.element("h2", group.name)
                html.raw("<ul class=\"people\">")
                for person in group.employees { item(&html, person) }
                html.raw("</ul></section>")
            }
        }
        html.raw("<footer>")
        html.text(
            words.plural(
                state.employees.count, "\(people.count) of \(state.employees.count) person; revision \(view.revision).",
                "\(people.count) of \(state.employees.count) people; revision \(view.revision)."))
        html.raw("</footer></main>")
        WebPage.close(&html)
        return html.output
    }

    private static func item(_ html: inout HTML, _ person: Employee) {
        html.raw("<li>")
        html.raw("<a class=\"name\"")
        html.attribute("href", "/people/" + WebPage.pathComponent(person.id))
        html.raw(">")
        html.text(person.fullName)
        html.raw("</a>")
        let role = [person.position, person.team].filter { !$0.isEmpty }.joined(separator: " · ")
        if !role.isEmpty { html.element("span", class: "when", role) }
        WebPage.contacts(&html, email: person.email, phone: person.phone)
        html.raw("</li>")
    }
}
