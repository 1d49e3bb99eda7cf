import NIOCore
import RosterDomain
import RosterProtocol

/// Builds the bodies of pushed events. Unfiltered bodies are built once per event by
/// `TenantRuntime`; a loop builds a filtered body at most once per distinct filter.
enum PushEncoding {
    static func frame(_ message: RosterMessage, requestID: UInt32 = 0) -> ByteBuffer {
        message.frame(requestID: requestID).encoded()
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
            $0.cause = push.cause
            $0.sequence = push.sequence
            if let filter { $0.filter = filter }
        }
    }

    /// RosterChanged as seen through `filter`; nil when no change passes it.
    ///
    /// Filter rule: deletions always pass (deleting what a client does not hold is a no-op); an
    /// employee upsert passes when the employee matches before or after; a shift passes when its
    /// employee matches; motd changes always pass.
    static func rosterChanged(_ push: RosterPush, filter: Roster_V1_SubscriptionFilter?) -> Roster_V1_RosterChanged? {
        rosterChanged(entry: push.entry, epoch: push.epoch, filter: filter, previous: push.previous, current: push.current)
    }

    static func rosterChanged(entry: HistoryEntry, epoch: UInt64, filter: Roster_V1_SubscriptionFilter?,
                              previous: RosterState?, current: RosterState) -> Roster_V1_RosterChanged? {
        var changes = entry.changes
        if let filter, !filter.isEmpty {
            let matches: (String) -> Bool = { id in
                current.employees[id].map(filter.admits) == true || previous?.employees[id].map(filter.admits) == true
            }
            changes = changes.filter { change in
                switch change {
                case .employeeUpserted(let employee): return filter.admits(employee) || matches(employee.id)
                case .shiftAdded(let shift): return matches(shift.employeeID)
                case .employeeDeleted, .shiftDeleted, .motdSet: return true
                }
            }
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
