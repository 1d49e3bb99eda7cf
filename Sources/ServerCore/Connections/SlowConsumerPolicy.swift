/// What a push sink does with a push while its connection cannot take more, and once it drains:
/// the one slow-consumer rule of the protocol connection (`ConnectionStateMachine`) and the
/// `/v1/events` stream (docs/RELIABILITY.md, "Slow consumers"). On-duty is state, so only the
/// newest frame per schedule is kept and written on draining; a roster change cannot be
/// coalesced, so the subscription is told to resync once drained (RESYNC_REQUIRED on the
/// protocol, a `resync` event on a stream), and gets nothing more of its roster until then.
/// Nothing else is queued for a connection that does not read: what it may hold is its
/// outbound cap plus one frame per schedule. Each sink closes a connection that stays stalled
/// past its own deadline.
package struct SlowConsumerPolicy {
    package enum Decision: Equatable {
        /// Write it now.
        case write
        /// Not delivered and not to be (the subscription awaits its resync).
        case drop
        /// Keep it as the latest of its schedule, for when the connection drains.
        case coalesce
        /// Nothing now; once drained, the subscription resyncs.
        case resyncWhenDrained
    }

    /// Subscriptions whose roster stream resyncs when the connection drains.
    private(set) var awaitingResync = Set<UInt64>()
    /// Subscriptions with an on-duty frame held back.
    private(set) var coalesced = Set<UInt64>()

    package init() {}

    /// What to do with a push of `kind` for subscription `id`, given whether the connection is
    /// writable. A notice is a revision of its own stream (it resumes from its last sequence)
    /// and follows the roster's rule; progress is dropped while anything is owed.
    package mutating func push(_ kind: ConnectionStateMachine.PushKind, to id: UInt64, writable: Bool) -> Decision {
        switch kind {
        case .roster, .notice:
            if !awaitingResync.isEmpty, awaitingResync.contains(id) { return .drop }
            guard writable else {
                awaitingResync.insert(id)
                return .resyncWhenDrained
            }
            return .write
        case .onDuty, .escalation:
            // State: the newest frame per schedule (or policy) replaces the one held.
            guard writable else {
                coalesced.insert(id)
                return .coalesce
            }
            return .write
        case .progress:
            return writable && (awaitingResync.isEmpty || !awaitingResync.contains(id)) ? .write : .drop
        }
    }

    /// A subscription that ended owes and holds nothing.
    package mutating func forget(_ id: UInt64) {
        awaitingResync.remove(id)
        coalesced.remove(id)
    }

    /// The connection drained: the subscriptions whose held on-duty frames to write, and those
    /// to resync; both start afresh.
    package mutating func drained() -> (flushCoalesced: Set<UInt64>, resync: Set<UInt64>) {
        defer {
            coalesced.removeAll()
            awaitingResync.removeAll()
        }
        return (coalesced, awaitingResync)
    }
}
