import Foundation
import RosterDomain
import Testing

/// Text from elsewhere never drives a terminal, and servers refuse it in the first place.
@Suite(.timeLimit(.minutes(10))) struct ControlCharacterTests {
    @Test func escapeSequencesAndControlsAreStripped() {
        #expect(ControlCharacters.stripped("Ada\u{1B}[2J\u{1B}[HLovelace") == "AdaLovelace")
        #expect(ControlCharacters.stripped("title\u{1B}]0;owned\u{07}done") == "titledone")
        #expect(ControlCharacters.stripped("a\u{9B}31mb\u{7F}c\u{202E}d") == "abcd")
        #expect(ControlCharacters.stripped("two\nlines\tx") == "two lines x")
        #expect(ControlCharacters.stripped("two\nlines", keepLineBreaks: true) == "two\nlines")
        #expect(ControlCharacters.stripped("Renée") == "Renée")
        // Kept line breaks and tabs beside other scripts are not controls to strip; an escape among them is.
        #expect(ControlCharacters.stripped("Zoë\tÅsa\nBjörk 東京", keepLineBreaks: true) == "Zoë\tÅsa\nBjörk 東京")
        #expect(ControlCharacters.stripped("Zoë\n\u{1B}[2JÅsa\t", keepLineBreaks: true) == "Zoë\nÅsa\t")
        #expect(ControlCharacters.stripped("Zoë\nÅsa\t") == "Zoë Åsa ")
    }

    /// Controls are found by their UTF-8 bytes: the answer is the one scalar by scalar, over
    /// random text of letters, wide characters, C0, C1, DEL, bidirectional overrides and their
    /// neighbours.
    @Test func controlsAreFoundByteByByteAsScalarByScalar() {
        var random = SystemRandomNumberGenerator()
        let pieces: [String] = [
            "a", "é", "東", "\n", "\t", "\u{1B}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{202A}",
            "\u{202E}", "\u{202F}", "\u{2029}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{2065}", "😀", " ",
        ]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            for allowing in [false, true] {
                let expected = text.unicodeScalars.contains { scalar in
                    !(allowing && (scalar == "\n" || scalar == "\t")) && ControlCharacters.isControl(scalar)
                }
                #expect(
                    ControlCharacters.contains(in: text, allowingLineBreaks: allowing) == expected,
                    "\(Array(text.unicodeScalars))")
            }
        }
    }

    @Test func validationRefusesControlCharactersInTextFields() {
        let state = RosterState(tenant: Tenant(id: "t", name: "T"))
        let employee = Employee(
            id: "e", firstName: "Ada\u{1B}[31m", lastName: "Lovelace", biography: "line one\nline two")
        #expect(
            state.violations(of: .employeeUpserted(employee)).map(\.description) == [
                "first_name: contains a control character"
            ])
        #expect(state.violations(of: .motdSet("hi\u{07}")).map(\.description) == ["motd: contains a control character"])
        #expect(state.violations(of: .motdSet("two\nlines")).isEmpty)
    }

    @Test func searchMatchesTeamAndPhone() {
        let people = [Employee(id: "a", firstName: "Ada", lastName: "Lovelace", phone: "+44 20 7946", team: "Platform")]
        #expect(EmployeeSearch("platform").matches(people[0]))
        #expect(EmployeeSearch("7946").matches(people[0]))
    }
}
