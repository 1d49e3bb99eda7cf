import RosterDomain

extension Roster_V1_EscalationPolicy {
    public init(_ policy: EscalationPolicy) {
        self.init()
        (id, name, team, description_p) = (policy.id, policy.name, policy.team, policy.description)
        `repeat` = UInt32(clamping: policy.repeatCount)
        steps = policy.steps.map { step in
            Roster_V1_EscalationStep.with {
                $0.delayMinutes = UInt32(clamping: step.delayMinutes)
                $0.strategy = step.strategy == .roundRobin ? .strategyRoundRobin : .strategyEveryone
                $0.targets = step.targets.map { target in
                    Roster_V1_EscalationTarget.with {
                        switch target {
                        case .person(let id): $0.employeeID = id
                        case .schedule(let id): $0.scheduleID = id
                        case .team(let name): $0.team = name
                        }
                    }
                }
            }
        }
    }
}

extension EscalationPolicy {
    /// A target of a kind this build does not know is left out; validation then says what the
    /// step lacks. A number past `Int` cannot come from 32 bits.
    public init(_ wire: Roster_V1_EscalationPolicy) {
        self.init(
            id: wire.id, name: wire.name, team: wire.team, description: wire.description_p,
            repeatCount: Int(wire.repeat),
            steps: wire.steps.map { step in
                EscalationStep(
                    delayMinutes: Int(step.delayMinutes),
                    targets: step.targets.compactMap { target in
                        switch target.kind {
                        case .employeeID(let id): .person(id)
                        case .scheduleID(let id): .schedule(id)
                        case .team(let name): .team(name)
                        case nil: nil
                        }
                    },
                    strategy: step.strategy == .strategyRoundRobin ? .roundRobin : .everyone)
            })
    }
}

extension Roster_V1_Service {
    public init(_ service: PagingService) {
        self.init()
        (id, name, team, description_p, policyID) =
            (service.id, service.name, service.team, service.description, service.policyID)
        links = service.links.map { link in Roster_V1_ServiceLink.with { ($0.title, $0.url) = (link.title, link.url) } }
    }
}

extension PagingService {
    public init(_ wire: Roster_V1_Service) {
        self.init(
            id: wire.id, name: wire.name, policyID: wire.policyID, team: wire.team, description: wire.description_p,
            links: wire.links.map { PagingService.Link(title: $0.title, url: $0.url) })
    }
}
