import Foundation
import RosterDomain

// PagerDuty's export (docs/MIGRATING.md): one JSON object holding what its REST API v2 answers,
// `{users, teams, schedules, escalation_policies, services}`, each schedule as
// `GET /schedules/{id}` returns it with `overrides` from `GET /schedules/{id}/overrides`.

extension MigrationBuilder {
    mutating func readPagerDuty(_ root: SourceJSON) {
        guard root.isObject, root["schedules"] != nil || root["users"] != nil,
            MigrationSource.recognized(root) == .pagerDuty
        else {
            reading.refuse(
                nil, "",
                "is not a PagerDuty export: expected an object with users, schedules, escalation_policies and services"
            )
            return
        }
        var teams: [String: String] = [:]
        for team in reading.objects(reading.list(root, "teams", optional: true)) {
            let id = reading.text(team, "id") ?? ""
            teams[id] = team["name"]?.string ?? team["summary"]?.string ?? id
        }
        let users = reading.objects(reading.list(root, "users", optional: true))
        for user in users {
            guard let id = reading.text(user, "id"), let name = reading.text(user, "name") else { continue }
            addPerson(
                sourceID: id, name: name, email: reading.optionalText(user, "email"),
                position: reading.optionalText(user, "job_title"), teams: teamNames(user, teams: teams),
                at: user.path)
        }
        reading.report.ignoredFields(
            users, used: ["id", "name", "email", "job_title", "teams", "type", "summary", "self", "html_url"],
            at: "users[*]")
        var read: [SourceJSON] = []
        for element in reading.objects(reading.list(root, "schedules")) {
            // Either the schedule itself or GET /schedules/{id}'s {"schedule": {...}}.
            let schedule = element["schedule"] ?? element
            readPagerDutySchedule(schedule, teams: teams)
            read.append(schedule)
        }
        reading.report.ignoredFields(
            read,
            used: [
                "id", "name", "time_zone", "description", "teams", "schedule_layers", "overrides", "type", "summary",
                "self", "html_url", "final_schedule", "overrides_subschedule", "users", "escalation_policies",
            ], at: "schedules[*]")
        readPagerDutyEscalation(root, teams: teams)
    }

    /// The names of an object's `teams` (references by id, summary or name).
    func teamNames(_ node: SourceJSON, teams: [String: String]) -> [String] {
        (node["teams"]?.elements ?? []).map { team in
            team["summary"]?.string ?? team["name"]?.string ?? teams[team["id"]?.string ?? ""] ?? ""
        }.filter { !$0.isEmpty }
    }

    /// A schedule's, policy's or service's first team (Roster keeps one on each; a note when
    /// there were more).
    mutating func firstTeam(_ node: SourceJSON, teams: [String: String]) -> String {
        let names = teamNames(node, teams: teams)
        noteTeams(names, at: SourceReading.path(node, "teams"))
        return names.first ?? ""
    }

    mutating func readPagerDutySchedule(_ node: SourceJSON, teams: [String: String]) {
        guard let sourceID = reading.text(node, "id"), let name = reading.text(node, "name"),
            let (zone, clock) = zone(node, "time_zone")
        else { return }
        var schedule = ScheduleDefinition(
            id: id(sourceID), name: name, zone: zone, team: firstTeam(node, teams: teams),
            description: reading.optionalText(node, "description"))
        scheduleIDs[sourceID] = schedule.id
        let layers = reading.objects(reading.list(node, "schedule_layers"))
        if layers.isEmpty, node["schedule_layers"]?.elements != nil {
            reading.refuse(node, "schedule_layers", "is empty: a PagerDuty schedule has at least one layer")
        }
        // Priority: `rendering_index` when every layer has it (higher is drawn on top), else the
        // order of the list, the last on top as PagerDuty's web app draws them.
        let indexes = layers.map { $0["rendering_index"]?.integer }
        let ordered =
            indexes.allSatisfy({ $0 != nil })
            ? zip(layers, indexes).sorted { $0.1! < $1.1! }.map(\.0) : layers
        if layers.count > 1 {
            reading.report.add(
                .exact, SourceReading.path(node, "schedule_layers"),
                indexes.allSatisfy({ $0 != nil })
                    ? "\(layers.count) layers, by rendering_index (the highest on top)"
                    : "\(layers.count) layers, by their order in the list (the last on top): "
                        + "--verify-against shows it if PagerDuty ranks them otherwise")
        }
        let before = reading.problems.count
        for (level, layer) in ordered.enumerated() {
            if let rotation = pagerDutyRotation(layer, zone: zone, clock: clock) {
                schedule.layers.append(ScheduleLayer(level: level, rotations: [rotation]))
            }
        }
        reading.report.ignoredFields(
            layers,
            used: [
                "id", "name", "start", "end", "rotation_virtual_start", "rotation_turn_length_seconds", "users",
                "restrictions", "rendering_index", "rendered_schedule_entries", "rendered_coverage_percentage",
            ], at: SourceReading.path(node, "schedule_layers[*]"))
        guard reading.problems.count == before else { return }
        schedule.overrides = pagerDutyOverrides(node, on: schedule)
        schedules.append(schedule)
    }

    /// A layer as a rotation of one person a turn, advancing with the calendar (a turn the
    /// restrictions hide still passes, as in PagerDuty).
    private mutating func pagerDutyRotation(_ layer: SourceJSON, zone: String, clock: WallClock) -> Rotation? {
        let before = reading.problems.count
        let layerID = reading.optionalText(layer, "id")
        let start = reading.instant(layer, "start")
        let end = reading.instant(layer, "end", required: false)
        let virtualStart = reading.instant(layer, "rotation_virtual_start")
        // PagerDuty's bound: a turn is at most a year.
        let seconds = reading.integer(layer, "rotation_turn_length_seconds", in: 1...31_536_000)
        var slots: [[String]] = []
        for entry in reading.objects(reading.list(layer, "users")) {
            guard let user = entry["user"] ?? (entry["id"] != nil ? entry : nil), let userID = user["id"]?.string
            else {
                reading.refuse(entry, "user", "is missing: each entry is {\"user\": {\"id\": ...}}")
                continue
            }
            guard let person = personIDs[userID] else {
                reading.refuse(entry, "user.id", "\"\(userID)\" is not one of the export's users")
                continue
            }
            slots.append([person])
        }
        var restrictions: [RestrictionWindow] = []
        for restriction in reading.objects(reading.list(layer, "restrictions", optional: true)) {
            restrictions += pagerDutyRestriction(restriction)
        }
        guard reading.problems.count == before, let start, let virtualStart, let seconds else { return nil }
        guard seconds % 60 == 0, virtualStart % 60_000 == 0 else {
            reading.refuse(
                layer, seconds % 60 == 0 ? "rotation_virtual_start" : "rotation_turn_length_seconds",
                "is not a whole minute: Roster's turns and handoffs are")
            return nil
        }
        let cadence: Cadence
        switch seconds {
        case let s where s % 604_800 == 0: cadence = .weeks(s / 604_800)
        case let s where s % 86_400 == 0: cadence = .days(s / 86_400)
        case let s where s % 3_600 == 0:
            cadence = .hours(s / 3_600)
            // Only where the zone changes its offset is there a difference to say.
            guard TimeZone(identifier: zone)?.nextDaylightSavingTimeTransition(after: Date()) != nil else { break }
            reading.report.add(
                .changed, SourceReading.path(layer, "rotation_turn_length_seconds"),
                "turns of \(s / 3_600) hours are counted on the wall clock of \(zone): across a daylight-saving "
                    + "change handoffs keep their local times; compare with --verify-against over such a change")
        default: cadence = .minutes(seconds / 60)
        }
        var rotation = Rotation(
            id: id(layerID.isEmpty ? "layer" : layerID), slots: slots, cadence: cadence,
            handoff: clock.local(virtualStart), end: end, restrictions: restrictions, advance: .calendar)
        if start > virtualStart {
            rotation.since = start
        } else if start < virtualStart {
            // Turns before the virtual start are the same people, a whole cycle earlier: the
            // anchor moves back by whole cycles to the layer's start.
            moveBack(&rotation, to: start, clock: clock, turnSeconds: seconds, at: layer)
        }
        return rotation
    }

    /// The anchor moved back by whole cycles (each person's turn once) until it is at or before
    /// `start`, so the turns from `start` are those PagerDuty counts back from its virtual start.
    private mutating func moveBack(
        _ rotation: inout Rotation, to start: UnixMillis, clock: WallClock, turnSeconds: Int, at layer: SourceJSON
    ) {
        let cycleSeconds = turnSeconds * max(1, rotation.slots.count)
        let anchor = clock.instant(
            WallClock.Day(year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day),
            minuteOfDay: rotation.handoff.hour * 60 + rotation.handoff.minute)
        let cycles = Int((anchor - start + UnixMillis(cycleSeconds) * 1_000 - 1) / (UnixMillis(cycleSeconds) * 1_000))
        if case .minutes = rotation.cadence {
            rotation.handoff = clock.local(anchor - UnixMillis(cycles * cycleSeconds) * 1_000)
        } else if cycleSeconds % 86_400 == 0 {
            let day = clock.day(
                WallClock.Day(year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day),
                adding: -cycles * cycleSeconds / 86_400)
            rotation.handoff = LocalDateTime(
                year: day.year, month: day.month, day: day.day, hour: rotation.handoff.hour,
                minute: rotation.handoff.minute)
        } else {
            // Hours on the wall clock: back by whole cycles of wall hours.
            let hours = cycles * cycleSeconds / 3_600
            let minute = rotation.handoff.hour * 60 + rotation.handoff.minute - hours * 60
            let days = minute >= 0 ? minute / 1440 : (minute - 1439) / 1440
            let day = clock.day(
                WallClock.Day(year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day),
                adding: days)
            let left = minute - days * 1440
            rotation.handoff = LocalDateTime(
                year: day.year, month: day.month, day: day.day, hour: left / 60, minute: left % 60)
        }
        rotation.since = start
        reading.report.add(
            .exact, SourceReading.path(layer, "rotation_virtual_start"),
            "is after the layer's start: the first handoff is written \(cycles) whole cycle\(cycles == 1 ? "" : "s") "
                + "earlier (\(rotation.handoff)), on duty from the start")
    }

    /// A daily or weekly restriction as Roster's windows in the schedule's zone.
    private mutating func pagerDutyRestriction(_ restriction: SourceJSON) -> [RestrictionWindow] {
        let type = reading.optionalText(restriction, "type")
        let daily: Bool
        switch type {
        case "daily_restriction": daily = true
        case "weekly_restriction": daily = false
        default:
            reading.refuse(restriction, "type", "\"\(type)\" is not daily_restriction or weekly_restriction")
            return []
        }
        let time = reading.optionalText(restriction, "start_time_of_day")
        guard let minute = RestrictionWindow.minuteOfDay(time), minute < 1440 else {
            reading.refuse(restriction, "start_time_of_day", "\"\(time)\" is not a time such as 08:00:00")
            return []
        }
        guard
            let duration = reading.integer(
                restriction, "duration_seconds", in: 60...(daily ? 86_400 : 604_800))
        else { return [] }
        guard duration % 60 == 0 else {
            reading.refuse(restriction, "duration_seconds", "is not a whole minute: Roster's restrictions are")
            return []
        }
        var weekday = 1
        if !daily {
            guard let day = reading.integer(restriction, "start_day_of_week", in: 1...7) else { return [] }
            weekday = day
        }
        return RosterImport.windows(daily: daily, isoWeekday: weekday, startMinute: minute, minutes: duration / 60)
    }
}
