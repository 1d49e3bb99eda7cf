import NIOCore
import RosterDomain
import RosterProtocol

/// ESCALATION pushes (docs/ESCALATION.md): after every on-duty change and every revision, the
/// policies it may touch are answered again for now, and each whose people changed at any step
/// is pushed to the subscribers that follow it (or a service using it), through the same
/// fan-out as on-duty pushes.
extension TenantRuntime {
    /// Answers `policies` at now, under the tenant lock, and pushes those that changed (a
    /// policy no longer there is pushed as removed). INITIAL only records.
    func announceEscalations(_ inner: inout Inner, cause: Roster_V1_EscalationCause, policies: Set<String>) {
        guard !policies.isEmpty else { return }
        let now = clock.now()
        let state = inner.state
        for id in policies.sorted() {
            let previous = inner.escalationPeople[id]
            guard let policy = state.escalation.policies[id] else {
                guard previous != nil else { continue }
                inner.escalationPeople[id] = nil
                push(&inner, policyID: id, services: [], cause: cause) { message in
                    message.policy = .with { $0.id = id }
                    message.removed = true
                }
                continue
            }
            let answer = Self.escalationAnswer(policy, inner: inner, at: now)
            let people = answer.map { $0.people.map(\.employee.id) }
            inner.escalationPeople[id] = people
            guard cause != .escalationInitial, cause == .escalationPolicyChanged || people != previous else { continue }
            let changed = people.indices.filter {
                previous == nil || $0 >= previous!.count || previous![$0] != people[$0]
            }
            push(&inner, policyID: id, services: state.escalation.services(using: id), cause: cause) { message in
                message.atMs = now
                message.policy = Roster_V1_EscalationPolicy(policy)
                message.steps = answer
                message.changedSteps = changed.map(UInt32.init)
            }
        }
    }

    /// Each step of `policy` if a page started at `instant`, from the tracker's indexes (the
    /// answer GetEscalation and the on-duty pushes give).
    static func escalationAnswer(_ policy: EscalationPolicy, inner: Inner, at instant: UnixMillis)
        -> [Roster_V1_EscalationStepAnswer]
    {
        let state = inner.state
        let steps = EscalationResolver.steps(
            of: policy, at: instant, onDuty: { inner.tracker.indexes[$0]?.lookup(at: $1) },
            teamSchedules: state.schedules(ofTeam:))
        return steps.map { EscalationAnswer.wire($0, policy: policy, state: state) }
    }

    private func push(
        _ inner: inout Inner, policyID: String, services: [PagingService], cause: Roster_V1_EscalationCause,
        fill: (inout Roster_V1_EscalationChanged) -> Void
    ) {
        inner.escalationSequence += 1
        var message = Roster_V1_EscalationChanged.with {
            $0.epoch = inner.epoch
            $0.revision = inner.revision
            $0.cause = cause
            $0.sequence = inner.escalationSequence
            $0.services = services.map(Roster_V1_Service.init)
        }
        fill(&message)
        // A service moved to another policy is that policy's now: its followers hear that one's
        // push (a revision that moves it re-answers both policies).
        let published = EscalationPush(
            policyID: policyID, serviceIDs: Set(services.map(\.id)), message: message,
            sharedFrame: PushEncoding.frame(.escalationChanged(message)))
        let timing = metrics.map { FanoutClock(loops: allFanouts.count, metrics: $0) }
        for fanout in allFanouts {
            fanout.loop.execute {
                fanout.deliver(published); timing?.loopFinished()
            }
        }
    }

    /// The policies a revision changed directly: set or deleted, or used by a service it set
    /// or deleted (the service's policy before and after).
    package static func policies(changedBy changes: [RosterChange], previous: RosterState) -> Set<String> {
        var ids = Set<String>()
        for change in changes {
            switch change {
            case .escalationPolicySet(let policy): ids.insert(policy.id)
            case .escalationPolicyDeleted(let id): ids.insert(id)
            case .serviceSet(let service):
                ids.insert(service.policyID)
                if let before = previous.escalation.services[service.id] { ids.insert(before.policyID) }
            case .serviceDeleted(let id):
                if let before = previous.escalation.services[id] { ids.insert(before.policyID) }
            default: break
            }
        }
        return ids
    }

    /// The policies with a team target naming a team a schedule joined or left in `changes`.
    package static func policies(
        namingTeamsChangedBy changes: [RosterChange], previous: RosterState, current: RosterState
    )
        -> Set<String>
    {
        var teams = Set<String>()
        for change in changes {
            guard case .scheduleUpserted(let schedule) = change else { continue }
            let before = previous.schedules[schedule.id]?.team ?? ""
            guard TextFolding.fold(before) != TextFolding.fold(schedule.team) else { continue }
            for team in [before, schedule.team] where !team.isEmpty { teams.insert(TextFolding.fold(team)) }
        }
        guard !teams.isEmpty else { return [] }
        return Set(
            current.escalation.policies.values.filter { policy in
                policy.steps.contains { step in
                    step.targets.contains {
                        if case .team(let team) = $0 { teams.contains(TextFolding.fold(team)) } else { false }
                    }
                }
            }.map(\.id))
    }

    /// The INITIAL escalation pushes of a new subscription: one per policy it follows.
    func initialEscalations(_ inner: Inner, policies: Set<String>) -> [Roster_V1_EscalationChanged] {
        let now = clock.now()
        return policies.sorted().compactMap { id in
            guard let policy = inner.state.escalation.policies[id] else { return nil }
            let answer = Self.escalationAnswer(policy, inner: inner, at: now)
            return .with {
                $0.epoch = inner.epoch
                $0.revision = inner.revision
                $0.atMs = now
                $0.policy = Roster_V1_EscalationPolicy(policy)
                $0.services = inner.state.escalation.services(using: id).map(Roster_V1_Service.init)
                $0.steps = answer
                $0.changedSteps = answer.indices.map(UInt32.init)
                $0.cause = .escalationInitial
                $0.sequence = inner.escalationSequence
            }
        }
    }
}

extension EscalationDirectory {
    /// The policies whose steps name any of `schedules`, directly or through a team.
    package func policies(namingAny schedules: Set<String>, in state: RosterState) -> Set<String> {
        var found = Set<String>()
        for (id, policy) in policies {
            let names = policy.steps.contains { step in
                step.targets.contains { target in
                    switch target {
                    case .schedule(let schedule): schedules.contains(schedule)
                    case .team(let team): state.schedules(ofTeam: team).contains(where: schedules.contains)
                    case .person: false
                    }
                }
            }
            if names { found.insert(id) }
        }
        return found
    }
}
