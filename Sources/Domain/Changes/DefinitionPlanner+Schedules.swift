/// The schedules of a tenant definition: each schedule's fields, its rotations (an edit is a new
/// version from now, as `admin rotation edit` makes, so the past is kept) and its standing
/// overrides (those that have not ended and that no person made for themselves: self-service and
/// swaps are left to people).
extension DefinitionPlanner {
    func planSchedules(_ schedules: [ScheduleDefinition], people: RosterState, into outcome: inout Outcome)
        -> (changes: [RosterImport.Located], deletions: [RosterImport.Located])
    {
        var changes: [RosterImport.Located] = [], kept = Set<String>()
        for (index, file) in schedules.enumerated() {
            let location = "schedules[\(index)]"
            let existing = file.id.isEmpty ? state.schedule(idOrName: file.name) : state.schedules[file.id]
            let id = existing?.id ?? (file.id.isEmpty ? newID("sch") : file.id)
            guard kept.insert(id).inserted else {
                outcome.violations.append(
                    RosterViolation(location: location, field: "id", message: "schedule \(id) is in the file twice"))
                continue
            }
            outcome.places["schedule \(id)"] = location
            var schedule = existing ?? ScheduleDefinition(id: id, name: file.name, zone: file.zone)
            let before = Self.fields(of: schedule)
            schedule.name = file.name
            schedule.zone = file.zone.isEmpty ? "UTC" : file.zone
            schedule.team = file.team
            schedule.description = file.description
            schedule.readersMayVolunteer = file.readersMayVolunteer
            schedule.selfServiceOff = file.selfServiceOff
            let name = schedule.name
            if existing == nil {
                outcome.objects.append(.init(.create, "schedule", id, name, location: location))
            } else {
                let fields = Self.fieldChanges(before, Self.fields(of: schedule))
                if !fields.isEmpty {
                    outcome.objects.append(.init(.change, "schedule", id, name, fields: fields, location: location))
                }
            }
            planRotations(file.layers, of: &schedule, at: location, people: people, into: &outcome)
            planOverrides(file.overrides, of: &schedule, at: location, people: people, into: &outcome)
            if schedule != existing { changes.append((location, .scheduleUpserted(schedule))) }
        }
        var deletions: [RosterImport.Located] = []
        for schedule in state.sortedSchedules where !kept.contains(schedule.id) {
            // The default schedule always exists: it is listed only when it holds rules.
            if schedule.id == ScheduleDefinition.defaultID {
                if schedule.hasRules {
                    outcome.objects.append(.init(.notInFile, "schedule", schedule.id, schedule.name))
                }
                continue
            }
            if prune { deletions.append(("", .scheduleDeleted(id: schedule.id))) }
            outcome.objects.append(.init(prune ? .delete : .notInFile, "schedule", schedule.id, schedule.name))
        }
        return (changes, deletions)
    }

    static func fields(of schedule: ScheduleDefinition) -> [(String, String)] {
        [
            ("name", schedule.name), ("zone", schedule.zone), ("team", schedule.team),
            ("description", schedule.description),
            ("readersMayVolunteer", "\(schedule.readersMayVolunteer)"), ("selfService", "\(!schedule.selfServiceOff)"),
        ]
    }

    /// A person's id for a name or id in the file, or a violation at `location`.
    private func person(
        _ reference: String, people: RosterState, at location: String, field: String, into outcome: inout Outcome
    ) -> String? {
        if let found = people.employee(idOrName: reference) { return found.id }
        let hint = people.suggestions(for: reference).first.map { "; did you mean \($0)?" } ?? ""
        outcome.violations.append(
            RosterViolation(location: location, field: field, message: "unknown person \"\(reference)\"\(hint)"))
        return nil
    }

    // MARK: - Rotations

    private func planRotations(
        _ layers: [ScheduleLayer], of schedule: inout ScheduleDefinition, at scheduleLocation: String,
        people: RosterState, into outcome: inout Outcome
    ) {
        let live = schedule.currentRotations(now: now)
        var matched = Set<String>()
        for (layerIndex, layer) in layers.enumerated() {
            let level = layer.level
            let liveHere = live.filter { $0.level == level }
            for (rotationIndex, var rotation) in layer.rotations.enumerated() {
                let location = "\(scheduleLocation).layers[\(layerIndex)].rotations[\(rotationIndex)]"
                var known = true
                rotation.slots = rotation.slots.map { slot in
                    slot.compactMap { name in
                        let id = person(name, people: people, at: location, field: "people", into: &outcome)
                        if id == nil { known = false }
                        return id
                    }
                }
                var probe = rotation
                if probe.id.isEmpty { probe.id = "new" }
                let alone = ScheduleDefinition(
                    id: schedule.id, name: schedule.name, zone: schedule.zone,
                    layers: [ScheduleLayer(level: 0, rotations: [probe])]
                ).violations()
                // The schedule's own fields (its zone) are reported once, with the schedule.
                outcome.violations += alone.filter { !$0.location.hasPrefix("schedule ") }
                    .map {
                        RosterViolation(
                            location: location, field: Self.placed($0, places: [$0.location: location]).field,
                            message: $0.message)
                    }
                guard known, alone.isEmpty else { continue }
                let current =
                    rotation.id.isEmpty
                    ? (rotationIndex < liveHere.count ? liveHere[rotationIndex] : nil)
                    : live.first { $0.rotation.id == rotation.id }
                let label = "\(schedule.name) / "
                if let current {
                    rotation.id = current.rotation.id
                    outcome.places["rotation \(rotation.id)"] = location
                    guard matched.insert(rotation.id).inserted else {
                        outcome.violations.append(
                            RosterViolation(
                                location: location, field: "id", message: "rotation \(rotation.id) is in the file twice"
                            ))
                        continue
                    }
                    guard current.level == level else {
                        outcome.violations.append(
                            RosterViolation(
                                location: location, field: "level",
                                message: "rotation \(rotation.id) is in layer "
                                    + "\(current.level): to move it, end it (take it out, with --prune) and add a new one with another id"
                            ))
                        continue
                    }
                    let fields = Self.fieldChanges(
                        fields(of: current.rotation, in: people), fields(of: rotation, in: people))
                    guard !fields.isEmpty,
                        let edited = schedule.editingRotation(rotation.id, to: rotation, effective: now)
                    else { continue }
                    schedule = edited
                    outcome.objects.append(
                        .init(.change, "rotation", rotation.id, label + rotation.id, fields: fields, location: location)
                    )
                } else {
                    if rotation.id.isEmpty { rotation.id = newID("rot") }
                    outcome.places["rotation \(rotation.id)"] = location
                    if schedule.rotation(id: rotation.id) != nil || !matched.insert(rotation.id).inserted {
                        outcome.violations.append(
                            RosterViolation(
                                location: location, field: "id",
                                message: "rotation \(rotation.id) "
                                    + "has ended or is in the file twice: give the new rotation another id"))
                        continue
                    }
                    rotation.version = 1
                    schedule = schedule.addingRotation(rotation, level: level)
                    outcome.objects.append(
                        .init(.create, "rotation", rotation.id, label + rotation.id, location: location))
                }
            }
        }
        for current in live where !matched.contains(current.rotation.id) {
            if prune, let ended = schedule.endingRotation(current.rotation.id, effective: now) { schedule = ended }
            outcome.objects.append(
                .init(
                    prune ? .delete : .notInFile, "rotation", current.rotation.id,
                    "\(schedule.name) / \(current.rotation.id)"))
        }
    }

    /// What a file says of a rotation (its version, start and offset are the server's).
    func fields(of rotation: Rotation, in people: RosterState) -> [(String, String)] {
        let names = rotation.slots.map { slot in
            slot.map { people.employees[$0]?.fullName ?? $0 }.joined(separator: " + ")
        }
        return [
            ("people", names.joined(separator: ", ")), ("every", rotation.cadence.text),
            ("handoff", rotation.handoff.description),
            ("restrictions", rotation.restrictions.map(\.text).joined(separator: "; ")),
            ("advance", rotation.advance.rawValue),
            ("onTimeOff", rotation.onTimeOff.rawValue), ("end", rotation.end.map(TimeText.iso8601) ?? ""),
        ]
    }

    // MARK: - Overrides

    private func planOverrides(
        _ overrides: [ScheduleOverride], of schedule: inout ScheduleDefinition, at scheduleLocation: String,
        people: RosterState, into outcome: inout Outcome
    ) {
        let standing = schedule.standingOverrides(now: now)
        var matched = Set<String>()
        for (index, var override) in overrides.enumerated() {
            let location = "\(scheduleLocation).overrides[\(index)]"
            override.source = ""
            var known = true
            func resolve(_ name: String, _ field: String) -> String {
                guard let id = person(name, people: people, at: location, field: field, into: &outcome) else {
                    known = false; return name
                }
                return id
            }
            switch override.kind {
            case .replace(let replaced, let with):
                override.kind = .replace(replacing: resolve(replaced, "replace"), with: resolve(with, "with"))
            case .add(let who): override.kind = .add(resolve(who, "add"))
            case .remove(let who): override.kind = .remove(resolve(who, "remove"))
            }
            guard known else { continue }
            let current =
                override.id.isEmpty
                ? standing.first {
                    $0.kind == override.kind && $0.start == override.start && $0.end == override.end
                        && !matched.contains($0.id)
                }
                : schedule.overrides.first { $0.id == override.id }
            let label = "\(schedule.name) / "
            if let current {
                override.id = current.id
                override.author = current.author
                outcome.places["override \(override.id)"] = location
                guard matched.insert(override.id).inserted else {
                    outcome.violations.append(
                        RosterViolation(
                            location: location, field: "id", message: "override \(override.id) is in the file twice"))
                    continue
                }
                let fields = Self.fieldChanges(
                    Self.fields(of: current, in: people), Self.fields(of: override, in: people))
                guard !fields.isEmpty else { continue }
                guard current.end > now, current.source.isEmpty else {
                    outcome.violations.append(
                        RosterViolation(
                            location: location, field: "id",
                            message: "override \(override.id) "
                                + (current.source.isEmpty ? "has ended" : "was made by a person (\(current.source))")
                                + ": it cannot change from a file"))
                    continue
                }
                schedule.overrides = schedule.overrides.map { $0.id == override.id ? override : $0 }
                outcome.objects.append(
                    .init(.change, "override", override.id, label + override.id, fields: fields, location: location))
            } else {
                guard override.end > now else {
                    outcome.violations.append(
                        RosterViolation(
                            location: location, field: "to", message: "ends before now: take it out of the file"))
                    continue
                }
                if override.id.isEmpty { override.id = newID("ovr") }
                outcome.places["override \(override.id)"] = location
                matched.insert(override.id)
                override.author = author
                schedule.overrides.append(override)
                outcome.objects.append(.init(.create, "override", override.id, label + override.id, location: location))
            }
        }
        for override in standing where !matched.contains(override.id) {
            if prune {
                // One under way ends now: its past stays as it was.
                if override.start < now {
                    schedule.overrides = schedule.overrides.map {
                        var cut = $0; if cut.id == override.id { cut.end = now }; return cut
                    }
                } else {
                    schedule.overrides.removeAll { $0.id == override.id }
                }
            }
            outcome.objects.append(
                .init(prune ? .delete : .notInFile, "override", override.id, "\(schedule.name) / \(override.id)"))
        }
    }

    static func fields(of override: ScheduleOverride, in people: RosterState) -> [(String, String)] {
        func name(_ id: String) -> String { people.employees[id]?.fullName ?? id }
        let (kind, who, instead): (String, String, String) =
            switch override.kind {
            case .replace(let replaced, let with): ("replace", name(with), name(replaced))
            case .add(let person): ("add", name(person), "")
            case .remove(let person): ("remove", name(person), "")
            }
        return [
            ("kind", kind), ("person", who), ("instead of", instead), ("from", TimeText.iso8601(override.start)),
            ("to", TimeText.iso8601(override.end)), ("reason", override.reason),
        ]
    }
}
