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

    public var description: String {
        switch self {
        case .invalid(let violations):
            return "invalid input: " + violations.map(\.description).joined(separator: "; ")
        case .alreadyExists(let violations):
            return "already exists: " + violations.map(\.description).joined(separator: "; ")
        case .notFound(let what, let suggestions):
            return suggestions.isEmpty ? "\(what) not found" : "\(what) not found; did you mean \(suggestions.joined(separator: ", "))?"
        }
    }
}

extension RosterState {
    /// Checks one change against this state. An empty result means it may be applied.
    public func violations(of change: RosterChange, at location: String = "") -> [RosterViolation] {
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
            guard naming.isEmpty else {
                return [RosterViolation(location: location, field: "id", message: "\(employees[id]?.fullName ?? id) is in "
                    + "the rotations or overrides of \(naming.map { "\"\($0)\"" }.joined(separator: ", ")); take them out first")]
            }
            return []
        case .scheduleUpserted(let schedule):
            return violations(of: schedule, at: location)
        case .scheduleDeleted(let id):
            return id == ScheduleDefinition.defaultID
                ? [RosterViolation(location: location, field: "id", message: "the default schedule cannot be deleted")] : []
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
        if employee.id.isEmpty { add("id", "is empty") }
        if employee.firstName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add("first_name", "is empty") }
        if employee.lastName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add("last_name", "is empty") }
        if !employee.email.isEmpty && !EmailAddress.isPlausible(employee.email) {
            add("email", "\"\(employee.email)\" is not an email address")
        }
        let lines: [(String, String)] = [("first_name", employee.firstName), ("last_name", employee.lastName),
                                         ("email", employee.email), ("phone", employee.phone), ("position", employee.position),
                                         ("team", employee.team), ("photo_url", employee.photoURL)]
            + employee.projects.map { ("projects", $0) }
        for (field, text) in lines where ControlCharacters.contains(in: text) {
            add(field, "contains a control character")
        }
        if ControlCharacters.contains(in: employee.biography, allowingLineBreaks: true) {
            add("biography", "contains a control character")
        }
        if let other = employeeIDs(named: employee.fullName).first(where: { $0 != employee.id }) {
            add("name", "\"\(employee.fullName)\" is already used by employee \(other)")
        }
        return found
    }

    func violations(of schedule: ScheduleDefinition, at location: String) -> [RosterViolation] {
        var found = schedule.violations(naming: { self.employees[$0]?.fullName ?? $0 }).map { violation in
            var located = violation
            if !location.isEmpty { located.location = [location, violation.location].filter { !$0.isEmpty }.joined(separator: ", ") }
            return located
        }
        if schedule.id.isEmpty { found.append(RosterViolation(location: location, field: "id", message: "is empty")) }
        for (field, text) in [("name", schedule.name), ("team", schedule.team)] where ControlCharacters.contains(in: text) {
            found.append(RosterViolation(location: location, field: field, message: "contains a control character"))
        }
        if let other = self.schedule(idOrName: schedule.name), other.id != schedule.id, !schedule.name.isEmpty,
           TextFolding.fold(other.name) == TextFolding.fold(schedule.name) {
            found.append(RosterViolation(location: location, field: "name", message: "\"\(schedule.name)\" is already the name of schedule \(other.id)"))
        }
        for person in schedule.mentionedEmployees.sorted() where employees[person] == nil {
            found.append(RosterViolation(location: location, field: "employee_id", message: "unknown employee \"\(person)\""))
        }
        return found
    }

    func violations(of shift: Shift, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        if shift.id.isEmpty { found.append(RosterViolation(location: location, field: "id", message: "is empty")) }
        if ControlCharacters.contains(in: shift.role) {
            found.append(RosterViolation(location: location, field: "role", message: "contains a control character"))
        }
        if shift.start >= shift.end {
            found.append(RosterViolation(location: location, field: "end", message: "the start is not before the end"))
        }
        if employees[shift.employeeID] == nil {
            found.append(RosterViolation(location: location, field: "employee_id", message: "unknown employee \"\(shift.employeeID)\""))
        }
        if !shift.scheduleID.isEmpty && schedules[shift.scheduleID] == nil {
            found.append(RosterViolation(location: location, field: "schedule_id", message: "unknown schedule \"\(shift.scheduleID)\""))
        }
        return found
    }

    /// Validates changes in order, each against the state the earlier ones produce, and returns
    /// the resulting state. Nothing is applied when any change is invalid: all violations are
    /// reported together. Deleting something that does not exist is `notFound`.
    public func applyingValidated(_ changes: [(location: String, change: RosterChange)]) throws(RosterError) -> RosterState {
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
            case .shiftDeleted(let id) where next.shifts[id] == nil:
                if changes.count == 1 { throw .notFound("shift \"\(id)\"", suggestions: []) }
                found.append(RosterViolation(location: location, field: "id", message: "unknown shift \"\(id)\""))
                continue
            default:
                break
            }
            let problems = next.violations(of: change, at: location)
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
            let distance = name.contains(wanted) || TextFolding.fold(employee.lastName) == wanted
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

enum EmailAddress {
    /// A deliberately loose check: one "@", something before it, a dot in the domain, no spaces.
    static func isPlausible(_ text: String) -> Bool {
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
