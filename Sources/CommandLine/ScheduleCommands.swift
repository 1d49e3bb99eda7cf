import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

extension CommandRunner {
    // MARK: Reads

    /// `schedules`: every schedule with who is on duty on it now.
    public func schedules() async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let schedules = try await client.schedules()
                var onDuty: [String: OnDutyStatus] = [:]
                for schedule in schedules { onDuty[schedule.id] = try await client.onDuty(schedule: schedule.id) }
                await refreshCacheQuietly()
                printSchedules(schedules, onDuty: onDuty)
                return .success
            },
            cached: { roster in
                let schedules = roster.state.sortedSchedules
                var onDuty: [String: OnDutyStatus] = [:]
                for schedule in schedules { onDuty[schedule.id] = roster.onDuty(schedule: schedule.id) }
                printSchedules(schedules, onDuty: onDuty)
                return .success
            })
    }

    func printSchedules(_ schedules: [ScheduleDefinition], onDuty: [String: OnDutyStatus]) {
        if json {
            struct Entry: Encodable {
                var id, name, zone, team: String; var rotations, overrides: Int; var onDuty: [String]
            }
            Self.out(
                JSONShapes.line(
                    schedules.map { schedule in
                        Entry(
                            id: schedule.id, name: schedule.name, zone: schedule.zone, team: schedule.team,
                            rotations: schedule.layers.map(\.rotations.count).reduce(0, +),
                            overrides: schedule.overrides.count,
                            onDuty: onDuty[schedule.id]?.current.map(\.employee.fullName) ?? [])
                    }))
            return
        }
        // The on-duty set's next change; `now`'s UNTIL is each person's own end.
        var table = TextTable(["NAME", "ZONE", "TEAM", "ROTATIONS", "ON DUTY NOW", "NEXT CHANGE (\(display.zoneName))"])
        for schedule in schedules {
            let status = onDuty[schedule.id]
            let people = status?.current.map(\.employee.fullName).joined(separator: ", ") ?? ""
            table.rows.append([
                schedule.name, schedule.zone, schedule.team,
                String(schedule.layers.map(\.rotations.count).reduce(0, +)),
                people.isEmpty ? "nobody" : people, status?.until.map(display.dateTime) ?? "",
            ])
        }
        Self.out(table.render())
    }

    /// `schedule show`: the definition, then the handoffs of the next `days` days, each in the
    /// schedule's zone and the viewer's.
    public func showSchedule(_ name: String, days: Int, now: UnixMillis = .now) async -> ClientExitCode {
        let query = FinalScheduleQuery(schedule: name, from: now, to: now + UnixMillis(days) * 86_400_000)
        return await withCacheFallback(
            online: {
                let schedules = try await client.schedules()
                guard let schedule = Self.find(name, in: schedules) else {
                    return notFound(schedule: name, among: schedules)
                }
                let shifts = try await client.finalSchedule(
                    FinalScheduleQuery(schedule: schedule.id, from: query.from, to: query.to)
                ).shifts
                let people = try await client.employees().employees
                await refreshCacheQuietly()
                printSchedule(
                    schedule, shifts: shifts,
                    people: EmployeeDirectory(Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })),
                    query: query)
                return .success
            },
            cached: { roster in
                guard let schedule = roster.state.schedule(idOrName: name) else {
                    return notFound(schedule: name, among: roster.state.sortedSchedules)
                }
                do {
                    let shifts = try roster.finalSchedule(
                        FinalScheduleQuery(schedule: schedule.id, from: query.from, to: query.to)
                    ).shifts
                    printSchedule(schedule, shifts: shifts, people: roster.state.employees, query: query)
                    return .success
                } catch {
                    return report(error)
                }
            })
    }

    static func find(_ name: String, in schedules: [ScheduleDefinition]) -> ScheduleDefinition? {
        let folded = TextFolding.fold(name)
        return schedules.first { $0.id == name } ?? schedules.first { TextFolding.fold($0.name) == folded }
    }

    func notFound(schedule name: String, among schedules: [ScheduleDefinition]) -> ClientExitCode {
        Self.err("No schedule \"\(name)\". Schedules: \(schedules.map(\.name).joined(separator: ", ")).")
        return .notFound
    }

    func printSchedule(
        _ schedule: ScheduleDefinition, shifts: [FinalShift], people: EmployeeDirectory, query: FinalScheduleQuery
    ) {
        let handoffs = Self.handoffs(shifts, from: query.from, to: query.to)
        if json {
            struct Handoff: Encodable { var at: String; var onDuty: [String] }
            /// An override that has not ended, as the table lists it, with ids for a script.
            struct Override: Encodable {
                var id, kind, employee, employeeId: String
                var replacing, replacingId: String?
                var start, end, reason, text: String
                var source: String?
            }
            struct Temporary: Encodable { var id, start, end: String; var shifts: Int }
            struct Shown: Encodable {
                var id, name, zone, team, description: String
                var rotations: [String]
                var overrides: [Override]
                var temporary: [Temporary]
                var handoffs: [Handoff]
            }
            let name = { (id: String) in people[id]?.fullName ?? id }
            let overrides = schedule.overrides.filter { $0.end > query.from }.sorted { $0.start < $1.start }.map {
                override in
                let (kind, who, replaced): (String, String, String?) =
                    switch override.kind {
                    case .add(let id): ("add", id, nil)
                    case .remove(let id): ("remove", id, nil)
                    case .replace(let replacing, let with): ("replace", with, replacing)
                    }
                return Override(
                    id: override.id, kind: kind, employee: name(who), employeeId: who, replacing: replaced.map(name),
                    replacingId: replaced, start: TimeText.iso8601(override.start), end: TimeText.iso8601(override.end),
                    reason: override.reason,
                    text: Self.describe(override, in: schedule, display: display) { people[$0]?.fullName },
                    source: override.source.isEmpty ? nil : override.source)
            }
            Self.out(
                JSONShapes.line(
                    Shown(
                        id: schedule.id, name: schedule.name, zone: schedule.zone, team: schedule.team,
                        description: schedule.description,
                        rotations: schedule.layers.flatMap { layer in
                            layer.rotations.map { describe($0, level: layer.level, people: people) }
                        },
                        overrides: overrides,
                        temporary: schedule.temporary.filter { $0.end > query.from }.map {
                            Temporary(
                                id: $0.id, start: TimeText.iso8601($0.start), end: TimeText.iso8601($0.end),
                                shifts: $0.shifts.count)
                        },
                        handoffs: handoffs.map {
                            Handoff(at: TimeText.iso8601($0.at), onDuty: $0.people.map { people[$0]?.fullName ?? $0 })
                        })))
            return
        }
        let zone = TimeZone(identifier: schedule.zone) ?? TimeZone(identifier: "UTC")!
        var local = display
        local.timeZone = zone
        Self.out("\(schedule.name) (\(schedule.zone)\(schedule.team.isEmpty ? "" : ", team \(schedule.team)"))")
        if !schedule.description.isEmpty { Self.out("  \(schedule.description)") }
        if !schedule.hasRules && schedule.id == ScheduleDefinition.defaultID {
            Self.out("  One-off shifts only.")
        }
        for layer in schedule.layers {
            for rotation in layer.rotations { Self.out("  " + describe(rotation, level: layer.level, people: people)) }
        }
        let upcoming = schedule.overrides.filter { $0.end > query.from }.sorted { $0.start < $1.start }
        for override in upcoming {
            Self.out(
                "  override \(override.id): \(Self.describe(override, in: schedule, display: display) { people[$0]?.fullName })"
                    + (override.reason.isEmpty ? "" : " (\(override.reason))"))
        }
        for span in schedule.temporary where span.end > query.from {
            Self.out(
                "  temporary \(span.id): \(display.dateTime(span.start)) – \(display.dateTime(span.end)) \(display.zoneName), "
                    + "only its \(span.shifts.count) shift\(span.shifts.count == 1 ? "" : "s") (`admin temporary list`)"
            )
        }
        let days = (query.to - query.from) / 86_400_000
        Self.out("")
        Self.out("Next \(days) days, one line per handoff:")
        if handoffs.isEmpty {
            Self.out("  No handoff.")
            return
        }
        let sameZone = zone.identifier == display.timeZone.identifier
        var table = TextTable(
            sameZone ? ["  " + schedule.zone, "ON DUTY"] : ["  " + schedule.zone, display.zoneName, "ON DUTY"])
        for handoff in handoffs {
            let names = handoff.people.map { people[$0]?.fullName ?? $0 }.joined(separator: ", ")
            let row =
                ["  " + local.dateTime(handoff.at)] + (sameZone ? [] : [display.dateTime(handoff.at)])
                + [names.isEmpty ? "nobody" : names]
            table.rows.append(row)
        }
        Self.out(table.render())
    }

    func describe(_ rotation: Rotation, level: Int, people: EmployeeDirectory) -> String {
        let slots = rotation.slots.map { slot in slot.map { people[$0]?.fullName ?? $0 }.joined(separator: " + ") }
        var text =
            "layer \(level) rotation \(rotation.id)\(rotation.version > 1 ? " v\(rotation.version)" : ""): every "
            + "\(ScheduleArguments.text(rotation.cadence)) from \(rotation.handoff): \(slots.joined(separator: ", "))"
        if !rotation.restrictions.isEmpty {
            text += "; only " + rotation.restrictions.map(ScheduleArguments.text).joined(separator: ", ")
        }
        if rotation.advance == .calendar { text += "; calendar advance" }
        if rotation.onTimeOff == .skip { text += "; skips time off" }
        if let since = rotation.since { text += "; since \(display.dateTime(since)) \(display.zoneName)" }
        if let end = rotation.end { text += "; until \(display.dateTime(end)) \(display.zoneName)" }
        return text
    }

    /// The instants in [from, to) where the set of people on duty changes, and who is on duty
    /// from each (the first line is who is on duty at `from`).
    static func handoffs(_ shifts: [FinalShift], from: UnixMillis, to: UnixMillis) -> [(
        at: UnixMillis, people: [String]
    )] {
        let engine = OnDutyEngine(
            shifts: shifts.map { Shift(id: $0.id, employeeID: $0.employeeID, start: $0.start, end: $0.end) })
        var result: [(at: UnixMillis, people: [String])] = []
        var lookup = engine.lookup(at: from)
        result.append((from, lookup.current.map(\.employeeID)))
        while let until = lookup.until, until < to {
            lookup = engine.lookup(at: until)
            result.append((until, lookup.current.map(\.employeeID)))
        }
        return result
    }
}
