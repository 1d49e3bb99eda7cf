import RosterDomain

// What every source's reader does the same way: a schedule's zone, an escalation step's delay
// and a policy's repeats within Roster's bounds.

extension MigrationBuilder {
    /// The zone in `key` and its clock, or nil with the problem said.
    mutating func zone(_ node: SourceJSON, _ key: String) -> (zone: String, clock: WallClock)? {
        guard let zone = reading.text(node, key) else { return nil }
        guard let clock = WallClock(zone: zone) else {
            reading.refuse(node, key, "\"\(zone)\" is not a zone in Roster's time zone database")
            return nil
        }
        return (zone, clock)
    }

    /// A step paging `targets` after waiting `delay` minutes, the delay moved into Roster's
    /// bounds (reported); nil, reported, when it pages nobody Roster knows.
    mutating func step(
        delay: Int, targets: [EscalationStep.Target], strategy: EscalationStep.Strategy = .everyone,
        at node: SourceJSON, delayField: String
    ) -> EscalationStep? {
        let bounds = EscalationPolicy.delayMinutes
        let bounded = min(max(delay, bounds.lowerBound), bounds.upperBound)
        if bounded != delay {
            reading.report.add(
                .changed, SourceReading.path(node, delayField),
                "\(delay) minutes is outside Roster's \(bounds.lowerBound) to \(bounds.upperBound): written as \(bounded)"
            )
        }
        guard !targets.isEmpty else {
            reading.report.add(.notMapped, node.path, "pages nobody Roster knows: the step is left out")
            return nil
        }
        return EscalationStep(delayMinutes: bounded, targets: targets, strategy: strategy)
    }

    /// A policy, its repeats within Roster's bound (reported); nil, reported, with no step.
    mutating func addPolicy(
        sourceID: String, name: String, team: String, description: String, repeats: Int,
        steps: [EscalationStep], at node: SourceJSON, repeatField: String
    ) -> String? {
        let repeatCount = min(max(repeats, 0), EscalationPolicy.maxRepeat)
        if repeatCount != repeats {
            reading.report.add(
                .changed, SourceReading.path(node, repeatField),
                "\(repeats) repeats: Roster repeats a policy at most \(EscalationPolicy.maxRepeat) times")
        }
        guard !steps.isEmpty else {
            reading.report.add(.notMapped, node.path, "\"\(name)\" has no step Roster can page: left out")
            return nil
        }
        policies.append(
            EscalationPolicy(
                id: id(sourceID), name: name, team: team, description: description, repeatCount: repeatCount,
                steps: Array(steps.prefix(EscalationPolicy.maxSteps))))
        return id(sourceID)
    }
}
