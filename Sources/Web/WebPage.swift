import Foundation
import RosterDomain
import RosterServerCore

/// The shell every page shares, and the headers every page is sent with: a Content-Security-Policy
/// that allows only this server's own scripts, styles and images (no inline script, nothing from
/// another origin), no framing, no MIME sniffing, no referrer.
enum WebPage {
    static let headers = headers(formAction: "'self'")

    /// The headers with the forms allowed to send the browser to `formAction` (CSP sources): a
    /// form whose answer redirects elsewhere (`roster-client login --browser`) needs that place.
    static func headers(formAction: String) -> [(String, String)] {
        [
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                    + "manifest-src 'self'; base-uri 'none'; form-action \(formAction); frame-ancestors 'none'"
            )
        ] + fixedHeaders
    }

    private static let fixedHeaders: [(String, String)] = [
        ("X-Content-Type-Options", "nosniff"),
        // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with a form
        // post, and the CSRF check needs the real origin.
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    /// - Parameter live: the page loads `/assets/live.js`, which keeps it current.
    static func open(_ html: inout HTML, title: String, words: Words, live: Bool = false) {
        html.raw("<!doctype html><html lang=\"\(words.language.rawValue)\"><head><meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.raw("<title>")
        html.text(title)
        // No icon to fetch (a browser asks for /favicon.ico otherwise).
        // Installable (docs/PUSH.md): the manifest, its colour, and the icon iOS asks for.
        html.raw("</title><link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/assets/app.css\">")
        html.raw("<link rel=\"manifest\" href=\"/assets/manifest.webmanifest\">")
        html.raw("<meta name=\"theme-color\" content=\"\(AppIcon.themeColor)\">")
        html.raw("<link rel=\"apple-touch-icon\" href=\"/assets/icon-192.png\">")
        if live { html.raw("<script type=\"module\" src=\"/assets/live.js\"></script>") }
        // The first thing a keyboard reaches: past the navigation to the page's own content.
        html.raw("</head><body><a class=\"skip\" href=\"#main\">")
        html.text(words("Skip to content"))
        html.raw("</a>")
        // What the page's script says (the countdown, the connection), in the page's language.
        if live {
            html.raw("<script type=\"application/json\" id=\"words\">")
            html.json(LiveScript.words(words))
            html.raw("</script>")
        }
    }

    /// The links between pages (`current` is marked for assistive technology), and who is
    /// signed in with the way out, or the way in.
    static func navigation(_ html: inout HTML, current: String, viewer: Viewer) {
        let words = viewer.words
        html.raw("<nav aria-label=\"\(words("Pages"))\"><ul class=\"pages\">")
        var pages = [("/", words("On call now")), ("/schedules", words("Schedules")), ("/services", words("Services"))]
        if viewer.employeeID != nil { pages.append(("/me", words("My shifts"))) }
        pages.append(("/people", words("People")))
        for (path, title) in pages {
            html.raw("<li><a")
            html.attribute("href", path)
            if path == current { html.raw(" aria-current=\"page\"") }
            html.raw(">")
            html.text(title)
            html.raw("</a></li>")
        }
        html.raw("</ul>")
        if let session = viewer.session, let credential = viewer.credential {
            html.raw("<form class=\"account\" method=\"post\" action=\"/sign-out\">")
            let token = credential.label.isEmpty ? (credential.tokenID ?? "") : credential.label
            // The person first when the token names one: that is who acts on "Take" and "My shifts".
            let who = viewer.personName.map { "\($0) · \(token)" } ?? token
            let role = credential.role == .admin ? words("admin") : words("reader")
            html.element("span", class: "who", words("Signed in: \(who) (\(role))"))
            csrf(&html, session)
            html.raw("<button type=\"submit\">\(words("Sign out"))</button></form>")
        } else if viewer.credential == nil {
            html.raw("<p class=\"account\"><a href=\"/sign-in\">\(words("Sign in"))</a></p>")
        }
        languageForm(&html, back: current, words: words, chosen: viewer.languageChosen)
        html.raw("</nav>")
    }

    /// The reader's choice of language (kept in a cookie by `/language`), then back to `back`.
    /// - Parameter chosen: the reader chose the page's language (else their browser did, and
    ///   "As the browser asks" is the form's selection).
    static func languageForm(_ html: inout HTML, back: String, words: Words, chosen: Bool) {
        html.raw("<form class=\"language\" method=\"get\" action=\"/language\">")
        html.raw("<label for=\"language\">\(words("Language"))</label><select id=\"language\" name=\"lang\">")
        html.raw("<option value=\"\"")
        if !chosen { html.raw(" selected") }
        html.raw(">\(words("As the browser asks"))</option>")
        for language in Language.allCases where language != .pseudo {
            html.raw("<option")
            html.attribute("value", language.rawValue)
            html.attribute("lang", language.rawValue)
            if chosen && language == words.language { html.raw(" selected") }
            html.raw(">")
            html.text(language.name)
            html.raw("</option>")
        }
        html.raw("</select>")
        html.raw("<input type=\"hidden\" name=\"back\"")
        html.attribute("value", back)
        html.raw("><button type=\"submit\">\(words("Change"))</button></form>")
    }

    /// The hidden field that proves a form came from this session's own page.
    static func csrf(_ html: inout HTML, _ session: WebSessions.Session) {
        html.raw("<input type=\"hidden\" name=\"csrf\"")
        html.attribute("value", session.csrf)
        html.raw(">")
    }

    /// A path segment for a name (a schedule's, a person's id).
    static func pathComponent(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    /// One of the palette's 8 colours for a person, the same on every page and every load.
    static func colour(of id: String) -> Int {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 8)
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
        // Apart in the text too (a reader without the style sheet, a screen reader, a copy).
        if !email.isEmpty && !phone.isEmpty { html.raw(" <span class=\"sep\" aria-hidden=\"true\">·</span> ") }
        if !phone.isEmpty {
            html.raw("<a class=\"phone\"")
            html.attribute("href", "tel:" + phone.filter { $0.isNumber || $0 == "+" })
            html.raw(">")
            html.text(phone)
            html.raw("</a>")
        }
    }

    /// A live page's `<main>`, with the instant it was rendered: offline, the page says how old
    /// its data is.
    static func main(_ html: inout HTML, rendered: UnixMillis) {
        html.raw("<main id=\"main\"")
        html.attribute("data-rendered", String(rendered))
        html.raw(">")
    }

    static func close(_ html: inout HTML) {
        html.raw("</body></html>\n")
    }

    /// A page that says one thing: a refusal or a problem, with a way on.
    static func message(
        title: String, _ sentence: String, words: Words, link: (href: String, title: String)? = nil
    ) -> String {
        var html = HTML()
        open(&html, title: title, words: words)
        html.raw("<main id=\"main\">")
        html.element("h1", title)
        html.element("p", sentence)
        if let link {
            html.raw("<p><a")
            html.attribute("href", link.href)
            html.raw(">")
            html.text(link.title)
            html.raw("</a></p>")
        } else {
            html.raw("<p><a href=\"/\">\(words("On call now"))</a></p>")
        }
        html.raw("</main>")
        close(&html)
        return html.output
    }
}
