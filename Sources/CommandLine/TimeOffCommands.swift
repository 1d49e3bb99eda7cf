import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

extension JSONShapes {
    /// One entry of `admin timeoff list --json`.
    public struct TimeOffEntry: Encodable, Sendable {
        public var id: String
        public var employee: String
        public var employeeId: String
        public var start: String
        public var end: String
        public var reason: String
        public var source: String
    }

    /// One span of `admin temporary list --json`.
    public struct TemporaryEntry: Encodable, Sendable {
        public struct Shift: Encodable, Sendable { public var employee, employeeId, start, end: String }
        public var id: String
        public var start: String
        public var end: String
        public var shifts: [Shift]
    }
}

extension CommandRunner {
    /// `admin timeoff list [PERSON]`: everyone's time off (or one person's) that has not ended,
    /// or all of it with `past`; from the cache when the server cannot be reached.
    public func listTimeOff(person: String?, past: Bool) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                printTimeOff(try await client.refreshCache().state, person: person, past: past)
            },
            cached: { roster in
                printTimeOff(roster.state, person: person, past: past)
            })
    }

    private func printTimeOff(_ state: RosterState, person: String?, past: Bool) -> ClientExitCode {
        var entries = state.timeOff.values.filter { past || $0.end > .now }
        if let person {
            guard let found = state.employee(idOrName: person) else {
                Self.err(
                    "No employee \"\(person)\""
                        + (state.suggestions(for: person).first.map { "; did you mean \($0)?" } ?? ""))
                return .notFound
            }
            entries = entries.filter { $0.employeeID == found.id }
        }
        entries.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        if json {
            Self.out(
                JSONShapes.line(
                    entries.map {
                        JSONShapes.TimeOffEntry(
                            id: $0.id, employee: name($0.employeeID), employeeId: $0.employeeID,
                            start: TimeText.iso8601($0.start),
                            end: TimeText.iso8601($0.end), reason: $0.reason, source: $0.source)
                    }))
            return .success
        }
        guard !entries.isEmpty else {
            Self.out("No time off recorded\(past ? "" : " from now on").")
            return .success
        }
        var table = TextTable(["ID", "NAME", "FROM (\(display.zoneName))", "TO", "REASON"])
        for entry in entries {
            table.rows.append([
                entry.id, name(entry.employeeID), display.dateTime(entry.start), display.dateTime(entry.end),
                entry.reason,
            ])
        }
        Self.out(table.render())
        return .success
    }

    /// `admin temporary list --schedule S`: the schedule's temporary schedules, with their shifts.
    public func listTemporary(schedule name: String) async -> ClientExitCode {
        do {
            let state = try await client.refreshCache().state
            guard let schedule = state.schedule(idOrName: name) else {
                Self.err("No schedule \"\(name)\"")
                return .notFound
            }
            let person = { (id: String) in state.employees[id]?.fullName ?? id }
            if json {
                Self.out(
                    JSONShapes.line(
                        schedule.temporary.map { span in
                            JSONShapes.TemporaryEntry(
                                id: span.id, start: TimeText.iso8601(span.start), end: TimeText.iso8601(span.end),
                                shifts: span.shifts.map {
                                    .init(
                                        employee: person($0.employeeID), employeeId: $0.employeeID,
                                        start: TimeText.iso8601($0.start), end: TimeText.iso8601($0.end))
                                })
                        }))
                return .success
            }
            guard !schedule.temporary.isEmpty else {
                Self.out("\(schedule.name) has no temporary schedule.")
                return .success
            }
            for span in schedule.temporary {
                Self.out(
                    "\(span.id)  \(display.dateTime(span.start)) – \(display.dateTime(span.end)) \(display.zoneName)")
                for shift in span.shifts {
                    Self.out(
                        "  \(person(shift.employeeID))  \(display.dateTime(shift.start)) – \(display.dateTime(shift.end))"
                    )
                }
            }
            return .success
        } catch {
            return report(error)
        }
    }
}

extension CommandRunner {
    /// `admin holidays list`: each holiday calendar with its days (from the cache offline).
    public func listHolidays() async -> ClientExitCode {
        await withCacheFallback(
            online: {
                printHolidays(try await client.refreshCache().state)
            },
            cached: { roster in
                printHolidays(roster.state)
            })
    }

    private func printHolidays(_ state: RosterState) -> ClientExitCode {
        let calendars = state.holidays.values.sorted { $0.name < $1.name }
        if json {
            struct Entry: Encodable { var name: String; var days: [String] }
            Self.out(JSONShapes.line(calendars.map { Entry(name: $0.name, days: $0.days) }))
            return .success
        }
        guard !calendars.isEmpty else {
            Self.out("No holiday calendars (`admin holidays import NAME FILE.ics` adds one).")
            return .success
        }
        for calendar in calendars {
            Self.out(
                "\(calendar.name): \(calendar.days.count) days"
                    + (calendar.days.isEmpty ? "" : ", " + calendar.days.joined(separator: " ")))
        }
        return .success
    }

    /// The days of a tenant holiday calendar, for `report hours --holidays NAME`; nil when the
    /// tenant has none by that name.
    public func holidayDays(named name: String) async -> [String]? {
        let state: RosterState? =
            if let fresh = try? await client.refreshCache() { fresh.state } else { await client.roster?.state }
        return state?.holidays[name]?.days
    }
}

extension CommandRunner {
    /// `request cover --suggested CONFLICT_ID`: a cover request for the conflict's stretch (from
    /// now on), in its person's name, asking the people free to cover it; the conflict is found
    /// as the server would find it, in a fresh copy of the plan.
    public func askForCover(suggested id: String, note: String) async -> ClientExitCode {
        let state: RosterState
        do {
            state = try await client.refreshCache().state
        } catch {
            return report(error)
        }
        let now = UnixMillis.now
        guard let conflict = state.conflict(id: id, now: now) else {
            Self.err("No conflict \(id) from now on (`roster-client oncall` lists them)")
            return .notFound
        }
        guard !conflict.proposals.isEmpty else {
            Self.err(
                "Nobody on this schedule is free then: ask everyone with `request cover --schedule … --from … --to …`")
            return .invalidInput
        }
        return await askForCover(
            schedule: conflict.scheduleID, from: max(conflict.start, now + 60_000), to: conflict.end,
            addressedTo: conflict.proposals.map(\.employeeID), note: note.isEmpty ? "time off" : note,
            person: conflict.employeeID)
    }
}
