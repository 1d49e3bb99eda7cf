/// Who an escalation policy pages (issue #56): each step's people at an instant, where each
/// comes from and until when that holds; and the page's timeline from an instant, each step
/// resolved at its own instant (a handoff during an escalation changes who is paged).
///
/// Pure: the on-duty lookups are given (`RosterState.onDuty(of:at:)` in the server), so the
/// same answer comes from the server, the cache and the tests' independent model.
public enum EscalationResolver {
    /// Where a paged person comes from.
    public enum Source: Sendable, Hashable {
        /// Named in the step.
        case named
        /// On duty on this schedule (the shift that puts them there).
        case schedule(id: String, shiftID: String)
    }

    public struct Paged: Sendable, Hashable {
        public var employeeID: String
        public var source: Source
    }

    /// One step at one instant.
    public struct Step: Sendable, Hashable {
        /// The step's place in the policy (0-based), and the round of the repeats (0 first).
        public var index: Int
        public var round: Int
        /// When the page reaches this step.
        public var at: UnixMillis
        /// Each person once, in the order of the step's targets.
        public var people: [Paged]
        public var strategy: EscalationStep.Strategy
        /// Until when these people hold (the first change of a schedule the step names); nil:
        /// no planned change.
        public var until: UnixMillis?
        /// The step pages nobody at this instant, and still waits its delay (a warning).
        public var isEmpty: Bool { people.isEmpty }
    }

    public typealias OnDuty = (_ scheduleID: String, _ at: UnixMillis) -> OnDutyLookup?

    /// Each step's people if the page reached it at `instant`.
    public static func steps(
        of policy: EscalationPolicy, at instant: UnixMillis, onDuty: OnDuty, teamSchedules: (String) -> [String]
    ) -> [Step] {
        policy.steps.enumerated().map { index, step in
            resolve(step, index: index, round: 0, at: instant, onDuty: onDuty, teamSchedules: teamSchedules)
        }
    }

    /// The page's timeline from `start`: step 1 at `start`, each next one its predecessor's
    /// delay later, through the repeats; each resolved at its own instant.
    public static func simulate(
        _ policy: EscalationPolicy, from start: UnixMillis, onDuty: OnDuty, teamSchedules: (String) -> [String]
    ) -> [Step] {
        var timeline: [Step] = []
        var at = start
        // A schedule's people hold from a lookup's instant until its `until`, and the timeline's
        // instants only grow: a lookup is reused while it holds (200 steps, a few lookups).
        var held: [String: OnDutyLookup] = [:]
        func lookup(_ id: String, _ instant: UnixMillis) -> OnDutyLookup? {
            if let last = held[id], last.at <= instant, instant < last.until ?? .max {
                return OnDutyLookup(at: instant, current: last.current, until: last.until, next: last.next)
            }
            let found = onDuty(id, instant)
            held[id] = found
            return found
        }
        for round in 0...max(0, min(policy.repeatCount, EscalationPolicy.maxRepeat)) {
            for (index, step) in policy.steps.enumerated() {
                timeline.append(
                    resolve(step, index: index, round: round, at: at, onDuty: lookup, teamSchedules: teamSchedules))
                at += UnixMillis(step.delayMinutes) * 60_000
            }
        }
        return timeline
    }

    private static func resolve(
        _ step: EscalationStep, index: Int, round: Int, at instant: UnixMillis, onDuty: OnDuty,
        teamSchedules: (String) -> [String]
    ) -> Step {
        var people: [Paged] = []
        var seen: Set<String> = []
        var until: UnixMillis?
        func add(_ employeeID: String, _ source: Source) {
            if seen.insert(employeeID).inserted { people.append(Paged(employeeID: employeeID, source: source)) }
        }
        func schedule(_ id: String) {
            guard let lookup = onDuty(id, instant) else { return }
            for shift in lookup.current { add(shift.employeeID, .schedule(id: id, shiftID: shift.id)) }
            if let change = lookup.until { until = min(until ?? change, change) }
        }
        for target in step.targets {
            switch target {
            case .person(let id): add(id, .named)
            case .schedule(let id): schedule(id)
            case .team(let name): for id in teamSchedules(name) { schedule(id) }
            }
        }
        return Step(index: index, round: round, at: instant, people: people, strategy: step.strategy, until: until)
    }
}
