import NIOCore

/// A connection's subscriptions and the on-duty frames held back for them while the connection
/// is not writable. Confined to the connection's event loop, like its handler.
struct ConnectionSubscriptions {
    /// Few (at most `maxSubscriptions`), and usually one: a list, found by id.
    private var all = InlineFirstArray<Subscription>()
    /// The latest on-duty frame per subscription and schedule: on-duty is state, so only the
    /// newest of each schedule matters.
    private var heldOnDuty: [UInt64: [String: ByteBuffer]] = [:]

    mutating func add(_ subscription: Subscription) {
        all.append(subscription)
        subscription.tenant.metrics?.subscribed(
            onDuty: subscription.wantsOnDuty, roster: subscription.wantsRoster, by: 1)
    }

    /// Ends one subscription: it leaves its loop's fan-out and loses any held frame.
    mutating func remove(_ id: UInt64, on loop: any EventLoop) {
        if let index = all.firstIndex(where: { $0.id == id }) {
            let subscription = all.remove(at: index)
            subscription.tenant.fanout(on: loop).remove(subscription)
            subscription.tenant.metrics?.subscribed(
                onDuty: subscription.wantsOnDuty, roster: subscription.wantsRoster, by: -1)
        }
        heldOnDuty[id] = nil
    }

    mutating func removeAll(on loop: any EventLoop) {
        for id in all.map(\.id) { remove(id, on: loop) }
    }

    mutating func holdOnDuty(_ frame: ByteBuffer, for id: UInt64, schedule: String) {
        heldOnDuty[id, default: [:]][schedule] = frame
    }

    /// What to write once the connection drained: the held on-duty frames of `flush`, then a
    /// resync notice for each subscription in `ended`, which ends.
    mutating func drained(flush: Set<UInt64>, ended: Set<UInt64>, on loop: any EventLoop) -> [ByteBuffer] {
        var frames = flush.sorted().flatMap { id in (heldOnDuty[id] ?? [:]).sorted { $0.key < $1.key }.map(\.value) }
        heldOnDuty.removeAll()
        for id in ended.sorted() {
            remove(id, on: loop)
            frames.append(ConnectionReplies.slowConsumerResync(subscriptionID: id).encoded())
        }
        return frames
    }
}
