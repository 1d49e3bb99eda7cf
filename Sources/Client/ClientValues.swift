import Foundation
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterTLS

/// The connection as an app would show it.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    case connecting
    /// Subscribed and synced: the cache follows the server.
    case live
    case reconnecting(attempt: Int, nextRetry: Date)
    /// Not running (before `start`, after `stop`, or refused for good).
    case offline

    public var description: String {
        switch self {
        case .connecting: return "connecting"
        case .live: return "live"
        case .reconnecting(let attempt, let next):
            return "reconnecting (attempt \(attempt), next in \(max(0, Int(next.timeIntervalSinceNow.rounded(.up))))s)"
        case .offline: return "offline"
        }
    }
}

/// A person on duty with the shift that puts them there.
public struct OnDutyEntry: Sendable, Hashable {
    public var employee: Employee
    public var shift: Shift
}

/// Who is on duty, until when, and who comes next.
public struct OnDutyStatus: Sendable, Hashable {
    public var at: UnixMillis
    public var current: [OnDutyEntry]
    public var until: UnixMillis?
    public var next: [OnDutyEntry]
    /// For pushed transitions: who was on duty before, and why it changed (nil for answers
    /// to queries and the cache's own).
    public var previous: [OnDutyEntry] = []
    public var cause: OnDutyCause?
    public var revision: UInt64 = 0
    /// The schedule this is the on-duty set of.
    public var scheduleID: String = ScheduleDefinition.defaultID
    public var scheduleName: String = ""

    /// Who comes on duty at `until`: `next` without those already on duty (who stay on), so a
    /// "Next:" line never names someone who is on duty now.
    public var incoming: [OnDutyEntry] {
        let onDuty = Set(current.map(\.employee.id))
        return next.filter { !onDuty.contains($0.employee.id) }
    }
}

/// What a running client reports, in order.
public enum RosterUpdate: Sendable {
    case connectionState(ConnectionState)
    /// The cache is whole at this revision (after a snapshot or a replay).
    case synced(CachedRoster)
    /// A revision was applied to the cache.
    case rosterChanged(revision: UInt64, changes: [RosterChange])
    case onDutyChanged(OnDutyStatus)
    /// The client is discarding its cache and taking a fresh snapshot.
    case resyncing(reason: String)
    case goingAway(reason: String, retryAfter: Duration)
    /// The cache file could not be used (it is ignored, never trusted).
    case cacheProblem(CacheProblem)
    /// The server refused the session for good (e.g. bad credentials); the client stops.
    case refused(RosterClientError)
}

extension OnDutyStatus {
    init(_ wire: Roster_V1_OnDutyChanged) {
        self.init(
            at: wire.atMs, current: wire.current.map(OnDutyEntry.init), until: wire.hasUntilMs ? wire.untilMs : nil,
            next: wire.next.map(OnDutyEntry.init), previous: wire.previous.map(OnDutyEntry.init),
            cause: OnDutyCause(wire.cause), revision: wire.revision,
            scheduleID: wire.scheduleID.isEmpty ? ScheduleDefinition.defaultID : wire.scheduleID,
            scheduleName: wire.scheduleName)
    }

    init(_ wire: Roster_V1_OnDutyResponse) {
        self.init(
            at: wire.atMs, current: wire.current.map(OnDutyEntry.init), until: wire.hasUntilMs ? wire.untilMs : nil,
            next: wire.next.map(OnDutyEntry.init), revision: wire.revision,
            scheduleID: wire.scheduleID.isEmpty ? ScheduleDefinition.defaultID : wire.scheduleID)
    }

    /// From the cache: computed by the shared engine over the cached plan.
    public init(_ lookup: OnDutyLookup, in state: RosterState, revision: UInt64) {
        let entry = { (shift: Shift) in
            OnDutyEntry(
                employee: state.employees[shift.employeeID]
                    ?? Employee(id: shift.employeeID, firstName: "", lastName: shift.employeeID),
                shift: shift)
        }
        self.init(
            at: lookup.at, current: lookup.current.map(entry), until: lookup.until, next: lookup.next.map(entry),
            revision: revision)
    }
}

extension OnDutyEntry {
    init(_ wire: Roster_V1_OnDutyPerson) {
        self.init(employee: Employee(wire.employee), shift: Shift(wire.shift))
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// What an import did, or with a dry run would do.
public struct ImportResult: Sendable {
    public var revision: UInt64
    public var ids: [String]
    public var dryRun: Bool
    public var rows: [ImportRow]

    public func count(_ action: ImportAction) -> Int { rows.filter { $0.action == action }.count }

    /// "2 added, 1 updated, 3 unchanged, 0 removed".
    public var counts: String {
        ImportAction.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
    }
}
