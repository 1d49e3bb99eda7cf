import RosterDomain
import RosterProtocol
import Yams

/// The escalation sections of a definition file (docs/AS-CODE.md, docs/ESCALATION.md).
extension DefinitionReader {
    mutating func escalationPolicy(_ node: Node, at key: String) -> Roster_V1_EscalationPolicy? {
        note(key, node)
        guard
            let f = fields(
                node, at: key, allowed: ["id", "name", "team", "description", "repeat", "steps"],
                required: ["name", "steps"])
        else { return nil }
        var policy = EscalationPolicy(
            id: text(f["id"], at: key + ".id"), name: text(f["name"], at: key + ".name"),
            team: text(f["team"], at: key + ".team"), description: text(f["description"], at: key + ".description"),
            repeatCount: number(f["repeat"], at: key + ".repeat", in: 0...EscalationPolicy.maxRepeat) ?? 0, steps: [])
        for (index, stepNode) in list(f["steps"], at: key + ".steps").enumerated() {
            let stepKey = "\(key).steps[\(index)]"
            note(stepKey, stepNode)
            guard
                let s = fields(
                    stepNode, at: stepKey, allowed: ["delayMinutes", "strategy", "targets"],
                    required: ["delayMinutes", "targets"])
            else { continue }
            var step = EscalationStep(
                delayMinutes: number(
                    s["delayMinutes"], at: stepKey + ".delayMinutes", in: EscalationPolicy.delayMinutes)
                    ?? EscalationPolicy.delayMinutes.lowerBound,
                targets: [])
            if let strategy = s["strategy"] {
                let name = text(strategy, at: stepKey + ".strategy")
                if let known = EscalationStep.Strategy(rawValue: name) {
                    step.strategy = known
                } else {
                    problem(strategy, "\(stepKey).strategy is everyone or round_robin")
                }
            }
            for (number, targetNode) in list(s["targets"], at: stepKey + ".targets").enumerated() {
                let targetKey = "\(stepKey).targets[\(number)]"
                guard let t = fields(targetNode, at: targetKey, allowed: ["person", "schedule", "team"]),
                    t.count == 1, let (kind, value) = t.first
                else {
                    problem(targetNode, "\(targetKey) is one of: person, schedule or team, with a name")
                    continue
                }
                let name = text(value, at: targetKey + "." + kind)
                step.targets.append(
                    kind == "person" ? .person(name) : kind == "schedule" ? .schedule(name) : .team(name))
            }
            policy.steps.append(step)
        }
        return Roster_V1_EscalationPolicy(policy)
    }

    mutating func service(_ node: Node, at key: String) -> Roster_V1_Service? {
        note(key, node)
        guard
            let f = fields(
                node, at: key, allowed: ["id", "name", "team", "description", "policy", "links"],
                required: ["name", "policy"])
        else { return nil }
        var service = PagingService(
            id: text(f["id"], at: key + ".id"), name: text(f["name"], at: key + ".name"),
            policyID: text(f["policy"], at: key + ".policy"), team: text(f["team"], at: key + ".team"),
            description: text(f["description"], at: key + ".description"))
        for (index, linkNode) in list(f["links"], at: key + ".links").enumerated() {
            let linkKey = "\(key).links[\(index)]"
            guard let l = fields(linkNode, at: linkKey, allowed: ["title", "url"], required: ["title", "url"]) else {
                continue
            }
            service.links.append(
                .init(title: text(l["title"], at: linkKey + ".title"), url: text(l["url"], at: linkKey + ".url")))
        }
        return Roster_V1_Service(service)
    }
}
