import Foundation

/// Words in the reader's language, for the web app and chat posts: every sentence, label and
/// button is `words("…")` with its English text, looked up in the language's catalog
/// (`MessageCatalog`) and English where the catalog has none. A value in the text,
/// `words("Until \(time)")`, is a placeholder, `{1}`, in the catalog; the translation puts it
/// where its grammar wants.
package struct Words: Sendable {
    package let language: Language
    private let catalog: MessageCatalog

    /// The catalogs, read once from the PO files built into the app (Sources/ServerCore/Locales,
    /// as Generated/Catalogs.swift).
    package static let all: [Language: Words] = {
        var all: [Language: Words] = [:]
        for language in Language.allCases {
            let catalog: MessageCatalog
            switch language {
            case .english: catalog = MessageCatalog()
            case .pseudo: catalog = pseudoCatalog(template: Self.template)
            default:
                // The catalogs are the app's own, checked by the suite; one that does not read
                // is an app built wrong, not an input to refuse.
                do throws(MessageCatalog.Invalid) {
                    catalog = try MessageCatalog(parsing: source(of: language))
                } catch {
                    preconditionFailure("Locales/\(language.rawValue).po: \(error)")
                }
            }
            all[language] = Words(language: language, catalog: catalog)
        }
        return all
    }()

    package static let english = all[.english]!

    package static subscript(_ language: Language) -> Words { all[language]! }

    /// The words for a request's language (its cookie, else its Accept-Language).
    package static func of(cookie: String?, acceptLanguage: String?) -> Words {
        Self[Language.of(cookie: cookie, acceptLanguage: acceptLanguage)]
    }

    /// Every message the app has, from the template the catalogs are translated from.
    package static let template: MessageCatalog = {
        do throws(MessageCatalog.Invalid) {
            return try MessageCatalog(parsing: Catalogs.template, template: true)
        } catch {
            preconditionFailure("Locales/roster.pot: \(error)")
        }
    }()

    package static func source(of language: Language) -> String {
        switch language {
        case .german: Catalogs.de
        case .french: Catalogs.fr
        case .spanish: Catalogs.es
        case .english, .pseudo: Catalogs.template
        }
    }

    /// The text of `message` in this language.
    package func callAsFunction(_ message: Message) -> String {
        Self.fill(catalog.translation(message.key) ?? message.key, message.values)
    }

    /// The form of a plural message for `count`: `words.plural(n, "\(n) shift", "\(n) shifts")`.
    package func plural(_ count: Int, _ one: Message, _ other: Message) -> String {
        let translated = catalog.translation(one.key, form: language.pluralForm(count))
        return Self.fill(translated ?? (count == 1 ? one.key : other.key), count == 1 ? one.values : other.values)
    }

    /// The forms of a plural message with its values unfilled, by CLDR category, for the page's
    /// script (it picks one with `Intl.PluralRules`).
    package func pluralForms(_ one: Message, _ other: Message) -> [String: String] {
        var forms: [String: String] = [:]
        for (index, category) in language.pluralCategories.enumerated() {
            forms[category] = catalog.translation(one.key, form: index) ?? (category == "one" ? one.key : other.key)
        }
        return forms
    }

    /// The translation of `message` with its placeholders left in (a chat post puts a mention or a
    /// time where each stands).
    package func template(_ key: String) -> String { catalog.translation(key) ?? key }

    /// The form of a plural message for `count`, its placeholders left in.
    package func template(_ count: Int, one: String, other: String) -> String {
        catalog.translation(one, form: language.pluralForm(count)) ?? (count == 1 ? one : other)
    }

    /// A template with `{n}` for the n-th value, in one pass (every page fills hundreds).
    private static func fill(_ template: String, _ values: [String]) -> String {
        guard !values.isEmpty else { return template }
        var text = ""
        text.reserveCapacity(template.utf8.count + values.reduce(0) { $0 + $1.utf8.count })
        walk(template, values: values.count, text: { text.unicodeScalars.append(contentsOf: $0) }) {
            text += values[$0 - 1]
        }
        return text
    }

    /// The one reader of a template's placeholders: `text` for each run of text, `value` for
    /// each `{n}` with 1 ≤ n ≤ `count` (a brace that is no such placeholder is text).
    package static func walk(
        _ template: String, values count: Int, text: (Substring.UnicodeScalarView) -> Void, value: (Int) -> Void
    ) {
        var scalars = template.unicodeScalars[...]
        var run = scalars.startIndex
        var cursor = scalars.startIndex
        while let open = scalars[cursor...].firstIndex(of: "{") {
            let rest = scalars[scalars.index(after: open)...]
            guard let digit = rest.first, let n = Int(String(digit)), n >= 1, n <= count,
                rest.dropFirst().first == "}"
            else {
                cursor = rest.startIndex
                continue
            }
            if run < open { text(scalars[run..<open]) }
            value(n)
            scalars = rest.dropFirst(2)
            (run, cursor) = (scalars.startIndex, scalars.startIndex)
        }
        if run < scalars.endIndex { text(scalars[run...]) }
    }

    /// The zone label for a schedule's zone, in this language's dates ("Do., 26. Nov., 21:00 CET").
    package func clock(_ zone: String) -> ZoneLabel {
        switch language {
        case .english: ZoneLabel(zone: zone)
        case .pseudo: ZoneLabel(zone: zone, marked: ("⟦", "⟧"))
        default: ZoneLabel(zone: zone, locale: Locale(identifier: language.rawValue))
        }
    }

    /// The pseudo-locale: each message of the template accented and marked, placeholders kept.
    private static func pseudoCatalog(template: MessageCatalog) -> MessageCatalog {
        var text = "msgid \"\"\nmsgstr \"Plural-Forms: \(Language.pseudo.pluralFormsHeader)\\n\"\n"
        for (id, entry) in template.entries {
            text += "msgid \(quoted(id))\n"
            if let plural = entry.plural {
                text +=
                    "msgid_plural \(quoted(plural))\nmsgstr[0] \(quoted(pseudo(id)))\nmsgstr[1] \(quoted(pseudo(plural)))\n"
            } else {
                text += "msgstr \(quoted(pseudo(id)))\n"
            }
        }
        do throws(MessageCatalog.Invalid) {
            return try MessageCatalog(parsing: text)
        } catch {
            preconditionFailure("pseudo-locale: \(error)")
        }
    }

    package static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// "Until {1}" as "⟦Ûñţîļ {1}⟧": letters accented, placeholders as they are.
    package static func pseudo(_ text: String) -> String {
        let accented: [Character: Character] = [
            "a": "å", "c": "ç", "e": "é", "i": "î", "n": "ñ", "o": "ö", "s": "š", "u": "û", "y": "ý",
            "A": "Å", "C": "Ç", "E": "É", "I": "Î", "N": "Ñ", "O": "Ö", "S": "Š", "U": "Û", "Y": "Ý",
        ]
        var result = "⟦"
        var inPlaceholder = false
        for character in text {
            if character == "{" { inPlaceholder = true }
            if character == "}" { inPlaceholder = false }
            result.append(inPlaceholder ? character : accented[character] ?? character)
        }
        return result + "⟧"
    }
}

/// A message as written in the code: its English text with `{1}`, `{2}`… where values were
/// interpolated (the catalog's key), and those values. Only a string literal makes one, so
/// every message is in the sources for `MessageCatalogTests` to find.
package struct Message: ExpressibleByStringInterpolation, Sendable {
    package var key: String
    package var values: [String]

    package init(stringLiteral value: String) { (key, values) = (value, []) }

    package init(stringInterpolation: StringInterpolation) {
        (key, values) = (stringInterpolation.key, stringInterpolation.values)
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var values: [String] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { key += literal }

        package mutating func appendInterpolation(_ value: String) {
            values.append(value)
            key += "{\(values.count)}"
        }

        package mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
            appendInterpolation(String(value))
        }
    }
}
