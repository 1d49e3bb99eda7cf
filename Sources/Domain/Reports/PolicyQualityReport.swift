/// How well an escalation policy covers a window (issue #56, docs/ESCALATION.md): for each step,
/// when it pages nobody (it still waits its delay, GoAlert #4548); the steps whose only target is
/// one person; and the stretches no step pages anyone, which `timeline` splits by category
/// (nights and weekends uncovered are the ones that hurt).
public struct PolicyQualityReport: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        /// From 1.
        public var level: Int
        public var covered: UnixMillis
        public var gaps: [Range<UnixMillis>]
        /// The step's only target, when it is one person: nobody else if they are away.
        public var onlyPerson: String?
    }

    public var policyID: String
    public var from: UnixMillis, to: UnixMillis
    public var steps: [Step]
    /// No step pages anyone.
    public var uncovered: [Range<UnixMillis>]
    public var uncoveredHours: CategoryHours

    /// The report over [from, to) from the reached schedules' `stretches` (the duty record for
    /// the past, the plan after: as a schedule's quality report reads them). A step covers while
    /// a schedule it names (or one of a team it names) has someone on duty; a person it names
    /// always covers it.
    public static func compute(
        _ policy: EscalationPolicy, state: RosterState, stretches: [RecordedStretch], from: UnixMillis,
        to: UnixMillis, timeline: CategoryTimeline
    ) -> PolicyQualityReport {
        let bySchedule = Dictionary(grouping: stretches, by: \.scheduleID).mapValues { own in
            own.compactMap { stretch -> (UnixMillis, UnixMillis)? in
                let (start, end) = (max(stretch.start, from), min(stretch.end, to))
                return start < end ? (start, end) : nil
            }
        }
        var steps: [Step] = []
        var anyStep: [(UnixMillis, UnixMillis)] = []
        for (index, step) in policy.steps.enumerated() {
            var intervals: [(UnixMillis, UnixMillis)] = []
            var namesPerson = false
            for target in step.targets {
                switch target {
                case .person: namesPerson = true
                case .schedule(let id): intervals += bySchedule[id] ?? []
                case .team(let team): for id in state.schedules(ofTeam: team) { intervals += bySchedule[id] ?? [] }
                }
            }
            let covering = namesPerson ? [(start: from, end: to)] : IntervalUnion.of(intervals)
            anyStep += covering.map { ($0.start, $0.end) }
            var onlyPerson: String?
            if step.targets.count == 1, case .person(let id) = step.targets[0] { onlyPerson = id }
            steps.append(
                Step(
                    level: index + 1, covered: IntervalUnion.length(covering),
                    gaps: complement(covering, from: from, to: to), onlyPerson: onlyPerson))
        }
        let uncovered = complement(IntervalUnion.of(anyStep), from: from, to: to)
        var hours = CategoryHours()
        for gap in uncovered {
            timeline.split(gap.lowerBound, gap.upperBound) { start, end, category in hours[category] += end - start }
        }
        return PolicyQualityReport(
            policyID: policy.id, from: from, to: to, steps: steps, uncovered: uncovered, uncoveredHours: hours)
    }

    /// The stretches of [from, to) outside `covering` (sorted, disjoint), in order.
    static func complement(_ covering: [(start: UnixMillis, end: UnixMillis)], from: UnixMillis, to: UnixMillis)
        -> [Range<UnixMillis>]
    {
        var gaps: [Range<UnixMillis>] = []
        var cursor = from
        for interval in covering {
            if interval.start > cursor { gaps.append(cursor..<min(interval.start, to)) }
            cursor = max(cursor, interval.end)
        }
        if cursor < to { gaps.append(cursor..<to) }
        return gaps
    }
}
