import NIOCore
import RosterDomain
import RosterProtocol
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

/// An escalation answer for now on its way to ESCALATION subscribers (docs/ESCALATION.md).
struct EscalationPush: Sendable {
    var policyID: String
    /// The services that page through the policy now.
    var serviceIDs: Set<String>
    var message: Roster_V1_EscalationChanged
    /// Encoded once for every subscriber on every loop (no filter applies to it).
    var sharedFrame: ByteBuffer
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
