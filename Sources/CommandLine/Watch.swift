import Foundation
import RosterClient
import RosterDomain
import RosterViewModels

/// What the watch screen does besides showing the roster: browsing the directory with a
/// selection, typing a search, or showing one person.
public struct WatchView: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case browse
        /// Keys go to the search text.
        case searching
        /// One person's detail, by employee id.
        case detail(String)
    }

    public var mode: Mode = .browse
    /// Index into the people listed, in screen order.
    public var selection = 0

    public init() {}
}

/// A key the watch screen understands.
public enum WatchKey: Sendable, Equatable {
    case character(Character)
    case enter, backspace, escape, up, down

    /// The keys in what one read from a terminal in non-canonical mode returned: arrows arrive
    /// as ESC [ A and ESC [ B, a lone ESC is Escape.
    public static func decode(_ bytes: [UInt8]) -> [WatchKey] {
        var keys: [WatchKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                    let code = bytes[index + 2]
                    if code == UInt8(ascii: "A") {
                        keys.append(.up)
                    } else if code == UInt8(ascii: "B") {
                        keys.append(.down)
                    }
                    index += 3
                    continue
                }
                keys.append(.escape)
            case 0x0A, 0x0D: keys.append(.enter)
            case 0x08, 0x7F: keys.append(.backspace)
            case 0x20..<0x7F: keys.append(.character(Character(UnicodeScalar(byte))))
            default:
                // UTF-8 text typed into the search (an accented letter): take the whole sequence.
                if byte >= 0xC0 {
                    var end = index + 1
                    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                    if let text = String(bytes: bytes[index..<end], encoding: .utf8) {
                        keys += text.map(WatchKey.character)
                    }
                    index = end
                    continue
                }
            }
            index += 1
        }
        return keys
    }
}

/// The live screen: `RosterScreenModel` in a terminal and nothing else. Tenant and motd, on duty
/// now (until when, who is next), the directory grouped by position or team with a search, one
/// person's detail, the model's message, and a status line with the keys.
@MainActor
public struct WatchScreen {
    public let model: RosterScreenModel
    public var view: WatchView
    public var server: String
    public var display: Display

    public init(model: RosterScreenModel, view: WatchView = WatchView(), server: String, display: Display) {
        self.model = model
        self.view = view
        self.server = server
        self.display = display
    }

    /// The people listed, in screen order (what the selection indexes).
    public var people: [Employee] { model.sections.flatMap(\.employees) }

    /// Applies a key to the model and the view; false means quit.
    public mutating func handle(_ key: WatchKey) -> Bool {
        switch (view.mode, key) {
        case (.searching, .enter):
            view.mode = .browse
        case (.searching, .escape):
            model.searchText = ""
            view.mode = .browse
        case (.searching, .backspace):
            if !model.searchText.isEmpty { model.searchText.removeLast() }
        case (.searching, .character(let character)):
            model.searchText.append(character)
        case (.detail, .escape), (.detail, .enter), (.detail, .backspace), (.detail, .character("q")):
            view.mode = .browse
        case (.browse, .character("q")), (.browse, .character("Q")):
            return false
        case (.browse, .character("/")):
            view.mode = .searching
        case (.browse, .character("g")):
            model.grouping = model.grouping == .position ? .team : .position
        case (.browse, .escape):
            model.searchText = ""
        case (.browse, .up), (.browse, .character("k")):
            view.selection -= 1
        case (.browse, .down), (.browse, .character("j")):
            view.selection += 1
        case (.browse, .enter):
            if people.indices.contains(view.selection) { view.mode = .detail(people[view.selection].id) }
        default:
            break
        }
        view.selection = min(max(0, view.selection), max(0, people.count - 1))
        return true
    }

    /// The screen as lines, at most `height` of them, none wider than `width`.
    public func lines(now: UnixMillis, width: Int = 100, height: Int = 40) -> [String] {
        var top: [String] = []
        if model.roster != nil {
            top.append(model.tenantName)
            if !model.motd.isEmpty { top.append(model.motd) }
        } else {
            top.append("Roster — \(server)")
        }
        // Above the on-duty lines, which can fill a small terminal: "No connection" must show.
        if let message = model.message(now: Date(timeIntervalSince1970: Double(now) / 1000)) { top.append(message) }
        if let notice = model.notice { top.append("Note: \(notice)") }
        if model.roster != nil {
            top.append("")
            top += onDutyLines(now: now)
            top += coverRequestLines(now: now)
        }
        top.append("")
        let bottom = ["", status()]
        let room = max(0, height - top.count - bottom.count)
        if case .detail(let id) = view.mode {
            top += detailLines(EmployeeDetailModel(employeeID: id, screen: model), now: now)
        } else if model.roster != nil {
            top += directoryLines(room: room)
        }
        return fit(top, bottom: bottom, width: width, height: height)
    }

    private func onDutyLines(now: UnixMillis) -> [String] {
        var lines = ["ON DUTY NOW"]
        let named = model.onDuty.count > 1
        for schedule in model.onDuty {
            let status = schedule.status
            if named { lines.append(" \(schedule.name)") }
            if status.current.isEmpty { lines.append("  Nobody is on duty.") }
            for entry in status.current {
                let role = [entry.employee.position, entry.employee.team].filter { !$0.isEmpty }.joined(separator: ", ")
                let until =
                    "until \(display.clock(entry.shift.end, now: now)) (in \(Display.duration(millis: entry.shift.end - now)))"
                lines.append("  ● \(entry.employee.fullName)\(role.isEmpty ? "" : " — \(role)")   \(until)")
                let contact = [entry.employee.email, entry.employee.phone].filter { !$0.isEmpty }.joined(
                    separator: " · ")
                if !contact.isEmpty { lines.append("    \(contact)") }
            }
            if let until = status.until {
                lines.append(
                    "  Next: \(Display.incoming(status)) at \(display.clock(until, now: now)) (in \(Display.duration(millis: until - now)))"
                )
            }
        }
        return lines
    }

    /// Open cover requests, soonest first (at most five): who asks, for which stretch, whom.
    private func coverRequestLines(now: UnixMillis) -> [String] {
        guard let state = model.roster?.state else { return [] }
        let open = state.sortedSchedules.flatMap { schedule in
            schedule.requests.filter { $0.state(at: now) == .open }.map { (schedule, $0) }
        }.sorted { $0.1.start < $1.1.start }
        guard !open.isEmpty else { return [] }
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        var lines = ["", "OPEN COVER REQUESTS (roster-client request take ID)"]
        for (schedule, request) in open.prefix(5) {
            let whom = request.addressedTo.isEmpty ? "anyone" : request.addressedTo.map(name).joined(separator: ", ")
            lines.append(
                "  \(request.id)  \(name(request.requester)) on \(schedule.name): \(display.dateTime(request.start)) – "
                    + "\(display.dateTime(request.end)), for \(whom)\(request.note.isEmpty ? "" : " — \(request.note)")"
            )
        }
        if open.count > 5 { lines.append("  … and \(open.count - 5) more: roster-client requests --state open") }
        return lines
    }

    /// The directory's sections, scrolled so that the selection is on screen.
    private func directoryLines(room: Int) -> [String] {
        let other = model.grouping == .position ? "team" : "position"
        var header = "EMPLOYEES by \(model.grouping.rawValue) · g: by \(other)"
        switch view.mode {
        case .searching: header += " · search: \(model.searchText)▏ (Enter: done, Esc: clear)"
        case _ where !model.searchText.isEmpty: header += " · search: \(model.searchText) (/: edit, Esc: clear)"
        default: header += " · /: search"
        }
        var rows: [String] = []
        var selectedRow = 0
        var index = 0
        let onDuty = Set(model.onDuty.flatMap { $0.status.current.map(\.employee.id) })
        for section in model.sections {
            rows.append(section.name)
            for employee in section.employees {
                if index == view.selection { selectedRow = rows.count }
                let name =
                    employee.fullName + String(repeating: " ", count: max(0, 24 - DisplayWidth.of(employee.fullName)))
                var table = [
                    name,
                    model.grouping == .position ? employee.team : employee.position, employee.email, employee.phone,
                ]
                .filter { !$0.isEmpty }.joined(separator: "  ")
                if onDuty.contains(employee.id) { table += "  ● on duty" }
                if model.contacts?.matches(employee) == true { table += "  ✓ contact" }
                rows.append((index == view.selection ? "  ▸ " : "    ") + table)
                index += 1
            }
        }
        if rows.isEmpty, !model.searchText.isEmpty { rows.append("  Nobody matches \"\(model.searchText)\".") }
        let visible = max(1, room - 1)
        let first = min(max(0, selectedRow - visible / 2), max(0, rows.count - visible))
        return [header] + rows.dropFirst(first).prefix(visible)
    }

    private func detailLines(_ detail: EmployeeDetailModel, now: UnixMillis) -> [String] {
        guard detail.employee != nil else { return ["This person is no longer in the directory. (Esc: back)"] }
        var lines = ["\(detail.fullName)   (Esc: back)"]
        let fields: [(String, String)] = [
            ("Position", detail.position), ("Team", detail.team), ("Email", detail.email), ("Phone", detail.phone),
            ("Projects", detail.projects.joined(separator: ", ")), ("Type", detail.employeeType.rawValue),
            ("Photo", detail.photoURL?.absoluteString ?? ""),
        ]
        for (name, value) in fields where !value.isEmpty {
            lines.append("  \(name + ":")\(String(repeating: " ", count: max(1, 10 - name.count)))\(value)")
        }
        if !detail.biography.isEmpty { lines += ["", "  \(detail.biography)"] }
        if let contact = detail.contact {
            lines += [
                "",
                "  In your contacts as \(contact.fullName): "
                    + (contact.phones + contact.emails).joined(separator: " · "),
            ]
        }
        lines.append("")
        let schedules = detail.nextDuty(now: now)
        if schedules.isEmpty { lines.append("  Not on duty on any schedule in the next 4 weeks.") }
        for (schedule, stretches) in schedules {
            lines.append("  On duty on \(schedule) (\(display.zoneName)):")
            for stretch in stretches {
                lines.append(
                    "    " + display.stretch(stretch) + "  "
                        + stretch.pieces.map(\.source.description).joined(separator: ", "))
            }
        }
        return lines
    }

    private func status() -> String {
        var parts = [model.connection.description]
        if let roster = model.roster { parts.append("revision \(roster.revision)") }
        parts.append(server)
        parts.append(view.mode == .browse ? "↑↓ Enter: details · q: quit" : "Ctrl-C: quit")
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
        /// scheduleUpserted: its cover requests that are open or taken and not yet over, each in
        /// the state it is in now, so that a script sees a request open, taken or go.
        var requests: [RequestEntry]?
    }
    struct RequestEntry: Encodable {
        var id, state, requesterId, start, end: String
        var takerId: String?
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
            return JSONShapes.line(
                SyncedEvent(
                    revision: roster.revision, epoch: String(roster.epoch),
                    employees: roster.state.employees.count, shifts: roster.state.shifts.count))
        case .rosterChanged(let revision, let changes):
            return JSONShapes.line(RosterEvent(revision: revision, changes: changes.map(entry)))
        case .onDutyChanged(let status):
            return onDutyLine(status, source: "server")
        case .resyncing(let reason):
            return JSONShapes.line(MessageEvent(event: "resync", message: reason))
        case .goingAway(let reason, let retryAfter):
            let millis =
                retryAfter.components.seconds * 1000 + retryAfter.components.attoseconds / 1_000_000_000_000_000
            return JSONShapes.line(MessageEvent(event: "goingAway", message: reason, retryAfterMs: millis))
        case .cacheProblem(let problem):
            return JSONShapes.line(MessageEvent(event: "warning", message: problem.description))
        case .refused(let error):
            return JSONShapes.line(MessageEvent(event: "error", message: error.description))
        }
    }

    /// Who is on duty on one schedule, from the server's push or (offline) the cached plan.
    static func onDutyLine(_ status: OnDutyStatus, source: String) -> String {
        var shape = JSONShapes.OnDuty(status, source: source, event: "onDuty")
        if status.scheduleID != ScheduleDefinition.defaultID {
            shape.schedule = status.scheduleName
            shape.scheduleId = status.scheduleID
        }
        return JSONShapes.line(shape)
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
        case .scheduleUpserted(let schedule):
            let now = UnixMillis.now
            let live = schedule.requests.filter { [.open, .taken].contains($0.state(at: now)) && $0.end > now }
            return ChangeEntry(
                kind: "scheduleUpserted", id: schedule.id,
                requests: live.isEmpty
                    ? nil
                    : live.map {
                        RequestEntry(
                            id: $0.id, state: $0.state(at: now).rawValue, requesterId: $0.requester,
                            start: TimeText.iso8601($0.start), end: TimeText.iso8601($0.end), takerId: $0.taker)
                    })
        case .scheduleDeleted(let id):
            return ChangeEntry(kind: "scheduleDeleted", id: id)
        case .timeOffSet(let entry):
            return ChangeEntry(kind: "timeOffSet", id: entry.id)
        case .timeOffDeleted(let id):
            return ChangeEntry(kind: "timeOffDeleted", id: id)
        case .holidaysSet(let calendar):
            return ChangeEntry(kind: "holidaysSet", id: calendar.name)
        case .holidaysDeleted(let name):
            return ChangeEntry(kind: "holidaysDeleted", id: name)
        case .escalationPolicySet(let policy):
            return ChangeEntry(kind: "escalationPolicySet", id: policy.id)
        case .escalationPolicyDeleted(let id):
            return ChangeEntry(kind: "escalationPolicyDeleted", id: id)
        case .serviceSet(let service):
            return ChangeEntry(kind: "serviceSet", id: service.id)
        case .serviceDeleted(let id):
            return ChangeEntry(kind: "serviceDeleted", id: id)
        }
    }
}
