import RosterHTTP
import RosterServerCore

extension HTTPAPI.Request {
    /// The words of the reader's language for this request: their choice (the language form's
    /// cookie), else the browser's `Accept-Language`, else English (docs/WEB.md, "Languages").
    var words: Words { Words.of(cookie: cookie(Language.cookieName), acceptLanguage: acceptLanguage) }

    /// Whether the reader chose a language with the language form (a cookie naming one).
    var languageChosen: Bool { cookie(Language.cookieName).flatMap(Language.init(rawValue:)) != nil }
}
