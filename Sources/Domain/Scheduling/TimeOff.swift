/// A person away from duty over [start, end): a holiday, a conference, a sick day. Time off
/// belongs to the person, not to a schedule: every schedule that would put them on duty then
/// shows a conflict (`DutyConflicts`), and a rotation with `Rotation.onTimeOff == .skip` hands
/// the stretch to the next available person in its order instead.
public struct TimeOff: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var reason: String
    /// "ics:UID" for an event read from an iCalendar file (importing the file again replaces
    /// it); empty for time off entered by hand.
    public var source: String
    /// The token that recorded it (set by the server).
    public var author: String

    public init(
        id: String = "", employeeID: String, start: UnixMillis, end: UnixMillis, reason: String = "",
        source: String = "",
        author: String = ""
    ) {
        (self.id, self.employeeID, self.start, self.end) = (id, employeeID, start, end)
        (self.reason, self.source, self.author) = (reason, source, author)
    }

    /// The most time off one person keeps (past entries included; deleting old ones makes room).
    public static let maxPerPerson = 200
    /// The longest single entry.
    public static let maxLength: UnixMillis = 366 * 86_400_000
}

extension RosterState {
    /// Everything wrong with `entry` as the state's time off, each naming its field.
    func violations(of entry: TimeOff, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if let problem = TextLimits.idProblem(entry.id) { add("id", problem) }
        if employees[entry.employeeID] == nil { add("employee_id", "unknown employee \"\(entry.employeeID)\"") }
        if !TimeRange.supported.contains(entry.start) || !TimeRange.supported.contains(entry.end) {
            add("start", TimeRange.message)
        }
        if entry.start >= entry.end { add("end", "the start is not before the end") }
        if entry.end - entry.start > TimeOff.maxLength { add("end", "time off is at most 366 days at a time") }
        if let problem = TextLimits.lineProblem(entry.reason, limit: TextLimits.maxLine) { add("reason", problem) }
        if entry.source.count > TextLimits.maxLine || ControlCharacters.contains(in: entry.source) {
            add("source", "is not a source the server writes")
        }
        let others = timeOff(of: entry.employeeID).filter { $0.id != entry.id }
        if others.count >= TimeOff.maxPerPerson {
            add(
                "employee_id",
                "\(employees[entry.employeeID]?.fullName ?? entry.employeeID) has \(TimeOff.maxPerPerson) entries of time off "
                    + "already (the most kept): delete old ones first")
        }
        if let overlap = others.first(where: { $0.start < entry.end && entry.start < $0.end }) {
            add("start", "overlaps time off \(overlap.id) of the same person; change or delete that one first")
        }
        return found
    }

    /// The schedules with a rotation that names `person` and hands their time off on: those
    /// whose resolution a change to the person's time off alters.
    public func schedulesSkippingTimeOff(of person: String) -> [String] {
        schedules.values.filter { schedule in
            schedule.layers.contains {
                $0.rotations.contains { $0.onTimeOff == .skip && $0.slots.contains { $0.contains(person) } }
            }
        }.map(\.id)
    }

    /// The schedules that can put someone whose time off `changes` touch on duty (rotations,
    /// overrides, one-off and temporary shifts naming them): where conflicts may come or go.
    public static func schedulesNamingTimeOff(of changes: [RosterChange], previous: RosterState, current: RosterState)
        -> Set<String>
    {
        var people = Set<String>()
        for change in changes {
            switch change {
            case .timeOffSet(let entry):
                people.insert(entry.employeeID)
                if let before = previous.timeOff[entry.id] { people.insert(before.employeeID) }
            case .timeOffDeleted(let id):
                if let before = previous.timeOff[id] { people.insert(before.employeeID) }
            default: break
            }
        }
        guard !people.isEmpty else { return [] }
        var ids = Set<String>()
        for schedule in current.schedules.values where people.contains(where: schedule.names) {
            ids.insert(schedule.id)
        }
        for person in people { ids.formUnion(current.shifts.schedules(ofEmployee: person)) }
        return ids
    }

    /// The schedules a time-off or holiday change resolves differently, read against the state
    /// before it (`self`): those whose rotations hand the person's time off on, and those whose
    /// restrictions name the calendar. Empty for every other change.
    public func schedulesMoved(by change: RosterChange) -> Set<String> {
        var found = Set<String>()
        switch change {
        case .timeOffSet(let entry):
            found.formUnion(schedulesSkippingTimeOff(of: entry.employeeID))
            if let previous = timeOff[entry.id] { found.formUnion(schedulesSkippingTimeOff(of: previous.employeeID)) }
        case .timeOffDeleted(let id):
            if let previous = timeOff[id] { found.formUnion(schedulesSkippingTimeOff(of: previous.employeeID)) }
        case .holidaysSet(let calendar):
            found.formUnion(schedules(namingHolidays: [calendar.name]))
        default:
            break  // a calendar's deletion is refused while a schedule names it
        }
        return found
    }

    /// A person's time off, by start.
    public func timeOff(of employeeID: String) -> [TimeOff] {
        (timeOffByPerson[employeeID] ?? []).compactMap { timeOff[$0] }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// Time off overlapping [from, to) of the people given (everyone for nil), by start.
    public func timeOff(from: UnixMillis, to: UnixMillis, of people: Set<String>? = nil) -> [TimeOff] {
        let candidates: [TimeOff] =
            if let people {
                people.flatMap { timeOffByPerson[$0] ?? [] }.compactMap { timeOff[$0] }
            } else {
                Array(timeOff.values)
            }
        return candidates.filter { $0.start < to && from < $0.end }.sorted {
            ($0.start, $0.employeeID, $0.id) < ($1.start, $1.employeeID, $1.id)
        }
    }
}
