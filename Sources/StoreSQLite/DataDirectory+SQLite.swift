import NIOPosix
import RosterStore

extension DataDirectory {
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
