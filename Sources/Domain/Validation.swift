import Foundation

/// One rejected value: where it was ("employees[3]", "line 7", or empty for a single request),
/// which field, and a sentence a person understands.
public struct RosterViolation: Sendable, Hashable, CustomStringConvertible {
    public var location: String
    public var field: String
    public var message: String

    public init(location: String = "", field: String, message: String) {
        self.location = location
        self.field = field
        self.message = message
    }

    public var description: String {
        [location, field].filter { !$0.isEmpty }.joined(separator: ", ") + ": " + message
    }
}

/// Why a change to a roster was refused.
public enum RosterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One or more values are invalid; nothing was applied.
    case invalid([RosterViolation])
    /// The thing named does not exist; close matches, best first.
    case notFound(String, suggestions: [String])
    /// What was to be created exists already (and would be changed): each such record.
    case alreadyExists([RosterViolation])
    /// Answering would take more work than one request may (`ResolutionBudget`); the sentence
    /// says what to ask instead.
    case overBudget(String)
    /// The caller may not do this (a reader acting for someone else, on a schedule without
    /// self-service): the sentence says who may.
    case denied(String)
    /// The right caller at the wrong moment: the request is taken, the stretch has begun.
    case notNow(String)
    /// A store limit is reached (open cover requests on a schedule).
    case full(String)
    /// Something named is not there, in a whole sentence with what to do instead.
    case missing(String)

    public var description: String {
        switch self {
        case .denied(let why), .notNow(let why), .full(let why), .missing(let why):
            return why
        case .invalid(let violations):
            return "invalid input: " + violations.map(\.description).joined(separator: "; ")
        case .alreadyExists(let violations):
            return "already exists: " + violations.map(\.description).joined(separator: "; ")
        case .overBudget(let why):
            return why
        case .notFound(let what, let suggestions):
            return suggestions.isEmpty
                ? "\(what) not found" : "\(what) not found; did you mean \(suggestions.joined(separator: ", "))?"
        }
    }
}

/// The rules every id and name from outside follows, in one place: an id is what the store keys
/// records by (a NUL in it would be cut there, so `base\0x` would overwrite `base`), a name is
/// what people read.
public enum TextLimits {
    /// Characters in an id.
    public static let maxID = 128
    /// Characters in a name (a person's first or last name, a schedule's, a role, a team, a position).
    public static let maxName = 200
    /// Characters in other one-line fields (email, phone, photo URL, a project).
    public static let maxLine = 1_000

    /// What is wrong with `id`, or nil.
    public static func idProblem(_ id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if ControlCharacters.contains(in: id) { return "contains a control character" }
        if id.count > maxID { return "is longer than \(maxID) characters" }
        return nil
    }

    /// What is wrong with a one-line text field of at most `limit` characters, or nil.
    public static func lineProblem(_ text: String, limit: Int) -> String? {
        if ControlCharacters.contains(in: text) { return "contains a control character" }
        if text.count > limit { return "is longer than \(limit) characters" }
        return nil
    }
}

extension RosterState {
    /// Checks one change against this state. An empty result means it may be applied. `now`
    /// sizes a schedule's cost (`ScheduleDefinition.costViolations`).
    public func violations(of change: RosterChange, at location: String = "", now: UnixMillis = .now)
        -> [RosterViolation]
    {
        switch change {
        case .employeeUpserted(let employee):
            return violations(of: employee, at: location)
        case .shiftAdded(let shift):
            return violations(of: shift, at: location)
        case .shiftDeleted:
            return []

        case .employeeDeleted(let id):
            // A rotation or an override that names someone who is gone would resolve to nobody.
            let naming = schedules.values.filter { $0.mentionedEmployees.contains(id) }.map(\.name).sorted()
            let paged = violations(deletingTarget: .person(id), named: employees[id]?.fullName ?? id, at: location)
            guard naming.isEmpty else {
                return [
                    RosterViolation(
                        location: location, field: "id",
                        message: "\(employees[id]?.fullName ?? id) is in "
                            + "the rotations or overrides of \(naming.map { "\"\($0)\"" }.joined(separator: ", ")); take them out first"
                    )
                ]
            }
            return paged
        case .scheduleUpserted(let schedule):
            return violations(of: schedule, at: location, now: now)
        case .scheduleDeleted(let id):
            return id == ScheduleDefinition.defaultID
                ? [RosterViolation(location: location, field: "id", message: "the default schedule cannot be deleted")]
                : violations(
                    deletingTarget: .schedule(id), named: "schedule \"\(schedules[id]?.name ?? id)\"", at: location)
        case .timeOffSet(let entry):
            return violations(of: entry, at: location)
        case .timeOffDeleted:
            return []
        case .holidaysSet(let calendar):
            return violations(of: calendar, at: location)
        case .holidaysDeleted(let name):
            return violations(deletingHolidays: name, at: location)
        case .escalationPolicySet(let policy):
            return violations(of: policy, at: location)
        case .escalationPolicyDeleted(let id):
            return violations(deletingPolicy: id, at: location)
        case .serviceSet(let service):
            return violations(of: service, at: location)
        case .serviceDeleted:
            return []
        case .motdSet(let motd):
            if ControlCharacters.contains(in: motd, allowingLineBreaks: true) {
                return [RosterViolation(location: location, field: "motd", message: "contains a control character")]
            }
            return motd.count > 4096
                ? [RosterViolation(location: location, field: "motd", message: "is longer than 4096 characters")]
                : []
        }
    }

    func violations(of employee: Employee, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if let problem = TextLimits.idProblem(employee.id) { add("id", problem) }
        if employee.firstName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add("first_name", "is empty") }
        if employee.lastName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add("last_name", "is empty") }
        if !employee.email.isEmpty && !EmailAddress.isPlausible(employee.email) {
            add("email", "\"\(employee.email)\" is not an email address")
        }
        let lines: [(String, String, Int)] =
            [
                ("first_name", employee.firstName, TextLimits.maxName),
                ("last_name", employee.lastName, TextLimits.maxName),
                ("email", employee.email, TextLimits.maxLine), ("phone", employee.phone, TextLimits.maxLine),
                ("position", employee.position, TextLimits.maxName), ("team", employee.team, TextLimits.maxName),
                ("photo_url", employee.photoURL, TextLimits.maxLine),
            ] + employee.projects.map { ("projects", $0, TextLimits.maxLine) }
        for (field, text, limit) in lines {
            if let problem = TextLimits.lineProblem(text, limit: limit) { add(field, problem) }
        }
        if employee.projects.count > 100 { add("projects", "are at most 100") }
        if ControlCharacters.contains(in: employee.biography, allowingLineBreaks: true) {
            add("biography", "contains a control character")
        }
        if employee.biography.count > 10_000 { add("biography", "is longer than 10000 characters") }
        for problem in ChatHandles.problems(employee.chat) { add("chat", problem) }
        if let other = employeeIDs(named: employee.fullName).first(where: { $0 != employee.id }) {
            add("name", "\"\(employee.fullName)\" is already used by employee \(other)")
        }
        return found
    }

    func violations(of schedule: ScheduleDefinition, at location: String, now: UnixMillis) -> [RosterViolation] {
        let stored = Set(schedules[schedule.id]?.overrides.map(\.id) ?? [])
        let own = schedule.violations(naming: { self.employees[$0]?.fullName ?? $0 }, stored: stored)
        var found = (own + schedule.costViolations(now: now)).map { violation in
            var located = violation
            if !location.isEmpty {
                located.location = [location, violation.location].filter { !$0.isEmpty }.joined(separator: ", ")
            }
            return located
        }
        if let problem = TextLimits.idProblem(schedule.id) {
            found.append(RosterViolation(location: location, field: "id", message: problem))
        }
        for (field, text) in [("name", schedule.name), ("team", schedule.team)] {
            if let problem = TextLimits.lineProblem(text, limit: TextLimits.maxName) {
                found.append(RosterViolation(location: location, field: field, message: problem))
            }
        }
        if schedule.description.count > 10_000 {
            found.append(
                RosterViolation(location: location, field: "description", message: "is longer than 10000 characters"))
        }
        if let other = self.schedule(idOrName: schedule.name), other.id != schedule.id, !schedule.name.isEmpty,
            TextFolding.fold(other.name) == TextFolding.fold(schedule.name)
        {
            found.append(
                RosterViolation(
                    location: location, field: "name",
                    message: "\"\(schedule.name)\" is already the name of schedule \(other.id)"))
        }
        for person in schedule.mentionedEmployees.sorted() where employees[person] == nil {
            found.append(
                RosterViolation(location: location, field: "employee_id", message: "unknown employee \"\(person)\""))
        }
        for name in schedule.holidayNames.sorted() where holidays[name] == nil {
            found.append(
                RosterViolation(
                    location: location, field: "restrictions",
                    message: "no holiday calendar \"\(name)\" "
                        + "(`roster-client admin holidays import \(name) FILE.ics` adds it)"))
        }
        return found
    }

    func violations(of shift: Shift, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        if let problem = TextLimits.idProblem(shift.id) {
            found.append(RosterViolation(location: location, field: "id", message: problem))
        }
        if let problem = TextLimits.lineProblem(shift.role, limit: TextLimits.maxName) {
            found.append(RosterViolation(location: location, field: "role", message: problem))
        }
        if !TimeRange.supported.contains(shift.start) || !TimeRange.supported.contains(shift.end) {
            found.append(RosterViolation(location: location, field: "start", message: TimeRange.message))
        }
        if shift.start >= shift.end {
            found.append(RosterViolation(location: location, field: "end", message: "the start is not before the end"))
        }
        if employees[shift.employeeID] == nil {
            found.append(
                RosterViolation(
                    location: location, field: "employee_id", message: "unknown employee \"\(shift.employeeID)\""))
        }
        if !shift.scheduleID.isEmpty && schedules[shift.scheduleID] == nil {
            found.append(
                RosterViolation(
                    location: location, field: "schedule_id", message: "unknown schedule \"\(shift.scheduleID)\""))
        }
        return found
    }

    /// Validates changes in order, each against the state the earlier ones produce, and returns
    /// the resulting state. Nothing is applied when any change is invalid: all violations are
    /// reported together. Deleting something that does not exist is `notFound`.
    public func applyingValidated(
        _ changes: [(location: String, change: RosterChange)],
        now: UnixMillis = .now
    ) throws(RosterError) -> RosterState {
        var next = self
        var found: [RosterViolation] = []
        for (location, change) in changes {
            switch change {
            case .employeeDeleted(let id) where next.employees[id] == nil:
                if changes.count == 1 { throw .notFound("employee \"\(id)\"", suggestions: next.suggestions(for: id)) }
                found.append(RosterViolation(location: location, field: "id", message: "unknown employee \"\(id)\""))
                continue
            case .scheduleDeleted(let id) where next.schedules[id] == nil:
                if changes.count == 1 { throw .notFound("schedule \"\(id)\"", suggestions: []) }
                found.append(RosterViolation(location: location, field: "id", message: "unknown schedule \"\(id)\""))
                continue
            case .holidaysDeleted(let name) where next.holidays[name] == nil:
                if changes.count == 1 {
                    throw .notFound("holiday calendar \"\(name)\"", suggestions: next.holidays.keys.sorted())
                }
                found.append(
                    RosterViolation(location: location, field: "name", message: "unknown holiday calendar \"\(name)\""))
                continue
            case .escalationPolicyDeleted(let id) where next.escalation.policies[id] == nil:
                if changes.count == 1 {
                    throw .notFound(
                        "escalation policy \"\(id)\"", suggestions: next.escalation.sortedPolicies.prefix(5).map(\.name)
                    )
                }
                found.append(
                    RosterViolation(location: location, field: "id", message: "unknown escalation policy \"\(id)\""))
                continue
            case .serviceDeleted(let id) where next.escalation.services[id] == nil:
                if changes.count == 1 {
                    throw .notFound(
                        "service \"\(id)\"", suggestions: next.escalation.sortedServices.prefix(5).map(\.name))
                }
                found.append(RosterViolation(location: location, field: "id", message: "unknown service \"\(id)\""))
                continue
            case .timeOffDeleted(let id) where next.timeOff[id] == nil:
                if changes.count == 1 { throw .notFound("time off \"\(id)\"", suggestions: []) }
                found.append(RosterViolation(location: location, field: "id", message: "unknown time off \"\(id)\""))
                continue
            case .shiftDeleted(let id) where next.shifts[id] == nil:
                if changes.count == 1 { throw .notFound("shift \"\(id)\"", suggestions: []) }
                found.append(RosterViolation(location: location, field: "id", message: "unknown shift \"\(id)\""))
                continue
            default:
                break
            }
            let problems = next.violations(of: change, at: location, now: now)
            guard problems.isEmpty else {
                found += problems
                continue
            }
            next.apply(change)
        }
        if !found.isEmpty { throw .invalid(found) }
        return next
    }

    /// Full names close to `text`, best first, for "did you mean" answers.
    public func suggestions(for text: String, limit: Int = 3) -> [String] {
        let wanted = TextFolding.fold(text)
        guard !wanted.isEmpty else { return [] }
        let scored = employees.values.map { employee -> (Int, String) in
            let name = TextFolding.fold(employee.fullName)
            let distance =
                name.contains(wanted) || TextFolding.fold(employee.lastName) == wanted
                ? 0 : EditDistance.levenshtein(wanted, name)
            return (distance, employee.fullName)
        }
        let threshold = max(2, wanted.count / 3)
        // Everyone the search rule matches comes first (an ambiguous "Ada" names each Ada).
        let search = EmployeeSearch(text)
        let matching = employees.values.filter(search.matches).map(\.fullName).sorted()
        let close = scored.filter { $0.0 <= threshold }.sorted { $0 < $1 }.map(\.1).filter { !matching.contains($0) }
        return Array((matching + close).prefix(max(limit, matching.count)))
    }
}

public enum EmailAddress {
    /// A deliberately loose check: one "@", something before it, a dot in the domain, no spaces.
    public static func isPlausible(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }
}

enum EditDistance {
    static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
