/// The escalation policies and services of a tenant definition (issue #56). Each is matched by
/// id, else by name; a step names people and schedules by id or name, a service its policy by id
/// or name (one the file adds included). The file manages each section it holds: with prune,
/// what the section lacks is deleted, services before the policies they use.
extension DefinitionPlanner {
    func planEscalation(_ document: DefinitionDocument, named: RosterState, into outcome: inout Outcome)
        -> (changes: [RosterImport.Located], deletions: [RosterImport.Located])
    {
        var changes: [RosterImport.Located] = [], deletions: [RosterImport.Located] = []
        var policyIDs: [String: String] = [:]  // the file's policies: folded name → id
        if document.managesEscalationPolicies {
            var kept = Set<String>()
            for (index, file) in document.escalationPolicies.enumerated() {
                let location = "escalationPolicies[\(index)]"
                let existing =
                    file.id.isEmpty ? state.escalation.policy(idOrName: file.name) : state.escalation.policies[file.id]
                var policy = file
                policy.id = existing?.id ?? (file.id.isEmpty ? newID("pol") : file.id)
                guard kept.insert(policy.id).inserted else {
                    outcome.violations.append(
                        RosterViolation(
                            location: location, field: "id", message: "policy \(policy.id) is in the file twice"))
                    continue
                }
                policyIDs[TextFolding.fold(policy.name)] = policy.id
                // A name is the file's, else the tenant's before the file (so a rename in the same
                // file keeps what a step names); an unknown one stays as written, and validation
                // says which step lacks whom.
                for step in policy.steps.indices {
                    policy.steps[step].targets = policy.steps[step].targets.map { target in
                        switch target {
                        case .person(let ref):
                            .person(named.employee(idOrName: ref)?.id ?? state.employee(idOrName: ref)?.id ?? ref)
                        case .schedule(let ref):
                            .schedule(named.schedule(idOrName: ref)?.id ?? state.schedule(idOrName: ref)?.id ?? ref)
                        case .team: target
                        }
                    }
                }
                note(policy, existing: existing, kind: "escalation policy", at: location, named: named, into: &outcome)
                if policy != existing { changes.append((location, .escalationPolicySet(policy))) }
            }
            for policy in state.escalation.sortedPolicies where !kept.contains(policy.id) {
                if prune { deletions.append(("", .escalationPolicyDeleted(id: policy.id))) }
                outcome.objects.append(.init(prune ? .delete : .notInFile, "escalation policy", policy.id, policy.name))
            }
        }
        if document.managesServices {
            var kept = Set<String>()
            var serviceDeletions: [RosterImport.Located] = []
            for (index, file) in document.services.enumerated() {
                let location = "services[\(index)]"
                let existing =
                    file.id.isEmpty ? state.escalation.service(idOrName: file.name) : state.escalation.services[file.id]
                var service = file
                service.id = existing?.id ?? (file.id.isEmpty ? newID("svc") : file.id)
                guard kept.insert(service.id).inserted else {
                    outcome.violations.append(
                        RosterViolation(
                            location: location, field: "id", message: "service \(service.id) is in the file twice"))
                    continue
                }
                service.policyID =
                    policyIDs[TextFolding.fold(file.policyID)]
                    ?? state.escalation.policy(idOrName: file.policyID)?.id ?? file.policyID
                let before = existing.map { Self.fields(of: $0, named: state) }
                let after = Self.fields(of: service, named: named, filePolicies: document.escalationPolicies)
                if let before {
                    let fields = Self.fieldChanges(before, after)
                    if !fields.isEmpty {
                        outcome.objects.append(
                            .init(.change, "service", service.id, service.name, fields: fields, location: location))
                    }
                } else {
                    outcome.objects.append(.init(.create, "service", service.id, service.name, location: location))
                }
                if service != existing { changes.append((location, .serviceSet(service))) }
            }
            for service in state.escalation.sortedServices where !kept.contains(service.id) {
                if prune { serviceDeletions.append(("", .serviceDeleted(id: service.id))) }
                outcome.objects.append(.init(prune ? .delete : .notInFile, "service", service.id, service.name))
            }
            deletions = serviceDeletions + deletions
        }
        // Services name policies: a new policy goes before the service that uses it.
        changes.sort { ($0.change.isPolicy ? 0 : 1) < ($1.change.isPolicy ? 0 : 1) }
        return (changes, deletions)
    }

    private func note(
        _ policy: EscalationPolicy, existing: EscalationPolicy?, kind: String, at location: String,
        named: RosterState, into outcome: inout Outcome
    ) {
        guard let existing else {
            outcome.objects.append(.init(.create, kind, policy.id, policy.name, location: location))
            return
        }
        let fields = Self.fieldChanges(Self.fields(of: existing, named: state), Self.fields(of: policy, named: named))
        if !fields.isEmpty {
            outcome.objects.append(.init(.change, kind, policy.id, policy.name, fields: fields, location: location))
        }
    }

    static func fields(of policy: EscalationPolicy, named state: RosterState) -> [(String, String)] {
        [
            ("name", policy.name), ("team", policy.team), ("description", policy.description),
            ("repeat", "\(policy.repeatCount)"),
        ]
            + policy.steps.enumerated().map { index, step in
                let targets = step.targets.map { target in
                    switch target {
                    case .person(let id): state.employees[id]?.fullName ?? id
                    case .schedule(let id): state.schedules[id]?.name ?? id
                    case .team(let name): "team " + name
                    }
                }
                return (
                    "steps[\(index)]",
                    "\(targets.joined(separator: ", ")), \(step.strategy.rawValue), then \(step.delayMinutes) min"
                )
            }
    }

    static func fields(of service: PagingService, named state: RosterState, filePolicies: [EscalationPolicy] = [])
        -> [(String, String)]
    {
        let policy =
            state.escalation.policies[service.policyID]?.name
            ?? filePolicies.first { $0.id == service.policyID }?.name ?? service.policyID
        return [
            ("name", service.name), ("team", service.team), ("description", service.description),
            ("policy", policy), ("links", service.links.map { "\($0.title) <\($0.url)>" }.joined(separator: ", ")),
        ]
    }
}

extension RosterChange {
    fileprivate var isPolicy: Bool { if case .escalationPolicySet = self { true } else { false } }
}
