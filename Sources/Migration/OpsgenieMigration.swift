import Foundation
import RosterDomain

// Opsgenie's export (docs/MIGRATING.md): one JSON object with what its REST API v2 answers,
// `{users, schedules, overrides, escalations}`: each schedule with its `rotations`, the overrides
// of `GET /v2/schedules/{id}/overrides` by schedule id. Every rotation of a schedule is on call
// at once (Opsgenie adds them up): in Roster, one layer whose rotations add up.

extension MigrationBuilder {
    mutating func readOpsgenie(_ root: SourceJSON) {
        guard root.isObject, root["schedules"] != nil, MigrationSource.recognized(root) == .opsgenie else {
            reading.refuse(
                nil, "",
                "is not an Opsgenie export: expected an object with users, schedules, overrides and escalations")
            return
        }
        let users = reading.objects(reading.list(root, "users", optional: true))
        var byName: [String: String] = [:]
        for user in users {
            guard let id = reading.text(user, "id"), let username = reading.text(user, "username") else { continue }
            let name = reading.optionalText(user, "fullName")
            addPerson(
                sourceID: id, name: name.isEmpty ? username : name, email: username, position: "", teams: [],
                at: user.path)
            byName[username.lowercased()] = personIDs[id]
        }
        reading.report.ignoredFields(users, used: ["id", "username", "fullName"], at: "users[*]")
        let schedules = reading.objects(reading.list(root, "schedules"))
        for schedule in schedules { readOpsgenieSchedule(schedule, users: byName) }
        reading.report.ignoredFields(
            schedules, used: ["id", "name", "description", "timezone", "enabled", "ownerTeam", "rotations"],
            at: "schedules[*]")
        readOpsgenieOverrides(root, users: byName)
        readOpsgenieEscalations(root, users: byName)
    }

    /// A recipient `{type: "user", id, username}` as a person; nil (nothing refused) for another type.
    mutating func opsgenieUser(_ node: SourceJSON, users: [String: String]) -> String? {
        if let id = node["id"]?.string, let person = personIDs[id] { return person }
        if let name = node["username"]?.string, let person = users[name.lowercased()] { return person }
        reading.refuse(node, "id", "is not one of the export's users")
        return nil
    }

    private mutating func readOpsgenieSchedule(_ node: SourceJSON, users: [String: String]) {
        guard let sourceID = reading.text(node, "id"), let name = reading.text(node, "name"),
            let (zone, clock) = zone(node, "timezone")
        else { return }
        var schedule = ScheduleDefinition(
            id: id(sourceID), name: name, zone: zone, team: node["ownerTeam"]?["name"]?.string ?? "",
            description: reading.optionalText(node, "description"))
        scheduleIDs[sourceID] = schedule.id
        if node["enabled"]?.value == .bool(false) {
            reading.report.add(
                .changed, SourceReading.path(node, "enabled"),
                "the schedule is disabled in Opsgenie: Roster has no such state; it is migrated as it would run")
        }
        let before = reading.problems.count
        var rotations: [Rotation] = []
        for rotation in reading.objects(reading.list(node, "rotations")) {
            if let mapped = opsgenieRotation(rotation, clock: clock, users: users) { rotations.append(mapped) }
        }
        guard reading.problems.count == before else { return }
        if !rotations.isEmpty { schedule.layers = [ScheduleLayer(level: 0, rotations: rotations)] }
        schedules.append(schedule)
    }

    /// A rotation: its participants in order (`none` an empty turn), a turn of `length` hours,
    /// days or weeks from `startDate` on the schedule's wall clock, advancing by the calendar,
    /// until `endDate`, within its time restriction.
    private mutating func opsgenieRotation(_ node: SourceJSON, clock: WallClock, users: [String: String]) -> Rotation? {
        let before = reading.problems.count
        let rotationID = reading.text(node, "id") ?? ""
        let type = reading.optionalText(node, "type")
        let length = node["length"] == nil ? 1 : reading.integer(node, "length", in: 1...10_000)
        let start = reading.instant(node, "startDate")
        let end = reading.instant(node, "endDate", required: false)
        var slots: [[String]] = []
        for participant in reading.objects(reading.list(node, "participants")) {
            switch participant["type"]?.string ?? "" {
            case "user": if let person = opsgenieUser(participant, users: users) { slots.append([person]) }
            case "none": slots.append([])
            case let other:
                reading.report.add(
                    .notMapped, participant.path,
                    "a participant of type \"\(other)\" (a team or an escalation) is not a person: its turn is written "
                        + "as a turn for nobody; put people in its place after the apply")
                slots.append([])
            }
        }
        let restrictions = opsgenieRestrictions(node["timeRestriction"])
        guard reading.problems.count == before, let length, let start else { return nil }
        let cadence: Cadence
        switch type {
        case "weekly": cadence = .weeks(length)
        case "daily": cadence = .days(length)
        case "hourly":
            cadence = .hours(length)
            if clock.nextTransition(after: start) != nil {
                reading.report.add(
                    .changed, SourceReading.path(node, "type"),
                    "hourly turns are counted on the wall clock of \(clock.zoneIdentifier) (handoffs keep their local "
                        + "times across a daylight-saving change): compare with --verify-against over one")
            }
        default:
            reading.refuse(node, "type", "\"\(type)\" is not hourly, daily or weekly")
            return nil
        }
        guard start % 60_000 == 0 else {
            reading.refuse(node, "startDate", "is not a whole minute: Roster's handoffs are")
            return nil
        }
        return Rotation(
            id: id(rotationID), slots: slots, cadence: cadence, handoff: clock.local(start), end: end,
            restrictions: restrictions, advance: .calendar)
    }

    /// `time-of-day` (every day, over midnight when the end is not after the start) or
    /// `weekday-and-time-of-day` (ranges from a day and time to a day and time, over the week's
    /// end when needed) as restriction windows; none: always.
    private mutating func opsgenieRestrictions(_ node: SourceJSON?) -> [RestrictionWindow] {
        guard let node else { return [] }
        func minute(_ range: SourceJSON, _ prefix: String) -> Int? {
            guard let hour = reading.integer(range, prefix + "Hour", in: 0...23),
                let minute = reading.integer(range, prefix + "Min", in: 0...59)
            else { return nil }
            return hour * 60 + minute
        }
        let days = ["monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6, "sunday": 7]
        switch reading.optionalText(node, "type") {
        case "time-of-day":
            guard let range = node["restriction"] else {
                reading.refuse(node, "restriction", "is missing")
                return []
            }
            guard let from = minute(range, "start"), let to = minute(range, "end") else { return [] }
            return [RestrictionWindow(start: from, end: to)]
        case "weekday-and-time-of-day":
            var windows: [RestrictionWindow] = []
            for range in reading.objects(reading.list(node, "restrictions")) {
                let startDay = days[reading.optionalText(range, "startDay").lowercased()]
                let endDay = days[reading.optionalText(range, "endDay").lowercased()]
                if startDay == nil { reading.refuse(range, "startDay", "is not a day such as monday") }
                if endDay == nil { reading.refuse(range, "endDay", "is not a day such as monday") }
                guard let startDay, let endDay, let from = minute(range, "start"), let to = minute(range, "end") else {
                    continue
                }
                var length = ((endDay - startDay + 7) % 7) * 1440 + to - from
                if length <= 0 { length += 7 * 1440 }
                windows += RosterImport.windows(daily: false, isoWeekday: startDay, startMinute: from, minutes: length)
            }
            return windows
        case let other:
            reading.refuse(node, "type", "\"\(other)\" is not time-of-day or weekday-and-time-of-day")
            return []
        }
    }
}
