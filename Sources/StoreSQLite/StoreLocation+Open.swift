import Foundation
import NIOPosix
import RosterStore

extension StoreLocation {
    /// Opens the store, migrating its schema to this build's; refuses a schema newer than it.
    /// SQLite is this target's; PostgreSQL needs a driver in `drivers` (`StoreDrivers.withPostgreSQL`,
    /// from RosterStorePostgres).
    public func open(with drivers: StoreDrivers = StoreDrivers()) async throws -> any RosterStore {
        switch self {
        case .sqlite(let path):
            let directory = (path as NSString).deletingLastPathComponent
            return try await NIOThreadPool.singleton.runIfActive {
                if !directory.isEmpty { try DataDirectory(directory).create() }
                return try SQLiteRosterStore(path: path)
            }
        case .postgres(let address):
            guard let open = drivers.postgres else {
                throw StoreLocationError.invalid(
                    description, "this build has no PostgreSQL driver (link RosterStorePostgres)")
            }
            return try await open(address)
        }
    }
}
