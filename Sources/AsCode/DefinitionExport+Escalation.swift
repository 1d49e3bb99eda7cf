import RosterDomain

extension DefinitionExport {
    /// Escalation policies and services: both sections always, so that a file exported from a
    /// tenant without them keeps it so when applied with prune.
    static func writeEscalation(_ state: RosterState, to out: inout YAMLLines, name: (String) -> String) {
        let policies = state.escalation.sortedPolicies
        out.line(0, "escalationPolicies:" + (policies.isEmpty ? " []" : ""))
        for policy in policies {
            out.item(1, "id", policy.id)
            out.field(2, "name", policy.name)
            if !policy.team.isEmpty { out.field(2, "team", policy.team) }
            if !policy.description.isEmpty { out.field(2, "description", policy.description) }
            if policy.repeatCount != 0 { out.line(2, "repeat: \(policy.repeatCount)") }
            out.line(2, "steps:")
            for step in policy.steps {
                out.line(3, "- delayMinutes: \(step.delayMinutes)")
                if step.strategy != .everyone { out.field(4, "strategy", step.strategy.rawValue) }
                out.line(4, "targets:")
                for target in step.targets {
                    switch target {
                    case .person(let id): out.item(5, "person", name(id))
                    case .schedule(let id): out.item(5, "schedule", state.schedules[id]?.name ?? id)
                    case .team(let team): out.item(5, "team", team)
                    }
                }
            }
        }
        let services = state.escalation.sortedServices
        out.line(0, "services:" + (services.isEmpty ? " []" : ""))
        for service in services {
            out.item(1, "id", service.id)
            out.field(2, "name", service.name)
            if !service.team.isEmpty { out.field(2, "team", service.team) }
            if !service.description.isEmpty { out.field(2, "description", service.description) }
            out.field(2, "policy", state.escalation.policies[service.policyID]?.name ?? service.policyID)
            if !service.links.isEmpty {
                out.line(2, "links:")
                for link in service.links {
                    out.item(3, "title", link.title)
                    out.field(4, "url", link.url)
                }
            }
        }
    }
}
