import Foundation
import RosterServerCore
import Yams

/// `roster-server serve --config FILE`: every setting of `serve` (`ServerSettings`) as a YAML key
/// named like the flag without its dashes (`listen: 0.0.0.0:7400`, `max-connections: 20000`, `tls-name: [a, b]`).
/// Flags beat environment variables, which beat the file, which beats the defaults. An unknown
/// key or a value of the wrong kind is a problem naming the key and its line, reported with the
/// values out of their range in one round (`ServerSettings.configuration`), all in one shape.
public struct ServerConfigFile: Sendable {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// A value as written (lists as several texts), and its line.
    public struct Entry: Sendable, Equatable {
        public var texts: [String]
        public var line: Int
    }

    public let path: String
    public let entries: [String: Entry]
    /// Unknown keys and values of the wrong kind, each "PATH: line N: …", in the file's order.
    public let problems: [String]

    /// Reads and checks `path`: every problem at once, each with its line.
    public static func load(_ path: String) throws(Problem) -> ServerConfigFile {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Problem(description: "\(path): cannot be read (\(error.localizedDescription))")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(Problem) -> ServerConfigFile {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw Problem(description: "\(path): not YAML: \(error)")
        }
        guard let root else { return ServerConfigFile(path: path, entries: [:], problems: []) }  // empty file
        guard let mapping = root.mapping else {
            throw Problem(description: "\(path): expected keys and values (`listen: 127.0.0.1:7400`), one per line")
        }
        let kinds = Dictionary(ServerSettings.all.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
        var entries: [String: Entry] = [:]
        var problems: [String] = []
        for (keyNode, value) in mapping {
            let line = (keyNode.mark?.line ?? 0)
            func problem(_ text: String) { problems.append("\(path): line \(line): \(text)") }
            guard let key = keyNode.string else { problem("a key must be text"); continue }
            guard let kind = kinds[key] else {
                let close = ServerSettings.all.map(\.name).filter { $0.hasPrefix(String(key.prefix(3))) }
                problem(
                    "unknown key \"\(key)\""
                        + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"))
                continue
            }
            if entries[key] != nil { problem("\(key) is given twice"); continue }
            switch (kind, value) {
            case (.list, .sequence(let items)):
                let texts = items.compactMap(\.string)
                guard texts.count == items.count else { problem("\(key): expected a list of text"); continue }
                entries[key] = Entry(texts: texts, line: line)
            case (_, .scalar(let scalar)):
                let raw = scalar.string
                switch kind {
                case .number where Int64(raw) == nil:
                    problem("\(key): expected a whole number (got \"\(raw)\")")
                case .flag where Bool.construct(from: scalar) == nil:
                    problem("\(key): expected true or false (got \"\(raw)\")")
                default:
                    let flag = kind == .flag ? (Bool.construct(from: scalar)! ? "1" : "0") : raw
                    entries[key] = Entry(texts: [flag], line: line)
                }
            default:
                problem("\(key): expected \(kind == .list ? "a list" : "a single value")")
            }
        }
        return ServerConfigFile(path: path, entries: entries, problems: problems)
    }

    /// The file's value of a text or number key.
    public func text(_ key: String) -> String? { entries[key]?.texts.first }

    /// The file's value of a flag key.
    public func flag(_ key: String) -> Bool? { entries[key].map { $0.texts.first == "1" } }

    public func list(_ key: String) -> [String] { entries[key]?.texts ?? [] }
}
