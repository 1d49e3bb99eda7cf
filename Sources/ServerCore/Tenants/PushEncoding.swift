import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// Builds the bodies of pushed events. Unfiltered bodies are built once per event by
/// `TenantRuntime`; a loop builds a filtered body at most once per distinct filter.
enum PushEncoding {
    static func frame(_ message: RosterMessage, requestID: UInt32 = 0) -> ByteBuffer {
        message.frame(requestID: requestID).encoded()
    }

    /// What a new subscription is sent before it goes live: Subscribed, then the Snapshot or
    /// the replayed revisions (ROSTER), the INITIAL on-duty state (ON_DUTY), and Synced. The
    /// same encodings, through the same filter rule, as every later push.
    static func initialSync(
        _ subscribed: TenantRuntime.Subscribed, topics: Set<Roster_V1_Topic>,
        filter requested: Roster_V1_SubscriptionFilter
    ) -> [RosterMessage] {
        let (id, epoch, revision) = (subscribed.subscription.id, subscribed.epoch, subscribed.revision)
        let filter = requested.isEmpty ? nil : requested
        var messages: [RosterMessage] = [
            .subscribed(
                .with {
                    $0.subscriptionID = id
                    $0.epoch = epoch
                    $0.revision = revision
                })
        ]
        if topics.contains(.roster) {
            switch subscribed.start {
            case .snapshot(let state):
                messages.append(.snapshot(snapshot(state, epoch: epoch, revision: revision, filter: filter)))
            case .replay(let entries):
                messages += entries.compactMap { entry in
                    rosterChanged(entry: entry, epoch: epoch, filter: filter, previous: nil, current: subscribed.state)
                        .map(RosterMessage.rosterChanged)
                }
            }
        }
        if topics.contains(.onDuty) {
            for push in subscribed.onDuty {
                if let initial = onDutyChanged(push, filter: filter) { messages.append(.onDutyChanged(initial)) }
            }
        }
        if topics.contains(.notices) {
            messages += subscribed.notices.replay.map { .notice(Roster_V1_Notice($0, epoch: epoch)) }
        }
        if topics.contains(.escalation) { messages += subscribed.escalations.map(RosterMessage.escalationChanged) }
        messages.append(
            .synced(
                .with {
                    $0.subscriptionID = id
                    $0.epoch = epoch
                    $0.revision = revision
                    if topics.contains(.notices) {
                        $0.noticeSequence = subscribed.notices.sequence
                        $0.noticesMissed = subscribed.notices.missed
                    }
                }))
        return messages
    }

    /// The snapshot a subscription starts from: through a filter, the matching employees and
    /// only their shifts (what the filtered events that follow keep up to date).
    static func snapshot(
        _ state: RosterState, epoch: UInt64, revision: UInt64,
        filter: Roster_V1_SubscriptionFilter?
    ) -> Roster_V1_Snapshot {
        var snapshot = Roster_V1_Snapshot(state, epoch: epoch, revision: revision)
        if let filter, !filter.isEmpty {
            let admitted = Set(state.employees.values.filter(filter.admits).map(\.id))
            snapshot.employees = snapshot.employees.filter { admitted.contains($0.id) }
            snapshot.shifts = snapshot.shifts.filter { admitted.contains($0.employeeID) }
        }
        return snapshot
    }

    /// OnDutyChanged as seen through `filter`; nil when the filtered set did not change (a
    /// transition elsewhere in the tenant). An initial push (no `previous`) is always built.
    static func onDutyChanged(_ push: OnDutyPush, filter: Roster_V1_SubscriptionFilter?) -> Roster_V1_OnDutyChanged? {
        let admit: (Shift) -> Bool = { shift in
            guard let filter, !filter.isEmpty else { return true }
            return push.state.employees[shift.employeeID].map(filter.admits) ?? false
        }
        let current = push.current.current.filter(admit)
        let previous = push.previous?.current.filter(admit)
        if let previous, Set(previous.map(\.employeeID)) == Set(current.map(\.employeeID)) { return nil }
        return Roster_V1_OnDutyChanged.with {
            $0.epoch = push.epoch
            $0.revision = push.revision
            $0.atMs = push.current.at
            $0.previous = (previous ?? []).map { Roster_V1_OnDutyPerson(shift: $0, in: push.state) }
            $0.current = current.map { Roster_V1_OnDutyPerson(shift: $0, in: push.state) }
            if let until = push.current.until { $0.untilMs = until }
            $0.next = push.current.next.filter(admit).map { Roster_V1_OnDutyPerson(shift: $0, in: push.state) }
            $0.cause = Roster_V1_OnDutyCause(push.cause)
            $0.sequence = push.sequence
            if let filter { $0.filter = filter }
            // The default schedule is what an old client follows: its events look as they did.
            if push.scheduleID != ScheduleDefinition.defaultID {
                $0.scheduleID = push.scheduleID
                $0.scheduleName = push.scheduleName
            }
        }
    }

    /// RosterChanged as seen through `filter`; nil when no change passes it.
    ///
    /// A filtered subscription holds the employees that match and their shifts, and each event
    /// keeps it equal to a fresh filtered snapshot: an employee who starts matching arrives with
    /// their shifts; one who stops matching (or a shift moved to someone outside) is deleted from
    /// the subscriber's view; changes outside the filter are left out; deletions and motd always
    /// pass. `previous` is the state before the revision; nil (a replay) when unknown, and then
    /// whatever might have been in the view is deleted rather than kept.
    static func rosterChanged(_ push: RosterPush, filter: Roster_V1_SubscriptionFilter?) -> Roster_V1_RosterChanged? {
        rosterChanged(
            entry: push.entry, epoch: push.epoch, filter: filter, previous: push.previous, current: push.current)
    }

    static func rosterChanged(
        entry: HistoryEntry, epoch: UInt64, filter: Roster_V1_SubscriptionFilter?,
        previous: RosterState?, current: RosterState
    ) -> Roster_V1_RosterChanged? {
        var changes = entry.changes
        if let filter, !filter.isEmpty {
            changes = FilteredView(filter: filter, previous: previous, current: current).changes(entry.changes)
            if changes.isEmpty { return nil }
        }
        return Roster_V1_RosterChanged.with {
            $0.epoch = epoch
            $0.revision = entry.revision
            $0.committedAtMs = entry.committedAt
            $0.changes = changes.map(Roster_V1_Change.init)
            if let filter { $0.filter = filter }
        }
    }
}

/// The rule behind filtered ROSTER events (see `PushEncoding.rosterChanged`).
struct FilteredView {
    let filter: Roster_V1_SubscriptionFilter
    let previous: RosterState?
    let current: RosterState

    func matchesNow(_ employeeID: String) -> Bool { current.employees[employeeID].map(filter.admits) == true }

    /// Whether the employee may have been in the view before; unknown (a replay) counts as yes.
    func mayHaveMatched(_ employeeID: String) -> Bool {
        guard let previous else { return true }
        return previous.employees[employeeID].map(filter.admits) == true
    }

    func changes(_ changes: [RosterChange]) -> [RosterChange] {
        var seen: [RosterChange] = []
        var added = Set<String>()  // shift ids already in `seen`
        for change in changes {
            if case .shiftAdded(let shift) = change { added.insert(shift.id) }
        }
        for change in changes {
            switch change {
            case .employeeUpserted(let employee):
                if filter.admits(employee) {
                    seen.append(change)
                    // Newly in the view: with their shifts, which earlier events left out.
                    if previous?.employees[employee.id].map(filter.admits) != true {
                        for shift in current.sortShifts(current.shifts.values.filter { $0.employeeID == employee.id })
                        where !added.contains(shift.id) {
                            seen.append(.shiftAdded(shift))
                            added.insert(shift.id)
                        }
                    }
                } else if mayHaveMatched(employee.id) {
                    seen.append(.employeeDeleted(id: employee.id))  // left the view (a client deletes their shifts too)
                }
            case .shiftAdded(let shift):
                if matchesNow(shift.employeeID) {
                    seen.append(change)
                } else if let before = previous?.shifts[shift.id] {
                    if mayHaveMatched(before.employeeID) { seen.append(.shiftDeleted(id: shift.id)) }
                } else if previous == nil {
                    seen.append(.shiftDeleted(id: shift.id))
                }
            case .employeeDeleted, .shiftDeleted, .motdSet, .scheduleUpserted, .scheduleDeleted, .timeOffSet,
                .timeOffDeleted,
                .holidaysSet, .holidaysDeleted, .escalationPolicySet, .escalationPolicyDeleted, .serviceSet,
                .serviceDeleted:
                seen.append(change)
            }
        }
        return seen
    }
}

extension Roster_V1_Notice {
    package init(_ published: PublishedNotice, epoch: UInt64) {
        self.init()
        self.epoch = epoch
        sequence = published.sequence
        id = published.event.id
        type = published.event.type.rawValue
        revision = published.event.revision
        aboutMs = published.event.about
        scheduleIds = published.event.scheduleIDs
        people = published.event.people
        json = String(decoding: published.event.payload, as: UTF8.self)
    }
}
