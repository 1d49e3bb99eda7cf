import Foundation

/// The languages the web app speaks (docs/WEB.md, "Languages"), and which one a request gets:
/// the reader's own choice (the `roster_language` cookie the language form sets), else the
/// first of the browser's `Accept-Language` the app speaks, else English.
package enum Language: String, CaseIterable, Sendable {
    case english = "en"
    case german = "de"
    case french = "fr"
    case spanish = "es"
    /// Every message marked and accented (`Words.pseudo`): a page in it shows at a glance, and
    /// to `WebLanguageTests`, any text that did not come from the catalogs.
    case pseudo = "en-XA"

    package static let cookieName = "roster_language"
    /// The most of an Accept-Language header read, and the most ranges taken from it.
    package static let maxHeaderLength = 512
    package static let maxRanges = 16

    /// The language's own name, as the language form lists it.
    package var name: String {
        switch self {
        case .english: "English"
        case .german: "Deutsch"
        case .french: "Français"
        case .spanish: "Español"
        case .pseudo: "Ƥšéûðö"
        }
    }

    /// The language a request is answered in.
    package static func of(cookie: String?, acceptLanguage: String?) -> Language {
        if let cookie, let chosen = Language(rawValue: cookie) { return chosen }
        return preferred(acceptLanguage ?? "") ?? .english
    }

    /// The first language of an Accept-Language header (RFC 9110 §12.5.4) the app speaks, by
    /// quality then order: "de-CH, fr;q=0.8" is German. A range is matched by its primary
    /// subtag, except the pseudo-locale, which is matched whole. Malformed ranges are skipped.
    package static func preferred(_ header: String) -> Language? {
        guard header.utf8.count <= maxHeaderLength else { return nil }
        var ranked: [(quality: Int, order: Int, language: Language)] = []
        for (order, item) in header.split(separator: ",").prefix(maxRanges).enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty, let quality = quality(parts.dropFirst()),
                quality > 0
            else { continue }
            let language =
                tag == "en-xa" ? Language.pseudo : Language(rawValue: String(tag.split(separator: "-")[0]))
            if let language { ranked.append((quality, order, language)) }
        }
        let best = ranked.sorted { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
        return best.first?.language
    }

    /// A range's weight in thousandths: `q=0.8` is 800; none is 1000; nil when malformed.
    private static func quality(_ parameters: ArraySlice<String>) -> Int? {
        guard let parameter = parameters.first(where: { $0.lowercased().hasPrefix("q=") }) else { return 1000 }
        let value = parameter.dropFirst(2)
        // RFC 9110: "0" or "1" with at most three decimals.
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let thousandths = Int(whole)! * 1000 + Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0))!
        return thousandths <= 1000 ? thousandths : nil
    }

    /// The CLDR plural categories of integers in this language, in the order of the catalog's
    /// `msgstr[n]` forms.
    package var pluralCategories: [String] {
        switch self {
        case .english, .german, .pseudo: ["one", "other"]
        case .french, .spanish: ["one", "many", "other"]
        }
    }

    /// Which form a count takes (CLDR's integer rules; `Plural-Forms` in each catalog is the
    /// same rule, checked by `MessageCatalogTests`).
    package func pluralForm(_ count: Int) -> Int {
        switch self {
        case .english, .german, .pseudo: return count == 1 ? 0 : 1
        case .french: return count == 0 || count == 1 ? 0 : count % 1_000_000 == 0 ? 1 : 2
        case .spanish: return count == 1 ? 0 : count != 0 && count % 1_000_000 == 0 ? 1 : 2
        }
    }

    /// The `Plural-Forms` header the language's catalog carries.
    package var pluralFormsHeader: String {
        switch self {
        case .english, .german, .pseudo: "nplurals=2; plural=(n != 1);"
        case .french: "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
        case .spanish: "nplurals=3; plural=n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
        }
    }
}
