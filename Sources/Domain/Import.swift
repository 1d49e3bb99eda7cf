import Foundation
import SwiftCSV

/// The file formats an admin can import in bulk (docs/PROTOCOL.md, "Import formats").
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Our snapshot JSON: {tenant, employees[], schedules[], shifts[]}.
    case snapshotJSON = "snapshot-json"
    /// The original roster app's JSON: {tenant, motd, scheduledToday{name, fromDate, toDate}, roster[...]}.
    case legacyAppJSON = "legacy-json"
    case employeesCSV = "employees-csv"
    case shiftsCSV = "shifts-csv"
    /// A PagerDuty schedule as its REST API returns it: {schedule: {name, time_zone, schedule_layers[]}}.
    case pagerDutyJSON = "pagerduty-json"
}

/// How an import treats what already exists.
public struct ImportOptions: Sendable, Hashable {
    /// Everything of the kinds the format carries that the file does not hold is removed: the
    /// directory for an employees file, the plan for a shifts file, both for the JSON formats.
    public var replace: Bool
    /// A record naming an existing employee (by id or full name) or shift (by id) changes it,
    /// only in the fields the file gives. Without it such a record is an error, unless it would
    /// change nothing (then it is reported unchanged and skipped).
    public var updateExisting: Bool

    public init(replace: Bool = false, updateExisting: Bool = false) {
        self.replace = replace
        self.updateExisting = updateExisting
    }
}

/// What one record of an import does.
public enum ImportAction: String, Sendable, Hashable, CaseIterable {
    case added, updated, unchanged, removed
}

public struct ImportRow: Sendable, Hashable {
    public var action: ImportAction
    /// "employee", "shift" or "motd".
    public var kind: String
    public var id: String
    public var description: String
    /// "line 3", "employees[2]"; empty for removals.
    public var location: String

    public init(action: ImportAction, kind: String, id: String, description: String, location: String) {
        self.action = action
        self.kind = kind
        self.id = id
        self.description = description
        self.location = location
    }
}

/// An import, checked against a tenant's state: the changes to commit (records that change
/// nothing are left out; an employee's removal is preceded by their shifts'), and what each
/// record does, for a dry run or the result.
public struct ImportPlan: Sendable {
    public var changes: [RosterImport.Located]
    public var rows: [ImportRow]

    public func count(_ action: ImportAction) -> Int { rows.filter { $0.action == action }.count }
}

/// Turns an import file into a plan against a tenant's current state.
///
/// Every bad record is reported with its location ("employees[2]", "line 5") and field, all in
/// one pass (at most `maxViolations`); nothing is applied unless the whole file is valid.
public struct RosterImport {
    public typealias Located = (location: String, change: RosterChange)
    public static let maxViolations = 100

    let current: RosterState
    let options: ImportOptions
    let newID: (_ prefix: String) -> String
    var violations: [RosterViolation] = []
    /// Violations that only say "this exists already" (ALREADY_EXISTS when they are all there is).
    var conflicts = 0
    var changes: [Located] = []
    var rows: [ImportRow] = []
    /// Employees known so far by folded full name: the directory plus this file.
    var idsByName: [String: String] = [:]
    /// Where this file first named each employee (folded full name or id) and shift.
    var employeeSeenAt: [String: String] = [:]
    var shiftSeenAt: [String: String] = [:]
    /// Existing records the file matched (kept by a replace).
    var matchedEmployees = Set<String>()
    var matchedShifts = Set<String>()

    /// The plan for `data`. Throws every violation at once.
    public static func plan(
        format: ImportFormat, data: Data, options: ImportOptions = ImportOptions(), current: RosterState,
        now: UnixMillis = .now,
        newID: @escaping (_ prefix: String) -> String
    ) throws(RosterError) -> ImportPlan {
        var importer = RosterImport(current: current, options: options, newID: newID)
        importer.idsByName = Dictionary(
            current.employees.values.map { (TextFolding.fold($0.fullName), $0.id) },
            uniquingKeysWith: { first, _ in first })
        switch format {
        case .snapshotJSON: importer.parseSnapshotJSON(data)
        case .pagerDutyJSON: importer.parsePagerDutySchedule(data)
        case .legacyAppJSON: importer.parseLegacyJSON(data)
        case .employeesCSV: importer.parseEmployeesCSV(data)
        case .shiftsCSV: importer.parseShiftsCSV(data)
        }
        if options.replace { importer.removeUnmatched(format: format) }
        // The records' own rules (names, emails, times), checked with the rest in one pass.
        do throws(RosterError) {
            _ = try current.applyingValidated(importer.changes, now: now)
        } catch {
            switch error {
            case .invalid(let found), .alreadyExists(let found): importer.violations += found
            case .notFound(let what, _): importer.reject("document", "", "\(what) not found")
            case .overBudget(let why), .denied(let why), .notNow(let why), .full(let why), .missing(let why):
                importer.reject("document", "", why)
            }
        }
        if !importer.violations.isEmpty {
            var found = importer.violations
            if found.count > maxViolations {
                let more = found.count - maxViolations
                found = Array(found.prefix(maxViolations))
                found.append(RosterViolation(location: "document", field: "", message: "and \(more) more errors"))
            }
            throw importer.conflicts == importer.violations.count ? .alreadyExists(found) : .invalid(found)
        }
        return ImportPlan(changes: importer.changes, rows: importer.rows)
    }

    /// The changes `plan` would commit.
    public static func changes(
        format: ImportFormat, data: Data, replace: Bool = false, current: RosterState,
        newID: @escaping (_ prefix: String) -> String
    ) throws(RosterError) -> [Located] {
        try plan(format: format, data: data, options: ImportOptions(replace: replace), current: current, newID: newID)
            .changes
    }

    init(current: RosterState, options: ImportOptions, newID: @escaping (String) -> String) {
        self.current = current
        self.options = options
        self.newID = newID
    }

    mutating func reject(_ location: String, _ field: String, _ message: String) {
        violations.append(RosterViolation(location: location, field: field, message: message))
    }

    mutating func conflict(_ location: String, _ field: String, _ message: String) {
        reject(location, field, message)
        conflicts += 1
    }

    mutating func row(_ action: ImportAction, _ kind: String, _ id: String, _ description: String, _ location: String) {
        rows.append(ImportRow(action: action, kind: kind, id: id, description: description, location: location))
    }

    // MARK: Employees

    /// An employee record: the fields the file gave (`present`), the rest at their defaults.
    mutating func addEmployee(_ parsed: Employee, present: Set<EmployeeField>, at location: String) {
        let folded = TextFolding.fold(parsed.fullName)
        let hasName =
            present.contains(.firstName) && present.contains(.lastName)
            && !parsed.firstName.isEmpty && !parsed.lastName.isEmpty
        // The same person twice in one file: which row wins would be a guess.
        if hasName, let earlier = employeeSeenAt["name:" + folded] {
            reject(location, "name", "\"\(parsed.fullName)\" is also on \(earlier)")
            return
        }
        if !parsed.id.isEmpty, let earlier = employeeSeenAt["id:" + parsed.id] {
            reject(location, "id", "\"\(parsed.id)\" is also on \(earlier)")
            return
        }
        if hasName { employeeSeenAt["name:" + folded] = location }
        if !parsed.id.isEmpty { employeeSeenAt["id:" + parsed.id] = location }

        let existing =
            parsed.id.isEmpty
            ? (hasName ? idsByName[folded].flatMap { current.employees[$0] } : nil)
            : current.employees[parsed.id]
        guard let existing else {
            var employee = parsed
            if employee.id.isEmpty { employee.id = newID("e") }
            if hasName { idsByName[folded] = employee.id }
            changes.append((location, .employeeUpserted(employee)))
            row(.added, "employee", employee.id, employee.fullName, location)
            return
        }
        matchedEmployees.insert(existing.id)
        let merged = existing.merging(parsed, fields: present)
        if merged == existing {
            row(.unchanged, "employee", existing.id, existing.fullName, location)
            return
        }
        guard options.updateExisting || options.replace else {
            conflict(
                location, parsed.id.isEmpty ? "name" : "id",
                """
                employee \(existing.id) "\(existing.fullName)" already exists; --update-existing changes the fields this file gives
                """)
            return
        }
        if hasName { idsByName[folded] = existing.id }
        changes.append((location, .employeeUpserted(merged)))
        row(.updated, "employee", existing.id, merged.fullName, location)
    }

    /// An employee reference: an id known in this file or the directory, or a full name.
    func resolveEmployee(_ reference: String) -> String? {
        if current.employees[reference] != nil || idsByName.values.contains(reference) { return reference }
        return idsByName[TextFolding.fold(reference.trimmingCharacters(in: .whitespaces))]
    }

    func employeeName(_ id: String) -> String {
        if let employee = current.employees[id] { return employee.fullName }
        for (_, change) in changes {
            if case .employeeUpserted(let employee) = change, employee.id == id { return employee.fullName }
        }
        return id
    }

    // MARK: Shifts

    mutating func addShift(
        id: String, employee reference: String, start: UnixMillis?, end: UnixMillis?,
        role: String?, scheduleID: String = "", at location: String, employeeField: String
    ) {
        guard let employeeID = resolveEmployee(reference) else {
            reject(location, employeeField, reference.isEmpty ? "is empty" : "unknown employee \"\(reference)\"")
            return
        }
        guard let start, let end else { return }  // already reported by the time parser
        // A shift without an id is known by its schedule, person, times and role: the same person
        // and times on another schedule are another shift.
        let schedule = ShiftTable.scheduleKey(scheduleID)
        let key = "\(schedule)|\(employeeID)|\(start)|\(end)|\(role ?? "")"
        if let earlier = shiftSeenAt["same:" + key] {
            reject(location, employeeField, "the same shift as \(earlier)")
            return
        }
        if !id.isEmpty, let earlier = shiftSeenAt["id:" + id] {
            reject(location, "id", "\"\(id)\" is also on \(earlier)")
            return
        }
        shiftSeenAt["same:" + key] = location
        if !id.isEmpty { shiftSeenAt["id:" + id] = location }

        let existing =
            id.isEmpty
            ? current.shifts.values.first {
                $0.employeeID == employeeID && $0.start == start && $0.end == end && $0.role == (role ?? "")
                    && ShiftTable.scheduleKey($0.scheduleID) == schedule
            }
            : current.shifts[id]
        var shift = Shift(
            id: id, employeeID: employeeID, start: start, end: end, role: role ?? "", scheduleID: scheduleID)
        guard let existing else {
            if shift.id.isEmpty { shift.id = newID("s") }
            changes.append((location, .shiftAdded(shift)))
            row(.added, "shift", shift.id, describe(shift: shift), location)
            return
        }
        matchedShifts.insert(existing.id)
        shift.id = existing.id
        if role == nil { shift.role = existing.role }  // no role column: keep it
        if shift == existing {
            row(.unchanged, "shift", existing.id, describe(shift: existing), location)
            return
        }
        guard options.updateExisting || options.replace else {
            conflict(location, "id", "shift \(existing.id) already exists; --update-existing changes it")
            return
        }
        changes.append((location, .shiftAdded(shift)))
        row(.updated, "shift", shift.id, describe(shift: shift), location)
    }

    func describe(shift: Shift) -> String {
        "\(employeeName(shift.employeeID)) \(TimeText.iso8601(shift.start))–\(TimeText.iso8601(shift.end))"
            + (shift.role.isEmpty ? "" : " \(shift.role)")
    }

    // MARK: Replace

    /// Removes what the file did not match, of the kinds its format carries.
    mutating func removeUnmatched(format: ImportFormat) {
        // A PagerDuty file carries one schedule: it replaces that schedule only (as its upsert does).
        guard format != .pagerDutyJSON else { return }
        let directory = format != .shiftsCSV, plan = format != .employeesCSV
        var removals: [Located] = []
        let rowsOfTheFile = rows
        rows = []
        let removedEmployees =
            directory
            ? Set(current.employees.keys.filter { !matchedEmployees.contains($0) }) : []
        for shift in current.sortedShifts where !matchedShifts.contains(shift.id) {
            guard plan || removedEmployees.contains(shift.employeeID) else { continue }
            removals.append(("replace", .shiftDeleted(id: shift.id)))
            row(.removed, "shift", shift.id, "\(employeeName(shift.employeeID)) \(TimeText.iso8601(shift.start))", "")
        }
        for employee in current.sortedEmployees where removedEmployees.contains(employee.id) {
            removals.append(("replace", .employeeDeleted(id: employee.id)))
            row(.removed, "employee", employee.id, employee.fullName, "")
        }
        // Removals first: a renamed person may take a name the file frees.
        changes = removals + changes
        rows += rowsOfTheFile
    }

    // MARK: Fields

    mutating func time(_ value: Any?, at location: String, field: String) -> UnixMillis? {
        switch value {
        case let number as NSNumber where !(value is String):
            return number.int64Value
        case let text as String:
            if let parsed = TimeText.parseISO8601(text) { return parsed }
            reject(location, field, "\"\(text)\" is not an ISO 8601 time")
        case nil, is NSNull:
            reject(location, field, "is missing")
        default:
            reject(location, field, "is not a time")
        }
        return nil
    }

    mutating func jsonObject(_ data: Data) -> [String: Any]? {
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                reject("document", "", "is not a JSON object")
                return nil
            }
            return object
        } catch {
            reject("document", "", "is not valid JSON")
            return nil
        }
    }

    mutating func setMotd(_ motd: String, at location: String) {
        if motd == current.tenant.motd {
            row(.unchanged, "motd", "", motd, location)
        } else {
            changes.append((location, .motdSet(motd)))
            row(.updated, "motd", "", motd, location)
        }
    }
}
