import NIOCore
import RosterProtocol

/// The subscribers of one tenant on one event loop. Touched only on that loop: a push costs one
/// hop per loop, then a plain loop over subscribers writing a shared buffer, then one flush per
/// connection. No task or allocation per subscriber on that path.
final class LoopFanout: Sendable {
    let loop: any EventLoop
    let tenantID: String
    /// Bound to `loop`: reading or changing it elsewhere traps.
    private let subscriptions: NIOLoopBoundBox<[ObjectIdentifier: Subscription]>

    init(loop: any EventLoop, tenantID: String) {
        self.loop = loop
        self.tenantID = tenantID
        subscriptions = .makeBoxSendingValue([:], eventLoop: loop)
    }

    var count: Int { subscriptions.value.count }

    func add(_ subscription: Subscription) {
        subscriptions.value[ObjectIdentifier(subscription)] = subscription
    }

    func remove(_ subscription: Subscription) {
        subscriptions.value[ObjectIdentifier(subscription)] = nil
    }

    func deliver(_ push: RosterPush) {
        fanOut(topic: .roster, kind: .roster, shared: push.sharedFrame, isNew: { subscription in
            guard push.entry.revision > subscription.floorRevision else { return false }
            subscription.floorRevision = push.entry.revision
            return true
        }, filtered: { filter in
            PushEncoding.rosterChanged(push, filter: filter).map { PushEncoding.frame(.rosterChanged($0)) }
        })
    }

    func deliver(_ push: OnDutyPush) {
        fanOut(topic: .onDuty, kind: .onDuty, shared: push.sharedFrame, isNew: { subscription in
            guard push.sequence > subscription.onDutyFloor else { return false }
            subscription.onDutyFloor = push.sequence
            return true
        }, filtered: { filter in
            PushEncoding.onDutyChanged(push, filter: filter).map { PushEncoding.frame(.onDutyChanged($0)) }
        })
    }

    /// The push loop: for every subscription to `topic` that has not seen this event, hand the
    /// shared frame (or its filter's frame, built at most once per filter on this loop) to its
    /// connection, then flush each connection that wrote, once. The list of connections to
    /// flush is this loop's own; nothing is handed back and forth.
    private func fanOut(
        topic: Roster_V1_Topic, kind: ConnectionStateMachine.PushKind, shared: ByteBuffer?, isNew: (Subscription) -> Bool,
        filtered: (Roster_V1_SubscriptionFilter) -> ByteBuffer?
    ) {
        var framesByFilter: [Roster_V1_SubscriptionFilter: ByteBuffer?] = [:]
        var toFlush: [ConnectionHandler] = []
        for subscription in subscriptions.value.values where subscription.topics.contains(topic) && isNew(subscription) {
            let frame: ByteBuffer?
            if subscription.filter.isEmpty {
                frame = shared
            } else if let cached = framesByFilter[subscription.filter] {
                frame = cached
            } else {
                frame = filtered(subscription.filter)
                framesByFilter[subscription.filter] = frame
            }
            guard let frame else { continue }
            if subscription.connection.push(kind, frame, for: subscription) { toFlush.append(subscription.connection) }
        }
        for connection in toFlush { connection.flushPushes() }
    }

    /// Sends a Progress bookmark to every subscription that has been sent nothing for `interval`.
    func sendProgress(epoch: UInt64, revision: UInt64, idleFor interval: TimeAmount) {
        let now = NIODeadline.now()
        var frames: [Roster_V1_SubscriptionFilter: ByteBuffer] = [:]
        var toFlush: [ConnectionHandler] = []
        for subscription in subscriptions.value.values where now - subscription.lastSentAt >= interval {
            let frame = frames[subscription.filter] ?? PushEncoding.frame(.progress(.with {
                $0.epoch = epoch
                $0.revision = max(revision, subscription.floorRevision)
                $0.filter = subscription.filter
            }))
            frames[subscription.filter] = frame
            if subscription.connection.push(.progress, frame, for: subscription) { toFlush.append(subscription.connection) }
        }
        for connection in toFlush { connection.flushPushes() }
    }
}

/// One subscription of one connection. Lives on the connection's event loop.
final class Subscription {
    let id: UInt64
    let topics: Set<Roster_V1_Topic>
    let filter: Roster_V1_SubscriptionFilter
    unowned let connection: ConnectionHandler
    let tenant: TenantRuntime
    /// The newest revision this subscription has been given (or covered by its snapshot); only
    /// this loop's fan-out moves it.
    var floorRevision: UInt64
    /// The newest on-duty sequence it has been given.
    var onDutyFloor: UInt64
    /// When its connection last wrote to it (for Progress bookmarks); only the connection sets it.
    var lastSentAt = NIODeadline.now()

    /// Made by `TenantRuntime.subscribe`, starting from the tenant's revision and on-duty
    /// sequence at that moment.
    init(id: UInt64, topics: Set<Roster_V1_Topic>, filter: Roster_V1_SubscriptionFilter, connection: ConnectionHandler,
         tenant: TenantRuntime, floorRevision: UInt64, onDutyFloor: UInt64) {
        self.id = id
        self.topics = topics
        self.filter = filter
        self.connection = connection
        self.tenant = tenant
        self.floorRevision = floorRevision
        self.onDutyFloor = onDutyFloor
    }
}
