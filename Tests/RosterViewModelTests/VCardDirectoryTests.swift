import Foundation
import RosterDomain
import RosterViewModels
import Testing

/// vCard 3 and 4 as address books write them, and the matching rule.
@Suite(.timeLimit(.minutes(10))) struct VCardDirectoryTests {
    @Test func readsNamesPhonesAndEmailsWithFoldingAndEscapes() throws {
        let text = [
            "BEGIN:VCARD", "VERSION:3.0", "N:Lovelace;Ada;;;", "FN:Ada Lovelace", "TEL;TYPE=CELL:+44 20 7946 0000",
            "item1.EMAIL;TYPE=INTERNET:ada@example.org", "NOTE:Wrote the first program\\, and notes\\non it",
            "END:VCARD",
            "BEGIN:VCARD", "VERSION:4.0", "N:Hop", " per;Grace;;;", "FN:Grace Hopper", "TEL;VALUE=uri:tel:+1-555-0100",
            "END:VCARD",
        ].joined(separator: "\r\n")
        let directory = VCardDirectory(parsing: text)
        #expect(directory.warnings.isEmpty)
        #expect(directory.contacts.count == 2)
        let adaContact = try #require(directory.contact(matching: Employee(firstName: "ada", lastName: "LOVELACE")))
        #expect(adaContact.phones == ["+44 20 7946 0000"])
        #expect(adaContact.emails == ["ada@example.org"])
        let graceContact = try #require(
            directory.contact(matching: Employee(firstName: "Grace", lastName: "Hopper")),
            "a folded N line is joined")
        #expect(graceContact.phones == ["+1-555-0100"])
        #expect(
            directory.contact(matching: Employee(firstName: "Grace", lastName: "Lovelace")) == nil,
            "both names must match")
    }

    @Test func namesMatchIgnoringCaseAndDiacriticsAndEscapedSeparators() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:Descartes;René;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:O\\;Neil;Ann;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Alan Mathison Turing
            END:VCARD
            """
        let directory = VCardDirectory(parsing: text)
        #expect(directory.matches(Employee(firstName: "Rene", lastName: "DESCARTES")))
        #expect(directory.matches(Employee(firstName: "Ann", lastName: "O;Neil")), "an escaped ; is part of the name")
        #expect(
            directory.matches(Employee(firstName: "Alan Mathison", lastName: "Turing")),
            "no N: FN's last word is the last name")
    }

    @Test func aMalformedCardIsSkippedWithItsLineAndTheOthersKept() {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            this line is not a property
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            TEL:+1 555 0199
            END:VCARD
            BEGIN:VCARD
            N:Lovelace;Ada;;;
            END:VCARD
            BEGIN:VCARD
            N:Unfinished;Card;;;
            """
        let directory = VCardDirectory(parsing: text, source: "people.vcf")
        #expect(directory.contacts.map(\.fullName) == ["Ada Lovelace"])
        #expect(
            directory.warnings == [
                "people.vcf:3: skipped a contact: \"this line is not a property\" is not a vCard property",
                "people.vcf:5: skipped a contact with neither N nor FN",
                "people.vcf:12: skipped a contact without END:VCARD",
            ])
    }

    @Test func readsAFileAndFailsClearlyWhenItIsMissing() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("roster-vcard-\(UUID().uuidString).vcf")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("BEGIN:VCARD\nN:Hopper;Grace\nEND:VCARD\n".utf8).write(to: url)
        #expect(try VCardDirectory(contentsOf: url).contacts.count == 1)
        #expect(throws: (any Error).self) { try VCardDirectory(contentsOf: url.appendingPathExtension("missing")) }
    }
}
