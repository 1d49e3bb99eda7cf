import ArgumentParser
import Foundation
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterStorePostgres

// The store over the years: an online backup, a checked restore, and what a data directory holds.

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the store to a file, while the server runs.",
        discussion: """
            The copy is one snapshot of every committed change (SQLite's VACUUM INTO on a read connection, which \
            does not block the server's writes or pushes). It holds the tenants, their history and the token \
            hashes; the admin token file and the TLS files of the data directory are not in it. \
            With --into, a scheduled job keeps the last --keep backups in a directory, each named for its \
            instant (roster-YYYYMMDDTHHMMSSZ.sqlite); older ones are removed only after the new one is checked.
            """)
    @OptionGroup var store: DataDirectoryOption
    @Option(help: "The backup file to write (must not exist; it is made private, 0600).") var to: String?
    @Option(help: "Write a backup named for this instant into this directory instead (made if missing).")
    var into: String?
    @Option(help: "With --into: how many of its backups to keep, 1 to 1000 (the oldest go first).")
    var keep: Int = 7

    func validate() throws {
        guard (to == nil) != (into == nil) else { throw ValidationError("give --to FILE or --into DIRECTORY") }
        guard BackupRotation.keepRange.contains(keep) else {
            throw ValidationError("--keep is 1 to \(BackupRotation.keepRange.upperBound), not \(keep)")
        }
    }

    func run() async throws {
        try store.requireEmbedded("backup", instead: "pg_dump (docs/SCALING.md)")
        let directory = DataDirectory(store.path)
        guard directory.hasDatabase else { throw DataDirectoryError.noDatabase(directory.path) }
        let written: String
        let summary: StoreBackup.Summary
        if let into {
            let outcome = try await BackupRotation.backup(databasePath: directory.database, into: into, keep: keep)
            (written, summary) = (outcome.written, outcome.summary)
            for removed in outcome.removed { print("removed \(removed) (keeping \(keep))") }
        } else {
            written = to ?? ""
            try await StoreBackup.backup(databasePath: directory.database, to: written)
            summary = try await StoreBackup.check(written)
        }
        print(
            "backed up \(summary.tenants.count) tenant(s) to \(written): "
                + summary.tenants.map { "\($0) at revision \(summary.revisions[$0] ?? 0)" }.joined(separator: ", "))
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Check a backup file, then make it the store of a data directory (stop its server first).",
        discussion: """
            The file must pass SQLite's integrity check and have a schema this release knows; nothing is \
            replaced otherwise. Every tenant gets a new epoch, so connected clients take a fresh snapshot \
            instead of resuming from revisions of another history.
            """)
    @Option(help: "The backup file.") var from: String
    @OptionGroup var store: DataDirectoryOption
    @Flag(help: "Overwrite the directory's existing database.") var replace = false

    func run() async throws {
        try store.requireEmbedded("restore", instead: "pg_restore (docs/SCALING.md)")
        let summary = try await StoreBackup.restore(from: from, into: DataDirectory(store.path), replace: replace)
        print(
            "restored \(summary.tenants.count) tenant(s) into \(store.path) with new epochs: "
                + summary.tenants.map { "\($0) at revision \(summary.revisions[$0] ?? 0)" }.joined(separator: ", "))
        print(
            """
            Webhook deliveries are paused in this copy, so that it does not send the webhooks the original sent. \
            Once it is the server in use: roster-server deliveries resume --data-dir \(store.path)
            """)
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What a data directory holds: schema, tenants, revisions, epochs, tokens, size.")
    @OptionGroup var store: DataDirectoryOption

    func run() async throws {
        try store.requireEmbedded("status", instead: "roster-server tenant list --store ... and PostgreSQL's own tools")
        let directory = DataDirectory(store.path)
        guard directory.hasDatabase else { throw DataDirectoryError.noDatabase(directory.path) }
        let summary = try await StoreBackup.check(directory.database)
        let administration = try await store.open()
        let tenants = try await administration.tenantStatus()
        let tokens = try await administration.tokens()
        await administration.close()
        let bytes = ["", "-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: directory.database + $0))?[.size] as? Int
        }.reduce(0, +)
        print("data directory \(directory.path)")
        print("schema: \(summary.migrations.joined(separator: ", "))")
        print(String(format: "database: %.1f MB (with its write-ahead log)", Double(bytes) / 1e6))
        for tenant in tenants {
            print(
                "tenant \(tenant.id): revision \(tenant.revision), epoch \(tenant.epoch), "
                    + "\(tenant.employees) employees, \(tenant.schedules) schedules, \(tenant.shifts) one-off shifts")
        }
        let active = tokens.filter { $0.isUsable(at: Int64(Date().timeIntervalSince1970 * 1000)) }
        print("tokens: \(active.count) active, \(tokens.count - active.count) revoked or expired")
    }
}

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "Bring a store's schema to this release's (a server does it at start; nodes sharing PostgreSQL may want it first).",
        discussion: """
            Applies the schema versions the store lacks, in one transaction on PostgreSQL (under a lock, so \
            nodes starting together take turns). A store migrated by a newer release is refused, and so is a \
            node of an older release started against it.
            """)
    @OptionGroup var store: DataDirectoryOption

    func run() async throws {
        let location = try store.location ?? .sqlite(path: DataDirectory(store.path).database)
        let opened = try await location.open(with: .withPostgreSQL)
        try await opened.close()
        print("\(location): schema at \(StoreSchema.versions.last ?? "") (\(StoreSchema.versions.count) versions)")
    }
}

/// `roster-server deliveries resume`: lets a restored data directory send webhooks again.
struct DeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries", abstract: "Webhook deliveries of a restored data directory (paused by restore).",
        subcommands: [Resume.self])

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume",
            abstract: "Resume webhook deliveries (a running server resumes at SIGHUP, or at its next start).")
        @OptionGroup var store: DataDirectoryOption

        func run() throws {
            let directory = DataDirectory(store.path)
            guard directory.deliveriesPaused else {
                print("webhook deliveries are not paused in \(store.path)")
                return
            }
            try FileManager.default.removeItem(atPath: directory.deliveriesPausedMarker)
            print(
                "webhook deliveries resume in \(store.path): at once on the next start, or send a running server SIGHUP (systemctl reload roster-server)"
            )
        }
    }
}
