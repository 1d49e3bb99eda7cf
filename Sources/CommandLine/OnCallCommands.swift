import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

// oncall and next: the final schedule over a window, and the coming handoffs.

extension CommandRunner {
    /// `oncall`: the final schedule over a window, with the source of each shift.
    public func oncall(_ query: FinalScheduleQuery, offline: Bool) async -> ClientExitCode {
        await withCacheFallback(
            offline: offline,
            online: {
                let answer = try await client.finalSchedule(query)
                await refreshCacheQuietly()
                printFinal(answer)
                return .success
            },
            cached: { roster in
                do {
                    printFinal(try roster.finalSchedule(query))
                    return .success
                } catch {
                    return report(error)
                }
            })
    }

    /// A cut answer says so on every surface: `truncated` in JSON, a line on stderr after the
    /// table (stdout stays the table), as GET /v1/oncall does.
    func printFinal(_ answer: FinalScheduleAnswer) {
        let shifts = answer.shifts
        defer {
            if answer.truncated, let last = shifts.last {
                Self.err(
                    "Only the first \(shifts.count) stretches are shown (the limit of one answer); more start after "
                        + "\(display.dateTime(last.start)): ask a shorter window (--from/--to) or one --person.")
            }
        }
        if json {
            struct Answer: Encodable {
                var shifts: [JSONShapes.FinalShiftEntry]
                var truncated: Bool
                var conflicts: [JSONShapes.ConflictEntry]
            }
            Self.out(
                JSONShapes.line(
                    Answer(
                        shifts: shifts.map(JSONShapes.FinalShiftEntry.init), truncated: answer.truncated,
                        conflicts: answer.conflicts.map {
                            JSONShapes.ConflictEntry($0, names: { answer.names[$0] ?? $0 })
                        })))
            return
        }
        defer { printConflicts(answer) }
        if shifts.isEmpty {
            Self.out("Nobody is on duty in this window.")
            return
        }
        var table = TextTable(["SCHEDULE", "NAME", "START (\(display.zoneName))", "END", "SOURCE"])
        for shift in shifts {
            table.rows.append([
                shift.scheduleName, shift.employee?.fullName ?? shift.employeeID, display.dateTime(shift.start),
                display.dateTime(shift.end), shift.sourceText,
            ])
        }
        Self.out(table.render())
    }

    /// After the table: each conflict, with its proposals and how to take the first.
    func printConflicts(_ answer: FinalScheduleAnswer) {
        guard !answer.conflicts.isEmpty else { return }
        let names = { (id: String) in answer.names[id] ?? id }
        Self.out("\nConflicts (on duty during time off):")
        for conflict in answer.conflicts {
            let schedule =
                answer.shifts.first { $0.scheduleID == conflict.scheduleID }?.scheduleName ?? conflict.scheduleID
            Self.out(
                "  \(conflict.id)  \(names(conflict.employeeID)) on \(schedule) \(display.dateTime(conflict.start)) – "
                    + "\(display.dateTime(conflict.end))")
            if conflict.proposals.isEmpty {
                Self.out("    nobody on this schedule is free then")
            } else {
                let listed = conflict.proposals.map {
                    "\(names($0.employeeID)) (\(String(format: "%.1f", Double($0.dutyAround) / 3_600_000)) h around it)"
                }
                Self.out("    free: " + listed.joined(separator: ", "))
                Self.out("    take the first: roster-client admin override add --suggested \(conflict.id)")
            }
        }
    }

    /// `next PERSON`: when they are next on duty on each schedule; without a person, the next
    /// handoff of each schedule.
    public func next(person: String?, schedule: String?) async -> ClientExitCode {
        guard let person else {
            return await withCacheFallback(
                online: {
                    var statuses: [(String, OnDutyStatus)] = []
                    for definition in try await client.schedules()
                    where schedule == nil || Self.find(schedule!, in: [definition]) != nil {
                        statuses.append((definition.name, try await client.onDuty(schedule: definition.id)))
                    }
                    printNextHandoffs(statuses)
                    return .success
                },
                cached: { roster in
                    let statuses = roster.state.sortedSchedules
                        .filter { schedule == nil || Self.find(schedule!, in: [$0]) != nil }
                        .compactMap { definition in roster.onDuty(schedule: definition.id).map { (definition.name, $0) }
                        }
                    printNextHandoffs(statuses)
                    return .success
                })
        }
        let now = UnixMillis.now
        return await withCacheFallback(
            online: {
                let shifts = try await client.nextOnDuty(employee: person, schedule: schedule, at: now)
                printNext(shifts, person: person, now: now)
                return .success
            },
            cached: { roster in
                do {
                    printNext(
                        try roster.nextOnDuty(employee: person, schedule: schedule, at: now), person: person, now: now)
                    return .success
                } catch {
                    return report(error)
                }
            })
    }

    func printNextHandoffs(_ statuses: [(String, OnDutyStatus)]) {
        if json {
            struct Entry: Encodable {
                var schedule: String; var onDuty: [String]; var until: String?; var next: [String]
            }
            Self.out(
                JSONShapes.line(
                    statuses.map { name, status in
                        Entry(
                            schedule: name, onDuty: status.current.map(\.employee.fullName),
                            until: status.until.map(TimeText.iso8601),
                            next: status.incoming.map(\.employee.fullName))
                    }))
            return
        }
        var table = TextTable(["SCHEDULE", "ON DUTY NOW", "HANDOFF (\(display.zoneName))", "NEXT"])
        for (name, status) in statuses {
            let now = status.current.map(\.employee.fullName).joined(separator: ", ")
            table.rows.append([
                name, now.isEmpty ? "nobody" : now, status.until.map(display.dateTime) ?? "none planned",
                status.until == nil ? "" : Display.incoming(status),
            ])
        }
        Self.out(table.render())
    }

    func printNext(_ shifts: [FinalShift], person: String, now: UnixMillis) {
        if json {
            Self.out(JSONShapes.line(shifts.map(JSONShapes.FinalShiftEntry.init)))
            return
        }
        guard let first = shifts.first else {
            Self.out("\(person) is not on duty on any schedule in the next year.")
            return
        }
        let name = first.employee?.fullName ?? person
        for shift in shifts {
            let when =
                shift.start <= now
                ? "on duty now, until \(display.dateTime(shift.end)) \(display.zoneName)"
                : "next on duty \(display.dateTime(shift.start)) – \(display.dateTime(shift.end)) \(display.zoneName)"
            Self.out("\(name) on \(shift.scheduleName): \(when)")
        }
    }
}
