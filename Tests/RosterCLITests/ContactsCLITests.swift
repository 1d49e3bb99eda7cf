import Foundation
import RosterTestSupport
import Testing

/// `--contacts FILE.vcf` (or `contacts =` in the config file) marks the people in it.
@Suite(.timeLimit(.minutes(10))) struct ContactsCLITests {
    /// A vCard file with Ada (spelled differently) and a card that cannot be read.
    func contactsFile() throws -> URL {
        let file = TestScratch.directory("roster-contacts").appendingPathComponent("my.vcf")
        let text = [
            "BEGIN:VCARD", "VERSION:4.0", "N:lovelace;ADA;;;", "FN:Ada Lovelace", "TEL:+44 20 0000",
            "EMAIL:ada@home.example",
            "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "TEL:+1 555 0100", "END:VCARD",
        ].joined(separator: "\r\n")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func employeesSearchAndShowMarkThePeopleInTheContactsFile() async throws {
        let contacts = try contactsFile()
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--position", "Engineer",
            ])
            try await cli.run([
                "admin", "employee", "add", "--first", "Grace", "--last", "Hopper", "--position", "Engineer",
            ])

            let table = try await cli.run(["employees", "--contacts", contacts.path])
            #expect(table.status == 0, "\(table.stderr)")
            let rows = table.stdout.split(separator: "\n").map(String.init)
            #expect(rows.first?.hasSuffix("CONTACT") == true)
            #expect(rows.first { $0.hasPrefix("Ada Lovelace") }?.hasSuffix("✓") == true)
            #expect(rows.first { $0.hasPrefix("Grace Hopper") }?.hasSuffix("✓") == false)
            #expect(table.stderr.contains("my.vcf:8: skipped a contact with neither N nor FN"), "\(table.stderr)")

            let search = try await cli.run(["search", "engineer", "--json", "--contacts", contacts.path])
            let found = search.object["employees"] as? [[String: Any]] ?? []
            #expect(found.map { $0["inContacts"] as? Bool } == [false, true], "Hopper, then Lovelace")

            let show = try await cli.run(["show", "ada lovelace", "--json", "--contacts", contacts.path])
            let contact = show.object["contact"] as? [String: Any]
            #expect(contact?["phones"] as? [String] == ["+44 20 0000"])
            #expect(contact?["emails"] as? [String] == ["ada@home.example"])
            let plain = try await cli.run(["show", "Ada Lovelace", "--contacts", contacts.path])
            #expect(plain.stdout.contains("In your contacts as Ada Lovelace: +44 20 0000 · ada@home.example"))

            // Without a contacts file nothing is marked.
            let unmarked = try await cli.run(["employees", "--json"])
            #expect((unmarked.object["employees"] as? [[String: Any]])?.allSatisfy { $0["inContacts"] == nil } == true)

            // The config file's `contacts =` line works like the flag.
            let config = cli.home.appendingPathComponent("config/roster")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data("contacts = \(contacts.path)\n".utf8).write(to: config.appendingPathComponent("config"))
            let configured = try await cli.run(["show", "Ada Lovelace", "--json"])
            #expect((configured.object["contact"] as? [String: Any]) != nil)
        }
    }

    @Test func aMissingContactsFileIsAUsageError() async throws {
        let cli = CLI(port: 1)
        let result = try await cli.run(["employees", "--contacts", "/nonexistent/people.vcf"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("cannot read the contacts file /nonexistent/people.vcf"), "\(result.stderr)")
    }
}
