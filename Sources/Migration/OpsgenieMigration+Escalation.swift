import RosterDomain

extension MigrationBuilder {
    /// Opsgenie's overrides (`{"SCHEDULE_ID": [override, …]}`): the user takes the place of
    /// whoever the named rotations (every rotation when none is named) have on call over the
    /// span. Written, as PagerDuty's are, as the replace and add overrides that give that duty
    /// over the migrated rotations.
    mutating func readOpsgenieOverrides(_ root: SourceJSON, users: [String: String]) {
        guard let byScheduleNode = root["overrides"] else { return }
        for sourceID in byScheduleNode.keys {
            guard let list = byScheduleNode[sourceID] else { continue }
            guard let scheduleID = scheduleIDs[sourceID],
                let index = schedules.firstIndex(where: { $0.id == scheduleID })
            else {
                reading.refuse(byScheduleNode, sourceID, "is not one of the export's schedules")
                continue
            }
            var taken: [Range<UnixMillis>] = []
            for entry in reading.objects(list.elements ?? []) {
                let before = reading.problems.count
                let start = reading.instant(entry, "startDate"), end = reading.instant(entry, "endDate")
                let person = entry["user"].flatMap { opsgenieUser($0, users: users) }
                if entry["user"] == nil { reading.refuse(entry, "user", "is missing") }
                guard reading.problems.count == before, let start, let end, let person, start < end else {
                    if reading.problems.count == before { reading.refuse(entry, "endDate", "is not after startDate") }
                    continue
                }
                guard !taken.contains(where: { $0.overlaps(start..<end) }) else {
                    reading.report.add(
                        .notMapped, entry.path,
                        "overlaps another override of this schedule: Roster keeps one over a stretch; this one is left out"
                    )
                    continue
                }
                taken.append(start..<end)
                // Only the rotations it names: the others keep their people.
                let named = Set(
                    (entry["rotations"]?.elements ?? []).compactMap { $0["id"]?.string }.map { id($0) })
                var scope = schedules[index]
                if !named.isEmpty {
                    scope.layers = scope.layers.map { layer in
                        ScheduleLayer(level: layer.level, rotations: layer.rotations.filter { named.contains($0.id) })
                    }
                }
                let alias = entry["alias"]?.string ?? "\(index)-\(taken.count)"
                let pieces = Self.overridesGiving(
                    person, alone: start..<end, over: scope, id: id(alias), reason: "Opsgenie override \(alias)")
                schedules[index].overrides += pieces
                reading.report.add(
                    .changed, entry.path,
                    "\(name(person)) in the place of \(named.isEmpty ? "every rotation's" : "the named rotations'") "
                        + "people from \(TimeText.iso8601(start)) to \(TimeText.iso8601(end)): written as "
                        + "\(pieces.count) override\(pieces.count == 1 ? "" : "s") naming whom they replace")
            }
        }
    }

    /// Opsgenie's escalations: rules fire at their delay from the alert's start (Roster's step
    /// waits before the next), so the rules are ordered by delay, those of one delay made one
    /// step, and each step waits until the next one's delay; `repeat.count` is the repeats.
    mutating func readOpsgenieEscalations(_ root: SourceJSON, users: [String: String]) {
        for escalation in reading.objects(reading.list(root, "escalations", optional: true)) {
            guard let sourceID = reading.text(escalation, "id"), let name = reading.text(escalation, "name") else {
                continue
            }
            var byDelay: [Int: [EscalationStep.Target]] = [:]
            for rule in reading.objects(reading.list(escalation, "rules")) {
                let amount = rule["delay"]?["timeAmount"]?.integer ?? 0
                let unit = rule["delay"]?["timeUnit"]?.string ?? "minutes"
                let scale = ["minutes": 1, "hours": 60, "days": 1_440][unit]
                guard let scale, (0...100_000).contains(amount) else {
                    reading.refuse(rule, "delay", "is not a time amount in minutes, hours or days")
                    continue
                }
                let notify = rule["notifyType"]?.string ?? "default"
                let recipient = rule["recipient"]
                let type = recipient?["type"]?.string ?? "", targetID = recipient?["id"]?.string ?? ""
                switch (type, notify) {
                case ("user", _):
                    if let recipient, let person = opsgenieUser(recipient, users: users) {
                        byDelay[amount * scale, default: []].append(.person(person))
                    }
                case ("schedule", "default"):
                    if let schedule = scheduleIDs[targetID] {
                        byDelay[amount * scale, default: []].append(.schedule(schedule))
                    } else {
                        reading.refuse(recipient, "id", "\"\(targetID)\" is not one of the export's schedules")
                    }
                default:
                    reading.report.add(
                        .notMapped, rule.path,
                        "notifies \(type.isEmpty ? "a recipient" : "a \(type)") with notifyType \(notify): Roster pages "
                            + "whoever is on duty now (next or previous on call, a team's routing, admins: not mapped)")
                }
            }
            let delays = byDelay.keys.sorted()
            if let first = delays.first, first > 0 {
                reading.report.add(
                    .changed, escalation.path,
                    "its first rule waits \(first) minutes after the alert; Roster's first step pages at once")
            }
            let wait = escalation["repeat"]?["waitInterval"]?.integer ?? 1
            var steps: [EscalationStep] = []
            for (index, delay) in delays.enumerated() {
                let next = index + 1 < delays.count ? delays[index + 1] - delay : max(wait, 1)
                if let step = step(delay: next, targets: byDelay[delay]!, at: escalation, delayField: "rules") {
                    steps.append(step)
                }
            }
            _ = addPolicy(
                sourceID: sourceID, name: name, team: escalation["ownerTeam"]?["name"]?.string ?? "",
                description: reading.optionalText(escalation, "description"),
                repeats: escalation["repeat"]?["count"]?.integer ?? 0, steps: steps, at: escalation,
                repeatField: "repeat.count")
        }
    }
}
