import NIOCore
import RosterDomain
import RosterStore

/// A notice on its way to NOTICES subscribers.
struct NoticePush: Sendable {
    var notice: PublishedNotice
    var epoch: UInt64
    var sharedFrame: ByteBuffer?
}

/// A committed revision on its way to subscribers.
struct RosterPush: Sendable {
    var entry: HistoryEntry
    var epoch: UInt64
    var previous: RosterState
    var current: RosterState
    /// The unfiltered frame, encoded once for every subscriber on every loop.
    var sharedFrame: ByteBuffer?
}

/// An on-duty transition (or the initial state for a new subscriber).
struct OnDutyPush: Sendable {
    var sequence: UInt64
    var epoch: UInt64
    var revision: UInt64
    var scheduleID: String
    var scheduleName: String
    var previous: OnDutyLookup?
    var current: OnDutyLookup
    var cause: OnDutyCause
    var state: RosterState
    /// The unfiltered frame, encoded once for every subscriber on every loop.
    var sharedFrame: ByteBuffer?
}
