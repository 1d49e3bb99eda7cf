import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// One tenant's live state in the server: data, revision, retained history, the on-duty engine
/// and the last on-duty set announced, plus the subscribers on every event loop.
///
/// Concurrency: the state sits behind one lock. Mutations come from the server's mutation queue
/// (one at a time); on-duty recomputes come from the boundary alarm or a clock jump. Both publish
/// *while holding the lock* by enqueueing one task per event loop, so every loop sees revisions
/// and on-duty transitions in commit order. Subscribing happens on the subscriber's own loop under
/// the same lock, which is what makes snapshot → live gap-free (see `subscribe`).
package final class TenantRuntime: Sendable {
    package let id: String
    package let clock: any ServerClock
    /// Counts pushes and fan-out time when the server keeps metrics.
    let metrics: ServerMetrics?
    private let historyLimit: Int
    /// Where a handoff's look (and a rebuild of an index, once a week) runs: not on the clock's
    /// event loop. nil: where the alarm fires (tools, tests of the runtime alone).
    let work: TenantWorkPool?
    /// One fan-out per event loop, each touched only on its own loop.
    let fanouts: [LoopFanout]
    /// Shared with TenantRuntime+Subscribing.swift, which reads it under the same lock.
    let inner: NIOLockedValueBox<Inner>
    /// The directory in display order, for the listings of one revision.
    private let directoryOrder = DirectoryOrder()
    /// Resolved weeks, shared by the server's tenants (nil: none kept).
    let resolvedWeeks: ResolvedWeeks?

    struct Inner {
        var state: RosterState
        var epoch: UInt64
        var revision: UInt64
        var history: CircularBuffer<HistoryEntry>
        /// Per schedule: the on-duty index, and the set last announced; it decides what changed.
        var tracker: OnDutyTracker
        var onDutySequence: UInt64 = 0
        /// One alarm for every schedule: at the earliest handoff or index rebuild of any.
        var alarm: (any ScheduledAlarm)?
        /// The newest published notices (NOTICES), for subscribers that resume, and the last sequence.
        var notices = CircularBuffer<PublishedNotice>()
        var noticeSequence: UInt64 = 0
        /// Per escalation policy, the people of each step last announced (ESCALATION), and the
        /// last escalation push's sequence.
        var escalationPeople: [String: [[String]]] = [:]
        var escalationSequence: UInt64 = 0
        /// Per schedule, the encoded people part of "on duty now" (fields 4-7 of
        /// OnDutyResponse), reusable while the revision is the same and the instant stays in
        /// [from, until).
        var onDutyNowCache: [String: (revision: UInt64, from: UnixMillis, until: UnixMillis, encoded: ByteBuffer)] = [:]

        /// The oldest revision a client may resume *from* (it has applied this one): replay
        /// starts at the revision after it.
        var oldestResumableRevision: UInt64 {
            guard let first = history.first else { return revision }
            return first.revision - 1
        }
    }

    /// A consistent view for queries.
    package struct View {
        package var state: RosterState
        package var epoch: UInt64
        package var revision: UInt64
        package var indexes: [String: ScheduleOnDutyIndex]
        var directoryOrder: DirectoryOrder
        /// Whole weeks of this revision's schedules resolved before (nil: none are kept).
        package var keptWeeks: ResolvedWeeks.Scope?

        /// Every employee by last name, then first name; sorted once per revision.
        var sortedEmployees: [Employee] { directoryOrder.employees(of: state, epoch: epoch, revision: revision) }

        /// The encoded answer to a directory listing; encoded once per revision and grouping.
        func employeeListingBody(groupBy: Roster_V1_Grouping) -> ByteBuffer {
            directoryOrder.listingBody(of: state, epoch: epoch, revision: revision, groupBy: groupBy)
        }

        /// Who is on duty on a schedule at an instant: the same answer the pushes give.
        func onDuty(scheduleID: String, at instant: UnixMillis) -> OnDutyLookup? {
            indexes[scheduleID]?.lookup(at: instant)
        }
    }

    package init(
        stored: StoredTenant, clock: any ServerClock, historyLimit: Int, loops: [any EventLoop],
        metrics: ServerMetrics? = nil,
        work: TenantWorkPool? = nil, resolvedWeeks: ResolvedWeeks? = nil
    ) {
        id = stored.state.tenant.id
        self.work = work
        self.resolvedWeeks = resolvedWeeks
        self.clock = clock
        self.historyLimit = historyLimit
        self.metrics = metrics
        fanouts = loops.map { LoopFanout(loop: $0, tenantID: stored.state.tenant.id, clock: clock, metrics: metrics) }
        var history = CircularBuffer<HistoryEntry>(initialCapacity: min(historyLimit, 1024))
        for entry in stored.history.suffix(historyLimit) { history.append(entry) }
        let now = clock.now()
        inner = NIOLockedValueBox(
            Inner(
                state: stored.state, epoch: stored.epoch, revision: stored.revision, history: history,
                tracker: OnDutyTracker(state: stored.state, at: now)))
    }

    package var view: View {
        inner.withLockedValue {
            View(
                state: $0.state, epoch: $0.epoch, revision: $0.revision, indexes: $0.tracker.indexes,
                directoryOrder: directoryOrder,
                keptWeeks: resolvedWeeks?.scope(.init(tenant: id, epoch: $0.epoch, revision: $0.revision)))
        }
    }

    /// "On duty now" on the default schedule, the hottest query, from the cached encoding.
    func onDutyNowFrame(requestID: UInt32, now: UnixMillis) -> Frame {
        Frame(
            type: .onDuty, requestID: requestID,
            body: onDutyNowBody(now: now, scheduleID: ScheduleDefinition.defaultID)!)
    }

    /// The answer to any other read request, from a consistent view.
    /// A snapshot past the frame limit comes as parts when `snapshotPartsLimit` is given (the
    /// client said it understands them); a final schedule is cut to `maxFrameBytes`.
    func answerFrames(
        _ request: RosterMessage, requestID: UInt32, now: UnixMillis, snapshotPartsLimit: Int?,
        maxFrameBytes: Int = WireProtocol.defaultMaxFrameLength
    ) -> [Frame] {
        let view = view
        if case .listEmployees(let query) = request {
            return [
                Frame(type: .employees, requestID: requestID, body: view.employeeListingBody(groupBy: query.groupBy))
            ]
        }
        switch Queries.answer(request, view: view, now: now) {
        case .success(.snapshot(let snapshot)) where snapshotPartsLimit != nil:
            return SnapshotParts.frames(snapshot, requestID: requestID, maxFrameBytes: snapshotPartsLimit!)
        case .success(.finalSchedule(var answer)):
            AnswerFit.fit(&answer, maxFrameBytes: maxFrameBytes)
            return [RosterMessage.finalSchedule(answer).frame(requestID: requestID)]
        case .success(let answer): return [answer.frame(requestID: requestID)]
        case .failure(let error): return [ConnectionReplies.error(error, requestID: requestID)]
        }
    }

    /// `answerFrames` in slices for the work pool (`TenantWorkPool.submitSliced`): nil while a
    /// long final schedule is still being resolved, then the frames.
    func answerStepper(
        _ request: RosterMessage, requestID: UInt32, now: UnixMillis, snapshotPartsLimit: Int?,
        maxFrameBytes: Int = WireProtocol.defaultMaxFrameLength
    ) -> @Sendable () -> [Frame]? {
        guard case .getFinalSchedule = request else {
            return {
                self.answerFrames(
                    request, requestID: requestID, now: now, snapshotPartsLimit: snapshotPartsLimit,
                    maxFrameBytes: maxFrameBytes)
            }
        }
        let sliced = SlicedAnswer(request, view: view, now: now)
        return {
            switch sliced.step() {
            case nil: return nil
            case .success(.finalSchedule(var answer))?:
                AnswerFit.fit(&answer, maxFrameBytes: maxFrameBytes)
                return [RosterMessage.finalSchedule(answer).frame(requestID: requestID)]
            case .success(let answer)?: return [answer.frame(requestID: requestID)]
            case .failure(let error)?: return [ConnectionReplies.error(error, requestID: requestID)]
            }
        }
    }

    /// The body of an OnDutyResponse for `now`. The same people are on duty for every client until
    /// the next boundary or revision, so their encoding is cached; only epoch, revision and
    /// at_ms (fields 1-3) are encoded per request. Two protobuf encodings of one message type
    /// concatenated decode as their merge, so the body equals a whole-message encoding.
    /// nil when there is no such schedule.
    func onDutyNowBody(now: UnixMillis, scheduleID: String) -> ByteBuffer? {
        inner.withLockedValue { inner in
            let people: ByteBuffer
            if let cache = inner.onDutyNowCache[scheduleID], cache.revision == inner.revision, cache.from <= now,
                now < cache.until
            {
                people = cache.encoded
            } else {
                guard let index = inner.tracker.indexes[scheduleID] else { return nil }
                let lookup = index.lookup(at: now)
                let state = inner.state
                people = RosterMessage.onDuty(
                    .with {
                        $0.current = lookup.current.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
                        if let until = lookup.until { $0.untilMs = until }
                        $0.next = lookup.next.map { Roster_V1_OnDutyPerson(shift: $0, in: state) }
                        if scheduleID != ScheduleDefinition.defaultID { $0.scheduleID = scheduleID }
                    }
                ).bodyBuffer()
                let validUntil = min(
                    lookup.until ?? .max, index.validFor.contains(now) ? index.validFor.upperBound : now)
                inner.onDutyNowCache[scheduleID] = (inner.revision, now, validUntil, people)
            }
            var body = RosterMessage.onDuty(
                .with {
                    $0.epoch = inner.epoch
                    $0.revision = inner.revision
                    $0.atMs = now
                }
            ).bodyBuffer()
            body.writeImmutableBuffer(people)
            return body
        }
    }

    package func fanout(on loop: any EventLoop) -> LoopFanout {
        fanouts.first { $0.loop === loop }!
    }

    var allFanouts: [LoopFanout] { fanouts }

    // MARK: Mutations (called by the mutation queue, one at a time)

    /// A revision recorded by `apply` and not yet sent to subscribers.
    struct CommittedRevision: Sendable {
        fileprivate var push: RosterPush
        /// The schedules whose on-duty sets the revision may have changed.
        fileprivate var schedules: Set<String>
    }

    /// Records a committed revision: from now on every query and new subscription sees it.
    /// `entry.revision` must be `revision + 1`. Subscribers hear of it from `publish`, so that
    /// the admin's acknowledgement can be written first instead of queueing behind the fan-out.
    func apply(_ entry: HistoryEntry, state newState: RosterState) -> CommittedRevision {
        inner.withLockedValue { inner in
            let previousState = inner.state
            inner.state = newState
            inner.revision = entry.revision
            inner.history.append(entry)
            while inner.history.count > historyLimit { inner.history.removeFirst() }
            // Only the schedules the revision touched are resolved again: the work is
            // proportional to what changed, not to the tenant.
            let affected = Self.schedules(changedBy: entry.changes, previous: previousState, current: newState)
            inner.tracker.reindex(affected, in: newState, at: clock.now())
            return CommittedRevision(
                push: RosterPush(entry: entry, epoch: inner.epoch, previous: previousState, current: newState),
                schedules: affected)
        }
    }

    /// The schedules whose resolved shifts may differ after `changes`. An employee change
    /// touches the schedules that name them (their display order is part of the answer).
    package static func schedules(changedBy changes: [RosterChange], previous: RosterState, current: RosterState)
        -> Set<String>
    {
        var ids = Set<String>()
        var people = Set<String>()
        func scheduleOf(_ shift: Shift) -> String { ShiftTable.scheduleKey(shift.scheduleID) }
        for change in changes {
            switch change {
            case .shiftAdded(let shift):
                ids.insert(scheduleOf(shift))
                if let before = previous.shifts[shift.id] { ids.insert(scheduleOf(before)) }
            case .shiftDeleted(let id):
                if let before = previous.shifts[id] { ids.insert(scheduleOf(before)) }
            case .scheduleUpserted(let schedule): ids.insert(schedule.id)
            case .scheduleDeleted(let id): ids.insert(id)
            case .employeeUpserted(let employee): people.insert(employee.id)
            case .employeeDeleted(let id): people.insert(id)
            case .motdSet, .escalationPolicySet, .escalationPolicyDeleted, .serviceSet, .serviceDeleted: break
            case .timeOffSet, .timeOffDeleted, .holidaysSet, .holidaysDeleted:
                ids.formUnion(previous.schedulesMoved(by: change))
            }
        }
        guard !people.isEmpty else { return ids }
        // One pass over the schedules for all the people an import touched, not one per person;
        // their shifts' schedules come from the shift table. `previous` still has the shifts of
        // people this revision deleted.
        for schedule in previous.schedules.values where !schedule.mentionedEmployees.isDisjoint(with: people) {
            ids.insert(schedule.id)
        }
        for schedule in current.schedules.values where !schedule.mentionedEmployees.isDisjoint(with: people) {
            ids.insert(schedule.id)
        }
        for person in people {
            ids.formUnion(previous.shifts.schedules(ofEmployee: person))
            ids.formUnion(current.shifts.schedules(ofEmployee: person))
        }
        return ids
    }

    /// Sends a revision recorded by `apply` to every loop's subscribers, encoded once, and
    /// announces who is on duty if the change altered it. A subscription made between `apply`
    /// and `publish` already has the revision in its snapshot and its floor filters the push.
    func publish(_ committed: CommittedRevision) {
        var push = committed.push
        push.sharedFrame = PushEncoding.rosterChanged(push, filter: nil).map { PushEncoding.frame(.rosterChanged($0)) }
        let published = push
        let timing = metrics.map { FanoutClock(loops: fanouts.count, metrics: $0) }
        for fanout in fanouts {
            fanout.loop.execute {
                fanout.deliver(published); timing?.loopFinished()
            }
        }
        inner.withLockedValue { inner in
            recompute(&inner, cause: .planChanged, schedules: committed.schedules)
            announceEscalations(
                &inner, cause: .escalationPolicyChanged,
                policies: Self.policies(changedBy: committed.push.entry.changes, previous: committed.push.previous))
            // A schedule that joins or leaves a team changes what a step naming the team pages,
            // though nobody's duty moved.
            announceEscalations(
                &inner, cause: .escalationPlanChanged,
                policies: Self.policies(
                    namingTeamsChangedBy: committed.push.entry.changes, previous: committed.push.previous,
                    current: inner.state))
        }
    }

    // MARK: On duty

    /// Starts the boundary alarm and listens for clock jumps. Called once at start-up.
    package func startOnDutyTracking() {
        clock.onJump { [weak self] in self?.offTheClock { $0.recomputeOnDuty(cause: .clockJump) } }
        inner.withLockedValue { inner in
            inner.tracker.settle(at: clock.now())
            announceEscalations(&inner, cause: .escalationInitial, policies: Set(inner.state.escalation.policies.keys))
            arm(&inner)
        }
    }

    /// Every schedule, looked up again (a clock jump).
    func recomputeOnDuty(cause: OnDutyCause) {
        inner.withLockedValue { recompute(&$0, cause: cause, schedules: Set($0.tracker.indexes.keys)) }
    }

    /// The alarm: the schedules whose handoff or index rebuild is due. An early timer finds none
    /// due and is re-armed for the same instant, so nothing is ever announced early.
    private func alarmFired() {
        inner.withLockedValue { inner in
            recompute(&inner, cause: .boundary, schedules: inner.tracker.due(at: clock.now()))
        }
    }

    /// The clock's callbacks hand their work to the pool, ahead of the tenant's waiting queries.
    private func offTheClock(_ body: @escaping @Sendable (TenantRuntime) -> Void) {
        guard let work else { return body(self) }
        work.urgent(id) { [weak self] in if let self { body(self) } }
    }

    package func stopOnDutyTracking() {
        inner.withLockedValue {
            $0.alarm?.cancel(); $0.alarm = nil
        }
    }

    /// Asks the tracker what changed on `schedules` now, publishes OnDutyChanged for each change
    /// (a deleted schedule announces nobody), and re-arms the alarm.
    private func recompute(_ inner: inout Inner, cause: OnDutyCause, schedules: Set<String>) {
        let changes = inner.tracker.look(at: clock.now(), cause: cause, schedules: schedules, in: inner.state)
        for change in changes {
            inner.onDutySequence += 1
            var push = OnDutyPush(
                sequence: inner.onDutySequence, epoch: inner.epoch, revision: inner.revision,
                scheduleID: change.scheduleID,
                scheduleName: inner.state.schedules[change.scheduleID]?.name ?? change.scheduleID,
                previous: change.previous, current: change.current, cause: change.cause, state: inner.state)
            push.sharedFrame = PushEncoding.onDutyChanged(push, filter: nil).map {
                PushEncoding.frame(.onDutyChanged($0))
            }
            let published = push
            let timing = metrics.map { FanoutClock(loops: fanouts.count, metrics: $0) }
            for fanout in fanouts {
                fanout.loop.execute {
                    fanout.deliver(published); timing?.loopFinished()
                }
            }
        }
        // After the on-duty pushes, so a subscriber of both hears the handoff first.
        if !changes.isEmpty, !inner.state.escalation.policies.isEmpty {
            let moved = Set(changes.map(\.scheduleID))
            let escalationCause: Roster_V1_EscalationCause =
                switch cause {
                case .boundary: .escalationHandoff
                case .clockJump: .escalationClockJump
                case .planChanged, .initial: .escalationPlanChanged
                }
            announceEscalations(
                &inner, cause: escalationCause,
                policies: inner.state.escalation.policies(namingAny: moved, in: inner.state))
        }
        arm(&inner)
    }

    /// One timer for all schedules, at the earliest instant any of them needs a look.
    private func arm(_ inner: inout Inner) {
        inner.alarm?.cancel()
        inner.alarm = nil
        guard let next = inner.tracker.nextLook else { return }
        inner.alarm = clock.schedule(at: next) { [weak self] in self?.offTheClock { $0.alarmFired() } }
    }
}
