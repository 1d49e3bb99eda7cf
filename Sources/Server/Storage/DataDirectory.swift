import Foundation
import NIOPosix
import RosterDomain

/// The server's data directory: the database, the initial admin token and the generated TLS
/// files. The directory is mode 0700 and every file the server writes in it 0600, so other
/// users of the host can read neither the plan nor a secret.
public struct DataDirectory: Sendable, Hashable {
    public let path: String

    public init(_ path: String) { self.path = path }

    public var database: String { path + "/roster.sqlite" }
    public var adminToken: String { path + "/admin.token" }
    public var tls: String { path + "/tls" }
    /// The key webhook secrets are sealed with (`SecretSealer`).
    public var secretsKey: String { path + "/secrets.key" }

    /// Whether a database has been created here (by a server that started on it).
    public var hasDatabase: Bool { FileManager.default.fileExists(atPath: database) }

    /// Creates the directory if it does not exist, and makes it 0700 either way.
    public func create() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }

    /// Creates the directory if needed and opens (or creates) its database, off the caller's
    /// thread: both are blocking file work.
    public func openStore() async throws -> SQLiteRosterStore {
        try await NIOThreadPool.singleton.runIfActive {
            try create()
            return try SQLiteRosterStore(path: database)
        }
    }

    /// Opens the database of a directory a server has already run on; an error, creating
    /// nothing, when there is none (a mistyped --data-dir).
    public func openExistingStore() async throws -> SQLiteRosterStore {
        guard hasDatabase else { throw DataDirectoryError.noDatabase(path) }
        return try await NIOThreadPool.singleton.runIfActive { try SQLiteRosterStore(path: database) }
    }
}

public enum DataDirectoryError: Error, CustomStringConvertible {
    case noDatabase(String)

    public var description: String {
        switch self {
        case .noDatabase(let path):
            return "no Roster database in \(path) (check --data-dir; a server creates it at first start)"
        }
    }
}

/// Files the server writes (every one mode 0600). Blocking: call from a thread of its own
/// (NIOThreadPool), never from an async function directly.
enum PrivateFile {
    static func write(_ text: String, to path: String) throws {
        try AtomicFile.write(text, to: path, mode: 0o600)
    }

    /// Creates an empty file with `mode` unless it exists (SQLite then gives its -wal and -shm
    /// files the same mode).
    static func createEmpty(_ path: String, mode: mode_t = 0o600) throws {
        let descriptor = open(path, O_CREAT | O_WRONLY, mode)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        close(descriptor)
    }
}
