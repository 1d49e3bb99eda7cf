import RosterDomain

extension MigrationBuilder {
    /// PagerDuty's escalation policies (rules → steps, `num_loops` → repeat) and services (each
    /// through its policy), after the people and schedules they name.
    mutating func readPagerDutyEscalation(_ root: SourceJSON, teams: [String: String]) {
        var policyIDs: [String: String] = [:]
        let sourcePolicies = reading.objects(reading.list(root, "escalation_policies", optional: true))
        for policy in sourcePolicies {
            guard let sourceID = reading.text(policy, "id"), let name = reading.text(policy, "name") else { continue }
            var steps: [EscalationStep] = []
            let rules = reading.objects(reading.list(policy, "escalation_rules"))
            for rule in rules {
                guard let delay = reading.integer(rule, "escalation_delay_in_minutes", in: 0...100_000) else {
                    continue
                }
                var targets: [EscalationStep.Target] = []
                for target in reading.objects(reading.list(rule, "targets")) {
                    let type = target["type"]?.string ?? "", targetID = target["id"]?.string ?? ""
                    switch type {
                    case "user", "user_reference":
                        if let person = personIDs[targetID] {
                            targets.append(.person(person))
                        } else {
                            reading.refuse(target, "id", "\"\(targetID)\" is not one of the export's users")
                        }
                    case "schedule", "schedule_reference":
                        if let schedule = scheduleIDs[targetID] {
                            targets.append(.schedule(schedule))
                        } else {
                            reading.refuse(target, "id", "\"\(targetID)\" is not one of the export's schedules")
                        }
                    default:
                        reading.report.add(
                            .notMapped, target.path,
                            "a target of type \"\(type)\" is not a person or a schedule: left out of the step")
                    }
                }
                let strategy: EscalationStep.Strategy =
                    policy["escalation_rule_assignment_strategy"]?["type"]?.string == "round_robin"
                    ? .roundRobin : .everyone
                if let mapped = step(
                    delay: delay, targets: targets, strategy: strategy, at: rule,
                    delayField: "escalation_delay_in_minutes")
                {
                    steps.append(mapped)
                }
            }
            policyIDs[sourceID] = addPolicy(
                sourceID: sourceID, name: name, team: firstTeam(policy, teams: teams),
                description: reading.optionalText(policy, "description"), repeats: policy["num_loops"]?.integer ?? 0,
                steps: steps, at: policy, repeatField: "num_loops")
        }
        reading.report.ignoredFields(
            sourcePolicies,
            used: [
                "id", "name", "description", "num_loops", "escalation_rules", "teams", "type", "summary", "self",
                "html_url", "escalation_rule_assignment_strategy", "services",
            ], at: "escalation_policies[*]")
        let sourceServices = reading.objects(reading.list(root, "services", optional: true))
        for service in sourceServices {
            guard let sourceID = reading.text(service, "id"), let name = reading.text(service, "name") else { continue }
            let policyID = service["escalation_policy"]?["id"]?.string ?? ""
            guard let policy = policyIDs[policyID] else {
                reading.report.add(
                    .notMapped, service.path,
                    "\"\(name)\" pages through \(policyID.isEmpty ? "no policy" : "policy \(policyID)"), "
                        + "which is not in the file: left out")
                continue
            }
            services.append(
                PagingService(
                    id: id(sourceID), name: name, policyID: policy, team: firstTeam(service, teams: teams),
                    description: reading.optionalText(service, "description")))
        }
        reading.report.ignoredFields(
            sourceServices,
            used: ["id", "name", "description", "escalation_policy", "teams", "type", "summary", "self", "html_url"],
            at: "services[*]")
    }
}
