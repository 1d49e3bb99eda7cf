import NIOCore
import RosterProtocol

/// The subscribers of one tenant on one event loop. Touched only on that loop: a push costs one
/// hop per loop, then a plain loop over subscribers writing a shared buffer, then one flush per
/// connection. No task or allocation per subscriber on that path.
final class LoopFanout: @unchecked Sendable {
    let loop: any EventLoop
    let tenantID: String
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]

    init(loop: any EventLoop, tenantID: String) {
        self.loop = loop
        self.tenantID = tenantID
    }

    var count: Int {
        loop.preconditionInEventLoop()
        return subscriptions.count
    }

    func add(_ subscription: Subscription) {
        loop.preconditionInEventLoop()
        subscriptions[ObjectIdentifier(subscription)] = subscription
    }

    func remove(_ subscription: Subscription) {
        loop.preconditionInEventLoop()
        subscriptions[ObjectIdentifier(subscription)] = nil
    }

    func deliver(_ push: RosterPush) {
        fanOut(topic: .roster, shared: push.sharedFrame, isNew: { subscription in
            guard push.entry.revision > subscription.floorRevision else { return false }
            subscription.floorRevision = push.entry.revision
            return true
        }, filtered: { filter in
            PushEncoding.rosterChanged(push, filter: filter).map { PushEncoding.frame(.rosterChanged($0)) }
        }, write: { connection, frame, subscription, touched in
            connection.pushRoster(frame, for: subscription, touched: &touched)
        })
    }

    func deliver(_ push: OnDutyPush) {
        fanOut(topic: .onDuty, shared: push.sharedFrame, isNew: { subscription in
            guard push.sequence > subscription.onDutyFloor else { return false }
            subscription.onDutyFloor = push.sequence
            return true
        }, filtered: { filter in
            PushEncoding.onDutyChanged(push, filter: filter).map { PushEncoding.frame(.onDutyChanged($0)) }
        }, write: { connection, frame, subscription, touched in
            connection.pushOnDuty(frame, for: subscription, touched: &touched)
        })
    }

    /// The push loop: for every subscription to `topic` that has not seen this event, write the
    /// shared frame (or its filter's frame, built at most once per filter on this loop), then
    /// flush each connection once.
    private func fanOut(
        topic: Roster_V1_Topic, shared: ByteBuffer?, isNew: (Subscription) -> Bool,
        filtered: (Roster_V1_SubscriptionFilter) -> ByteBuffer?,
        write: (ConnectionHandler, ByteBuffer, Subscription, inout [ConnectionHandler]) -> Void
    ) {
        loop.preconditionInEventLoop()
        var framesByFilter: [Roster_V1_SubscriptionFilter: ByteBuffer?] = [:]
        var touched: [ConnectionHandler] = []
        for subscription in subscriptions.values where subscription.topics.contains(topic) && isNew(subscription) {
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
            write(subscription.connection, frame, subscription, &touched)
        }
        for connection in touched { connection.flushPushes() }
    }

    /// Sends a Progress bookmark to every subscription that has been sent nothing for `interval`.
    func sendProgress(epoch: UInt64, revision: UInt64, idleFor interval: TimeAmount) {
        loop.preconditionInEventLoop()
        let now = NIODeadline.now()
        var frames: [Roster_V1_SubscriptionFilter: ByteBuffer] = [:]
        var touched: [ConnectionHandler] = []
        for subscription in subscriptions.values where now - subscription.lastSentAt >= interval {
            let frame = frames[subscription.filter] ?? PushEncoding.frame(.progress(.with {
                $0.epoch = epoch
                $0.revision = max(revision, subscription.floorRevision)
                $0.filter = subscription.filter
            }))
            frames[subscription.filter] = frame
            subscription.connection.pushProgress(frame, for: subscription, touched: &touched)
        }
        for connection in touched { connection.flushPushes() }
    }
}

/// One subscription of one connection. Lives on the connection's event loop.
final class Subscription {
    let id: UInt64
    let topics: Set<Roster_V1_Topic>
    let filter: Roster_V1_SubscriptionFilter
    unowned let connection: ConnectionHandler
    let tenant: TenantRuntime
    /// The newest revision this subscription has been given (or covered by its snapshot).
    var floorRevision: UInt64 = 0
    /// The newest on-duty sequence it has been given.
    var onDutyFloor: UInt64 = 0
    var lastSentAt = NIODeadline.now()

    init(id: UInt64, topics: Set<Roster_V1_Topic>, filter: Roster_V1_SubscriptionFilter, connection: ConnectionHandler,
         tenant: TenantRuntime) {
        self.id = id
        self.topics = topics
        self.filter = filter
        self.connection = connection
        self.tenant = tenant
    }
}
