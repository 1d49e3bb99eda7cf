import Foundation
import SwiftCSV

/// The file formats an admin can import in bulk (docs/PROTOCOL.md, "Import formats").
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Our snapshot JSON: {tenant, employees[], shifts[]}.
    case snapshotJSON = "snapshot-json"
    /// The original roster app's JSON: {tenant, motd, scheduledToday{name, fromDate, toDate}, roster[...]}.
    case legacyAppJSON = "legacy-json"
    case employeesCSV = "employees-csv"
    case shiftsCSV = "shifts-csv"
}

/// Turns an import file into validated-ready changes against a tenant's current state.
///
/// Every bad record is reported with its location ("employees[2]", "line 5") and field; the
/// caller applies nothing unless the whole batch is valid (`RosterState.applyingValidated`).
public struct RosterImport {
    public typealias Located = (location: String, change: RosterChange)

    private let current: RosterState
    private let newID: (_ prefix: String) -> String
    private var violations: [RosterViolation] = []
    private var changes: [Located] = []
    /// Employees known so far by folded full name: the current directory plus this batch.
    private var idsByName: [String: String] = [:]

    /// - Parameter newID: makes a fresh id for a record that has none ("e" employees, "s" shifts).
    public static func changes(
        format: ImportFormat, data: Data, replace: Bool = false, current: RosterState,
        newID: @escaping (_ prefix: String) -> String
    ) throws(RosterError) -> [Located] {
        var importer = RosterImport(current: replace ? RosterState(tenant: current.tenant) : current, newID: newID)
        if replace {
            // Deleting an employee also deletes their shifts.
            importer.changes = current.sortedEmployees.map { ("replace", .employeeDeleted(id: $0.id)) }
        }
        importer.idsByName = Dictionary(
            importer.current.employees.values.map { (TextFolding.fold($0.fullName), $0.id) },
            uniquingKeysWith: { first, _ in first })
        switch format {
        case .snapshotJSON: importer.parseSnapshotJSON(data)
        case .legacyAppJSON: importer.parseLegacyJSON(data)
        case .employeesCSV: importer.parseEmployeesCSV(data)
        case .shiftsCSV: importer.parseShiftsCSV(data)
        }
        if !importer.violations.isEmpty { throw .invalid(importer.violations) }
        return importer.changes
    }

    private init(current: RosterState, newID: @escaping (String) -> String) {
        self.current = current
        self.newID = newID
    }

    private mutating func reject(_ location: String, _ field: String, _ message: String) {
        violations.append(RosterViolation(location: location, field: field, message: message))
    }

    private mutating func addEmployee(_ employee: Employee, at location: String) {
        var employee = employee
        if employee.id.isEmpty {
            employee.id = idsByName[TextFolding.fold(employee.fullName)] ?? newID("e")
        }
        idsByName[TextFolding.fold(employee.fullName)] = employee.id
        changes.append((location, .employeeUpserted(employee)))
    }

    /// An employee reference: an id known in this batch or the directory, or a full name.
    private func resolveEmployee(_ reference: String) -> String? {
        if current.employees[reference] != nil || idsByName.values.contains(reference) { return reference }
        return idsByName[TextFolding.fold(reference.trimmingCharacters(in: .whitespaces))]
    }

    private mutating func addShift(id: String, employee reference: String, start: UnixMillis?, end: UnixMillis?,
                                   role: String, at location: String, employeeField: String) {
        guard let employeeID = resolveEmployee(reference) else {
            reject(location, employeeField, reference.isEmpty ? "is empty" : "unknown employee \"\(reference)\"")
            return
        }
        guard let start, let end else { return }  // already reported by the time parser
        changes.append((location, .shiftAdded(Shift(id: id.isEmpty ? newID("s") : id, employeeID: employeeID,
                                                    start: start, end: end, role: role))))
    }

    private mutating func time(_ value: Any?, at location: String, field: String) -> UnixMillis? {
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

    private mutating func jsonObject(_ data: Data) -> [String: Any]? {
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

    // MARK: Snapshot JSON

    private mutating func parseSnapshotJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        if let tenant = root["tenant"] as? [String: Any], let motd = tenant["motd"] as? String {
            changes.append(("tenant", .motdSet(motd)))
        }
        let employees = root["employees"] as? [Any] ?? []
        if root["employees"] != nil && root["employees"] as? [Any] == nil { reject("document", "employees", "is not a list") }
        for (index, item) in employees.enumerated() {
            let location = "employees[\(index)]"
            guard let record = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            var fields = FieldReader(record: record, location: location)
            let employee = Employee(
                id: fields.string("id"), firstName: fields.string("firstName"), lastName: fields.string("lastName"),
                email: fields.string("email"), phone: fields.string("phone"), position: fields.string("position"),
                team: fields.string("team"), projects: fields.strings("projects"), biography: fields.string("biography"),
                photoURL: fields.string("photoURL"), type: fields.employeeType("type"))
            violations += fields.violations
            addEmployee(employee, at: location)
        }
        let shifts = root["shifts"] as? [Any] ?? []
        if root["shifts"] != nil && root["shifts"] as? [Any] == nil { reject("document", "shifts", "is not a list") }
        for (index, item) in shifts.enumerated() {
            let location = "shifts[\(index)]"
            guard let record = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            var fields = FieldReader(record: record, location: location)
            let id = fields.string("id"), employee = fields.string("employeeId"), role = fields.string("role")
            violations += fields.violations
            let start = time(record["start"], at: location, field: "start")
            let end = time(record["end"], at: location, field: "end")
            addShift(id: id, employee: employee, start: start, end: end, role: role, at: location, employeeField: "employeeId")
        }
    }

    // MARK: The original app's JSON

    private mutating func parseLegacyJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        if let motd = root["motd"] as? String { changes.append(("motd", .motdSet(motd))) }
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
            if resolveEmployee(name) == nil {
                let parts = name.split(separator: " ")
                let last = parts.count > 1 ? String(parts.last!) : ""
                let first = parts.count > 1 ? parts.dropLast().joined(separator: " ") : name
                addEmployee(Employee(firstName: first, lastName: last), at: location)
            }
            addShift(id: "", employee: name, start: start, end: end, role: "", at: location, employeeField: "name")
        }
    }

    // MARK: CSV

    private mutating func csvRows(_ data: Data) -> [(line: Int, fields: [String: String])]? {
        guard let text = String(data: data, encoding: .utf8) else {
            reject("document", "", "is not UTF-8 text")
            return nil
        }
        do {
            let csv = try CSV<Enumerated>(string: text, delimiter: .comma, loadColumns: false)
            let header = csv.header.map(FieldReader.normalize)
            return csv.rows.enumerated().compactMap { index, row in
                if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return nil }
                var fields: [String: String] = [:]
                for (column, value) in zip(header, row) { fields[column] = value.trimmingCharacters(in: .whitespaces) }
                return (index + 2, fields)
            }
        } catch {
            reject("document", "", "is not valid CSV (\(error))")
            return nil
        }
    }

    private mutating func parseEmployeesCSV(_ data: Data) {
        guard let rows = csvRows(data) else { return }
        for (line, row) in rows {
            let location = "line \(line)"
            var fields = FieldReader(record: row, location: location)
            let employee = Employee(
                id: fields.string("id"), firstName: fields.string("firstName"), lastName: fields.string("lastName"),
                email: fields.string("email"), phone: fields.string("phone"), position: fields.string("position"),
                team: fields.string("team"),
                projects: fields.string("projects").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) },
                biography: fields.string("biography"), photoURL: fields.string("photoURL"), type: fields.employeeType("type"))
            violations += fields.violations
            addEmployee(employee, at: location)
        }
    }

    private mutating func parseShiftsCSV(_ data: Data) {
        guard let rows = csvRows(data) else { return }
        for (line, row) in rows {
            let location = "line \(line)"
            var fields = FieldReader(record: row, location: location)
            let start = time(row["start"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "start")
            let end = time(row["end"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "end")
            let id = fields.string("id"), employee = fields.string("employee"), role = fields.string("role")
            violations += fields.violations
            addShift(id: id, employee: employee, start: start, end: end, role: role, at: location, employeeField: "employee")
        }
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
    /// Parses "2026-11-22T09:00:00Z", with fractional seconds, or with a numeric offset.
    public static func parseISO8601(_ text: String) -> UnixMillis? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let styles: [Date.ISO8601FormatStyle] = [
            .iso8601,
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
        ]
        for style in styles {
            if let date = try? style.parse(trimmed) { return UnixMillis((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        return nil
    }

    /// "2026-11-22T09:00:00Z" for an instant, in UTC.
    public static func iso8601(_ instant: UnixMillis) -> String {
        Date(timeIntervalSince1970: Double(instant) / 1000).formatted(.iso8601)
    }
}
