/// The shell every page shares, and the headers every page is sent with: a Content-Security-Policy
/// that allows only this server's own scripts, styles and images (no inline script, nothing from
/// another origin), no framing, no MIME sniffing, no referrer.
enum WebPage {
    static let headers: [(String, String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
    ]

    /// - Parameter live: the page loads `/assets/live.js`, which keeps it current.
    static func open(_ html: inout HTML, title: String, live: Bool = false) {
        html.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.raw("<title>")
        html.text(title)
        // No icon to fetch (a browser asks for /favicon.ico otherwise).
        html.raw("</title><link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/assets/app.css\">")
        if live { html.raw("<script type=\"module\" src=\"/assets/live.js\"></script>") }
        html.raw("</head><body>")
    }

    /// The links between pages; `current` is marked for assistive technology.
    static func navigation(_ html: inout HTML, current: String) {
        html.raw("<nav aria-label=\"Pages\"><ul class=\"pages\">")
        for (path, title) in [("/", "On call now"), ("/people", "People")] {
            html.raw("<li><a")
            html.attribute("href", path)
            if path == current { html.raw(" aria-current=\"page\"") }
            html.raw(">")
            html.text(title)
            html.raw("</a></li>")
        }
        html.raw("</ul></nav>")
    }

    /// A person's e-mail and phone as links (mailto:, tel:).
    static func contacts(_ html: inout HTML, email: String, phone: String) {
        if !email.isEmpty {
            html.raw("<a class=\"email\"")
            html.attribute("href", "mailto:" + email)
            html.raw(">")
            html.text(email)
            html.raw("</a>")
        }
        if !phone.isEmpty {
            html.raw("<a class=\"phone\"")
            html.attribute("href", "tel:" + phone.filter { $0.isNumber || $0 == "+" })
            html.raw(">")
            html.text(phone)
            html.raw("</a>")
        }
    }

    static func close(_ html: inout HTML) {
        html.raw("</body></html>\n")
    }

    /// A page that says one thing: a refusal or a problem.
    static func message(title: String, _ sentence: String) -> String {
        var html = HTML()
        open(&html, title: title)
        html.raw("<main>")
        html.element("h1", title)
        html.element("p", sentence)
        html.raw("</main>")
        close(&html)
        return html.output
    }
}

/// The style sheet: system fonts, contrast above WCAG AA (4.5:1 for text), visible focus.
enum WebAssets {
    static let styleSheet = """
        :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #4a4a4a; --accent: #0b5cad; --card: #f3f5f8; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #f0f0f0; --bg: #121417; --muted: #c2c2c2; --accent: #8cc4ff; --card: #1d2127; }
        }
        body { font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 60rem; padding: 1rem; }
        header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
        h1 { margin: 0.5rem 0; }
        .tenant, .zone, .until, footer, .when, .status { color: var(--muted); }
        .motd { background: var(--card); padding: 0.75rem; border-left: 4px solid var(--accent); }
        .schedule { background: var(--card); border-radius: 6px; padding: 0.75rem 1rem; margin: 1rem 0; }
        .schedule h2 { margin: 0 0 0.25rem; }
        .schedule h3 { margin: 0.75rem 0 0.25rem; font-size: 1rem; }
        ul { list-style: none; padding: 0; margin: 0.25rem 0; }
        li { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0.25rem 0; }
        .on-duty .name { font-weight: 600; font-size: 1.15rem; }
        .role { border: 1px solid var(--muted); border-radius: 3px; padding: 0 0.3rem; }
        a { color: var(--accent); }
        a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .nobody, .problem { font-weight: 600; }
        nav ul.pages { display: flex; gap: 1.5rem; margin: 0 0 0.5rem; }
        nav a[aria-current="page"] { font-weight: 600; text-decoration: none; }
        form.search { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.5rem 0 1rem; }
        input, select, button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; padding: 0.25rem 0.5rem; }
        input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
        .group h2 { font-size: 1.1rem; margin: 1rem 0 0.25rem; }
        """
}
