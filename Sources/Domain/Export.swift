import Foundation

/// A tenant's directory and plan in the import formats, so that `admin import` of an export
/// gives back the same state: ids, every field and the motd are kept.
public enum RosterExport {
    /// SNAPSHOT_JSON: {tenant, employees[], shifts[]}, times as ISO 8601 UTC with milliseconds.
    public static func snapshotJSON(_ state: RosterState) -> Data {
        let employees: [[String: Any]] = state.sortedEmployees.map { employee in
            ["id": employee.id, "firstName": employee.firstName, "lastName": employee.lastName, "email": employee.email,
             "phone": employee.phone, "position": employee.position, "team": employee.team, "projects": employee.projects,
             "biography": employee.biography, "photoURL": employee.photoURL, "type": employee.type.rawValue]
        }
        let shifts: [[String: Any]] = state.sortedShifts.map { shift in
            ["id": shift.id, "employeeId": shift.employeeID, "start": time(shift.start), "end": time(shift.end),
             "role": shift.role]
        }
        let root: [String: Any] = [
            "tenant": ["id": state.tenant.id, "name": state.tenant.name, "motd": state.tenant.motd],
            "employees": employees, "shifts": shifts,
        ]
        // Every value is a string, number, list or object: serialization cannot fail.
        return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }

    /// EMPLOYEES_CSV with every column; projects joined with "; ".
    public static func employeesCSV(_ state: RosterState) -> String {
        var lines = [RosterImport.employeeColumns.joined(separator: ",")]
        for employee in state.sortedEmployees {
            lines.append([employee.id, employee.firstName, employee.lastName, employee.email, employee.phone,
                          employee.position, employee.team, employee.projects.joined(separator: "; "), employee.biography,
                          employee.photoURL, employee.type.rawValue].map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// SHIFTS_CSV; the employee column holds the employee's id.
    public static func shiftsCSV(_ state: RosterState) -> String {
        var lines = [RosterImport.shiftColumns.joined(separator: ",")]
        for shift in state.sortedShifts {
            lines.append([shift.id, shift.employeeID, time(shift.start), time(shift.end), shift.role].map(csvField)
                .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Milliseconds kept: an export must read back to the same instant.
    static func time(_ instant: UnixMillis) -> String {
        Date(timeIntervalSince1970: Double(instant) / 1000).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Quoted when it holds a comma, quote or line break (RFC 4180), or would lose edge spaces.
    static func csvField(_ text: String) -> String {
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
