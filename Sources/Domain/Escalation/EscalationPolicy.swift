import Foundation

/// An escalation policy (issue #56, docs/ESCALATION.md): whom a paging tool pages first for a
/// service, and whom next when nobody answers. Roster does not page; it answers "who would be
/// paged at each step", exactly, at any instant.
public struct EscalationPolicy: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var team: String
    public var description: String
    /// How many times the whole list runs again after its last step (0 to `maxRepeat`).
    public var repeatCount: Int
    public var steps: [EscalationStep]

    public init(
        id: String, name: String, team: String = "", description: String = "", repeatCount: Int = 0,
        steps: [EscalationStep]
    ) {
        (self.id, self.name, self.team, self.description) = (id, name, team, description)
        (self.repeatCount, self.steps) = (repeatCount, steps)
    }

    public static let maxRepeat = 9
    public static let maxSteps = 20
    public static let maxTargetsPerStep = 50
    /// A step waits 1 minute to a day before the next.
    public static let delayMinutes = 1...1_440

    /// What is wrong with the policy against the tenant's people, schedules and teams, each
    /// said with its place ("step 2: …"); empty when nothing is. Nothing of a policy with a
    /// problem is applied.
    public func problems(people: Set<String>, schedules: Set<String>, teams: Set<String>) -> [String] {
        var problems: [String] = []
        if name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("the policy has no name") }
        if !(0...Self.maxRepeat).contains(repeatCount) {
            problems.append("repeat is 0 to \(Self.maxRepeat) (got \(repeatCount))")
        }
        if steps.isEmpty { problems.append("the policy has no step") }
        if steps.count > Self.maxSteps { problems.append("at most \(Self.maxSteps) steps (got \(steps.count))") }
        for (index, step) in steps.enumerated() {
            let place = "step \(index + 1)"
            if !Self.delayMinutes.contains(step.delayMinutes) {
                problems.append(
                    "\(place): the delay is \(Self.delayMinutes.lowerBound) to \(Self.delayMinutes.upperBound) minutes (got \(step.delayMinutes))"
                )
            }
            if step.targets.isEmpty { problems.append("\(place) names nobody: give it a person, a schedule or a team") }
            if step.targets.count > Self.maxTargetsPerStep {
                problems.append("\(place): at most \(Self.maxTargetsPerStep) targets (got \(step.targets.count))")
            }
            for target in step.targets {
                switch target {
                case .person(let id) where !people.contains(id): problems.append("\(place): no person \"\(id)\"")
                case .schedule(let id) where !schedules.contains(id): problems.append("\(place): no schedule \"\(id)\"")
                case .team(let name) where !teams.contains(name): problems.append("\(place): no team \"\(name)\"")
                default: break
                }
            }
        }
        return problems
    }
}

/// One step of a policy: whom it pages, how, and how long it waits before the next.
public struct EscalationStep: Sendable, Hashable, Codable {
    public enum Target: Sendable, Hashable, Codable {
        /// A person, by id: paged whoever is on duty.
        case person(String)
        /// Whoever is on duty on the schedule at the step's instant.
        case schedule(String)
        /// Whoever is on duty on every schedule of the team at the step's instant.
        case team(String)
    }

    public enum Strategy: String, Sendable, Hashable, Codable {
        /// Every person of the step is paged.
        case everyone
        /// One of the step's people is paged, in turn from one alert to the next.
        case roundRobin = "round_robin"
    }

    public var delayMinutes: Int
    public var targets: [Target]
    public var strategy: Strategy

    public init(delayMinutes: Int, targets: [Target], strategy: Strategy = .everyone) {
        (self.delayMinutes, self.targets, self.strategy) = (delayMinutes, targets, strategy)
    }
}
