import Foundation

extension RosterState {
    /// Every team a schedule or a person names: what a step's team target may name.
    public var teamNames: Set<String> {
        var teams = Set(schedules.values.map(\.team))
        for employee in employees.values { teams.insert(employee.team) }
        teams.remove("")
        return teams
    }

    /// The ids of a team's schedules (its name case- and diacritic-insensitive), sorted: whom a
    /// step's team target pages.
    public func schedules(ofTeam team: String) -> [String] {
        (scheduleIDsByTeam[TextFolding.fold(team)] ?? []).sorted()
    }

    /// The schedules a policy's steps reach, named or through a team, in the order the steps
    /// name them (each once).
    public func schedules(reachedBy policy: EscalationPolicy) -> [String] {
        var found: [String] = []
        for step in policy.steps {
            for target in step.targets {
                let ids: [String]
                switch target {
                case .schedule(let id): ids = schedules[id] == nil ? [] : [id]
                case .team(let team): ids = schedules(ofTeam: team)
                case .person: ids = []
                }
                for id in ids where !found.contains(id) { found.append(id) }
            }
        }
        return found
    }

    /// Where a policy's times are shown: the zone of the first schedule it reaches, else UTC.
    public func zone(of policy: EscalationPolicy) -> String {
        schedules(reachedBy: policy).first.flatMap { schedules[$0]?.zone } ?? "UTC"
    }

    /// Whether the target names something of this tenant.
    public func holds(_ target: EscalationStep.Target) -> Bool {
        switch target {
        case .person(let id): employees[id] != nil
        case .schedule(let id): schedules[id] != nil
        case .team(let name): !schedules(ofTeam: name).isEmpty || teamNames.contains(name)
        }
    }

    func violations(of policy: EscalationPolicy, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        let other = escalation.policy(idOrName: policy.name)
        for (field, message) in recordProblems(
            id: policy.id, name: policy.name, team: policy.team, description: policy.description,
            namedAlike: other.map { ($0.id, $0.name) }, kind: "escalation policy",
            isNew: escalation.policies[policy.id] == nil, count: escalation.policies.count,
            limit: EscalationDirectory.maxPolicies, plural: "escalation policies")
        {
            add(field, message)
        }
        let named = Set(policy.steps.flatMap(\.targets).compactMap { if case .team(let t) = $0 { t } else { nil } })
        let folded = named.isEmpty ? [] : Set(teamNames.map(TextFolding.fold))
        let knownTeams = named.filter { folded.contains(TextFolding.fold($0)) }
        for problem in policy.problems(
            people: Set(
                policy.steps.flatMap(\.targets).compactMap {
                    if case .person(let id) = $0, employees[id] != nil { id } else { nil }
                }),
            schedules: Set(schedules.keys), teams: knownTeams)
        {
            add("steps", problem)
        }
        return found
    }

    /// What a policy and a service are refused for alike: the id, the name's and team's length,
    /// the description, a name another of the kind has, and the tenant's limit of the kind.
    private func recordProblems(
        id: String, name: String, team: String, description: String, namedAlike: (id: String, name: String)?,
        kind: String, isNew: Bool, count: Int, limit: Int, plural: String
    ) -> [(field: String, message: String)] {
        var found: [(field: String, message: String)] = []
        if let problem = TextLimits.idProblem(id) { found.append(("id", problem)) }
        for (field, text) in [("name", name), ("team", team)] {
            if let problem = TextLimits.lineProblem(text, limit: TextLimits.maxName) { found.append((field, problem)) }
        }
        if description.count > 10_000 { found.append(("description", "is longer than 10000 characters")) }
        if let other = namedAlike, other.id != id, TextFolding.fold(other.name) == TextFolding.fold(name) {
            found.append(("name", "\"\(name)\" is already the name of \(kind) \(other.id)"))
        }
        if isNew, count >= limit { found.append(("id", "a tenant keeps at most \(limit) \(plural)")) }
        return found
    }

    func violations(of service: PagingService, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if service.name.trimmingCharacters(in: .whitespaces).isEmpty { add("name", "is empty") }
        if escalation.policies[service.policyID] == nil {
            add("policy", "no escalation policy \"\(service.policyID)\"")
        }
        if service.links.count > PagingService.maxLinks { add("links", "are at most \(PagingService.maxLinks)") }
        for link in service.links {
            if let problem = TextLimits.lineProblem(link.title, limit: TextLimits.maxName) { add("links", problem) }
            let url = link.url.lowercased()
            if !(url.hasPrefix("https://") || url.hasPrefix("http://")) || link.url.contains(where: \.isWhitespace)
                || link.url.count > TextLimits.maxLine
            {
                add("links", "\"\(link.url)\" is not an http(s) address")
            }
        }
        let other = escalation.service(idOrName: service.name)
        for (field, message) in recordProblems(
            id: service.id, name: service.name, team: service.team, description: service.description,
            namedAlike: other.map { ($0.id, $0.name) }, kind: "service",
            isNew: escalation.services[service.id] == nil, count: escalation.services.count,
            limit: EscalationDirectory.maxServices, plural: "services")
        {
            add(field, message)
        }
        return found
    }

    /// A policy a service pages through stays: the service would page nobody.
    func violations(deletingPolicy id: String, at location: String) -> [RosterViolation] {
        let using = escalation.services(using: id).map { "\"\($0.name)\"" }
        guard !using.isEmpty else { return [] }
        let name = escalation.policies[id]?.name ?? id
        return [
            RosterViolation(
                location: location, field: "id",
                message: "escalation policy \"\(name)\" is used by the service\(using.count == 1 ? "" : "s") "
                    + "\(using.joined(separator: ", ")): point them at another policy first")
        ]
    }

    /// A schedule or a person a policy names stays: the step would page nobody without a word.
    func violations(deletingTarget target: EscalationStep.Target, named what: String, at location: String)
        -> [RosterViolation]
    {
        let naming = escalation.policies(naming: target)
        guard !naming.isEmpty else { return [] }
        let list = naming.map { "\"\($0.policy.name)\" (step \($0.step))" }.joined(separator: ", ")
        return [
            RosterViolation(
                location: location, field: "id",
                message: "\(what) is named by the escalation polic\(naming.count == 1 ? "y" : "ies") \(list); "
                    + "take it out of them first")
        ]
    }
}
