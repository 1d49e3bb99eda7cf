import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// The subscribers of one tenant on one event loop. Touched only on that loop: a push costs one
/// hop per loop, then a plain loop over subscribers writing a shared buffer, then one flush per
/// connection. No task or allocation per subscriber on that path.
package final class LoopFanout: Sendable {
    let loop: any EventLoop
    let tenantID: String
    /// The server's clock, read once per push for credential expiry.
    private let clock: any ServerClock
    /// Bound to `loop`: reading or changing it elsewhere traps. An array, walked on every push
    /// (cheaper than a dictionary's values); each subscription knows its index for removal.
    private let subscriptions: NIOLoopBoundBox<ContiguousArray<Subscription>>

    private let metrics: ServerMetrics?

    init(loop: any EventLoop, tenantID: String, clock: any ServerClock, metrics: ServerMetrics? = nil) {
        self.loop = loop
        self.tenantID = tenantID
        self.clock = clock
        self.metrics = metrics
        subscriptions = .makeBoxSendingValue([], eventLoop: loop)
    }

    var count: Int { subscriptions.value.count }

    func add(_ subscription: Subscription) {
        guard subscription.fanoutIndex == nil else { return }
        subscription.fanoutIndex = subscriptions.value.count
        subscriptions.value.append(subscription)
    }

    /// Swaps the last subscription into the removed one's place.
    package func remove(_ subscription: Subscription) {
        guard let index = subscription.fanoutIndex else { return }
        subscription.fanoutIndex = nil
        let last = subscriptions.value.removeLast()
        if last !== subscription {
            subscriptions.value[index] = last
            last.fanoutIndex = index
        }
    }

    func deliver(_ push: RosterPush) {
        fanOut(
            kind: .roster, shared: push.sharedFrame,
            isNew: { subscription in
                guard push.entry.revision > subscription.floorRevision else { return false }
                subscription.floorRevision = push.entry.revision
                return true
            },
            filtered: { filter in
                PushEncoding.rosterChanged(push, filter: filter).map { PushEncoding.frame(.rosterChanged($0)) }
            })
    }

    func deliver(_ push: OnDutyPush) {
        fanOut(
            kind: .onDuty, heldKey: push.scheduleID, shared: push.sharedFrame,
            isNew: { subscription in
                guard subscription.schedules.includes(push.scheduleID), push.sequence > subscription.onDutyFloor else {
                    return false
                }
                subscription.onDutyFloor = push.sequence
                return true
            },
            filtered: { filter in
                PushEncoding.onDutyChanged(push, filter: filter).map { PushEncoding.frame(.onDutyChanged($0)) }
            })
    }

    func deliver(_ push: EscalationPush) {
        fanOut(
            kind: .escalation, heldKey: "escalation:" + push.policyID, shared: push.sharedFrame,
            isNew: { subscription in
                guard subscription.follows(push), push.message.sequence > subscription.escalationFloor else {
                    return false
                }
                subscription.escalationFloor = push.message.sequence
                return true
            }, filtered: { _ in push.sharedFrame })  // team/position filters are for the directory
    }

    func deliver(_ push: NoticePush) {
        fanOut(
            kind: .notice, shared: push.sharedFrame,
            isNew: { subscription in
                guard push.notice.sequence > subscription.noticeFloor, subscription.admits(push.notice.event) else {
                    return false
                }
                subscription.noticeFloor = push.notice.sequence
                return true
            }, filtered: { _ in push.sharedFrame })  // team/position filters are for the directory, not notices
    }

    /// The push loop: for every subscription to the topic of `kind` that has not seen this
    /// event, hand the shared frame (or its filter's frame, built at most once per filter on
    /// this loop) to its connection, then flush each connection that wrote, once. The list of
    /// connections to flush is this loop's own; nothing is handed back and forth. The clock is
    /// read once per push, not per subscriber.
    private func fanOut(
        kind: ConnectionStateMachine.PushKind, heldKey: String = "", shared: ByteBuffer?, isNew: (Subscription) -> Bool,
        filtered: (Roster_V1_SubscriptionFilter) -> ByteBuffer?
    ) {
        var framesByFilter: [Roster_V1_SubscriptionFilter: ByteBuffer?] = [:]
        var toFlush: [any PushSink] = []
        var handed = 0
        let now = PushInstant(wall: clock.now())
        for subscription in subscriptions.value where subscription.wants(kind) && isNew(subscription) {
            let frame: ByteBuffer?
            if !subscription.isFiltered {
                frame = shared
            } else if let cached = framesByFilter[subscription.filter] {
                frame = cached
            } else {
                frame = filtered(subscription.filter)
                framesByFilter[subscription.filter] = frame
            }
            guard let frame else { continue }
            handed += 1
            hand(kind, frame, to: subscription, at: now, heldKey: heldKey, toFlush: &toFlush)
        }
        for connection in toFlush { connection.flushPushes() }
        metrics?.pushed(kind, count: handed)
    }

    /// Sends a Progress bookmark to every subscription that has been sent nothing for `interval`.
    func sendProgress(epoch: UInt64, revision: UInt64, idleFor interval: TimeAmount) {
        let now = PushInstant(wall: clock.now())
        var frames: [Roster_V1_SubscriptionFilter: ByteBuffer] = [:]
        var toFlush: [any PushSink] = []
        var handed = 0
        for subscription in subscriptions.value where now.monotonic - subscription.lastSentAt >= interval {
            let frame =
                frames[subscription.filter]
                ?? PushEncoding.frame(
                    .progress(
                        .with {
                            $0.epoch = epoch
                            $0.revision = max(revision, subscription.floorRevision)
                            $0.filter = subscription.filter
                        }))
            frames[subscription.filter] = frame
            handed += 1
            hand(.progress, frame, to: subscription, at: now, heldKey: "", toFlush: &toFlush)
        }
        for connection in toFlush { connection.flushPushes() }
        metrics?.pushed(.progress, count: handed)
    }

    /// Hands one frame to a subscription's sink and keeps the subscription's bookkeeping.
    @inline(__always)
    private func hand(
        _ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, to subscription: Subscription,
        at now: PushInstant, heldKey: String, toFlush: inout [any PushSink]
    ) {
        switch subscription.connection.push(kind, frame, subscription: subscription.id, at: now, heldKey: heldKey) {
        case .sent, .written:
            subscription.lastSentAt = now.monotonic
        case .writtenFlushLater:
            subscription.lastSentAt = now.monotonic
            toFlush.append(subscription.connection)
        case .notSent:
            break
        }
    }
}

/// What the fan-out hands frames to: a connection, seen only through this (ConnectionHandler
/// adopts it). Called on the sink's event loop. The sink decides, per frame, whether it goes out
/// now, later (held while the connection is not writable) or not at all; the fan-out alone
/// keeps each subscription's bookkeeping.
package protocol PushSink: AnyObject {
    /// The loop it lives on; its subscriptions join that loop's fan-out.
    var eventLoop: any EventLoop { get }
    /// Writes or holds back one pushed frame for subscription `id`. `heldKey` names what a
    /// held frame replaces (one on-duty frame per schedule).
    func push(
        _ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, subscription id: UInt64, at instant: PushInstant,
        heldKey: String
    ) -> PushOutcome
    /// Flushes what `push` wrote and answered `.writtenFlushLater` for.
    func flushPushes()
}

/// What a sink did with a pushed frame.
package enum PushOutcome {
    /// Written and flushed.
    case sent
    /// Written, the first frame of this fan-out to need a flush: the fan-out calls `flushPushes`
    /// once, after every subscriber on the loop was written.
    case writtenFlushLater
    /// Written; a flush is already due for this sink.
    case written
    /// Held back (not writable), refused (credential expired) or dropped.
    case notSent
}

/// The instant of one push, read once for all its subscribers: wall clock (credential expiry)
/// and monotonic (when each subscription was last sent something).
package struct PushInstant {
    var wall: UnixMillis
    var monotonic: NIODeadline

    init(wall: UnixMillis, monotonic: NIODeadline = .now()) {
        self.wall = wall
        self.monotonic = monotonic
    }
}

/// One subscription of one connection. Lives on the connection's event loop; after it is made,
/// only its loop's fan-out (`LoopFanout`) changes it.
package final class Subscription {
    let id: UInt64
    let filter: Roster_V1_SubscriptionFilter
    /// The schedules whose on-duty sets it follows.
    let schedules: TenantRuntime.ScheduleSelection
    /// Its topics, decided once and read on every push.
    let wantsRoster: Bool
    let wantsOnDuty: Bool
    let wantsNotices: Bool
    let wantsEscalation: Bool
    /// ESCALATION: the policies it follows directly, and the services whose policy it follows.
    let escalationPolicies: Set<String>
    let escalationServices: Set<String>
    /// The newest escalation sequence it has been given.
    var escalationFloor: UInt64 = 0
    /// NOTICES: the people whose notices it gets; empty: those of its schedules.
    let noticePeople: Set<String>
    let isFiltered: Bool
    /// Where it sits in its loop's fan-out; nil when not in it.
    var fanoutIndex: Int?
    /// Where its frames go. Strong, so that the push path reads it without an unowned
    /// reference's check and retain. The cycle with the connection's list of subscriptions is
    /// broken when the connection ends them (channelInactive, or handlerRemoved at the latest).
    let connection: any PushSink
    let tenant: TenantRuntime
    /// The newest revision this subscription has been given (or covered by its snapshot); only
    /// this loop's fan-out moves it.
    var floorRevision: UInt64
    /// The newest on-duty sequence it has been given.
    var onDutyFloor: UInt64
    /// The newest notice sequence it has been given (or replayed).
    var noticeFloor: UInt64 = 0
    /// When a frame last went out for it (for Progress bookmarks): made with its initial sync,
    /// then moved only by this loop's fan-out.
    var lastSentAt = NIODeadline.now()

    func wants(_ kind: ConnectionStateMachine.PushKind) -> Bool {
        switch kind {
        case .roster: wantsRoster
        case .onDuty: wantsOnDuty
        case .notice: wantsNotices
        case .escalation: wantsEscalation
        case .progress: true
        }
    }

    /// Whether an escalation push is for it: its policy, or a service it follows.
    func follows(_ push: EscalationPush) -> Bool {
        escalationPolicies.contains(push.policyID) || !escalationServices.isDisjoint(with: push.serviceIDs)
    }

    /// Whether a notice is for it: one of its people, or else one of its schedules.
    func admits(_ event: NotificationEvent) -> Bool {
        if !noticePeople.isEmpty { return !noticePeople.isDisjoint(with: event.people) }
        return event.scheduleIDs.contains { schedules.includes($0) }
    }

    /// Made by `TenantRuntime.subscribe`, starting from the tenant's revision and on-duty
    /// sequence at that moment.
    init(
        id: UInt64, topics: Set<Roster_V1_Topic>, filter: Roster_V1_SubscriptionFilter,
        schedules: TenantRuntime.ScheduleSelection, connection: any PushSink,
        tenant: TenantRuntime, floorRevision: UInt64, onDutyFloor: UInt64, noticePeople: Set<String> = [],
        noticeFloor: UInt64 = 0, escalationPolicies: Set<String> = [], escalationServices: Set<String> = [],
        escalationFloor: UInt64 = 0
    ) {
        self.id = id
        self.filter = filter
        self.schedules = schedules
        wantsRoster = topics.contains(.roster)
        wantsOnDuty = topics.contains(.onDuty)
        wantsNotices = topics.contains(.notices)
        wantsEscalation = topics.contains(.escalation)
        (self.escalationPolicies, self.escalationServices) = (escalationPolicies, escalationServices)
        self.escalationFloor = escalationFloor
        self.noticePeople = noticePeople
        self.noticeFloor = noticeFloor
        isFiltered = !filter.isEmpty
        self.connection = connection
        self.tenant = tenant
        self.floorRevision = floorRevision
        self.onDutyFloor = onDutyFloor
    }
}
