import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import Testing

/// JSON lines escape every control character, not only those JSONEncoder does.
@Suite(.timeLimit(.minutes(10))) struct JSONLineTests {
    @Test func controlCharactersAreEscaped() {
        struct Name: Encodable { var name: String }
        let line = JSONShapes.line(Name(name: "a\u{1B}[2Jb\u{9B}c\u{7F}"))
        #expect(line == #"{"name":"a\u001b[2Jb\u009bc\u007f"}"#)
        #expect(!line.unicodeScalars.contains(where: ControlCharacters.isControl))
    }
}
