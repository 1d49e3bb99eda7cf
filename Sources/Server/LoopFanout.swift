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
        loop.preconditionInEventLoop()
        var filtered: [Roster_V1_SubscriptionFilter: ByteBuffer?] = [:]
        var touched: [ConnectionHandler] = []
        for subscription in subscriptions.values
        where subscription.topics.contains(.roster) && push.entry.revision > subscription.floorRevision {
            subscription.floorRevision = push.entry.revision
            let frame: ByteBuffer?
            if subscription.filter.isEmpty {
                frame = push.sharedFrame
            } else if let cached = filtered[subscription.filter] {
                frame = cached
            } else {
                frame = PushEncoding.rosterChanged(push, filter: subscription.filter).map { PushEncoding.frame(.rosterChanged($0)) }
                filtered[subscription.filter] = frame
            }
            guard let frame else { continue }
            subscription.connection.pushRoster(frame, for: subscription, touched: &touched)
        }
        for connection in touched { connection.flushPushes() }
    }

    func deliver(_ push: OnDutyPush) {
        loop.preconditionInEventLoop()
        var filtered: [Roster_V1_SubscriptionFilter: ByteBuffer?] = [:]
        var touched: [ConnectionHandler] = []
        for subscription in subscriptions.values
        where subscription.topics.contains(.onDuty) && push.sequence > subscription.onDutyFloor {
            subscription.onDutyFloor = push.sequence
            let frame: ByteBuffer?
            if subscription.filter.isEmpty {
                frame = push.sharedFrame
            } else if let cached = filtered[subscription.filter] {
                frame = cached
            } else {
                frame = PushEncoding.onDutyChanged(push, filter: subscription.filter).map { PushEncoding.frame(.onDutyChanged($0)) }
                filtered[subscription.filter] = frame
            }
            guard let frame else { continue }
            subscription.connection.pushOnDuty(frame, for: subscription, touched: &touched)
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
    /// Set when roster events had to be dropped for a slow consumer: the subscription is ended
    /// with RESYNC_REQUIRED once the connection drains, and the client resumes from its revision.
    var needsResync = false

    init(id: UInt64, topics: Set<Roster_V1_Topic>, filter: Roster_V1_SubscriptionFilter, connection: ConnectionHandler,
         tenant: TenantRuntime) {
        self.id = id
        self.topics = topics
        self.filter = filter
        self.connection = connection
        self.tenant = tenant
    }
}
