import Foundation
import RosterDomain

// GoAlert's export (docs/MIGRATING.md): one JSON object with what its GraphQL API answers,
// `{exportedAt, users, rotations, schedules, userOverrides, escalationPolicies, services}`. A
// schedule is on call wherever any of its targets (a rotation or a user) is inside one of that
// target's rules: in Roster, one layer whose rotations add up, each with the rules as its
// restrictions.

extension MigrationBuilder {
    mutating func readGoAlert(_ root: SourceJSON) {
        guard root.isObject, root["rotations"] != nil else {
            reading.refuse(
                nil, "",
                "is not a GoAlert export: expected an object with exportedAt, users, rotations, schedules, "
                    + "userOverrides, escalationPolicies and services")
            return
        }
        guard let exportedAt = reading.instant(root, "exportedAt") else { return }
        let users = reading.objects(reading.list(root, "users", optional: true))
        for user in users {
            guard let id = reading.text(user, "id"), let name = reading.text(user, "name") else { continue }
            addPerson(
                sourceID: id, name: name, email: reading.optionalText(user, "email"), position: "", teams: [],
                at: user.path)
        }
        reading.report.ignoredFields(users, used: ["id", "name", "email"], at: "users[*]")
        var rotations: [String: SourceJSON] = [:]
        for rotation in reading.objects(reading.list(root, "rotations", optional: true)) {
            if let id = reading.text(rotation, "id") { rotations[id] = rotation }
        }
        let schedules = reading.objects(reading.list(root, "schedules"))
        for schedule in schedules {
            readGoAlertSchedule(schedule, rotations: rotations, exportedAt: exportedAt)
        }
        reading.report.ignoredFields(
            schedules, used: ["id", "name", "description", "timeZone", "targets", "temporarySchedules"],
            at: "schedules[*]")
        readGoAlertOverrides(root)
        readGoAlertEscalation(root)
    }

    private mutating func readGoAlertSchedule(
        _ node: SourceJSON, rotations: [String: SourceJSON], exportedAt: UnixMillis
    ) {
        guard let sourceID = reading.text(node, "id"), let name = reading.text(node, "name"),
            let (zone, clock) = zone(node, "timeZone")
        else { return }
        var schedule = ScheduleDefinition(
            id: id(sourceID), name: name, zone: zone, description: reading.optionalText(node, "description"))
        scheduleIDs[sourceID] = schedule.id
        let before = reading.problems.count
        var layer: [Rotation] = []
        for target in reading.objects(reading.list(node, "targets")) {
            let reference = target["target"] ?? target
            let type = reference["type"]?.string ?? "", targetID = reference["id"]?.string ?? ""
            let rules = reading.objects(reading.list(target, "rules"))
            var restrictions: [RestrictionWindow] = []
            for rule in rules { restrictions += goAlertRule(rule) }
            // A rule always active: no restriction at all. No active rule: never on call.
            if restrictions.contains(where: { $0.weekdays.count == 7 && $0.start == $0.end }) { restrictions = [] }
            if rules.isEmpty || (restrictions.isEmpty && rules.allSatisfy(Self.neverActive)) {
                reading.report.add(.exact, target.path, "has no active rule: never on call in GoAlert, left out")
                continue
            }
            switch type {
            case "rotation":
                guard let rotation = rotations[targetID] else {
                    reading.refuse(reference, "id", "\"\(targetID)\" is not one of the export's rotations")
                    continue
                }
                if let mapped = goAlertRotation(
                    rotation, restrictions: restrictions, scheduleClock: clock, exportedAt: exportedAt,
                    id: id("\(sourceID)-\(targetID)"))
                {
                    layer.append(mapped)
                }
            case "user":
                guard let person = personIDs[targetID] else {
                    reading.refuse(reference, "id", "\"\(targetID)\" is not one of the export's users")
                    continue
                }
                // A person directly on the schedule: a rotation of one, whose turns never end.
                layer.append(
                    Rotation(
                        id: id("\(sourceID)-\(targetID)"), slots: [[person]], cadence: .weeks(1),
                        handoff: clock.local(exportedAt - exportedAt % 60_000), restrictions: restrictions,
                        advance: .calendar))
            default:
                reading.refuse(reference, "type", "\"\(type)\" is not rotation or user")
            }
        }
        for (index, temporary) in reading.objects(reading.list(node, "temporarySchedules", optional: true))
            .enumerated()
        {
            reading.report.add(
                .notMapped, temporary.path,
                "a temporary schedule (\(index + 1)) is not in definition files: within its span it replaces "
                    + "the rules, as Roster's temporary schedules do; add it after the apply with "
                    + "`roster-client admin temporary` (docs/TIME-OFF.md)")
        }
        guard reading.problems.count == before else { return }
        if !layer.isEmpty { schedule.layers = [ScheduleLayer(level: 0, rotations: layer)] }
        schedules.append(schedule)
    }

    static func neverActive(_ rule: SourceJSON) -> Bool {
        (rule["weekdayFilter"]?.elements ?? []).allSatisfy { $0.value == .bool(false) }
    }

    /// A GoAlert rule as restriction windows: on each day of its weekday filter (Sunday first)
    /// from `start` to `end` in the schedule's zone, over midnight when `end` is not after
    /// `start` (equal: the whole day from `start`), as GoAlert's `Rule.IsActive` reads it.
    private mutating func goAlertRule(_ rule: SourceJSON) -> [RestrictionWindow] {
        let startText = reading.optionalText(rule, "start"), endText = reading.optionalText(rule, "end")
        guard let start = RestrictionWindow.minuteOfDay(startText), start < 1440 else {
            reading.refuse(rule, "start", "\"\(startText)\" is not a time such as 09:00")
            return []
        }
        guard let end = RestrictionWindow.minuteOfDay(endText), end < 1440 else {
            reading.refuse(rule, "end", "\"\(endText)\" is not a time such as 17:00")
            return []
        }
        let filter = rule["weekdayFilter"]?.elements?.map { element -> Bool? in
            if case .bool(let on) = element.value { on } else { nil }
        }
        guard let filter, filter.count == 7, filter.allSatisfy({ $0 != nil }) else {
            reading.refuse(rule, "weekdayFilter", "is not seven booleans, Sunday first")
            return []
        }
        let days = Set(filter.enumerated().compactMap { $0.element == true ? $0.offset + 1 : nil })
        guard !days.isEmpty else {
            reading.report.add(.exact, rule.path, "is never active: left out")
            return []
        }
        return [RestrictionWindow(weekdays: days, start: start, end: end)]
    }
}
