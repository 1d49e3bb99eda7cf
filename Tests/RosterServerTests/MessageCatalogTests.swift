import Foundation
import RosterDomain
import RosterServerCore
@testable import RosterWeb
import Testing

/// The web app's languages without a server: the catalogs as built into the app, the one reader
/// of their PO files, the plural rules, and which language a request gets.
@Suite(.timeLimit(.minutes(10)))
struct MessageCatalogTests {
    static let translated: [Language] = [.german, .french, .spanish]

    @Test func everyMessageIsTranslatedWithItsValuesAndForms() throws {
        let template = Words.template
        #expect(template.entries.count > 200, "the template holds the app's messages")
        for language in Self.translated {
            let catalog = try MessageCatalog(parsing: Words.source(of: language))
            #expect(catalog.headers["Language"] == language.rawValue)
            #expect(catalog.headers["Plural-Forms"] == language.pluralFormsHeader, "\(language)")
            for (id, entry) in template.entries {
                let found = try #require(catalog.entries[id], "\(language.rawValue): \"\(id)\" is not translated")
                let wanted = Set(Self.placeholders(id + (entry.plural ?? "")))
                if entry.plural != nil {
                    #expect(found.forms.count == language.pluralCategories.count, "\(language.rawValue): \(id)")
                }
                for form in found.forms {
                    #expect(!form.isEmpty, "\(language.rawValue): \(id)")
                    #expect(Set(Self.placeholders(form)) == wanted, "\(language.rawValue): \(id) → \(form)")
                }
            }
            let stale = Set(catalog.entries.keys).subtracting(template.entries.keys)
            #expect(stale.isEmpty, "\(language.rawValue): entries no page uses: \(stale)")
        }
    }

    static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{\d\}/).map { String($0.output) }
    }

    @Test func aMessageIsLookedUpByItsEnglishTextWithItsValuesPutIn() {
        let time = "Mi. 2. Dez., 09:00 CET"
        let message: Message = "Until \(time)"
        #expect(message.key == "Until {1}" && message.values == [time])
        #expect(Words[.german]("Until \(time)") == "Bis " + time)
        #expect(Words[.english]("Until \(time)") == "Until " + time)
        #expect(Words[.french].plural(2, "\(2) minute ago", "\(2) minutes ago") == "il y a 2 minutes")
        #expect(Words[.french].plural(0, "\(0) minute ago", "\(0) minutes ago") == "il y a 0 minute")
        #expect(Words[.spanish].plural(0, "\(0) minute ago", "\(0) minutes ago") == "hace 0 minutos")
        #expect(Words[.german].plural(1, "\(1) minute ago", "\(1) minutes ago") == "vor 1 Minute")
        // A message the catalog lacks is shown in English, never as its key.
        #expect(Words[.german]("Not in any catalog \(3)") == "Not in any catalog 3")
        // Braces that are no placeholder of the message stay as they are.
        #expect(Words[.english]("{x} \("a") {9} {1 \("b")}") == "{x} a {9} {1 b}")
        #expect(
            Words[.german].pluralForms("{1} day ago", "{1} days ago") == [
                "one": "vor {1} Tag", "other": "vor {1} Tagen",
            ])
    }

    @Test func pluralFormsFollowCLDR() {
        #expect([0, 1, 2, 1_000_000].map(Language.english.pluralForm) == [1, 0, 1, 1])
        #expect([0, 1, 2, 1_000_000].map(Language.german.pluralForm) == [1, 0, 1, 1])
        // French: 0 and 1 are "one"; a million is "many" ("un million de jours").
        #expect([0, 1, 2, 17, 1_000_000, 2_000_000].map(Language.french.pluralForm) == [0, 0, 2, 2, 1, 1])
        #expect([0, 1, 2, 1_000_000].map(Language.spanish.pluralForm) == [2, 0, 2, 1])
    }

    @Test func theReadersChoiceThenTheBrowsersLanguagesThenEnglish() {
        #expect(Language.preferred("de-CH, fr;q=0.8, en;q=0.5") == .german)
        #expect(Language.preferred("fr;q=0.5, es;q=0.9") == .spanish)
        #expect(Language.preferred("ja, zh-Hant;q=0.9, fr;q=0.1") == .french)
        #expect(Language.preferred("es-419") == .spanish)
        #expect(Language.preferred("en-XA") == .pseudo && Language.preferred("en-GB") == .english)
        // Equal weights: the first named wins.
        #expect(Language.preferred("fr;q=0.7, de;q=0.7") == .french)
        // q=0 is "not this"; a malformed weight drops its range, not the header.
        #expect(Language.preferred("de;q=0, es") == .spanish)
        #expect(Language.preferred("de;q=2, fr;q=0.1234, es;q=abc, en-US;q=0.3") == .english)
        #expect(Language.preferred("*") == nil && Language.preferred("") == nil && Language.preferred(",,;;") == nil)
        #expect(Language.preferred(String(repeating: "de, ", count: 200)) == nil, "an over-long header is not read")
        #expect(Language.of(cookie: "fr", acceptLanguage: "de") == .french)
        #expect(Language.of(cookie: "klingon", acceptLanguage: "de") == .german)
        #expect(Language.of(cookie: nil, acceptLanguage: nil) == .english)
    }

    @Test func aCatalogThatIsNotPOIsRefusedWithItsLine() {
        let cases: [(String, Int)] = [
            ("msgstr \"x\"\n", 1),
            ("msgid \"a\"\nmsgstr \"b\"\nmsgcomment \"c\"\n", 3),
            ("msgid \"a\"\nmsgstr \"b\\q\"\n", 2),
            ("msgid \"a\"\nmsgstr \"b\"\nmsgid \"a\"\nmsgstr \"c\"\n", 3),
            ("msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[2] \"c\"\n", 1),
            ("\"floating\"\n", 1),
            ("msgid \"a\nmsgstr \"b\"\n", 1),
        ]
        for (text, line) in cases {
            #expect(throws: MessageCatalog.Invalid.self, "\(text)") { try MessageCatalog(parsing: text) }
            do {
                _ = try MessageCatalog(parsing: text)
            } catch {
                #expect(error.line == line, "\(text): \(error)")
            }
        }
    }

    @Test func fuzzyAndEmptyTranslationsAreNotUsed() throws {
        let catalog = try MessageCatalog(
            parsing: """
                # a comment
                #, fuzzy
                msgid "Take"
                msgstr "Übernehmen?"

                msgid "Decline"
                msgstr ""

                msgid "Cancel"
                msgstr "Abbre"
                "chen"

                msgid "{1} day"
                msgid_plural "{1} days"
                msgstr[0] "{1} Tag"
                msgstr[1] "{1} Tage"
                """)
        #expect(catalog.translation("Take") == nil && catalog.translation("Decline") == nil)
        #expect(catalog.translation("Cancel") == "Abbrechen")
        #expect(catalog.translation("{1} day", form: 1) == "{1} Tage")
    }

    @Test func datesAreWrittenAsTheLanguageWritesThemWithTheDatabasesAbbreviation() {
        let november = TimeText.parseISO8601("2026-11-26T20:00:00Z")!,
            july = TimeText.parseISO8601("2026-07-02T07:00:00Z")!
        let german = Words[.german].clock("Europe/Berlin")
        #expect(german.label(november) == "Do. 26. Nov., 21:00 CET", "\(german.label(november))")
        #expect(
            german.label(july).hasSuffix("09:00 CEST") && german.label(july).contains("Juli"), "\(german.label(july))")
        #expect(Words[.french].clock("Europe/Berlin").label(november).hasPrefix("jeu. 26 nov."))
        #expect(Words[.spanish].clock("Europe/Berlin").label(november).hasPrefix("jue, 26 nov"))
        #expect(Words[.english].clock("Europe/Berlin").label(november) == "Thu 26 Nov 21:00 CET")
        #expect(Words[.pseudo].clock("America/New_York").label(july) == "⟦Thu 2 Jul 03:00 EDT⟧")
    }
}
