import RosterDomain

/// GetEscalation's answer (docs/ESCALATION.md): whom a service's or a policy's page reaches at
/// each step. One builder for the server (its lookups through the on-duty indexes the pushes
/// use) and the client's cache (offline, from its snapshot): the same answer either way.
public enum EscalationAnswer {
    public static func answer(
        _ request: Roster_V1_GetEscalationRequest, state: RosterState, epoch: UInt64, revision: UInt64,
        now: UnixMillis, onDuty: EscalationResolver.OnDuty
    ) -> Result<Roster_V1_EscalationResponse, RosterError> {
        func invalid(_ field: String, _ message: String) -> RosterError {
            .invalid([RosterViolation(field: field, message: message)])
        }
        if request.hasAtMs, !TimeRange.supported.contains(request.atMs) {
            return .failure(invalid("at_ms", TimeRange.message))
        }
        let service: PagingService?
        let policy: EscalationPolicy
        switch (request.service.isEmpty, request.policy.isEmpty) {
        case (false, true):
            guard let found = state.escalation.service(idOrName: request.service) else {
                return .failure(missing("service", request.service, among: state.escalation.sortedServices.map(\.name)))
            }
            guard let paged = state.escalation.policies[found.policyID] else {
                return .failure(.missing("service \"\(found.name)\" has no escalation policy"))
            }
            (service, policy) = (found, paged)
        case (true, false):
            guard let found = state.escalation.policy(idOrName: request.policy) else {
                return .failure(
                    missing("escalation policy", request.policy, among: state.escalation.sortedPolicies.map(\.name)))
            }
            (service, policy) = (nil, found)
        default:
            return .failure(invalid("service", "name a service or an escalation policy, one of them"))
        }
        let at = request.hasAtMs ? request.atMs : now
        let steps: [EscalationResolver.Step]
        if request.simulate {
            let minutes = Int64(policy.repeatCount + 1) * Int64(policy.steps.reduce(0) { $0 + $1.delayMinutes })
            guard at <= TimeRange.supported.upperBound - minutes * 60_000 else {
                return .failure(invalid("at_ms", "the page's timeline from it passes the year 9999"))
            }
            steps = EscalationResolver.simulate(
                policy, from: at, onDuty: onDuty, teamSchedules: state.schedules(ofTeam:))
        } else {
            steps = EscalationResolver.steps(
                of: policy, at: at, onDuty: onDuty, teamSchedules: state.schedules(ofTeam:))
        }
        return .success(
            .with {
                $0.epoch = epoch
                $0.revision = revision
                $0.atMs = at
                if let service { $0.service = Roster_V1_Service(service) }
                $0.policy = Roster_V1_EscalationPolicy(policy)
                $0.steps = steps.map { step in wire(step, policy: policy, state: state) }
            })
    }

    public static func wire(_ step: EscalationResolver.Step, policy: EscalationPolicy, state: RosterState)
        -> Roster_V1_EscalationStepAnswer
    {
        .with {
            $0.index = UInt32(step.index)
            $0.round = UInt32(step.round)
            $0.atMs = step.at
            $0.strategy = step.strategy == .roundRobin ? .strategyRoundRobin : .strategyEveryone
            $0.delayMinutes = UInt32(clamping: policy.steps[step.index].delayMinutes)
            if let until = step.until { $0.untilMs = until }
            $0.people = step.people.map { paged in
                .with {
                    $0.employee =
                        state.employees[paged.employeeID].map(Roster_V1_Employee.init)
                        ?? .with { $0.id = paged.employeeID }
                    if case .schedule(let id, let shiftID) = paged.source {
                        ($0.scheduleID, $0.shiftID) = (id, shiftID)
                    }
                }
            }
        }
    }

    /// Not found, with the names that hold what was asked (at most five).
    private static func missing(_ kind: String, _ asked: String, among names: [String]) -> RosterError {
        let folded = TextFolding.fold(asked)
        let close = names.filter { TextFolding.fold($0).contains(folded) || folded.contains(TextFolding.fold($0)) }
        return .notFound("\(kind) \"\(asked)\"", suggestions: Array(close.prefix(5)))
    }
}
