import Foundation
import SwiftCSV

/// Reading each import format into the plan: snapshot JSON, the original app's JSON, CSV.
extension RosterImport {
    // MARK: Snapshot JSON

    mutating func parseSnapshotJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        let employees = root["employees"] as? [Any] ?? []
        if root["employees"] != nil && root["employees"] as? [Any] == nil {
            reject("document", "employees", "is not a list")
        }
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
            addShift(
                id: id, employee: employee, start: start, end: end, role: role, scheduleID: scheduleID, at: location,
                employeeField: "employeeId")
        }
        if let tenant = root["tenant"] as? [String: Any], let motd = tenant["motd"] as? String {
            setMotd(motd, at: "tenant")
        }
    }

    // MARK: The original app's JSON

    mutating func parseLegacyJSON(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        var entries: [(String, [String: Any])] = []
        if let today = root["scheduledToday"] as? [String: Any] { entries.append(("scheduledToday", today)) }
        if let roster = root["roster"] as? [Any] {
            for (index, item) in roster.enumerated() {
                guard let record = item as? [String: Any] else {
                    reject("roster[\(index)]", "", "is not an object"); continue
                }
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
    mutating func csvRows(_ data: Data, required: [String], known: [String])
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
        let knownColumns = Dictionary(
            known.map { (FieldReader.normalize($0), $0) }, uniquingKeysWith: { first, _ in first })
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
    public static let employeeColumns = [
        "id", "first_name", "last_name", "email", "phone", "position", "team", "projects",
        "biography", "photo_url", "type", "chat",
    ]
    public static let shiftColumns = ["id", "employee", "start", "end", "role"]

    mutating func parseEmployeesCSV(_ data: Data) {
        guard let (columns, rows) = csvRows(data, required: ["first_name", "last_name"], known: Self.employeeColumns)
        else { return }
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

    mutating func parseShiftsCSV(_ data: Data) {
        guard let (columns, rows) = csvRows(data, required: ["employee", "start", "end"], known: Self.shiftColumns)
        else { return }
        for (line, row) in rows {
            let location = "line \(line)"
            var fields = FieldReader(record: row, location: location)
            let start = time(row["start"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "start")
            let end = time(row["end"].flatMap { $0.isEmpty ? nil : $0 }, at: location, field: "end")
            let id = fields.string("id"), employee = fields.string("employee")
            let role = columns.contains("role") ? fields.string("role") : nil
            violations += fields.violations
            addShift(
                id: id, employee: employee, start: start, end: end, role: role, at: location, employeeField: "employee")
        }
    }
}
