import RosterDomain

extension MigrationBuilder {
    /// Grafana OnCall's escalation chains: their policies in `position` order, a `wait` adding
    /// its duration to the step before it, `notify_persons` (and `notify_person_next_each_time`,
    /// in turn) and `notify_on_call_from_schedule` made steps, `repeat_escalation` the repeats.
    mutating func readGrafanaEscalation(_ root: SourceJSON) {
        let steps = reading.objects(reading.list(root, "escalation_policies", optional: true))
        for chain in reading.objects(reading.list(root, "escalation_chains", optional: true)) {
            guard let chainID = reading.text(chain, "id"), let name = reading.text(chain, "name") else { continue }
            let own = steps.filter { $0["escalation_chain_id"]?.string == chainID }
                .sorted { ($0["position"]?.integer ?? 0) < ($1["position"]?.integer ?? 0) }
            var mapped:
                [(targets: [EscalationStep.Target], strategy: EscalationStep.Strategy, wait: Int, at: SourceJSON)] =
                    []
            var repeats = 0
            for step in own {
                let type = step["type"]?.string ?? ""
                switch type {
                case "wait":
                    let seconds = step["duration"]?.integer ?? 0
                    if mapped.isEmpty {
                        reading.report.add(
                            .changed, step.path, "a wait before the first step: Roster's first step pages at once")
                    } else {
                        mapped[mapped.count - 1].wait += seconds / 60
                    }
                case "notify_persons", "notify_person_next_each_time":
                    let key = type == "notify_persons" ? "persons_to_notify" : "persons_to_notify_next_each_time"
                    let people = (step[key]?.elements ?? []).compactMap { $0.string.flatMap { personIDs[$0] } }
                    mapped.append(
                        (people.map { .person($0) }, type == "notify_persons" ? .everyone : .roundRobin, 0, step))
                case "notify_on_call_from_schedule":
                    let schedule = step["notify_on_call_from_schedule"]?.string.flatMap { scheduleIDs[$0] }
                    mapped.append((schedule.map { [.schedule($0)] } ?? [], .everyone, 0, step))
                case "repeat_escalation":
                    repeats += 1
                default:
                    reading.report.add(
                        .notMapped, step.path,
                        "a step of type \(type) does not page a person or a schedule: left out")
                }
            }
            var made: [EscalationStep] = []
            for entry in mapped {
                if let step = step(
                    delay: max(entry.wait, 1), targets: entry.targets, strategy: entry.strategy, at: entry.at,
                    delayField: "duration")
                {
                    made.append(step)
                }
            }
            _ = addPolicy(
                sourceID: chainID, name: name, team: "", description: "", repeats: repeats, steps: made, at: chain,
                repeatField: "repeat_escalation")
        }
    }
}
