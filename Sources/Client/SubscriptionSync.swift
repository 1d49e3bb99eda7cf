import Foundation
import RosterDomain
import RosterProtocol

/// How a client keeps its copy of a tenant in step with the server (docs/PROTOCOL.md §7), as a
/// value: it takes what arrives and returns what to do; `RosterClient` performs the actions
/// (send, save, emit) and owns no rule of its own. Tested without sockets.
///
/// The rules:
/// - subscribe resuming from the applied revision when there is a copy, else for a snapshot;
/// - apply each revision once: drop revisions at or below the applied one; a gap, another
///   epoch or a bookmark ahead of the copy means resync (a fresh snapshot), said first;
/// - RESYNC_REQUIRED that ends one live subscription (slow consumer) resumes; one without a
///   subscription id (the history is gone, or the store was recreated) resyncs;
/// - only the current subscription's Snapshot and Synced count; a subscription replaced by a
///   resync is unsubscribed;
/// - the copy is saved when whole (at Synced) and after each live revision;
/// - OnDutyChanged is applied once per server process (by sequence; INITIAL always);
/// - a refusal of the subscription, or an error that ends the session for good, stops with
///   the server's reason; GoingAway says how long to wait before reconnecting.
public struct SubscriptionSync: Sendable {
    /// What the client does next, in order.
    public enum Action: Sendable {
        /// Send this Subscribe, then report its request id with `subscribing(requestID:)`.
        case subscribe(Roster_V1_SubscribeRequest)
        case unsubscribe(subscriptionID: UInt64)
        /// Write the copy to the cache file.
        case saveCache
        /// Tell the app (the client's `updates`).
        case emit(RosterUpdate)
        /// The copy is whole and follows the server.
        case live
        /// Wait at least this long before reconnecting.
        case delayReconnect(Duration)
        /// Close the connection and stop: the server refused for good.
        case fail(RosterClientError)
    }

    public let topics: [Roster_V1_Topic]
    /// Follow every schedule's on-duty set (true), or the default schedule's only.
    public let allSchedules: Bool
    /// The copy: loaded from the cache, then kept by the subscription.
    public private(set) var roster: CachedRoster?
    /// The latest on-duty state pushed for the default schedule.
    public var onDuty: OnDutyStatus? { onDutyBySchedule[ScheduleDefinition.defaultID] }
    /// The latest on-duty state pushed, per schedule id.
    public private(set) var onDutyBySchedule: [String: OnDutyStatus] = [:]
    /// Whether the copy is whole at its revision on the current connection.
    public private(set) var isSynced = false

    private var serverID = ""
    private var lastOnDutySequence: UInt64 = 0
    /// The request id of the current Subscribe, and its subscription once Subscribed.
    private var subscribeRequestID: UInt32?
    private var subscriptionID: UInt64?

    public init(roster: CachedRoster?, topics: [Roster_V1_Topic] = [.onDuty, .roster], allSchedules: Bool = false) {
        self.roster = roster
        self.topics = topics
        self.allSchedules = allSchedules
    }

    // MARK: Events

    /// A connection is up (after Welcome): subscribe.
    public mutating func connected(serverID: String) -> [Action] {
        if self.serverID != serverID {
            self.serverID = serverID
            lastOnDutySequence = 0  // sequences count per server process
        }
        subscriptionID = nil
        return [subscribe(resume: true)]
    }

    /// The Subscribe of the last `.subscribe` action went out with this request id.
    public mutating func subscribing(requestID: UInt32) {
        subscribeRequestID = requestID
    }

    /// The connection ended: the copy is kept, but no longer whole on a live stream.
    public mutating func disconnected() {
        isSynced = false
        subscribeRequestID = nil
    }

    /// Another copy replaces this one (the cache of another tenant, after a Welcome).
    public mutating func replaceCopy(with roster: CachedRoster?) {
        self.roster = roster
        isSynced = false
    }

    /// The server said (in its Welcome) that the copy is current: its data is as of `now`.
    public mutating func confirmedCurrent(at now: Date) {
        roster?.syncedAt = now
    }

    /// A snapshot fetched by a query. It is kept unless the copy holds a newer revision of the
    /// same epoch (a late answer never overwrites newer state); returns what the copy is now.
    public mutating func fetched(_ snapshot: CachedRoster) -> CachedRoster {
        if let roster, roster.epoch == snapshot.epoch, roster.revision > snapshot.revision { return roster }
        roster = snapshot
        return snapshot
    }

    /// Something arrived on the connection.
    public mutating func receive(_ inbound: InboundMessage, now: Date = Date()) -> [Action] {
        let current = inbound.requestID != 0 && inbound.requestID == subscribeRequestID
        switch inbound.message {
        case .subscribed(let subscribed) where current:
            defer { subscriptionID = subscribed.subscriptionID }
            if let previous = subscriptionID, previous != subscribed.subscriptionID {
                return [.unsubscribe(subscriptionID: previous)]
            }
            return []
        case .snapshot(let snapshot) where current:
            roster = CachedRoster(
                state: RosterState(snapshot), epoch: snapshot.epoch, revision: snapshot.revision,
                syncedAt: now)
            return []
        case .rosterChanged(let changed):
            return apply(changed, now: now)
        case .onDutyChanged(let changed):
            return applyOnDuty(changed)
        case .synced where current:
            isSynced = true
            roster?.syncedAt = now
            return [.saveCache] + (roster.map { [.emit(.synced($0))] } ?? []) + [.live]
        case .progress(let progress):
            guard let roster, progress.epoch == roster.epoch else { return [] }
            if progress.revision > roster.revision {
                return resync(reason: "a bookmark is ahead of the applied revision")
            }
            self.roster?.syncedAt = now
            return []
        case .error(let error) where error.code == .resyncRequired:
            // With a subscription id: a live subscription was ended (slow consumer) and can
            // resume. Without: the resume point is gone, so take a fresh snapshot.
            return error.subscriptionID != 0 ? [subscribe(resume: true)] : resync(reason: error.message)
        case .error(let error) where current || (inbound.requestID == 0 && RosterClientError.server(error).isPermanent):
            // The subscription was refused, or the session ended for good ("the token was
            // revoked"): say why instead of reconnecting into a refusal.
            return [.fail(.server(error))]
        case .goingAway(let goingAway):
            let delay = Duration.milliseconds(Int64(goingAway.retryAfterMs))
            return [.delayReconnect(delay), .emit(.goingAway(reason: goingAway.reason, retryAfter: delay))]
        default:
            return []
        }
    }

    // MARK: Rules

    private mutating func subscribe(resume: Bool) -> Action {
        isSynced = false
        subscribeRequestID = nil
        return .subscribe(
            .with {
                $0.topics = topics
                $0.allSchedules = allSchedules
                if resume, let roster {
                    $0.sinceRevision = roster.revision
                    $0.epoch = roster.epoch
                }
            })
    }

    private mutating func resync(reason: String) -> [Action] {
        [.emit(.resyncing(reason: reason)), subscribe(resume: false)]
    }

    /// Applies a revision once; a gap or another epoch resyncs.
    private mutating func apply(_ changed: Roster_V1_RosterChanged, now: Date) -> [Action] {
        guard var roster, changed.epoch == roster.epoch else {
            return resync(reason: "revision \(changed.revision) is of another epoch or there is no copy")
        }
        if changed.revision <= roster.revision { return [] }  // applied already: drop
        guard changed.revision == roster.revision + 1 else {
            return resync(reason: "revision \(changed.revision) arrived out of order")
        }
        let changes = changed.changes.compactMap(RosterChange.init)
        roster.state.apply(changes)
        roster.revision = changed.revision
        roster.syncedAt = now
        self.roster = roster
        return (isSynced ? [.saveCache] : []) + [.emit(.rosterChanged(revision: changed.revision, changes: changes))]
    }

    private mutating func applyOnDuty(_ changed: Roster_V1_OnDutyChanged) -> [Action] {
        if changed.cause != .initial {
            guard changed.sequence > lastOnDutySequence else { return [] }  // seen already
        }
        lastOnDutySequence = max(lastOnDutySequence, changed.sequence)
        let status = OnDutyStatus(changed)
        if status.current.isEmpty && status.cause != .initial && roster?.state.schedules[status.scheduleID] == nil
            && status.scheduleID != ScheduleDefinition.defaultID
        {
            onDutyBySchedule[status.scheduleID] = nil  // the schedule was deleted
        } else {
            onDutyBySchedule[status.scheduleID] = status
        }
        return [.emit(.onDutyChanged(status))]
    }
}
