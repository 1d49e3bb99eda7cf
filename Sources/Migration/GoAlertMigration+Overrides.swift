import RosterDomain

extension MigrationBuilder {
    /// GoAlert's user overrides on schedules: add, remove, or replace (both users), each the
    /// same kind in Roster. Two that change one person over one stretch: the first is kept.
    mutating func readGoAlertOverrides(_ root: SourceJSON) {
        var written: [String: [ScheduleOverride]] = [:]
        for entry in reading.objects(reading.list(root, "userOverrides", optional: true)) {
            let before = reading.problems.count
            let overrideID = reading.text(entry, "id") ?? ""
            let start = reading.instant(entry, "start"), end = reading.instant(entry, "end")
            let target = entry["target"]?["id"]?.string ?? ""
            let add = entry["addUserID"]?.string ?? "", remove = entry["removeUserID"]?.string ?? ""
            guard reading.problems.count == before, let start, let end else { continue }
            guard let scheduleID = scheduleIDs[target], let index = schedules.firstIndex(where: { $0.id == scheduleID })
            else {
                reading.refuse(entry, "target.id", "\"\(target)\" is not one of the export's schedules")
                continue
            }
            func person(_ userID: String, _ field: String) -> String? {
                guard !userID.isEmpty else { return nil }
                if let id = personIDs[userID] { return id }
                reading.refuse(entry, field, "\"\(userID)\" is not one of the export's users")
                return nil
            }
            let added = person(add, "addUserID"), removed = person(remove, "removeUserID")
            guard reading.problems.count == before else { continue }
            let kind: ScheduleOverride.Kind
            switch (added, removed) {
            case (let added?, let removed?): kind = .replace(replacing: removed, with: added)
            case (let added?, nil): kind = .add(added)
            case (nil, let removed?): kind = .remove(removed)
            case (nil, nil):
                reading.refuse(entry, "addUserID", "names nobody: an override adds, removes or replaces a user")
                continue
            }
            guard start < end, start % 60_000 == 0, end % 60_000 == 0 else {
                reading.refuse(entry, "end", "is not a whole minute after start")
                continue
            }
            let override = ScheduleOverride(
                id: id(overrideID), kind: kind, start: start, end: end, reason: "GoAlert override \(overrideID)")
            let people = Set(Self.people(of: kind))
            if let other = written[scheduleID, default: []].first(where: {
                $0.start < end && start < $0.end && !people.isDisjoint(with: Self.people(of: $0.kind))
            }) {
                reading.report.add(
                    .notMapped, entry.path,
                    "changes the same person as \(other.id) over the same stretch: Roster keeps one, this one is "
                        + "left out")
                continue
            }
            written[scheduleID, default: []].append(override)
            schedules[index].overrides.append(override)
        }
    }

    static func people(of kind: ScheduleOverride.Kind) -> [String] {
        switch kind {
        case .replace(let replaced, let with): [replaced, with]
        case .add(let person), .remove(let person): [person]
        }
    }

    /// GoAlert's escalation policies (steps with their delay, `repeat`) and services.
    mutating func readGoAlertEscalation(_ root: SourceJSON) {
        var policyIDs: [String: String] = [:]
        for policy in reading.objects(reading.list(root, "escalationPolicies", optional: true)) {
            guard let sourceID = reading.text(policy, "id"), let name = reading.text(policy, "name") else { continue }
            var steps: [EscalationStep] = []
            for step in reading.objects(reading.list(policy, "steps")) {
                guard let delay = reading.integer(step, "delayMinutes", in: 0...100_000) else { continue }
                var targets: [EscalationStep.Target] = []
                for target in reading.objects(reading.list(step, "targets")) {
                    let type = target["type"]?.string ?? "", targetID = target["id"]?.string ?? ""
                    switch type {
                    case "user" where personIDs[targetID] != nil: targets.append(.person(personIDs[targetID]!))
                    case "schedule" where scheduleIDs[targetID] != nil:
                        targets.append(.schedule(scheduleIDs[targetID]!))
                    case "user", "schedule":
                        reading.refuse(target, "id", "\"\(targetID)\" is not one of the export's \(type)s")
                    default:
                        reading.report.add(
                            .notMapped, target.path,
                            "a \(type.isEmpty ? "target" : type) target pages no person or schedule Roster has "
                                + "(a rotation: page a schedule that holds it): left out of the step")
                    }
                }
                if let mapped = self.step(delay: delay, targets: targets, at: step, delayField: "delayMinutes") {
                    steps.append(mapped)
                }
            }
            policyIDs[sourceID] = addPolicy(
                sourceID: sourceID, name: name, team: "", description: reading.optionalText(policy, "description"),
                repeats: policy["repeat"]?.integer ?? 0, steps: steps, at: policy, repeatField: "repeat")
        }
        for service in reading.objects(reading.list(root, "services", optional: true)) {
            guard let sourceID = reading.text(service, "id"), let name = reading.text(service, "name") else { continue }
            let policyID = service["escalationPolicyID"]?.string ?? ""
            guard let policy = policyIDs[policyID] else {
                reading.report.add(
                    .notMapped, service.path,
                    "\"\(name)\" pages through policy \"\(policyID)\", not in the file: left out")
                continue
            }
            services.append(
                PagingService(
                    id: id(sourceID), name: name, policyID: policy,
                    description: reading.optionalText(service, "description")))
        }
    }
}
