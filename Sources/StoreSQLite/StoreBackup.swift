import Foundation
import GRDB
import NIOPosix
import RosterStore

/// Online backup and checked restore of the embedded store.
///
/// A backup is SQLite's `VACUUM INTO` on a read connection: one consistent snapshot of every
/// committed revision at the moment it starts, taken while the server keeps committing (WAL
/// readers do not block the writer, so pushes are not stalled). It holds the tenants, their
/// history and the token hashes; the data directory's admin token file and TLS material are not
/// in it. A restore checks the file (SQLite's integrity check, and that its schema is one this
/// release knows) before it replaces anything, and gives every tenant a new epoch, so clients
/// resync instead of trusting revisions from another history.
public enum StoreBackup {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// The backup file named is not there (or is not a file).
        case noSuchFile(String)
        case notADatabase(String)
        case damaged(String)
        case newerSchema([String])
        case notARosterStore
        case targetExists(String)
        /// A backup's destination is already there.
        case destinationExists(String)

        public var description: String {
            switch self {
            case .noSuchFile(let path): "no backup file at \(path)"
            case .notADatabase(let why): "the file is not a SQLite database: \(why)"
            case .damaged(let report): "the file failed SQLite's integrity check: \(report)"
            case .newerSchema(let names):
                "the file was written by a newer release (schema \(names.joined(separator: ", "))): upgrade first"
            case .notARosterStore: "the file is a SQLite database but not a Roster store"
            case .targetExists(let path):
                "\(path) already has a database: restore with --replace to overwrite it (stop its server first)"
            case .destinationExists(let path):
                "\(path) already exists (a file, a directory or a link): choose a new name"
            }
        }
    }

    /// What a checked backup holds.
    public struct Summary: Sendable, Equatable {
        public var tenants: [String]
        public var revisions: [String: UInt64]
        public var migrations: [String]
    }

    /// Writes a consistent copy of the store at `databasePath` to `destination` (which must not
    /// exist), while a server may be running on it. Blocking work runs on NIOThreadPool.
    ///
    /// The file is made first, empty, private (0600) and new: `O_CREAT|O_EXCL` refuses anything
    /// already there, a symbolic link included (a dangling one would otherwise be followed), and
    /// the copy is never readable by others while it is written. VACUUM INTO fills the empty file.
    public static func backup(databasePath: String, to destination: String) async throws {
        try await NIOThreadPool.singleton.runIfActive {
            let descriptor = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                if errno == EEXIST || errno == ELOOP { throw Failure.destinationExists(destination) }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            close(descriptor)
            do {
                var configuration = Configuration()
                configuration.readonly = true
                let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
                defer { try? queue.close() }
                // VACUUM INTO cannot run inside a transaction: on a plain connection.
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "VACUUM INTO ?", arguments: [destination])
                }
            } catch {
                unlink(destination)
                throw error
            }
        }
    }

    /// Checks a backup file without changing it: integrity, a known schema, the tenants in it.
    public static func check(_ path: String) async throws -> Summary {
        try await NIOThreadPool.singleton.runIfActive { try checkBlocking(path) }
    }

    package static func checkBlocking(_ path: String) throws -> Summary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw Failure.noSuchFile(path)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw Failure.notADatabase("\(error)")
        }
        defer { try? queue.close() }
        return try queue.read { db in
            let report: [String]
            do {
                report = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            } catch {
                throw Failure.notADatabase("\(error)")
            }
            guard report == ["ok"] else { throw Failure.damaged(report.prefix(5).joined(separator: "; ")) }
            guard try db.tableExists("grdb_migrations"), try db.tableExists("tenant") else {
                throw Failure.notARosterStore
            }
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            let known = Set(SQLiteRosterStore.migrator.migrations)
            let unknown = applied.filter { !known.contains($0) }
            guard unknown.isEmpty else { throw Failure.newerSchema(unknown) }
            var revisions: [String: UInt64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, revision FROM tenant ORDER BY id") {
                revisions[row["id"]] = UInt64(row["revision"] as Int64)
            }
            return Summary(tenants: revisions.keys.sorted(), revisions: revisions, migrations: applied)
        }
    }

    /// Checks `backup`, then makes it the store of `dataDirectory` with a new epoch for every
    /// tenant (migrated to this release's schema). Refuses to overwrite an existing database
    /// unless `replace`. Nothing in the directory changes if the check fails.
    @discardableResult
    public static func restore(from backup: String, into dataDirectory: DataDirectory, replace: Bool) async throws
        -> Summary
    {
        let summary = try await check(backup)
        if dataDirectory.hasDatabase && !replace { throw Failure.targetExists(dataDirectory.path) }
        try await NIOThreadPool.singleton.runIfActive {
            // Refused while a server runs on the directory: it would go on acknowledging changes
            // that the restored copy then loses.
            let lock = try DataDirectoryLock(dataDirectory)
            defer { lock.release() }
            let staging = dataDirectory.path + "/roster.sqlite.restoring"
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.copyItem(atPath: backup, toPath: staging)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: staging)
            // Migrate and re-epoch the copy, then swap it in: a crash before the rename leaves
            // the old store (or none) in place, never half a restore.
            let store = try SQLiteRosterStore(path: staging)
            try store.renewEpochsBlocking()
            try store.closeBlocking()
            for suffix in ["-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: dataDirectory.database + suffix)
            }
            guard rename(staging, dataDirectory.database) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: dataDirectory.database])
            }
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staging + suffix) }
            try PrivateFile.write(
                "restored from \(backup); remove with `roster-server deliveries resume`\n",
                to: dataDirectory.deliveriesPausedMarker)
        }
        return summary
    }
}
