import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
import RosterViewModels

/// What `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// snapshot-json: the directory, the plan and the motd in one file.
    case json
    /// employees-csv.
    case employeesCSV = "employees-csv"
    /// shifts-csv.
    case shiftsCSV = "shifts-csv"
    /// The tenant's definition for `plan` and `apply` (docs/AS-CODE.md).
    case yaml
}

/// The work behind each roster-client command. Reads go to the server and fall back to the cache
/// when it is unreachable (saying how old the data is); errors become a sentence and an exit code.
public struct CommandRunner: Sendable {
    public let settings: ClientSettings
    public let json: Bool
    public let display: Display
    public let client: RosterClient
    /// The people of `settings.contactsFile`, marked in listings and shown with a person.
    public let contacts: VCardDirectory?

    public init(settings: ClientSettings, json: Bool, contacts: VCardDirectory? = nil) {
        self.settings = settings
        self.json = json
        self.contacts = contacts
        display = Display(utc: settings.useUTC)
        client = RosterClient(configuration: settings.clientConfiguration())
    }

    // MARK: Output

    /// Writes a line to standard output. A reader that went away (`| head`) ends the output
    /// quietly instead of crashing the process. Control characters from the server never reach
    /// the terminal (JSON output has them escaped already).
    public static func out(_ text: String) {
        do {
            var line = ControlCharacters.stripped(text, keepLineBreaks: true)
            line.append("\n")
            try FileHandle.standardOutput.write(contentsOf: Data(line.utf8))
        } catch {
            exit(0)
        }
    }

    public static func err(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data((ControlCharacters.stripped(text, keepLineBreaks: true) + "\n").utf8))
    }

    /// Prints what went wrong and returns the exit code for it.
    public func report(_ error: any Error) -> ClientExitCode {
        switch error {
        case let error as RosterClientError:
            switch error {
            case .connectionFailed(let why):
                Self.err(why.prefix(1).uppercased() + why.dropFirst())
                return .unreachable
            case .connectionClosed, .timedOut:
                Self.err("Cannot reach the server at \(settings.server): \(error)")
                return .unreachable
            case .protocolViolation(let why):
                Self.err("The server sent malformed data: \(why)")
                return .malformedData
            case .outcomeUnknown(let why):
                Self.err("""
                    The change was sent to \(settings.server), but \(why): it may or may not have been made.
                    Check before trying again, e.g. `roster-client admin audit --since '10m ago'` or the listing it changed.
                    """)
                return .outcomeUnknown
            case .requestTooLarge(let bytes, let limit):
                Self.err("Too large: the request is \(bytes) bytes and the server takes at most \(limit) in one request (its --max-frame-bytes). Nothing was sent.")
                return .invalidInput
            case .tls(let tls):
                switch tls {
                case .uncleanShutdown, .closed, .recordFailed:
                    Self.err("Cannot reach the server at \(settings.server): \(tls)")
                    return .unreachable
                case .pinnedFingerprintChanged(_, let pinned, let presented):
                    Self.err("""
                        WARNING: the certificate authority of \(settings.server) has CHANGED.
                          pinned:    \(pinned)
                          presented: \(presented)
                        Someone may be intercepting the connection, or the server's certificates were regenerated.
                        If you trust the change, run `roster-client trust \(settings.server) --replace`.
                        """)
                    return .insecure
                default:
                    Self.err("TLS with \(settings.server) failed: \(tls)")
                    return .insecure
                }
            case .server(let body):
                switch body.code {
                case .unauthenticated:
                    // Which tenant and which token were tried is known here, so say it.
                    let given = settings.token.isEmpty ? "without a token" : "with the token given (--token, --token-file or ROSTER_TOKEN)"
                    let tenant = settings.tenant.isEmpty ? "the server's default tenant" : "tenant \"\(settings.tenant)\""
                    // A Hello is refused with one sentence for every cause; a connection already in
                    // says why it ends (e.g. "the token was revoked").
                    let why = body.message == "authentication failed" || body.message.isEmpty
                        ? "the tenant is unknown, or the token is not one of its tokens, expired or was revoked"
                        : body.message
                    Self.err("Authentication failed for \(tenant) \(given): \(why). Check --tenant and the token.")
                    return .permissionDenied
                case .permissionDenied:
                    // Another token helps only where the token is what was refused; a step that is
                    // someone else's to take is refused whatever token this person gives.
                    let hint = body.message.contains("token") ? " (give another with --token or --token-file)" : ""
                    Self.err("Permission denied: \(body.message)\(hint).")
                    return .permissionDenied
                case .tlsRequired:
                    Self.err("The server at \(settings.server) requires TLS: run `roster-client trust \(settings.server)`, or pass --ca-file or --tls.")
                    return .insecure
                case .notFound:
                    // The server's sentence already carries its suggestions.
                    Self.err(body.message.prefix(1).uppercased() + body.message.dropFirst())
                    return .notFound
                case .failedPrecondition:
                    // Sound, but not now: a cover request already taken, a stretch already begun.
                    Self.err("Refused: " + body.message + ".")
                    return .invalidInput
                case .invalidArgument, .alreadyExists:
                    Self.err(body.code == .alreadyExists ? "Refused: this would change what exists:" : "The server refused the input:")
                    for violation in body.violations {
                        let place = [violation.location, violation.field].filter { !$0.isEmpty }.joined(separator: ", ")
                        Self.err("  \(place.isEmpty ? "" : place + ": ")\(violation.description_p)")
                    }
                    if body.violations.isEmpty { Self.err("  \(body.message)") }
                    return .invalidInput
                default:
                    Self.err("The server answered: \(body.message) (\(body.code))")
                    return .failure
                }
            }
        case let problem as CacheProblem:
            Self.err("Warning: \(problem)")
            return .failure
        case let invalid as TimeArgument.Invalid:
            Self.err("error: \(invalid)")
            return .failure
        default:
            Self.err("error: \(error)")
            return .failure
        }
    }

    /// Runs `online`; if the server is unreachable, answers from the cache with a note of its age.
    func withCacheFallback(offline: Bool = false, online: () async throws -> ClientExitCode,
                           cached: (CachedRoster) -> ClientExitCode) async -> ClientExitCode {
        var unreachable = "Cannot reach the server at \(settings.server)"
        if !offline {
            do {
                return try await online()
            } catch let error as RosterClientError {
                switch error {
                case .connectionFailed(let why): unreachable = why.prefix(1).uppercased() + why.dropFirst()
                case .connectionClosed, .timedOut: unreachable += ": \(error)"
                default: return report(error)
                }
            } catch {
                return report(error)
            }
        }
        // The client's copy of the cache of the tenant this credential authenticated as (never
        // the --tenant flag's), read from the file now if it was not yet.
        let roster = await client.roster
        if let problem = await client.cacheLoadProblem { Self.err("Warning: \(problem)") }
        guard let roster else {
            Self.err(offline ? "Nothing is cached for \(settings.server) yet: run a command while the server is reachable."
                     : "\(unreachable), and nothing is cached.")
            return .unreachable
        }
        let age = DurationText.age(seconds: roster.age())
        if offline {
            Self.err("Offline: cached data from \(age) ago (revision \(roster.revision)).")
        } else {
            Self.err("\(unreachable); showing cached data from \(age) ago (revision \(roster.revision)).")
        }
        let code = cached(roster)
        return code == .success && !offline ? .answeredFromCache : code
    }

    /// Refreshes the cache quietly after an online read, so the next offline answer is recent.
    private func refreshCache() async {
        _ = try? await client.refreshCacheIfBehind()
    }

    // MARK: Reads

    /// `now`: who is on duty on each schedule (or only `schedule`). A tenant with only the
    /// default schedule prints exactly what it did before schedules existed.
    public func now(at instant: UnixMillis?, offline: Bool, schedule: String? = nil) async -> ClientExitCode {
        await withCacheFallback(offline: offline, online: {
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
        }, cached: { roster in
            var statuses: [(ScheduleDefinition, OnDutyStatus)] = []
            if let schedule {
                guard let definition = roster.state.schedule(idOrName: schedule),
                      let status = roster.onDuty(schedule: definition.id, at: instant ?? .now) else {
                    return notFound(schedule: schedule, among: roster.state.sortedSchedules)
                }
                statuses = [(definition, status)]
            } else {
                for definition in roster.state.sortedSchedules {
                    if let status = roster.onDuty(schedule: definition.id, at: instant ?? .now) { statuses.append((definition, status)) }
                }
            }
            printOnDuty(statuses, source: "cache", ageSeconds: Int(roster.age()), named: schedule != nil)
            return .success
        })
    }

    /// One block per schedule; the default schedule is left out when other schedules exist and
    /// it has nothing on it.
    func printOnDuty(_ statuses: [(ScheduleDefinition, OnDutyStatus)], source: String, ageSeconds: Int?, named: Bool) {
        let shown = statuses.count <= 1 ? statuses : statuses.filter { definition, status in
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
            if named, let only = shapes.first { Self.out(JSONShapes.line(only)) } else { Self.out(JSONShapes.line(shapes)) }
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
            table.rows.append(["  " + entry.employee.fullName, entry.shift.role, entry.employee.position, entry.employee.team,
                               display.dateTime(entry.shift.end), entry.employee.phone, entry.employee.email])
        }
        if !status.current.isEmpty { Self.out(table.render()) }
        if let until = status.until {
            Self.out("Next at \(display.dateTime(until)): \(Display.incoming(status))")
        } else {
            Self.out("No change is planned.")
        }
    }

    public func employees(groupBy: EmployeeGrouping?) async -> ClientExitCode {
        await withCacheFallback(online: {
            let (employees, groups) = try await client.employees(groupedBy: groupBy)
            await refreshCache()
            return printEmployees(employees, groups: groupBy == nil ? nil : groups)
        }, cached: { roster in
            let employees = roster.state.sortedEmployees
            return printEmployees(employees, groups: groupBy.map { employees.grouped(by: $0) })
        })
    }

    public func search(_ text: String) async -> ClientExitCode {
        await withCacheFallback(online: {
            let found = try await client.search(text)
            return printEmployees(found, groups: nil, emptyMessage: "No employees match \"\(text)\".")
        }, cached: { roster in
            printEmployees(roster.state.employees.values.matching(text), groups: nil,
                           emptyMessage: "No employees match \"\(text)\".")
        })
    }

    func printEmployees(_ employees: [Employee], groups: [EmployeeGroup]?, emptyMessage: String = "No employees.") -> ClientExitCode {
        if json {
            struct Group: Encodable { var name: String; var employees: [JSONShapes.Person] }
            struct Listing: Encodable { var employees: [JSONShapes.Person]; var groups: [Group]? }
            Self.out(JSONShapes.line(Listing(
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
        var table = TextTable(["NAME", "POSITION", "TEAM", "EMAIL", "PHONE", "ID"] + (contacts == nil ? [] : ["CONTACT"]))
        for employee in employees {
            let mark = contacts.map { [$0.matches(employee) ? "✓" : ""] } ?? []
            table.rows.append([employee.fullName, employee.position, employee.team, employee.email, employee.phone, employee.id] + mark)
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
        return await withCacheFallback(online: {
            let (employee, shifts) = try await client.employee(idOrName)
            let outer = WholeStretches.resolving(from: now, to: now + Self.dutyShown)
            let duty = try await client.finalSchedule(FinalScheduleQuery(from: outer.from, to: outer.to, employee: employee.id))
            printEmployee(employee, shifts: shifts, duty: duty, from: now)
            await refreshCache()
            return .success
        }, cached: { roster in
            guard let employee = roster.state.employee(matching: idOrName) else {
                let error = RosterError.notFound("employee \"\(idOrName)\"", suggestions: roster.state.suggestions(for: idOrName))
                Self.err(error.description.prefix(1).uppercased() + error.description.dropFirst())
                return .notFound
            }
            let shifts = roster.state.upcomingShifts(of: employee.id, now: now)
            let outer = WholeStretches.resolving(from: now, to: now + Self.dutyShown)
            let duty = try? roster.finalSchedule(FinalScheduleQuery(from: outer.from, to: outer.to, employee: employee.id))
            printEmployee(employee, shifts: shifts, duty: duty, from: now)
            return .success
        })
    }

    /// The person, their one-off shifts and, with `duty` (an answer over `WholeStretches.resolving`
    /// from `from`), their duty over the four weeks from `from`, each stretch whole.
    func printEmployee(_ employee: Employee, shifts: [Shift], duty: FinalScheduleAnswer? = nil, from: UnixMillis = .now) {
        let stretches = duty?.whole(from: from, to: from + Self.dutyShown)
        if json {
            struct Detail: Encodable {
                var employee: JSONShapes.Person; var shifts: [JSONShapes.ShiftEntry]; var duty: [JSONShapes.FinalShiftEntry]?
                var contact: Contact?
            }
            Self.out(JSONShapes.line(Detail(employee: person(employee), shifts: shifts.map { JSONShapes.ShiftEntry($0) },
                                            duty: stretches?.map(JSONShapes.FinalShiftEntry.init),
                                            contact: contacts?.contact(matching: employee))))
            return
        }
        Self.out(employee.fullName)
        var details = TextTable(["", ""])
        let rows: [(String, String)] = [
            ("Position", employee.position), ("Team", employee.team), ("Email", employee.email), ("Phone", employee.phone),
            ("Projects", employee.projects.joined(separator: ", ")), ("Type", employee.type.rawValue),
            ("Photo", employee.photoURL), ("Chat", ChatHandles.text(employee.chat)), ("Id", employee.id),
        ]
        details.rows = rows.filter { !$0.1.isEmpty }.map { ["  \($0.0):", $0.1] }
        Self.out(details.render().split(separator: "\n").dropFirst().joined(separator: "\n"))
        if !employee.biography.isEmpty { Self.out("\n  \(employee.biography)") }
        if let contact = contacts?.contact(matching: employee) {
            Self.out("\n  In your contacts as \(contact.fullName): " + (contact.phones + contact.emails).joined(separator: " · "))
        }
        Self.out("")
        if shifts.isEmpty {
            Self.out("No upcoming shifts.")
        } else {
            Self.out("Upcoming shifts (\(display.zoneName)):")
            for shift in shifts {
                Self.out("  \(display.dateTime(shift.start)) – \(display.dateTime(shift.end))\(shift.role.isEmpty ? "" : "  \(shift.role)")  [\(shift.id)]")
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
            table.rows.append([stretch.item.scheduleName, (stretch.startedEarlier ? "before " : "") + display.dateTime(stretch.start),
                               display.dateTime(stretch.end) + (stretch.continues ? " and on" : ""),
                               stretch.pieces.map(\.sourceText).joined(separator: ", ")])
        }
        Self.out(table.render(indent: "  "))
        if duty.truncated { Self.out("  … and more: `roster-client oncall --person \"\(employee.fullName)\"` lists them all.") }
    }

    public func shifts(from: UnixMillis?, to: UnixMillis?, employee: String?) async -> ClientExitCode {
        await withCacheFallback(online: {
            let (shifts, people) = try await client.shiftListing(from: from, to: to, employee: employee)
            try? await client.refreshCacheIfBehind()
            if shifts.allSatisfy({ people[$0.employeeID] != nil }) {
                return printShifts(shifts) { people[$0] }
            }
            let directory = await client.roster?.state.employees ?? [:]
            return printShifts(shifts) { people[$0] ?? directory[$0] }
        }, cached: { roster in
            var employeeID: String?
            if let employee {
                guard let found = roster.state.employee(idOrName: employee) else {
                    let error = RosterError.notFound("employee \"\(employee)\"", suggestions: roster.state.suggestions(for: employee))
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
            table.rows.append([display.dateTime(shift.start), display.dateTime(shift.end),
                               person(shift.employeeID)?.fullName ?? shift.employeeID, shift.role, shift.id])
        }
        Self.out(table.render())
        return .success
    }

    // MARK: Administration

    /// Sends an admin change and prints the committed revision.
    public func administer(_ message: RosterMessage, done: String) async -> ClientExitCode {
        do {
            let inFlight = ChangeInFlight(server: settings.server)
            defer { inFlight.end() }
            let (revision, ids) = try await client.administer(message)
            if json {
                struct Result: Encodable { var revision: UInt64; var ids: [String] }
                Self.out(JSONShapes.line(Result(revision: revision, ids: ids)))
            } else {
                Self.out("\(done) (revision \(revision)\(ids.isEmpty ? "" : ", " + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")))")
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// `admin audit`: one block per entry (when, what, who, from where; then each change with its
    /// before and after values, and the reason), or with --json one JSON object per line.
    public func audit(_ query: AuditQuery) async -> ClientExitCode {
        do {
            let (entries, truncated) = try await client.audit(query)
            if truncated {
                Self.err("Only the newest \(entries.count) matching entries are shown: narrow with --since, --person or --schedule.")
            }
            if json {
                for entry in entries { Self.out(entry.jsonLine) }
                return .success
            }
            guard !entries.isEmpty else {
                Self.out("No audit entries match.")
                return .success
            }
            // Shifts and overrides name people and schedules by id: show today's names.
            try? await client.refreshCacheIfBehind()
            let state = await client.roster?.state
            var names: [String: String] = [:]
            if let state {
                for employee in state.employees.values { names[employee.id] = employee.fullName }
                for schedule in state.schedules.values { names[schedule.id] = schedule.name }
            }
            for entry in entries {
                let wire = entry.wire
                var head = "\(display.dateTimeSeconds(entry.at))  \(entry.kind)"
                if wire.revision > 0 { head += "  revision \(wire.revision)" }
                if entry.kind != "auth.failed" { head += "  by \(entry.actor)" } else if !wire.tokenID.isEmpty {
                    head += "  token \(wire.tokenID)"
                }
                if !wire.address.isEmpty { head += "  from \(wire.address)" }
                Self.out(head)
                let lines = entry.changeLines(names: names)
                for line in lines.prefix(Self.auditLinesPerEntry) { Self.out("    " + line) }
                if lines.count > Self.auditLinesPerEntry {
                    Self.out("    … and \(lines.count - Self.auditLinesPerEntry) more changes (--json lists them all)")
                }
                if !wire.detail.isEmpty { Self.out("    " + wire.detail) }
                if !wire.reason.isEmpty { Self.out("    reason: " + wire.reason) }
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// A demo roll or an import changes hundreds of records in one revision: list the first ones.
    static let auditLinesPerEntry = 12

    /// `admin import`: with `dryRun`, prints what the file would change and commits nothing;
    /// with `confirm`, shows that first and applies only when it answers yes.
    public func importFile(_ path: String, data: Data, format: ImportFormat, options: ImportOptions, dryRun: Bool,
                           reason: String = "", confirm: ((String) -> Bool)?) async -> ClientExitCode {
        do {
            if let confirm, !dryRun {
                let preview = try await client.importFile(data, format: format, options: options, dryRun: true)
                printImport(preview, path: path)
                guard confirm("Apply this to \(settings.server)? [y/N] ") else {
                    Self.err("Nothing imported.")
                    return .failure
                }
            }
            let inFlight = dryRun ? nil : ChangeInFlight(server: settings.server)
            defer { inFlight?.end() }
            let result = try await client.importFile(data, format: format, options: options, dryRun: dryRun, reason: reason)
            printImport(result, path: path)
            return .success
        } catch {
            return report(error)
        }
    }

    private func printImport(_ result: ImportResult, path: String) {
        if json {
            struct Row: Encodable { var action, kind, id, description, location: String }
            struct Summary: Encodable {
                var dryRun: Bool; var revision: UInt64; var added, updated, unchanged, removed: Int; var ids: [String]; var rows: [Row]
            }
            Self.out(JSONShapes.line(Summary(
                dryRun: result.dryRun, revision: result.revision, added: result.count(.added), updated: result.count(.updated),
                unchanged: result.count(.unchanged), removed: result.count(.removed), ids: result.ids,
                rows: result.rows.map { Row(action: $0.action.rawValue, kind: $0.kind, id: $0.id, description: $0.description,
                                            location: $0.location) })))
            return
        }
        let changed = result.rows.contains { $0.action != .unchanged }
        let verdict = result.dryRun ? "Would import \(path)" : changed ? "Imported \(path) (revision \(result.revision))"
            : "Nothing to change in \(path)"
        Self.out("\(verdict): \(result.counts).")
        let shown = result.rows.filter { $0.action != .unchanged }
        guard !shown.isEmpty else { return }
        var table = TextTable(["ACTION", "KIND", "ID", "WHAT", "WHERE"])
        for row in shown.prefix(200) {
            table.rows.append([row.action.rawValue, row.kind, row.id, row.description, row.location])
        }
        Self.out(table.render())
        if shown.count > 200 { Self.out("… and \(shown.count - 200) more") }
    }

    /// `export`: the directory and plan in an import format, from the server (or the cache).
    public func export(format: ExportFormat) async -> ClientExitCode {
        func write(_ state: RosterState) {
            switch format {
            case .json: Self.out(String(decoding: RosterExport.snapshotJSON(state), as: UTF8.self))
            case .employeesCSV: Self.write(RosterExport.employeesCSV(state))
            case .shiftsCSV: Self.write(RosterExport.shiftsCSV(state))
            case .yaml: break
            }
        }
        // A definition holds webhooks and rules, which only the server has.
        if format == .yaml { return await exportDefinition() }
        return await withCacheFallback(online: {
            write(try await client.refreshCache().state)
            return .success
        }, cached: { roster in
            write(roster.state)
            return .success
        })
    }

    /// `calendar url` (prints the feed's URL, making a calendar token) and `export --ical`
    /// (writes the feed itself).
    public func calendar(schedule: String?, person: String?, url: Bool, alarm: String?, label: String) async -> ClientExitCode {
        do {
            let feed = try await client.calendar(schedule: schedule, person: person, subscribe: url, alarm: alarm, label: label)
            if url {
                Self.out(feed.url ?? "")
            } else {
                // iCalendar lines end in CRLF; nothing else from the server reaches the terminal.
                let text = feed.ics.components(separatedBy: "\r\n").map { ControlCharacters.stripped($0) }.joined(separator: "\r\n")
                do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch { return .failure }
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// `calendar list`: the links this token made (an admin: the tenant's), newest last.
    public func calendarLinks() async -> ClientExitCode {
        do {
            let links = try await client.calendarLinks()
            if json {
                struct Link: Encodable { var tokenId, feed, label, created, expires, madeBy: String }
                for link in links {
                    Self.out(JSONShapes.line(Link(tokenId: link.tokenID, feed: link.feed, label: link.label,
                                                  created: TimeText.iso8601(link.createdMs),
                                                  expires: link.expiresMs == 0 ? "" : TimeText.iso8601(link.expiresMs), madeBy: link.madeBy)))
                }
                return .success
            }
            guard !links.isEmpty else {
                Self.out("No calendar links: `roster-client calendar url --schedule NAME` makes one.")
                return .success
            }
            var table = TextTable(["TOKEN", "FEED", "LABEL", "MADE (\(display.zoneName))", "EXPIRES", "MADE BY"])
            for link in links {
                table.rows.append([link.tokenID, link.feed, link.label, display.dateTime(link.createdMs),
                                   link.expiresMs == 0 ? "never" : display.dateTime(link.expiresMs), link.madeBy])
            }
            Self.out(table.render())
            return .success
        } catch {
            return report(error)
        }
    }

    /// `calendar revoke ID`: the link stops working at once.
    public func revokeCalendarLink(_ id: String) async -> ClientExitCode {
        do {
            try await client.revokeCalendarLink(id)
            if !json { Self.out("Revoked calendar link \(id): its URL no longer opens the feed.") }
            return .success
        } catch {
            return report(error)
        }
    }

    /// Writes `text` to standard output as it is.
    static func write(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(ControlCharacters.stripped(text, keepLineBreaks: true).utf8))
        } catch {
            exit(0)
        }
    }

    /// The employee to update: fetched from the server so unspecified fields keep their values.
    public func currentEmployee(_ idOrName: String) async throws -> Employee {
        try await client.employee(idOrName).employee
    }

    /// Guesses an import file's format from its extension and content.
    public static func importFormat(path: String, data: Data) -> ImportFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") {
            let header = String(decoding: data.prefix(4096), as: UTF8.self).split(separator: "\n").first?.lowercased() ?? ""
            return header.contains("start") ? .shiftsCSV : .employeesCSV
        }
        if lower.hasSuffix(".json") {
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            if object?["roster"] != nil || object?["scheduledToday"] != nil { return .legacyAppJSON }
            // PagerDuty's REST API: {"schedule": {"schedule_layers": [...]}}.
            if (object?["schedule"] as? [String: Any])?["schedule_layers"] != nil { return .pagerDutyJSON }
            return .snapshotJSON
        }
        return nil
    }
}

// MARK: Trust

extension CommandRunner {
    /// `roster-client trust HOST:PORT`: shows the CA the server presents and pins it in
    /// known_hosts once a person (or `--fingerprint`) has confirmed it.
    public func trust(expectedFingerprint: String?, assumeYes: Bool, replace: Bool,
                      confirm: (String) -> Bool) async -> ClientExitCode {
        guard let (host, port) = settings.hostAndPort else { return .failure }
        let chain: [Certificate]
        do {
            chain = try await ServerTrust.presentedChain(host: host, port: port)
        } catch {
            return report(error)
        }
        guard let authority = chain.last else {
            Self.err("\(settings.server) presented no certificate.")
            return .insecure
        }
        Self.out("\(settings.server) presents a certificate issued by:")
        Self.out("  \(authority.subject)")
        Self.out("  \(authority.fingerprint)")
        if let pinned = settings.knownHosts.entry(for: settings.server), pinned.fingerprint == authority.fingerprint {
            Self.out("Already trusted.")
            return .success
        }
        if let expectedFingerprint {
            guard expectedFingerprint.uppercased() == authority.fingerprint.uppercased()
                    || "SHA256:" + expectedFingerprint.uppercased() == authority.fingerprint.uppercased() else {
                Self.err("The fingerprint does not match the expected \(expectedFingerprint): not trusted.")
                return .insecure
            }
        } else if !assumeYes {
            guard confirm("Compare it with the fingerprint in the server's log. Trust it? [y/N] ") else {
                Self.err("Not trusted.")
                return .failure
            }
        }
        do {
            try settings.knownHosts.pin(authority, for: settings.server, replace: replace)
        } catch {
            Self.err("\(error)")
            return .insecure
        }
        Self.out("Pinned in \(settings.knownHosts.file.path); connections to \(settings.server) now use TLS and trust only this CA.")
        return .success
    }
}

/// While a change is on its way: SIGINT or SIGTERM first says that its outcome is unknown, then
/// ends the process as the signal would have (128 + its number). Without it, an import stopped
/// mid-way exited 143 without a word, and the user could not tell whether to send it again.
// @unchecked: the sources are made in init and cancelled once, by `end`.
final class ChangeInFlight: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(server: String) {
        let queue = DispatchQueue(label: "roster-client.change-in-flight")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                CommandRunner.err("""
                    Interrupted while a change was on its way to \(server): it may or may not have been made.
                    Check before trying again, e.g. `roster-client admin audit --since '10m ago'`.
                    """)
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The change was answered (or failed): signals act as usual again.
    func end() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
