import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
import RosterViewModels

/// The directory and who is on duty: `now`, `employees`, `search`, `show`, `shifts`.
extension CommandRunner {
    /// `now`: who is on duty on each schedule (or only `schedule`). A tenant with only the
    /// default schedule prints exactly what it did before schedules existed.
    public func now(at instant: UnixMillis?, offline: Bool, schedule: String? = nil) async -> ClientExitCode {
        await withCacheFallback(
            offline: offline,
            online: {
                var statuses: [(ScheduleDefinition, OnDutyStatus)] = []
                if let schedule {
                    let status = try await client.onDuty(at: instant, schedule: schedule)
                    let definitions = try await client.schedules()
                    statuses = [(definitions.first { $0.id == status.scheduleID } ?? .makeDefault(), status)]
                } else {
                    for definition in try await client.schedules() {
                        statuses.append((definition, try await client.onDuty(at: instant, schedule: definition.id)))
                    }
                }
                await refreshCache()
                printOnDuty(statuses, source: "server", ageSeconds: nil, named: schedule != nil)
                return .success
            },
            cached: { roster in
                var statuses: [(ScheduleDefinition, OnDutyStatus)] = []
                if let schedule {
                    guard let definition = roster.state.schedule(idOrName: schedule),
                        let status = roster.onDuty(schedule: definition.id, at: instant ?? .now)
                    else {
                        return notFound(schedule: schedule, among: roster.state.sortedSchedules)
                    }
                    statuses = [(definition, status)]
                } else {
                    for definition in roster.state.sortedSchedules {
                        if let status = roster.onDuty(schedule: definition.id, at: instant ?? .now) {
                            statuses.append((definition, status))
                        }
                    }
                }
                printOnDuty(statuses, source: "cache", ageSeconds: Int(roster.age()), named: schedule != nil)
                return .success
            })
    }

    /// One block per schedule; the default schedule is left out when other schedules exist and
    /// it has nothing on it.
    func printOnDuty(_ statuses: [(ScheduleDefinition, OnDutyStatus)], source: String, ageSeconds: Int?, named: Bool) {
        let shown =
            statuses.count <= 1
            ? statuses
            : statuses.filter { definition, status in
                definition.id != ScheduleDefinition.defaultID || !status.current.isEmpty || status.until != nil
            }
        let headed = named || shown.contains { $0.0.id != ScheduleDefinition.defaultID }
        // One JSON document: the schedule asked for, or the list of every schedule shown.
        if json {
            let shapes = shown.map { definition, status in
                var shape = JSONShapes.OnDuty(status, source: source, ageSeconds: ageSeconds)
                shape.schedule = definition.name
                shape.scheduleId = definition.id
                return shape
            }
            if named, let only = shapes.first {
                Self.out(JSONShapes.line(only))
            } else {
                Self.out(JSONShapes.line(shapes))
            }
            return
        }
        for (index, (definition, status)) in shown.enumerated() {
            if headed && !json {
                if index > 0 { Self.out("") }
                Self.out("\(definition.name) (\(definition.zone))")
            }
            printOnDuty(status, source: source, ageSeconds: ageSeconds, schedule: headed ? definition : nil)
        }
    }

    func printOnDuty(_ status: OnDutyStatus, source: String, ageSeconds: Int?, schedule: ScheduleDefinition? = nil) {
        if json {
            var shape = JSONShapes.OnDuty(status, source: source, ageSeconds: ageSeconds)
            shape.schedule = schedule?.name
            shape.scheduleId = schedule?.id
            Self.out(JSONShapes.line(shape))
            return
        }
        Self.out("On duty at \(display.dateTime(status.at)) (\(display.zoneName)):")
        if status.current.isEmpty { Self.out("  Nobody is on duty.") }
        var table = TextTable(["  NAME", "ROLE", "POSITION", "TEAM", "UNTIL (\(display.zoneName))", "PHONE", "EMAIL"])
        for entry in status.current {
            table.rows.append([
                "  " + entry.employee.fullName, entry.shift.role, entry.employee.position, entry.employee.team,
                display.dateTime(entry.shift.end), entry.employee.phone, entry.employee.email,
            ])
        }
        if !status.current.isEmpty { Self.out(table.render()) }
        if let until = status.until {
            Self.out("Next at \(display.dateTime(until)): \(Display.incoming(status))")
        } else {
            Self.out("No change is planned.")
        }
    }

    public func employees(groupBy: EmployeeGrouping?) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let (employees, groups) = try await client.employees(groupedBy: groupBy)
                await refreshCache()
                return printEmployees(employees, groups: groupBy == nil ? nil : groups)
            },
            cached: { roster in
                let employees = roster.state.sortedEmployees
                return printEmployees(employees, groups: groupBy.map { employees.grouped(by: $0) })
            })
    }

    public func search(_ text: String) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let found = try await client.search(text)
                return printEmployees(found, groups: nil, emptyMessage: "No employees match \"\(text)\".")
            },
            cached: { roster in
                printEmployees(
                    roster.state.employees.values.matching(text), groups: nil,
                    emptyMessage: "No employees match \"\(text)\".")
            })
    }

    func printEmployees(_ employees: [Employee], groups: [EmployeeGroup]?, emptyMessage: String = "No employees.")
        -> ClientExitCode
    {
        if json {
            struct Group: Encodable { var name: String; var employees: [JSONShapes.Person] }
            struct Listing: Encodable { var employees: [JSONShapes.Person]; var groups: [Group]? }
            Self.out(
                JSONShapes.line(
                    Listing(
                        employees: employees.map(person),
                        groups: groups?.map { Group(name: $0.name, employees: $0.employees.map(person)) })))
        } else if employees.isEmpty {
            Self.err(emptyMessage)
        } else if let groups {
            for (index, group) in groups.enumerated() {
                if index > 0 { Self.out("") }
                Self.out("\(group.name) (\(group.employees.count))")
                Self.out(employeeTable(group.employees, indent: "  "))
            }
        } else {
            Self.out(employeeTable(employees, indent: ""))
        }
        return employees.isEmpty ? .nothingToShow : .success
    }

    /// A person for JSON output, marked when a contacts file is given.
    func person(_ employee: Employee) -> JSONShapes.Person {
        JSONShapes.Person(employee, inContacts: contacts.map { $0.matches(employee) })
    }

    /// The directory table; with a contacts file, a CONTACT column marks the people in it.
    func employeeTable(_ employees: [Employee], indent: String) -> String {
        var table = TextTable(
            ["NAME", "POSITION", "TEAM", "EMAIL", "PHONE", "ID"] + (contacts == nil ? [] : ["CONTACT"]))
        for employee in employees {
            let mark = contacts.map { [$0.matches(employee) ? "✓" : ""] } ?? []
            table.rows.append(
                [employee.fullName, employee.position, employee.team, employee.email, employee.phone, employee.id]
                    + mark)
        }
        return table.render(indent: indent)
    }

    /// How far ahead `show PERSON` lists their duty.
    static let dutyShown: UnixMillis = 28 * 86_400_000

    /// `show PERSON`: the person, their one-off shifts, and their duty on every schedule over the
    /// next four weeks from every source (rotation turns, overrides, one-off shifts), as the final
    /// schedule has it.
    public func show(_ idOrName: String) async -> ClientExitCode {
        let now = UnixMillis.now
        return await withCacheFallback(
            online: {
                let (employee, shifts) = try await client.employee(idOrName)
                let outer = WholeStretches.resolving(from: now, to: now + Self.dutyShown)
                let duty = try await client.finalSchedule(
                    FinalScheduleQuery(from: outer.from, to: outer.to, employee: employee.id))
                printEmployee(employee, shifts: shifts, duty: duty, from: now)
                await refreshCache()
                return .success
            },
            cached: { roster in
                guard let employee = roster.state.employee(matching: idOrName) else {
                    let error = RosterError.notFound(
                        "employee \"\(idOrName)\"", suggestions: roster.state.suggestions(for: idOrName))
                    Self.err(error.description.prefix(1).uppercased() + error.description.dropFirst())
                    return .notFound
                }
                let shifts = roster.state.upcomingShifts(of: employee.id, now: now)
                let outer = WholeStretches.resolving(from: now, to: now + Self.dutyShown)
                let duty = try? roster.finalSchedule(
                    FinalScheduleQuery(from: outer.from, to: outer.to, employee: employee.id))
                printEmployee(employee, shifts: shifts, duty: duty, from: now)
                return .success
            })
    }

    /// The person, their one-off shifts and, with `duty` (an answer over `WholeStretches.resolving`
    /// from `from`), their duty over the four weeks from `from`, each stretch whole.
    func printEmployee(_ employee: Employee, shifts: [Shift], duty: FinalScheduleAnswer? = nil, from: UnixMillis = .now)
    {
        let stretches = duty?.whole(from: from, to: from + Self.dutyShown)
        if json {
            struct Detail: Encodable {
                var employee: JSONShapes.Person; var shifts: [JSONShapes.ShiftEntry];
                var duty: [JSONShapes.FinalShiftEntry]?
                var contact: Contact?
            }
            Self.out(
                JSONShapes.line(
                    Detail(
                        employee: person(employee), shifts: shifts.map { JSONShapes.ShiftEntry($0) },
                        duty: stretches?.map(JSONShapes.FinalShiftEntry.init),
                        contact: contacts?.contact(matching: employee))))
            return
        }
        Self.out(employee.fullName)
        var details = TextTable(["", ""])
        let rows: [(String, String)] = [
            ("Position", employee.position), ("Team", employee.team), ("Email", employee.email),
            ("Phone", employee.phone),
            ("Projects", employee.projects.joined(separator: ", ")), ("Type", employee.type.rawValue),
            ("Photo", employee.photoURL), ("Chat", ChatHandles.text(employee.chat)), ("Id", employee.id),
        ]
        details.rows = rows.filter { !$0.1.isEmpty }.map { ["  \($0.0):", $0.1] }
        Self.out(details.render().split(separator: "\n").dropFirst().joined(separator: "\n"))
        if !employee.biography.isEmpty { Self.out("\n  \(employee.biography)") }
        if let contact = contacts?.contact(matching: employee) {
            Self.out(
                "\n  In your contacts as \(contact.fullName): "
                    + (contact.phones + contact.emails).joined(separator: " · "))
        }
        Self.out("")
        if shifts.isEmpty {
            Self.out("No upcoming shifts.")
        } else {
            Self.out("Upcoming shifts (\(display.zoneName)):")
            for shift in shifts {
                Self.out(
                    "  \(display.dateTime(shift.start)) – \(display.dateTime(shift.end))\(shift.role.isEmpty ? "" : "  \(shift.role)")  [\(shift.id)]"
                )
            }
        }
        guard let duty, let stretches else { return }
        Self.out("")
        if stretches.isEmpty {
            Self.out("Not on duty on any schedule in the next 4 weeks.")
            return
        }
        Self.out("On duty in the next 4 weeks, every source (\(display.zoneName)):")
        var table = TextTable(["SCHEDULE", "START (\(display.zoneName))", "END", "SOURCE"])
        for stretch in stretches {
            table.rows.append([
                stretch.item.scheduleName, (stretch.startedEarlier ? "before " : "") + display.dateTime(stretch.start),
                display.dateTime(stretch.end) + (stretch.continues ? " and on" : ""),
                stretch.pieces.map(\.sourceText).joined(separator: ", "),
            ])
        }
        Self.out(table.render(indent: "  "))
        if duty.truncated {
            Self.out("  … and more: `roster-client oncall --person \"\(employee.fullName)\"` lists them all.")
        }
    }

    public func shifts(from: UnixMillis?, to: UnixMillis?, employee: String?) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let (shifts, people) = try await client.shiftListing(from: from, to: to, employee: employee)
                try? await client.refreshCacheIfBehind()
                if shifts.allSatisfy({ people[$0.employeeID] != nil }) {
                    return printShifts(shifts) { people[$0] }
                }
                let directory = await client.roster?.state.employees ?? [:]
                return printShifts(shifts) { people[$0] ?? directory[$0] }
            },
            cached: { roster in
                var employeeID: String?
                if let employee {
                    guard let found = roster.state.employee(idOrName: employee) else {
                        let error = RosterError.notFound(
                            "employee \"\(employee)\"", suggestions: roster.state.suggestions(for: employee))
                        Self.err(error.description.prefix(1).uppercased() + error.description.dropFirst())
                        return .notFound
                    }
                    employeeID = found.id
                }
                let shifts = roster.state.shifts(from: from, to: to, employeeID: employeeID)
                return printShifts(shifts) { roster.state.employees[$0] }
            })
    }

    func printShifts(_ shifts: [Shift], person: (String) -> Employee?) -> ClientExitCode {
        if json {
            Self.out(JSONShapes.line(shifts.map { JSONShapes.ShiftEntry($0, employee: person($0.employeeID)) }))
            return .success
        }
        if shifts.isEmpty {
            Self.out("No shifts in that window.")
            return .success
        }
        var table = TextTable(["START (\(display.zoneName))", "END", "WHO", "ROLE", "ID"])
        for shift in shifts {
            table.rows.append([
                display.dateTime(shift.start), display.dateTime(shift.end),
                person(shift.employeeID)?.fullName ?? shift.employeeID, shift.role, shift.id,
            ])
        }
        Self.out(table.render())
        return .success
    }
}
