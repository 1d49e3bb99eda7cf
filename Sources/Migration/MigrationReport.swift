import Foundation

/// What a migration did with each construct of the source (docs/MIGRATING.md): mapped exactly,
/// mapped to something that differs in a way the entry says, not mapped (and why), or fields
/// the source had that nothing reads. Nothing is approximated without an entry here.
public struct MigrationReport: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The same rule in Roster's terms: the same people on duty at every instant.
        case exact
        /// Mapped, with a difference of form the entry describes (the duty is still the same,
        /// or the entry says where it is not).
        case changed
        /// Left out of the definition: the entry says why and what to do instead.
        case notMapped = "not-mapped"
        /// Fields of the source that no part of Roster reads.
        case ignored
    }

    public struct Entry: Sendable, Hashable {
        public var kind: Kind
        /// Where in the source: "schedules[2].schedule_layers[0]".
        public var path: String
        public var message: String

        public init(kind: Kind, path: String, message: String) {
            (self.kind, self.path, self.message) = (kind, path, message)
        }
    }

    public var entries: [Entry] = []

    public init(entries: [Entry] = []) { self.entries = entries }

    mutating func add(_ kind: Kind, _ path: String, _ message: String) {
        entries.append(Entry(kind: kind, path: path, message: message))
    }

    public func count(_ kind: Kind) -> Int { entries.filter { $0.kind == kind }.count }

    /// The report as text: a line of counts, then each entry under its kind.
    public var text: String {
        var lines = [
            "Migration report: \(count(.exact)) exact, \(count(.changed)) changed, \(count(.notMapped)) not mapped, "
                + "\(count(.ignored)) with ignored fields"
        ]
        let headings: [(Kind, String)] = [
            (.notMapped, "Not mapped (not in the file)"), (.changed, "Mapped with a difference"),
            (.exact, "Mapped exactly"), (.ignored, "Source fields nothing reads"),
        ]
        for (kind, heading) in headings where count(kind) > 0 {
            lines.append("")
            lines.append(heading + ":")
            for entry in entries where entry.kind == kind { lines.append("  \(entry.path): \(entry.message)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Counts by kind of the fields of `objects` outside `used`, as one entry per kind of object
    /// ("users[*]: not read: avatar_url (12), color (12)").
    mutating func ignoredFields(_ objects: [SourceJSON], used: Set<String>, at path: String) {
        var counts: [String: Int] = [:]
        for object in objects { for key in object.keys where !used.contains(key) { counts[key, default: 0] += 1 } }
        guard !counts.isEmpty else { return }
        let listed = counts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        add(.ignored, path, "not read: " + listed)
    }
}

/// One reason an export is refused, at its place in the source.
public struct MigrationProblem: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) { (self.path, self.message) = (path, message) }

    public var description: String { "\(path): \(message)" }
}

/// An export that cannot be migrated: every problem found, each with its JSON path. Nothing is
/// written while any is left.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    public var problems: [MigrationProblem]

    public init(problems: [MigrationProblem]) { self.problems = problems }

    init(_ path: String, _ message: String) { problems = [MigrationProblem(path: path, message: message)] }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
