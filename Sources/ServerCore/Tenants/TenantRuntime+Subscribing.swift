import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// Subscribing to a tenant: what a subscription starts from (a snapshot or a replay), its
/// refusals, and its registration with the subscriber's loop's fan-out.
extension TenantRuntime {
    // MARK: Subscribing (called on the subscriber's event loop)

    enum SubscribeStart {
        /// Send this snapshot, then Synced.
        case snapshot(RosterState)
        /// Replay these revisions, then Synced.
        case replay([HistoryEntry])
    }

    package enum SubscribeRefusal: Error {
        case resyncRequired(oldestResumable: UInt64, reason: String)
        /// The client has applied a revision this node does not hold (yet): on a shared store,
        /// another node committed it and this one has not read it.
        case aheadOfThisNode(requested: UInt64, held: UInt64, oldestResumable: UInt64)
        case unknownSchedule(String)
        case unknownPerson(String)
        /// "service \"X\"" or "escalation policy \"X\"".
        case unknownEscalation(String)
    }

    /// Where a NOTICES subscription starts.
    struct NoticeStart: Sendable {
        /// `since_notice` was given: what to replay (already filtered), and whether the kept
        /// notices no longer reach back to it.
        var replay: [PublishedNotice] = []
        var missed = false
        /// The tenant's latest notice sequence.
        var sequence: UInt64 = 0
    }

    /// Which schedules' on-duty sets a subscription follows.
    /// Checked for every subscriber on every on-duty push: following one schedule (the usual
    /// case, and every old client) is a string comparison, not a hash.
    enum ScheduleSelection: Sendable, Hashable {
        case one(String)
        case several(Set<String>)
        case all

        init(_ ids: Set<String>) { self = ids.count == 1 ? .one(ids.first!) : .several(ids) }

        func includes(_ id: String) -> Bool {
            switch self {
            case .all: true
            case .one(let only): only == id
            case .several(let ids): ids.contains(id)
            }
        }
    }

    /// What a new subscription starts from: itself (registered with its loop's fan-out), what
    /// must be sent before Synced, and the tenant's revision, epoch and on-duty state then.
    package struct Subscribed {
        package var subscription: Subscription
        var start: SubscribeStart
        package var revision: UInt64
        var epoch: UInt64
        /// The INITIAL on-duty state of each schedule followed, by schedule name.
        var onDuty: [OnDutyPush]
        var state: RosterState
        var notices = NoticeStart()
        /// ESCALATION: the INITIAL answer of each policy followed.
        var escalations: [Roster_V1_EscalationChanged] = []
    }

    /// Makes the subscription, registers it with the connection's loop's fan-out and returns
    /// what it starts from. Runs under the tenant lock on the subscriber's loop: an event
    /// committed after the captured revision is enqueued on this loop behind us and passes the
    /// subscription's floor; one committed before is either in the snapshot or filtered out by
    /// the floor.
    package func subscribe(
        id: UInt64, topics: Set<Roster_V1_Topic>, filter: Roster_V1_SubscriptionFilter, connection: any PushSink,
        sinceRevision: UInt64?, epoch: UInt64?, schedules requested: [String], allSchedules: Bool,
        sinceNotice: UInt64? = nil, noticePeople requestedPeople: [String] = [],
        services requestedServices: [String] = [],
        escalationPolicies requestedPolicies: [String] = []
    )
        throws(SubscribeRefusal) -> Subscribed
    {
        let outcome = inner.withLockedValue { inner -> Result<Subscribed, SubscribeRefusal> in
            var selection = ScheduleSelection.all
            if !allSchedules {
                var ids = Set<String>()
                for name in requested.isEmpty ? [ScheduleDefinition.defaultID] : requested {
                    guard let schedule = inner.state.schedule(idOrName: name) else {
                        return .failure(.unknownSchedule(name))
                    }
                    ids.insert(schedule.id)
                }
                selection = ScheduleSelection(ids)
            }
            var start = SubscribeStart.snapshot(inner.state)
            if let since = sinceRevision {
                let oldest = inner.oldestResumableRevision
                if let epoch, epoch != inner.epoch {
                    return .failure(
                        .resyncRequired(oldestResumable: oldest, reason: "the store was recreated (epoch changed)"))
                }
                if since > inner.revision {
                    return .failure(.aheadOfThisNode(requested: since, held: inner.revision, oldestResumable: oldest))
                }
                if since < oldest {
                    return .failure(
                        .resyncRequired(
                            oldestResumable: oldest, reason: "the history no longer reaches back to revision \(since)"))
                }
                start = .replay(inner.history.filter { $0.revision > since })
            }
            var people = Set<String>()
            for name in requestedPeople {
                guard let person = inner.state.employee(idOrName: name) else { return .failure(.unknownPerson(name)) }
                people.insert(person.id)
            }
            var services = Set<String>(), policies = Set<String>()
            for name in topics.contains(.escalation) ? requestedServices : [] {
                guard let service = inner.state.escalation.service(idOrName: name) else {
                    return .failure(.unknownEscalation("service \"\(name)\""))
                }
                services.insert(service.id)
            }
            for name in topics.contains(.escalation) ? requestedPolicies : [] {
                guard let policy = inner.state.escalation.policy(idOrName: name) else {
                    return .failure(.unknownEscalation("escalation policy \"\(name)\""))
                }
                policies.insert(policy.id)
            }
            let subscription = Subscription(
                id: id, topics: topics, filter: filter, schedules: selection,
                connection: connection, tenant: self,
                floorRevision: inner.revision, onDutyFloor: inner.onDutySequence,
                noticePeople: people, noticeFloor: inner.noticeSequence, escalationPolicies: policies,
                escalationServices: services, escalationFloor: inner.escalationSequence)
            var notices = NoticeStart(sequence: inner.noticeSequence)
            if topics.contains(.notices), let since = sinceNotice {
                let oldest = inner.notices.first?.sequence ?? inner.noticeSequence + 1
                notices.missed = since > inner.noticeSequence || since + 1 < oldest
                notices.replay = inner.notices.filter { $0.sequence > since && subscription.admits($0.event) }
            }
            fanout(on: connection.eventLoop).add(subscription)
            // INITIAL: the set announced last, as of now (at_ms is the subscribe instant; it stays
            // before until_ms if the boundary alarm is late, when a BOUNDARY event follows).
            let now = clock.now()
            let followed = inner.state.sortedSchedules.filter { selection.includes($0.id) }
            let onDuty = followed.compactMap { schedule -> OnDutyPush? in
                guard var current = inner.tracker.announced[schedule.id] else { return nil }
                current.at = min(max(current.at, now), (current.until ?? .max) - 1)
                return OnDutyPush(
                    sequence: inner.onDutySequence, epoch: inner.epoch, revision: inner.revision,
                    scheduleID: schedule.id, scheduleName: schedule.name,
                    previous: nil, current: current, cause: .initial, state: inner.state)
            }
            let pages = policies.union(services.compactMap { inner.state.escalation.services[$0]?.policyID })
            return .success(
                Subscribed(
                    subscription: subscription, start: start, revision: inner.revision, epoch: inner.epoch,
                    onDuty: onDuty, state: inner.state, notices: notices,
                    escalations: initialEscalations(inner, policies: pages)))
        }
        return try outcome.get()
    }
}
