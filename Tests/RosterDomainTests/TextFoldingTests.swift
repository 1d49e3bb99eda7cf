import Foundation
import RosterDomain
import Testing

/// Names are compared folded (case and accents ignored); ASCII takes a fast path of its own,
/// which must give exactly what Foundation's folding gives.
@Suite(.timeLimit(.minutes(10))) struct TextFoldingTests {
    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    @Test func asciiFoldsAsFoundationFoldsIt() {
        let printable = String((0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) })
        #expect(TextFolding.fold(printable) == Self.foundation(printable))
        for text in ["Ada Lovelace", "ADA", "o'Brien-Smith", "", "Grace Hopper 3", "\t x \n"] {
            #expect(TextFolding.fold(text) == Self.foundation(text), "\(text)")
        }
    }

    @Test func otherTextFoldsCaseAndAccents() {
        #expect(TextFolding.fold("René DESCARTES") == "rene descartes")
        #expect(TextFolding.fold("Ærø Ångström") == Self.foundation("Ærø Ångström"))
        #expect(TextFolding.fold("山田 太郎") == "山田 太郎")
    }
}
