import GRDB
import RosterTestSupport

extension ServerHarness {
    /// The running server's SQLite file, opened beside it as an operator's tool would be. The
    /// server writes on its own (planning rounds, the outbox), so this connection waits for the
    /// write lock (up to 30 s) rather than failing at once with "database is locked".
    func openStoreFile() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        return try DatabaseQueue(path: dataDirectory + "/roster.sqlite", configuration: configuration)
    }
}
