import Foundation
import RosterDomain
import RosterMigration

/// What the sources' tests share: the fixtures' folder, an empty directory, and a migration
/// verified as `migrate --offline --verify-against` does it.
enum MigrationFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// The samples docs/MIGRATING.md walks through (GoAlert's and Opsgenie's are also the
    /// tests' twelve and eleven schedules).
    static let examples = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/examples")
    static let nobody = RosterState(tenant: Tenant(id: "t", name: "T"))

    static func migrate(_ data: Data, from source: MigrationSource, directory: RosterState = nobody) throws -> Migration
    {
        try Migration.read(data, from: source, name: "export.json", directory: directory, now: .now)
    }

    /// Every problem of reading `text`, as printed; empty when it reads.
    static func problems(_ text: String, from source: MigrationSource) -> [String] {
        do {
            _ = try migrate(Data(text.utf8), from: source)
            return []
        } catch let error as MigrationError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    static func verify(_ export: Data, _ rendered: Data, from source: MigrationSource) throws -> MigrationVerification {
        let migration = try migrate(export, from: source)
        return try migration.verify(
            definition: migration.definition(now: .now, file: "export.json"), rendered: rendered, name: "rendered.json",
            directory: nobody)
    }
}
