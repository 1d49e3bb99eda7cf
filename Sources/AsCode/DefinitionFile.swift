import Foundation
import RosterDomain
import RosterProtocol
import Yams

/// A tenant definition file (docs/AS-CODE.md): YAML in the shape `roster-client export --format
/// yaml` writes, read into the wire's `DefinitionDocument`. Every problem the file has is found
/// in one reading, each with its line and column; the places of the objects are kept so that a
/// problem the server finds (an unknown person, an override that overlaps another) is shown at
/// its line too.
public struct DefinitionFile: Sendable {
    public var document: Roster_V1_DefinitionDocument
    /// "schedules[0].layers[1].rotations[2]" (and ".people", a field) → where it is written.
    public var places: [String: Place]
    public let path: String

    public struct Place: Sendable, Hashable {
        public var line: Int
        public var column: Int
    }

    /// One problem, where it is.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var place: Place?
        public var message: String

        public var description: String {
            guard let place else { return "\(path): \(message)" }
            return "\(path):\(place.line):\(place.column): \(message)"
        }
    }

    /// Every problem of a file, in the order of the file.
    public struct Problems: Error, Sendable, CustomStringConvertible {
        public var problems: [Problem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// The largest file read: it travels as one frame.
    public static let maxBytes = 8 * 1_024 * 1_024
    /// The format's version, written first in every file.
    public static let version = 1

    /// Where in the file a server's violation is: its location and field ("schedules[0]", "zone"),
    /// or the closest enclosing object written.
    public func place(location: String, field: String) -> Place? {
        for part in location.components(separatedBy: ", ").reversed() {
            if !field.isEmpty, let found = places[part + "." + field] { return found }
            var key = part
            while !key.isEmpty {
                if let found = places[key] { return found }
                guard let cut = key.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
                key = String(key[..<cut])
            }
        }
        return nil
    }

    /// Reads `text`; `secret` answers a `secret: {env: NAME}` or `{file: PATH}` reference (nil:
    /// not set or not readable, which is a problem of the file).
    public static func parse(_ text: String, path: String, secret: @escaping (SecretReference) -> String?)
        throws(Problems) -> DefinitionFile
    {
        guard text.utf8.count <= maxBytes else {
            throw Problems(problems: [Problem(path: path, message: "is larger than \(maxBytes / 1_048_576) MiB")])
        }
        // The parser lives as long as the walk: it holds the anchors, which nodes hold weakly,
        // and a node that has one is refused.
        let parser: Parser, root: Node?
        do {
            parser = try Parser(yaml: text)
            root = try parser.singleRoot()
        } catch let error as YamlError {
            throw Problems(problems: [Self.problem(error, path: path)])
        } catch {
            throw Problems(problems: [Problem(path: path, message: "is not YAML: \(error)")])
        }
        var reader = DefinitionReader(path: path, secret: secret)
        guard let root else {
            throw Problems(problems: [Problem(path: path, message: "is empty: it needs at least `version: 1`")])
        }
        let document = withExtendedLifetime(parser) { reader.document(root) }
        if !reader.problems.isEmpty { throw Problems(problems: reader.problems) }
        return DefinitionFile(document: document, places: reader.places, path: path)
    }

    private static func problem(_ error: YamlError, path: String) -> Problem {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return Problem(
                path: path, place: Place(line: mark.line, column: mark.column), message: "is not YAML here: \(problem)")
        default:
            return Problem(path: path, message: "is not YAML: \(error)")
        }
    }
}

/// A secret named in a file, never written in it.
public enum SecretReference: Sendable, Hashable {
    case environment(String)
    case file(String)
}
