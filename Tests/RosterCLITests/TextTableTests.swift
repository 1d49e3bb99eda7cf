import RosterCommandLine
import Testing

/// Tables line up by terminal cells: names in Chinese, Japanese or Korean, and emoji, take two.
@Suite(.timeLimit(.minutes(10))) struct TextTableTests {
    @Test func wideCharactersAndEmojiTakeTwoCells() {
        #expect(DisplayWidth.of("Ada Lovelace") == 12)
        #expect(DisplayWidth.of("李小龍") == 6)
        #expect(DisplayWidth.of("김민준") == 6)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)
        #expect(DisplayWidth.of("🚒 on call") == 10)
        #expect(DisplayWidth.of("José") == 4, "a precomposed é")
        #expect(DisplayWidth.of("Jose\u{301}") == 4, "e and a combining accent are one cell")
        #expect(DisplayWidth.of("❤️") == 2, "a text symbol asked to show as emoji")
    }

    @Test func columnsLineUpByDisplayWidth() {
        var table = TextTable(["NAME", "TEAM"])
        table.rows = [["李小龍", "Platform"], ["Ada Lovelace", "Core"], ["🚒 Fire", "Ops"]]
        let lines = table.render().split(separator: "\n").map(String.init)
        // The second column starts at the same cell on every line.
        let starts = lines.map { line -> Int in
            let column = line.range(of: "  ", options: .backwards).map { line[..<$0.upperBound] } ?? ""
            return DisplayWidth.of(String(column))
        }
        #expect(Set(starts).count == 1, "\(lines)")
        #expect(lines[1] == "李小龍" + String(repeating: " ", count: 6) + "  Platform")
    }

    @Test func cellsArePaddedToTheirColumnExceptEachLinesLast() {
        var table = TextTable(["A", "LONGER", "C"])
        table.rows = [["xyz", "1", "last"], ["q"]]
        #expect(table.render(indent: "  ") == "  A    LONGER  C\n  xyz  1       last\n  q")
        #expect(TextTable(["ONLY"]).render() == "ONLY")
    }
}
