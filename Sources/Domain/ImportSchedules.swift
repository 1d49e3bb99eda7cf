import Foundation

// Schedule definitions in imports: the `schedules` of our snapshot JSON, and a PagerDuty
// schedule (its REST API's JSON) so a team can move over. Exported by `RosterExport`.

extension RosterImport {
    /// A schedule by id or name: known in the tenant or added earlier in this file.
    func resolveSchedule(_ reference: String) -> String? {
        if let known = current.schedule(idOrName: reference) { return known.id }
        let folded = TextFolding.fold(reference.trimmingCharacters(in: .whitespaces))
        for (_, change) in changes {
            if case .scheduleUpserted(let schedule) = change,
                schedule.id == reference || TextFolding.fold(schedule.name) == folded
            {
                return schedule.id
            }
        }
        return nil
    }

    mutating func parseSchedules(_ value: Any?) {
        guard let value else { return }
        guard let list = value as? [Any] else { return reject("document", "schedules", "is not a list") }
        for (index, item) in list.enumerated() {
            let location = "schedules[\(index)]"
            guard let record = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            if let schedule = scheduleDefinition(record, at: location) { addSchedule(schedule, at: location) }
        }
    }

    /// A schedule: new, the same as one that exists (unchanged), or a change to it (only with
    /// --update-existing or --replace, like other records).
    mutating func addSchedule(_ parsed: ScheduleDefinition, at location: String) {
        var schedule = parsed
        let existing =
            (schedule.id.isEmpty ? nil : current.schedules[schedule.id]) ?? current.schedule(idOrName: schedule.name)
        schedule.id = existing?.id ?? (schedule.id.isEmpty ? newID("sch") : schedule.id)
        guard let existing else {
            changes.append((location, .scheduleUpserted(schedule)))
            row(.added, "schedule", schedule.id, schedule.name, location)
            return
        }
        if existing == schedule {
            row(.unchanged, "schedule", existing.id, existing.name, location)
            return
        }
        guard options.updateExisting || options.replace else {
            conflict(
                location, "id",
                "schedule \(existing.id) \"\(existing.name)\" already exists; --update-existing replaces its definition"
            )
            return
        }
        changes.append((location, .scheduleUpserted(schedule)))
        row(.updated, "schedule", schedule.id, schedule.name, location)
    }

    /// Our JSON shape of a definition (see `RosterExport.schedule`). People are ids or full names.
    mutating func scheduleDefinition(_ record: [String: Any], at location: String) -> ScheduleDefinition? {
        var fields = FieldReader(record: record, location: location)
        var schedule = ScheduleDefinition(
            id: fields.string("id"), name: fields.string("name"), zone: fields.string("zone"),
            team: fields.string("team"), description: fields.string("description"))
        if schedule.zone.isEmpty { schedule.zone = "UTC" }
        schedule.readersMayVolunteer = (fields.value("readersMayVolunteer") as? Bool) ?? false
        violations += fields.violations
        let before = violations.count
        for (layerIndex, item) in (record["layers"] as? [Any] ?? []).enumerated() {
            let layerLocation = "\(location).layers[\(layerIndex)]"
            guard let layer = item as? [String: Any] else { reject(layerLocation, "", "is not an object"); continue }
            var rotations: [Rotation] = []
            for (rotationIndex, entry) in (layer["rotations"] as? [Any] ?? []).enumerated() {
                let at = "\(layerLocation).rotations[\(rotationIndex)]"
                guard let object = entry as? [String: Any] else { reject(at, "", "is not an object"); continue }
                if let rotation = rotation(object, at: at) { rotations.append(rotation) }
            }
            schedule.layers.append(
                ScheduleLayer(level: (layer["level"] as? NSNumber)?.intValue ?? layerIndex, rotations: rotations))
        }
        for (index, item) in (record["overrides"] as? [Any] ?? []).enumerated() {
            let at = "\(location).overrides[\(index)]"
            guard let object = item as? [String: Any] else { reject(at, "", "is not an object"); continue }
            var fields = FieldReader(record: object, location: at)
            let kind = fields.string("kind"), person = fields.string("employeeId"),
                replaced = fields.string("replacedEmployeeId")
            let id = fields.string("id"), author = fields.string("author"), reason = fields.string("reason")
            violations += fields.violations
            let start = time(object["start"], at: at, field: "start"), end = time(object["end"], at: at, field: "end")
            guard let employee = self.person(person, at: at, field: "employeeId"), let start, let end else { continue }
            let overrideKind: ScheduleOverride.Kind
            switch kind.lowercased() {
            case "replace":
                guard let replacedID = self.person(replaced, at: at, field: "replacedEmployeeId") else { continue }
                overrideKind = .replace(replacing: replacedID, with: employee)
            case "add": overrideKind = .add(employee)
            case "remove": overrideKind = .remove(employee)
            default: reject(at, "kind", "\"\(kind)\" is not replace, add or remove"); continue
            }
            schedule.overrides.append(
                ScheduleOverride(
                    id: id.isEmpty ? newID("ovr") : id, kind: overrideKind, start: start, end: end,
                    author: author, reason: reason))
        }
        return violations.count == before ? schedule : nil
    }

    private mutating func person(_ reference: String, at location: String, field: String) -> String? {
        if let id = resolveEmployee(reference) { return id }
        reject(location, field, reference.isEmpty ? "is empty" : "unknown employee \"\(reference)\"")
        return nil
    }

    private mutating func rotation(_ object: [String: Any], at location: String) -> Rotation? {
        var fields = FieldReader(record: object, location: location)
        let id = fields.string("id"), handoffText = fields.string("handoff"), advance = fields.string("advance")
        violations += fields.violations
        guard let handoff = LocalDateTime(parsing: handoffText) else {
            reject(location, "handoff", "\"\(handoffText)\" is not a local date-time such as 2026-11-30T09:00")
            return nil
        }
        let cadenceObject = object["cadence"] as? [String: Any] ?? [:]
        let count = (cadenceObject["count"] as? NSNumber)?.intValue ?? 1
        let cadence: Cadence
        switch (cadenceObject["unit"] as? String ?? "").lowercased() {
        case "minutes": cadence = .minutes(count)
        case "hours": cadence = .hours(count)
        case "days": cadence = .days(count)
        case "weeks": cadence = .weeks(count)
        case "months": cadence = .months(count)
        default:
            reject(location, "cadence", "needs a unit (minutes, hours, days, weeks, months) and a count"); return nil
        }
        var slots: [[String]] = []
        for slot in object["slots"] as? [Any] ?? [] {
            let names = (slot as? [Any] ?? [slot]).compactMap { $0 as? String }
            slots.append(names.compactMap { person($0, at: location, field: "slots") })
        }
        var restrictions: [RestrictionWindow] = []
        for item in object["restrictions"] as? [Any] ?? [] {
            guard let window = item as? [String: Any], let start = Self.minutes(window["start"]),
                let end = Self.minutes(window["end"])
            else {
                reject(location, "restrictions", "each needs start and end as HH:MM"); continue
            }
            let days = (window["weekdays"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } ?? Array(1...7)
            restrictions.append(RestrictionWindow(weekdays: Set(days), start: start, end: end))
        }
        let end = object["end"].flatMap { $0 is NSNull ? nil : time($0, at: location, field: "end") }
        let since = object["since"].flatMap { $0 is NSNull ? nil : time($0, at: location, field: "since") }
        return Rotation(
            id: id.isEmpty ? newID("rot") : id, slots: slots, cadence: cadence, handoff: handoff, end: end,
            restrictions: restrictions, advance: advance == "calendar" ? .calendar : .activeTurns, since: since,
            version: (object["version"] as? NSNumber)?.intValue ?? 1,
            slotOffset: (object["slotOffset"] as? NSNumber)?.intValue ?? 0)
    }

    static func minutes(_ value: Any?) -> Int? { (value as? String).flatMap(RestrictionWindow.minuteOfDay) }

    // MARK: PagerDuty

    /// One PagerDuty schedule, `{"schedule": {name, time_zone, description, schedule_layers[]}}`
    /// as their REST API returns it. Each layer becomes a rotation in its own layer (later
    /// layers are higher, as PagerDuty draws them), advancing by the calendar as PagerDuty does;
    /// people are matched by the user's `summary` (full name) or `email`, and must exist.
    mutating func parsePagerDutySchedule(_ data: Data) {
        guard let root = jsonObject(data) else { return }
        guard let schedule = (root["schedule"] as? [String: Any]) ?? (root["schedule_layers"] != nil ? root : nil)
        else {
            return reject("document", "schedule", "is missing: expected PagerDuty's {\"schedule\": {...}}")
        }
        let name = schedule["name"] as? String ?? ""
        let zone = schedule["time_zone"] as? String ?? "UTC"
        guard let clock = WallClock(zone: zone) else {
            return reject("schedule", "time_zone", "\"\(zone)\" is not an IANA time zone")
        }
        var definition = ScheduleDefinition(
            id: "", name: name, zone: zone, description: schedule["description"] as? String ?? "")
        let layers = schedule["schedule_layers"] as? [Any] ?? []
        if layers.isEmpty { reject("schedule", "schedule_layers", "is empty") }
        let before = violations.count
        for (index, item) in layers.enumerated() {
            let location = "schedule_layers[\(index)]"
            guard let layer = item as? [String: Any] else { reject(location, "", "is not an object"); continue }
            let seconds = (layer["rotation_turn_length_seconds"] as? NSNumber)?.intValue ?? 0
            let cadence: Cadence
            switch seconds {
            case let s where s > 0 && s % 604_800 == 0: cadence = .weeks(s / 604_800)
            case let s where s > 0 && s % 86_400 == 0: cadence = .days(s / 86_400)
            case let s where s > 0 && s % 3_600 == 0: cadence = .hours(s / 3_600)
            case let s where s >= 60 && s % 60 == 0: cadence = .minutes(s / 60)
            default: reject(location, "rotation_turn_length_seconds", "is not a whole number of minutes"); continue
            }
            guard let anchor = time(layer["rotation_virtual_start"], at: location, field: "rotation_virtual_start")
            else { continue }
            let start = layer["start"].flatMap { $0 is NSNull ? nil : time($0, at: location, field: "start") }
            let end = layer["end"].flatMap { $0 is NSNull ? nil : time($0, at: location, field: "end") }
            var slots: [[String]] = []
            for (userIndex, entry) in (layer["users"] as? [Any] ?? []).enumerated() {
                let user = (entry as? [String: Any])?["user"] as? [String: Any] ?? [:]
                let reference =
                    (user["summary"] as? String) ?? (user["name"] as? String) ?? (user["email"] as? String) ?? ""
                guard let id = resolveEmployee(reference) ?? (user["email"] as? String).flatMap(employee(withEmail:))
                else {
                    reject(
                        "\(location).users[\(userIndex)]", "user",
                        reference.isEmpty
                            ? "names nobody"
                            : "unknown employee \"\(reference)\": import the people first (their full names must match)"
                    )
                    continue
                }
                slots.append([id])
            }
            var restrictions: [RestrictionWindow] = []
            for (restrictionIndex, entry) in (layer["restrictions"] as? [Any] ?? []).enumerated() {
                guard let restriction = entry as? [String: Any],
                    let from = Self.minutes(restriction["start_time_of_day"]),
                    let duration = (restriction["duration_seconds"] as? NSNumber)?.intValue, duration > 0
                else {
                    reject(
                        "\(location).restrictions[\(restrictionIndex)]", "",
                        "needs start_time_of_day and duration_seconds");
                    continue
                }
                restrictions += Self.windows(
                    daily: restriction["type"] as? String != "weekly_restriction",
                    isoWeekday: (restriction["start_day_of_week"] as? NSNumber)?.intValue ?? 1,
                    startMinute: from, minutes: duration / 60)
            }
            definition.layers.append(
                ScheduleLayer(
                    level: index,
                    rotations: [
                        Rotation(
                            id: (layer["id"] as? String).map { "pd-\($0)" } ?? "pd-layer-\(index + 1)", slots: slots,
                            cadence: cadence,
                            handoff: clock.local(anchor), end: end, restrictions: restrictions, advance: .calendar,
                            since: start.flatMap { $0 > anchor ? $0 : nil })
                    ]))
        }
        guard violations.count == before else { return }
        addSchedule(definition, at: "schedule")
    }

    private func employee(withEmail email: String) -> String? {
        current.employees.values.first { $0.email.caseInsensitiveCompare(email) == .orderedSame }?.id
    }

    /// A PagerDuty restriction as our windows: a daily one is one window every day; a weekly one
    /// starts on an ISO weekday (1 = Monday) and may run over several days, so it is cut at
    /// midnights (the resolver joins windows that touch).
    public static func windows(daily: Bool, isoWeekday: Int, startMinute: Int, minutes: Int) -> [RestrictionWindow] {
        if daily {
            return [
                RestrictionWindow(
                    start: startMinute, end: minutes >= 1440 ? startMinute : (startMinute + minutes) % 1440)
            ]
        }
        var windows: [RestrictionWindow] = []
        var weekday = isoWeekday % 7 + 1  // ISO Monday = 1 → Foundation's Monday = 2
        var start = startMinute, left = min(minutes, 7 * 1440)
        while left > 0 {
            let length = min(left, 1440 - start)
            windows.append(RestrictionWindow(weekdays: [weekday], start: start, end: start + length))
            left -= length
            start = 0
            weekday = weekday % 7 + 1
        }
        return windows
    }
}
