import Foundation

/// A tenant's directory and plan in the import formats, so that `admin import` of an export
/// gives back the same state: ids, every field and the motd are kept.
public enum RosterExport {
    /// SNAPSHOT_JSON: {tenant, employees[], schedules[], shifts[]}, times as ISO 8601 UTC with
    /// milliseconds. `schedules` holds every schedule with rules (the default one only then).
    public static func snapshotJSON(_ state: RosterState) -> Data {
        let employees: [[String: Any]] = state.sortedEmployees.map { employee in
            [
                "id": employee.id, "firstName": employee.firstName, "lastName": employee.lastName,
                "email": employee.email,
                "phone": employee.phone, "position": employee.position, "team": employee.team,
                "projects": employee.projects,
                "biography": employee.biography, "photoURL": employee.photoURL, "type": employee.type.rawValue,
                "chat": employee.chat,
            ]
        }
        let shifts: [[String: Any]] = state.sortedShifts.map { shift in
            var entry: [String: Any] = [
                "id": shift.id, "employeeId": shift.employeeID, "start": time(shift.start),
                "end": time(shift.end), "role": shift.role,
            ]
            if !shift.scheduleID.isEmpty { entry["scheduleId"] = shift.scheduleID }
            return entry
        }
        let schedules = state.sortedSchedules.filter { $0.id != ScheduleDefinition.defaultID || $0.hasRules }.map(
            schedule)
        let root: [String: Any] = [
            "tenant": ["id": state.tenant.id, "name": state.tenant.name, "motd": state.tenant.motd],
            "employees": employees, "shifts": shifts, "schedules": schedules,
        ]
        // Every value is a string, number, list or object: serialization cannot fail.
        return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }

    /// One schedule's definition in the snapshot JSON (what `RosterImport` reads back).
    public static func schedule(_ schedule: ScheduleDefinition) -> [String: Any] {
        let layers: [[String: Any]] = schedule.layers.map { layer in
            [
                "level": layer.level,
                "rotations": layer.rotations.map { rotation -> [String: Any] in
                    let (unit, count): (String, Int) =
                        switch rotation.cadence {
                        case .minutes(let n): ("minutes", n)
                        case .hours(let n): ("hours", n)
                        case .days(let n): ("days", n)
                        case .weeks(let n): ("weeks", n)
                        case .months(let n): ("months", n)
                        }
                    var entry: [String: Any] = [
                        "id": rotation.id, "slots": rotation.slots, "cadence": ["unit": unit, "count": count],
                        "handoff": rotation.handoff.description, "advance": rotation.advance.rawValue,
                        "version": rotation.version, "slotOffset": rotation.slotOffset,
                        "restrictions": rotation.restrictions.map { window -> [String: Any] in
                            [
                                "weekdays": window.weekdays.sorted(),
                                "start": RestrictionWindow.clockText(window.start),
                                "end": RestrictionWindow.clockText(window.end),
                            ]
                        },
                    ]
                    if let end = rotation.end { entry["end"] = time(end) }
                    if let since = rotation.since { entry["since"] = time(since) }
                    return entry
                },
            ]
        }
        let overrides: [[String: Any]] = schedule.overrides.map { override in
            var entry: [String: Any] = [
                "id": override.id, "start": time(override.start), "end": time(override.end),
                "author": override.author, "reason": override.reason,
            ]
            switch override.kind {
            case .replace(let replaced, let with):
                (entry["kind"], entry["employeeId"], entry["replacedEmployeeId"]) = ("replace", with, replaced)
            case .add(let person): (entry["kind"], entry["employeeId"]) = ("add", person)
            case .remove(let person): (entry["kind"], entry["employeeId"]) = ("remove", person)
            }
            return entry
        }
        return [
            "id": schedule.id, "name": schedule.name, "zone": schedule.zone, "team": schedule.team,
            "description": schedule.description, "layers": layers, "overrides": overrides,
            "readersMayVolunteer": schedule.readersMayVolunteer,
        ]
    }

    /// EMPLOYEES_CSV with every column; projects joined with "; ".
    public static func employeesCSV(_ state: RosterState) -> String {
        var lines = [RosterImport.employeeColumns.joined(separator: ",")]
        for employee in state.sortedEmployees {
            lines.append(
                [
                    employee.id, employee.firstName, employee.lastName, employee.email, employee.phone,
                    employee.position, employee.team, employee.projects.joined(separator: "; "), employee.biography,
                    employee.photoURL, employee.type.rawValue, ChatHandles.text(employee.chat),
                ].map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// SHIFTS_CSV; the employee column holds the employee's id.
    public static func shiftsCSV(_ state: RosterState) -> String {
        var lines = [RosterImport.shiftColumns.joined(separator: ",")]
        for shift in state.sortedShifts {
            lines.append(
                [shift.id, shift.employeeID, time(shift.start), time(shift.end), shift.role].map(csvField)
                    .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Milliseconds kept: an export must read back to the same instant.
    static func time(_ instant: UnixMillis) -> String {
        TimeText.iso8601Millis(instant)
    }

    /// Quoted when it holds a comma, quote or line break (RFC 4180), or would lose edge spaces.
    public static func csvField(_ text: String) -> String {
        let needsQuotes =
            text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
