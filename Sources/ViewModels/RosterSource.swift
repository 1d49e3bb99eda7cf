import Foundation
import RosterClient
import RosterDomain

/// What the view models need from a Roster client. `RosterClient` is one; tests feed updates
/// through their own, without a socket.
public protocol RosterSource: Sendable {
    /// The client's updates, in order; the screen model is their one consumer.
    var updates: AsyncStream<RosterUpdate> { get }
    /// "host:port", for messages.
    var serverName: String { get }
    /// The roster from the cache on disk (at launch) or as last applied.
    func currentRoster() async -> CachedRoster?
    /// Starts connecting and following the server.
    func start() async
    func stop() async
    /// Asks the server for the whole roster now and returns it (pull-to-refresh).
    func refresh() async throws -> CachedRoster
}

extension RosterClient: RosterSource {
    public nonisolated var serverName: String { configuration.serverName }
    public func currentRoster() async -> CachedRoster? { await roster }
    public func refresh() async throws -> CachedRoster { try await refreshCache() }
}
