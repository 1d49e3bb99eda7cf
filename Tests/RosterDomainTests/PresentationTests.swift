import Foundation
@testable import RosterDomain
import Testing

@Suite(.timeLimit(.minutes(10))) struct PresentationTests {
    let everyone = [ada, rene, zoe, bob]

    @Test func groupsByPositionAToZIgnoringCaseWithPeopleByLastName() {
        let groups = everyone.grouped(by: .position)
        #expect(groups.map(\.name) == ["Engineer", "Philosopher"], "spelling of the first person in display order")
        #expect(groups[0].employees.map(\.lastName) == ["Ångström", "Lovelace"])
        #expect(groups[1].employees.map(\.firstName) == ["Bob", "René"], "same last name: by first name")
    }

    @Test func displayOrderIsLastNameThenFirstNameThenIDIgnoringCaseAndDiacritics() {
        // Many people with few distinct names, so every tie-break is reached.
        var random = SystemRandomNumberGenerator()
        let lasts = ["Ångström", "angstrom", "Lovelace", "LOVELACE", "Émile", "Zeta", ""],
            firsts = ["Ada", "ada", "Ève", "eve", "Bob"]
        let people = (0..<500).map { index in
            Employee(
                id: "e\(Int.random(in: 0..<10_000, using: &random))-\(index)",
                firstName: firsts.randomElement(using: &random)!,
                lastName: lasts.randomElement(using: &random)!)
        }
        #expect(people.sortedForDisplay().map(\.id) == people.sorted(by: Employee.displayOrder).map(\.id))
    }

    /// The byte-wise search of ASCII text answers what folding both sides and Foundation's
    /// search answer, over random fields and words of ASCII, accented and wide letters.
    @Test func searchingASCIIByteByByteAgreesWithFolding() {
        var random = SystemRandomNumberGenerator()
        let letters: [String] = ["a", "A", "b", "Z", "z", "e", "é", "É", "1", "@", ".", "-", " ", "ß", "東", "ﬁ"]
        func text(_ length: Int) -> String { (0..<length).map { _ in letters.randomElement(using: &random)! }.joined() }
        var asciiPairs = 0
        for _ in 0..<20_000 {
            let field = text(Int.random(in: 0...8, using: &random))
            let word = TextFolding.fold(text(Int.random(in: 1...3, using: &random)))
            if field.utf8.allSatisfy({ $0 < 0x80 }), word.utf8.allSatisfy({ $0 < 0x80 }) { asciiPairs += 1 }
            #expect(
                EmployeeSearch.contains(field, word) == TextFolding.fold(field).contains(word), "\(field) ∋ \(word)")
        }
        #expect(asciiPairs > 1_000, "the byte-wise path was exercised")
    }

    @Test func peopleWithoutATeamFormTheLastGroup() {
        #expect(everyone.grouped(by: .team).map(\.name) == ["Core", "Edge", "No team"])
    }

    @Test func searchIgnoresCaseAndDiacritics() {
        #expect(everyone.matching("rene").map(\.id) == ["e2"])
        #expect(everyone.matching("ZOE").map(\.id) == ["e3"])
        #expect(everyone.matching("angstrom").map(\.id) == ["e3"])
    }

    @Test func searchCoversEmailProjectsAndPositionAndNeedsEveryWord() {
        #expect(everyone.matching("analytical").map(\.id) == ["e1"])
        #expect(everyone.matching("rene@").map(\.id) == ["e2"])
        #expect(everyone.matching("philosopher").map(\.id) == ["e4", "e2"])
        #expect(everyone.matching("bob philosopher").map(\.id) == ["e4"])
        #expect(everyone.matching("bob engineer").isEmpty)
        #expect(everyone.matching("").count == 4)
    }
}
