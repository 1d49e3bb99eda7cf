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
    private var conflicts = 0
    var changes: [Located] = []
    var rows: [ImportRow] = []
    /// Employees known so far by folded full name: the directory plus this file.
    var idsByName: [String: String] = [:]
    /// Where this file first named each employee (folded full name or id) and shift.
    private var employeeSeenAt: [String: String] = [:]
    private var shiftSeenAt: [String: String] = [:]
    /// Existing records the file matched (kept by a replace).
    private var matchedEmployees = Set<String>()
    private var matchedShifts = Set<String>()

    /// The plan for `data`. Throws every violation at once.
    public static func plan(
        format: ImportFormat, data: Data, options: ImportOptions = ImportOptions(), current: RosterState, now: UnixMillis = .now,
        newID: @escaping (_ prefix: String) -> String
    ) throws(RosterError) -> ImportPlan {
        var importer = RosterImport(current: current, options: options, newID: newID)
        importer.idsByName = Dictionary(
            current.employees.values.map { (TextFolding.fold($0.fullName), $0.id) }, uniquingKeysWith: { first, _ in first })
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
            case .overBudget(let why): importer.reject("document", "", why)
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
        try plan(format: format, data: data, options: ImportOptions(replace: replace), current: current, newID: newID).changes
    }

    private init(current: RosterState, options: ImportOptions, newID: @escaping (String) -> String) {
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
    private mutating func addEmployee(_ parsed: Employee, present: Set<EmployeeField>, at location: String) {
        let folded = TextFolding.fold(parsed.fullName)
        let hasName = present.contains(.firstName) && present.contains(.lastName)
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

        let existing = parsed.id.isEmpty
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
            conflict(location, parsed.id.isEmpty ? "name" : "id", """
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

    private mutating func addShift(id: String, employee reference: String, start: UnixMillis?, end: UnixMillis?,
                                   role: String?, scheduleID: String = "", at location: String, employeeField: String) {
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

        let existing = id.isEmpty
            ? current.shifts.values.first {
                $0.employeeID == employeeID && $0.start == start && $0.end == end && $0.role == (role ?? "")
                    && ShiftTable.scheduleKey($0.scheduleID) == schedule
            }
            : current.shifts[id]
        var shift = Shift(id: id, employeeID: employeeID, start: start, end: end, role: role ?? "", scheduleID: scheduleID)
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

    private func describe(shift: Shift) -> String {
        "\(employeeName(shift.employeeID)) \(TimeText.iso8601(shift.start))–\(TimeText.iso8601(shift.end))"
            + (shift.role.isEmpty ? "" : " \(shift.role)")
    }

    // MARK: Replace

    /// Removes what the file did not match, of the kinds its format carries.
    private mutating func removeUnmatched(format: ImportFormat) {
        // A PagerDuty file carries one schedule: it replaces that schedule only (as its upsert does).
        guard format != .pagerDutyJSON else { return }
        let directory = format != .shiftsCSV, plan = format != .employeesCSV
        var removals: [Located] = []
        let rowsOfTheFile = rows
        rows = []
        let removedEmployees = directory
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

    private mutating func setMotd(_ motd: String, at location: String) {
        if motd == current.tenant.motd {
            row(.unchanged, "motd", "", motd, location)
        } else {
            changes.append((location, .motdSet(motd)))
            row(.updated, "motd", "", motd, location)
        }
    }

    // MARK: Snapshot JSON

    private mutating func parseSnapshotJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        let employees = root["employees"] as? [Any] ?? []
        if root["employees"] != nil && root["employees"] as? [Any] == nil { reject("document", "employees", "is not a list") }
        for (index, item) in employees.enumerated() {
            let location = "employees[\(index)]"
            guard let record = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            var fields = FieldReader(record: record, location: location)
            let (employee, present) = fields.employee(projects: { $0.strings("projects") })
            violations += fields.violations
            guard fields.violations.isEmpty else { continue }
            addEmployee(employee, present: present, at: location)
        }
        // Schedules name employees (above) and one-off shifts name schedules (below).
        parseSchedules(root["schedules"])
        let shifts = root["shifts"] as? [Any] ?? []
        if root["shifts"] != nil && root["shifts"] as? [Any] == nil { reject("document", "shifts", "is not a list") }
        for (index, item) in shifts.enumerated() {
            let location = "shifts[\(index)]"
            guard let record = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            var fields = FieldReader(record: record, location: location)
            let id = fields.string("id"), employee = fields.string("employeeId")
            let role = fields.has("role") ? fields.string("role") : nil
            let schedule = fields.string("scheduleId")
            violations += fields.violations
            let start = time(fields.value("start"), at: location, field: "start")
            let end = time(fields.value("end"), at: location, field: "end")
            var scheduleID = ""
            if !schedule.isEmpty {
                guard let found = resolveSchedule(schedule) else {
                    reject(location, "scheduleId", "unknown schedule \"\(schedule)\""); continue
                }
                scheduleID = found
            }
            addShift(id: id, employee: employee, start: start, end: end, role: role, scheduleID: scheduleID, at: location,
                     employeeField: "employeeId")
        }
        if let tenant = root["tenant"] as? [String: Any], let motd = tenant["motd"] as? String {
            setMotd(motd, at: "tenant")
        }
    }

    // MARK: The original app's JSON

    private mutating func parseLegacyJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        var entries: [(String, [String: Any])] = []
        if let today = root["scheduledToday"] as? [String: Any] { entries.append(("scheduledToday", today)) }
        if let roster = root["roster"] as? [Any] {
            for (index, item) in roster.enumerated() {
                guard let record = item as? [String: Any] else { reject("roster[\(index)]", "", "is not an object"); continue }
                entries.append(("roster[\(index)]", record))
            }
        } else if root["roster"] != nil {
            reject("document", "roster", "is not a list")
        }
        var seen = Set<String>()
        for (location, record) in entries {
            guard let name = (record["name"] as? String)?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
                reject(location, "name", "is missing"); continue
            }
            let start = time(record["fromDate"], at: location, field: "fromDate")
            let end = time(record["toDate"], at: location, field: "toDate")
            // scheduledToday usually repeats one of the roster's entries.
            guard seen.insert("\(TextFolding.fold(name))|\(start ?? 0)|\(end ?? 0)").inserted else { continue }
            // People are references here: known ones are used as they are, unknown ones created.
            if resolveEmployee(name) == nil {
                let parts = name.split(separator: " ")
                let last = parts.count > 1 ? String(parts.last!) : ""
                let first = parts.count > 1 ? parts.dropLast().joined(separator: " ") : name
                addEmployee(Employee(firstName: first, lastName: last), present: [.firstName, .lastName], at: location)
            } else if let id = resolveEmployee(name), current.employees[id] != nil {
                matchedEmployees.insert(id)
            }
            addShift(id: "", employee: name, start: start, end: end, role: nil, at: location, employeeField: "name")
        }
        if let motd = root["motd"] as? String { setMotd(motd, at: "motd") }
    }

    // MARK: CSV

    /// The rows of a CSV file with a header that has every `required` column and no unknown one;
    /// nil (with violations) otherwise. Line numbers count the header as line 1.
    private mutating func csvRows(_ data: Data, required: [String], known: [String])
        -> (columns: Set<String>, rows: [(line: Int, fields: [String: String])])?
    {
        guard let text = String(data: data, encoding: .utf8) else {
            reject("document", "", "is not UTF-8 text")
            return nil
        }
        if let line = CSVText.unclosedQuoteLine(text) {
            reject("line \(line)", "", "a quoted field opened here is never closed")
            return nil
        }
        let csv: CSV<Enumerated>
        do {
            csv = try CSV<Enumerated>(string: text, delimiter: .comma, loadColumns: false)
        } catch {
            reject("document", "", "is not valid CSV (\(error))")
            return nil
        }
        let header = csv.header.map(FieldReader.normalize)
        let knownColumns = Dictionary(known.map { (FieldReader.normalize($0), $0) }, uniquingKeysWith: { first, _ in first })
        for (name, column) in zip(csv.header, header) where knownColumns[column] == nil {
            reject("line 1", "", "unknown column \"\(name)\" (known: \(known.joined(separator: ", ")))")
        }
        for column in required where !header.contains(FieldReader.normalize(column)) {
            reject("line 1", "", "missing column \(column)")
        }
        guard violations.isEmpty else { return nil }
        // SwiftCSV numbers records, not lines: a quoted field may span lines.
        let lines = CSVText.recordStartLines(text)
        let rows = csv.rows.enumerated().compactMap { index, row -> (line: Int, fields: [String: String])? in
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return nil }
            var fields: [String: String] = [:]
            for (column, value) in zip(header, row) { fields[column] = value.trimmingCharacters(in: .whitespaces) }
            return (index + 1 < lines.count ? lines[index + 1] : index + 2, fields)
        }
        return (Set(header), rows)
    }

    /// The columns of EMPLOYEES_CSV and SHIFTS_CSV, in export order.
    public static let employeeColumns = ["id", "first_name", "last_name", "email", "phone", "position", "team", "projects",
                                  "biography", "photo_url", "type", "chat"]
    public static let shiftColumns = ["id", "employee", "start", "end", "role"]

    private mutating func parseEmployeesCSV(_ data: Data) {
        guard let (columns, rows) = csvRows(data, required: ["first_name", "last_name"], known: Self.employeeColumns) else { return }
        for (line, row) in rows {
            let location = "line \(line)"
            var fields = FieldReader(record: row, location: location)
            let (employee, present) = fields.employee(projects: { fields in
                fields.string("projects").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            })
            violations += fields.violations
            guard fields.violations.isEmpty else { continue }
            addEmployee(employee, present: present.filter { columns.contains($0.column) }, at: location)
        }
    }

    private mutating func parseShiftsCSV(_ data: Data) {
        guard let (columns, rows) = csvRows(data, required: ["employee", "start", "end"], known: Self.shiftColumns) else { return }
        for (line, row) in rows {
            let location = "line \(line)"
            var fields = FieldReader(record: row, location: location)
            let start = time(row["start"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "start")
            let end = time(row["end"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "end")
            let id = fields.string("id"), employee = fields.string("employee")
            let role = columns.contains("role") ? fields.string("role") : nil
            violations += fields.violations
            addShift(id: id, employee: employee, start: start, end: end, role: role, at: location, employeeField: "employee")
        }
    }
}

/// The employee fields a file can give, by their CSV column and JSON key.
public enum EmployeeField: String, Sendable, CaseIterable {
    case id, firstName, lastName, email, phone, position, team, projects, biography, photoURL, type, chat

    /// The normalized column name (see `FieldReader.normalize`).
    var column: String { FieldReader.normalize(rawValue) }
}

extension Employee {
    /// This employee with the `fields` of `other` (the id stays).
    public func merging(_ other: Employee, fields: Set<EmployeeField>) -> Employee {
        var merged = self
        for field in fields {
            switch field {
            case .id: break
            case .firstName: merged.firstName = other.firstName
            case .lastName: merged.lastName = other.lastName
            case .email: merged.email = other.email
            case .phone: merged.phone = other.phone
            case .position: merged.position = other.position
            case .team: merged.team = other.team
            case .projects: merged.projects = other.projects
            case .biography: merged.biography = other.biography
            case .photoURL: merged.photoURL = other.photoURL
            case .type: merged.type = other.type
            case .chat: merged.chat = other.chat
            }
        }
        return merged
    }
}

/// What the CSV parser does not say: where a quoted field that never closes was opened, and on
/// which line each record starts.
enum CSVText {
    static func unclosedQuoteLine(_ text: String) -> Int? {
        scan(text).unclosedAt
    }

    static func recordStartLines(_ text: String) -> [Int] {
        scan(text).starts
    }

    private static func scan(_ text: String) -> (starts: [Int], unclosedAt: Int?) {
        var line = 1, starts = [1], inQuotes = false, openedAt = 0, atFieldStart = true
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { continue }  // an escaped quote
                        pending = next
                    }
                    inQuotes = false
                } else if scalar == "\n" {
                    line += 1
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                inQuotes = true
                openedAt = line
                atFieldStart = false
            case ",":
                atFieldStart = true
            case "\n":
                line += 1
                starts.append(line)
                atFieldStart = true
            case "\r":
                break
            default:
                atFieldStart = false
            }
        }
        return (starts, inQuotes ? openedAt : nil)
    }
}

/// Reads loosely-typed record fields (JSON objects, CSV rows), collecting what is wrong.
struct FieldReader {
    let record: [String: Any]
    let location: String
    var violations: [RosterViolation] = []

    init(record: [String: Any], location: String) {
        // Keys match ignoring case and punctuation: first_name, firstName and "First name" are one.
        self.record = Dictionary(record.map { (Self.normalize($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.location = location
    }

    static func normalize(_ key: String) -> String {
        key.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    func has(_ key: String) -> Bool { record[Self.normalize(key)] != nil }

    func value(_ key: String) -> Any? { record[Self.normalize(key)] }

    /// An employee from the record's fields, and which fields it gave.
    mutating func employee(projects: (inout FieldReader) -> [String]) -> (Employee, Set<EmployeeField>) {
        let present = Set(EmployeeField.allCases.filter { has($0.rawValue) })
        let employee = Employee(
            id: string("id"), firstName: string("firstName"), lastName: string("lastName"), email: string("email"),
            phone: string("phone"), position: string("position"), team: string("team"), projects: projects(&self),
            biography: string("biography"), photoURL: string("photoURL"), type: employeeType("type"), chat: chatHandles("chat"))
        return (employee, present)
    }

    mutating func string(_ key: String) -> String {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return ""
        case let text as String: return text
        default:
            violations.append(RosterViolation(location: location, field: key, message: "is not text"))
            return ""
        }
    }

    mutating func strings(_ key: String) -> [String] {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return []
        case let list as [Any]:
            let texts = list.compactMap { $0 as? String }
            if texts.count != list.count {
                violations.append(RosterViolation(location: location, field: key, message: "is not a list of text"))
            }
            return texts
        default:
            violations.append(RosterViolation(location: location, field: key, message: "is not a list"))
            return []
        }
    }

    /// Chat handles: a JSON object of platform to handle, or the text "slack=U1; mattermost=ada".
    mutating func chatHandles(_ key: String) -> [String: String] {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return [:]
        case let text as String:
            switch ChatHandles.parse(text) {
            case .success(let handles): return handles
            case .failure(let problems):
                violations += problems.messages.map { RosterViolation(location: location, field: key, message: $0) }
                return [:]
            }
        case let object as [String: Any]:
            var handles: [String: String] = [:]
            for (platform, value) in object {
                guard let handle = value as? String else {
                    violations.append(RosterViolation(location: location, field: key, message: "the \(platform) handle is not text"))
                    continue
                }
                handles[platform] = handle
            }
            return handles
        default:
            violations.append(RosterViolation(location: location, field: key, message: "is not an object of platform to handle"))
            return [:]
        }
    }

    mutating func employeeType(_ key: String) -> EmployeeType {
        let text = string(key)
        if let type = EmployeeType(parsing: text) { return type }
        violations.append(RosterViolation(location: location, field: key,
                                          message: "\"\(text)\" is not one of full-time, part-time, contractor"))
        return .unspecified
    }
}

extension EmployeeType {
    /// Accepts "full-time", "FULL_TIME", "Full time", "fulltime" and the like.
    public init?(parsing text: String) {
        switch text.lowercased().filter({ $0.isLetter }) {
        case "": self = .unspecified
        case "fulltime": self = .fullTime
        case "parttime": self = .partTime
        case "contractor": self = .contractor
        default: return nil
        }
    }
}

/// ISO 8601 parsing shared by imports and the CLI.
public enum TimeText {
    /// The one reader of absolute instants: "2026-11-22T09:00:00Z", "2026-11-22T09:00Z", with a
    /// fraction of a second (".250", up to 9 digits; past the millisecond it is cut), and "Z" or
    /// a numeric offset ("+01:00", "+0100"). Every field at its exact width in ASCII digits, a
    /// day its month has: "2027-02-30T09:00:00Z" is refused, never moved to March. Exact integer
    /// arithmetic, so what `iso8601` writes reads back to the same millisecond.
    public static func parseISO8601(_ text: String) -> UnixMillis? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        // The date and clock: 16 bytes (no seconds) or 19.
        let clockEnd = bytes.count > 16 && bytes[16] == UInt8(ascii: ":") ? 19 : 16
        guard bytes.count > clockEnd, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let (local, second) = LocalDateTime.parse(String(decoding: bytes[0..<clockEnd], as: UTF8.self),
                                                        allowingDateOnly: false) else { return nil }
        func digit(_ byte: UInt8) -> Int? { (48...57).contains(byte) ? Int(byte) - 48 : nil }
        var index = clockEnd, millis = 0
        if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var count = 0
            while index < bytes.count, let value = digit(bytes[index]) {
                if count < 3 { millis = millis * 10 + value }
                count += 1
                index += 1
            }
            guard (1...9).contains(count) else { return nil }
            if count < 3 { for _ in count..<3 { millis *= 10 } }
        }
        var offsetMinutes = 0
        let zone = Array(bytes[index...])
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] {
            offsetMinutes = 0
        } else {
            guard zone.count == 6 || zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-") else { return nil }
            let colon = zone.count == 6
            guard !colon || zone[3] == UInt8(ascii: ":"),
                  let h1 = digit(zone[1]), let h2 = digit(zone[2]),
                  let m1 = digit(zone[colon ? 4 : 3]), let m2 = digit(zone[colon ? 5 : 4]) else { return nil }
            let hours = h1 * 10 + h2, minutes = m1 * 10 + m2
            guard hours <= 23, minutes <= 59 else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        }
        let days = WallClock.days(WallClock.Day(year: local.year, month: local.month, day: local.day))
        let seconds = days * 86_400 + local.hour * 3_600 + local.minute * 60 + second - offsetMinutes * 60
        return UnixMillis(seconds) * 1_000 + UnixMillis(millis)
    }

    /// "2026-11-22T09:00:00Z" for an instant, in UTC (whole seconds, rounded down).
    public static func iso8601(_ instant: UnixMillis) -> String {
        let (seconds, _) = floorDivision(instant, 1_000)
        return text(seconds: seconds, millis: nil)
    }

    /// "2026-11-22T09:00:00.250Z": every millisecond kept, so an export reads back exactly.
    public static func iso8601Millis(_ instant: UnixMillis) -> String {
        let (seconds, millis) = floorDivision(instant, 1_000)
        return text(seconds: seconds, millis: Int(millis))
    }

    private static func floorDivision(_ value: UnixMillis, _ divisor: UnixMillis) -> (UnixMillis, UnixMillis) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    private static func text(seconds: UnixMillis, millis: Int?) -> String {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let day = WallClock.day(fromDays: Int(days))
        let s = Int(secondOfDay)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", day.year, day.month, day.day, s / 3_600, s / 60 % 60, s % 60)
        if let millis { text += String(format: ".%03d", millis) }
        return text + "Z"
    }
}
