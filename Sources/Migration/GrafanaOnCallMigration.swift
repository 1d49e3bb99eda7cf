import Foundation
import RosterDomain

// Grafana OnCall's export (docs/MIGRATING.md): one JSON object with what its public API v1
// answers, `{users, schedules, on_call_shifts, escalation_chains, escalation_policies}`. A
// schedule's shifts are layers by their `level`; shifts of one level add up; override shifts
// put their user alone on the schedule.

extension MigrationBuilder {
    mutating func readGrafanaOnCall(_ root: SourceJSON) {
        guard root.isObject, root["on_call_shifts"] != nil else {
            reading.refuse(
                nil, "",
                "is not a Grafana OnCall export: expected an object with users, schedules, on_call_shifts, "
                    + "escalation_chains and escalation_policies")
            return
        }
        let users = reading.objects(reading.list(root, "users", optional: true))
        for user in users {
            guard let id = reading.text(user, "id") else { continue }
            let email = reading.optionalText(user, "email"), username = reading.optionalText(user, "username")
            let name = reading.optionalText(user, "name")
            addPerson(
                sourceID: id, name: name.isEmpty ? (username.isEmpty ? email : username) : name, email: email,
                position: "", teams: [], at: user.path)
        }
        reading.report.ignoredFields(users, used: ["id", "email", "username", "name"], at: "users[*]")
        var shifts: [String: SourceJSON] = [:]
        for shift in reading.objects(reading.list(root, "on_call_shifts")) {
            if let id = reading.text(shift, "id") { shifts[id] = shift }
        }
        for schedule in reading.objects(reading.list(root, "schedules")) {
            readGrafanaSchedule(schedule, shifts: shifts)
        }
        readGrafanaEscalation(root)
    }

    private mutating func readGrafanaSchedule(_ node: SourceJSON, shifts: [String: SourceJSON]) {
        guard let sourceID = reading.text(node, "id"), let name = reading.text(node, "name"),
            let (zone, clock) = zone(node, "time_zone")
        else { return }
        if let type = node["type"]?.string, type != "web" {
            reading.report.add(
                .notMapped, SourceReading.path(node, "type"),
                "a schedule of type \(type) reads an iCalendar feed Grafana does not hold: only its shifts defined in "
                    + "Grafana are migrated")
        }
        var schedule = ScheduleDefinition(id: id(sourceID), name: name, zone: zone)
        scheduleIDs[sourceID] = schedule.id
        let before = reading.problems.count
        var levels: [Int: [Rotation]] = [:]
        var overrides: [(SourceJSON, [String], Range<UnixMillis>)] = []
        for reference in reading.list(node, "shifts", optional: true) {
            guard let shiftID = reference.string, let shift = shifts[shiftID] else {
                reading.refuse(reference, "", "is not one of the export's on_call_shifts")
                continue
            }
            if shift["type"]?.string == "override" {
                if let override = grafanaOverride(shift, clock: clock) { overrides.append(override) }
                continue
            }
            if let rotation = grafanaRotation(shift, zone: zone, clock: clock) {
                levels[shift["level"]?.integer ?? 0, default: []].append(rotation)
            }
        }
        guard reading.problems.count == before else { return }
        schedule.layers = levels.keys.sorted().map { ScheduleLayer(level: $0, rotations: levels[$0]!) }
        for (shift, people, window) in overrides.sorted(by: { $0.2.lowerBound < $1.2.lowerBound }) {
            guard !schedule.overrides.contains(where: { $0.start < window.upperBound && window.lowerBound < $0.end })
            else {
                reading.report.add(
                    .notMapped, shift.path, "overlaps another override: Roster keeps one over a stretch; left out")
                continue
            }
            let pieces = Self.overridesGiving(
                Set(people), together: window, over: schedule, id: id(shift["id"]?.string ?? "override"),
                reason: "Grafana OnCall override")
            schedule.overrides += pieces
            reading.report.add(
                .changed, shift.path,
                people.map { self.name($0) }.joined(separator: ", ")
                    + (people.count == 1 ? " alone" : " together, nobody else,")
                    + " from \(TimeText.iso8601(window.lowerBound)) to "
                    + "\(TimeText.iso8601(window.upperBound)): written as \(pieces.count) override"
                    + "\(pieces.count == 1 ? "" : "s") naming whom they replace")
        }
        schedules.append(schedule)
    }

    /// A shift's `start` (in its zone, or with an offset) as an instant.
    mutating func grafanaInstant(_ node: SourceJSON, _ key: String, zone: WallClock, required: Bool = true)
        -> UnixMillis?
    {
        guard let text = node[key]?.string else {
            if required { reading.refuse(node, key, "is missing") }
            return nil
        }
        if let instant = TimeText.parseISO8601(text) { return instant }
        guard let (local, second) = LocalDateTime.parse(text, allowingDateOnly: false), second == 0 else {
            reading.refuse(node, key, "\"\(text)\" is not a time such as 2024-08-05T09:00:00")
            return nil
        }
        return zone.instant(
            WallClock.Day(year: local.year, month: local.month, day: local.day),
            minuteOfDay: local.hour * 60 + local.minute)
    }

    /// An override shift: its users (together, and nobody else) over [start, start + duration).
    private mutating func grafanaOverride(_ shift: SourceJSON, clock: WallClock) -> (
        SourceJSON, [String], Range<UnixMillis>
    )? {
        let users =
            (shift["rolling_users"]?.elements?.flatMap { $0.elements ?? [] } ?? [])
            + (shift["users"]?.elements ?? [])
        let ids = users.compactMap(\.string)
        guard let start = grafanaInstant(shift, "start", zone: clock),
            let duration = reading.integer(shift, "duration", in: 60...31_536_000)
        else { return nil }
        let people = ids.compactMap { personIDs[$0] }
        guard !ids.isEmpty, people.count == ids.count else {
            reading.report.add(
                .notMapped, shift.path,
                ids.isEmpty ? "names no user: left out" : "names a user the export does not have: left out")
            return nil
        }
        var seen = Set<String>()
        return (shift, people.filter { seen.insert($0).inserted }, start..<(start + UnixMillis(duration) * 1_000))
    }
}
