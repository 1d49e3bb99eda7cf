import Foundation
import RosterClient
import RosterDomain

/// What the live screen shows: the original app's layout in a terminal. Tenant and motd, on
/// duty now (until when, who is next), the roster of upcoming shifts, and a status line.
public struct WatchScreen {
    public var roster: CachedRoster?
    /// The server's latest on-duty push; used while live, else the cache answers.
    public var pushed: OnDutyStatus?
    public var state: ConnectionState
    public var server: String
    public var display: Display

    public init(roster: CachedRoster?, pushed: OnDutyStatus?, state: ConnectionState, server: String, display: Display) {
        self.roster = roster
        self.pushed = pushed
        self.state = state
        self.server = server
        self.display = display
    }

    /// Who is on duty at `now`: the push when live and still current, else the cached plan.
    public func onDuty(now: UnixMillis) -> OnDutyStatus? {
        if state == .live, let pushed, pushed.until.map({ now < $0 }) ?? true { return pushed }
        guard let roster else { return pushed }
        return OnDutyStatus(roster.onDuty(at: now), in: roster.state, revision: roster.revision)
    }

    /// The screen as lines, at most `height` of them, none wider than `width`.
    public func lines(now: UnixMillis, width: Int = 100, height: Int = 40) -> [String] {
        var top: [String] = []
        guard let roster else {
            top.append("Roster — \(server)")
            top.append("")
            top.append(state == .live ? "No data yet." : "No connection to \(server), and nothing cached yet.")
            return fit(top, bottom: [status(now: now)], width: width, height: height)
        }
        top.append(roster.state.tenant.name.isEmpty ? roster.state.tenant.id : roster.state.tenant.name)
        if !roster.state.tenant.motd.isEmpty { top.append(roster.state.tenant.motd) }
        top.append("")
        top.append("ON DUTY NOW")
        if let status = onDuty(now: now) {
            if status.current.isEmpty { top.append("  Nobody is on duty.") }
            for entry in status.current {
                let role = [entry.employee.position, entry.employee.team].filter { !$0.isEmpty }.joined(separator: ", ")
                let until = "until \(display.clock(entry.shift.end, now: now)) (in \(Display.duration(millis: entry.shift.end - now)))"
                top.append("  ● \(entry.employee.fullName)\(role.isEmpty ? "" : " — \(role)")   \(until)")
                let contact = [entry.employee.email, entry.employee.phone].filter { !$0.isEmpty }.joined(separator: " · ")
                if !contact.isEmpty { top.append("    \(contact)") }
            }
            if let until = status.until {
                top.append("  Next: \(Display.incoming(status)) at \(display.clock(until, now: now)) (in \(Display.duration(millis: until - now)))")
            }
        }
        if roster.state.employees.isEmpty {
            top.append("")
            top.append("No employees.")
        }
        top.append("")
        top.append("ROSTER (times in \(display.zoneName))")
        let upcoming = roster.state.upcomingShifts(now: now)
        if upcoming.isEmpty { top.append("  No upcoming shifts.") }
        let room = max(0, height - top.count - 2)
        var table = TextTable(["  WHEN", "WHO", "POSITION", "TEAM"])
        for shift in upcoming.prefix(max(0, room - 1)) {
            let person = roster.state.employees[shift.employeeID]
            let marker = shift.contains(now) ? "▶ " : "  "
            table.rows.append([marker + "\(display.clock(shift.start, now: now))–\(display.clock(shift.end, now: now))",
                               person?.fullName ?? shift.employeeID, person?.position ?? "", person?.team ?? ""])
        }
        if !upcoming.isEmpty { top += table.render().split(separator: "\n").map(String.init) }
        return fit(top, bottom: ["", status(now: now)], width: width, height: height)
    }

    private func status(now: UnixMillis) -> String {
        var parts = [state.description]
        if let roster {
            parts.append("revision \(roster.revision)")
            let age = Date(timeIntervalSince1970: Double(now) / 1000).timeIntervalSince(roster.syncedAt)
            parts.append(state == .live ? "synced" : "data \(Display.age(seconds: max(0, age))) old")
        }
        parts.append(server)
        parts.append("Ctrl-C to quit")
        return parts.joined(separator: " · ")
    }

    private func fit(_ top: [String], bottom: [String], width: Int, height: Int) -> [String] {
        let body = Array(top.prefix(max(0, height - bottom.count)))
        // Names, motd and messages come from the server: nothing in them may drive the terminal.
        return (body + bottom).map { ControlCharacters.stripped($0) }
            .map { $0.count > width ? String($0.prefix(max(0, width - 1))) + "…" : $0 }
    }
}

/// `watch --json`: one object per update, one line each.
public enum WatchEvents {
    struct StateEvent: Encodable { var event = "state"; var state: String }
    struct SyncedEvent: Encodable {
        var event = "synced"
        var revision: UInt64
        var epoch: String
        var employees: Int
        var shifts: Int
    }
    struct ChangeEntry: Encodable {
        var kind: String
        var id: String?
        var employee: JSONShapes.Person?
        var shift: JSONShapes.ShiftEntry?
        var motd: String?
    }
    struct RosterEvent: Encodable {
        var event = "rosterChanged"
        var revision: UInt64
        var changes: [ChangeEntry]
    }
    struct MessageEvent: Encodable {
        var event: String
        var message: String
        var retryAfterMs: Int64?
    }

    public static func json(_ update: RosterUpdate) -> String {
        switch update {
        case .connectionState(let state):
            return JSONShapes.line(StateEvent(state: state.description))
        case .synced(let roster):
            return JSONShapes.line(SyncedEvent(revision: roster.revision, epoch: String(roster.epoch),
                                               employees: roster.state.employees.count, shifts: roster.state.shifts.count))
        case .rosterChanged(let revision, let changes):
            return JSONShapes.line(RosterEvent(revision: revision, changes: changes.map(entry)))
        case .onDutyChanged(let status):
            return JSONShapes.line(JSONShapes.OnDuty(status, source: "server", event: "onDuty"))
        case .resyncing(let reason):
            return JSONShapes.line(MessageEvent(event: "resync", message: reason))
        case .goingAway(let reason, let retryAfter):
            let millis = retryAfter.components.seconds * 1000 + retryAfter.components.attoseconds / 1_000_000_000_000_000
            return JSONShapes.line(MessageEvent(event: "goingAway", message: reason, retryAfterMs: millis))
        case .cacheProblem(let problem):
            return JSONShapes.line(MessageEvent(event: "warning", message: problem.description))
        case .refused(let error):
            return JSONShapes.line(MessageEvent(event: "error", message: error.description))
        }
    }

    static func entry(_ change: RosterChange) -> ChangeEntry {
        switch change {
        case .employeeUpserted(let employee):
            return ChangeEntry(kind: "employeeUpserted", id: employee.id, employee: JSONShapes.Person(employee))
        case .employeeDeleted(let id):
            return ChangeEntry(kind: "employeeDeleted", id: id)
        case .shiftAdded(let shift):
            return ChangeEntry(kind: "shiftAdded", id: shift.id, shift: JSONShapes.ShiftEntry(shift))
        case .shiftDeleted(let id):
            return ChangeEntry(kind: "shiftDeleted", id: id)
        case .motdSet(let motd):
            return ChangeEntry(kind: "motdSet", motd: motd)
        }
    }
}
