import Foundation
import RosterDomain

/// An escalation answer as JSON (docs/ESCALATION.md): the same text from `roster-client oncall
/// --service … --json` and from `GET /v1/services/{id}/oncall`. Besides the steps, `oncalls` is
/// one flat entry per person and step, the shape of PagerDuty's `GET /oncalls`
/// (escalationLevel, start, end, user, schedule, escalationPolicy), so a reader of that adapts
/// by renaming keys.
public enum EscalationJSON {
    public struct Answer: Codable, Sendable, Equatable {
        public var at: String
        public var revision: UInt64
        public var service: Named?
        public var escalationPolicy: Policy
        public var steps: [Step]
        public var oncalls: [OnCall]
        /// A step that pages nobody still waits its delay: said, not hidden.
        public var warnings: [String]
    }

    public struct Named: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct Policy: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var repeatCount: Int
    }

    public struct Person: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var email: String?
        public var phone: String?
    }

    public struct Paged: Codable, Sendable, Equatable {
        public var user: Person
        /// The schedule that puts them there; absent: named in the step.
        public var schedule: Named?
    }

    public struct Step: Codable, Sendable, Equatable {
        /// 1 for the policy's first step.
        public var escalationLevel: Int
        /// 0 first; then each repeat.
        public var round: Int
        public var at: String
        /// When a schedule of the step next changes hands; absent: no planned change.
        public var until: String?
        public var delayMinutes: Int
        public var strategy: String
        public var people: [Paged]
    }

    public struct OnCall: Codable, Sendable, Equatable {
        public var escalationLevel: Int
        public var round: Int
        public var start: String
        public var end: String?
        public var user: Person
        public var schedule: Named?
        public var escalationPolicy: Named
    }

    public static func answer(_ wire: Roster_V1_EscalationResponse, scheduleName: (String) -> String) -> Answer {
        let policy = Named(id: wire.policy.id, name: wire.policy.name)
        var answer = Answer(
            at: TimeText.iso8601(wire.atMs), revision: wire.revision,
            service: wire.hasService ? Named(id: wire.service.id, name: wire.service.name) : nil,
            escalationPolicy: Policy(id: policy.id, name: policy.name, repeatCount: Int(wire.policy.repeat)),
            steps: [], oncalls: [], warnings: [])
        for step in wire.steps {
            let people = step.people.map { paged in
                Paged(
                    user: Person(
                        id: paged.employee.id,
                        name: paged.employee.firstName.isEmpty && paged.employee.lastName.isEmpty
                            ? paged.employee.id : "\(paged.employee.firstName) \(paged.employee.lastName)",
                        email: paged.employee.email.isEmpty ? nil : paged.employee.email,
                        phone: paged.employee.phone.isEmpty ? nil : paged.employee.phone),
                    schedule: paged.scheduleID.isEmpty
                        ? nil : Named(id: paged.scheduleID, name: scheduleName(paged.scheduleID)))
            }
            let at = TimeText.iso8601(step.atMs)
            let until = step.hasUntilMs ? TimeText.iso8601(step.untilMs) : nil
            answer.steps.append(
                Step(
                    escalationLevel: Int(step.index) + 1, round: Int(step.round), at: at, until: until,
                    delayMinutes: Int(step.delayMinutes),
                    strategy: step.strategy == .strategyRoundRobin ? "round_robin" : "everyone", people: people))
            for person in people {
                answer.oncalls.append(
                    OnCall(
                        escalationLevel: Int(step.index) + 1, round: Int(step.round), start: at, end: until,
                        user: person.user, schedule: person.schedule, escalationPolicy: policy))
            }
            if people.isEmpty {
                answer.warnings.append(
                    "step \(step.index + 1)\(step.round > 0 ? " (repeat \(step.round))" : "") pages nobody at \(at): "
                        + "it still waits its \(step.delayMinutes) minutes")
            }
        }
        return answer
    }

    public static func data(_ answer: Answer) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(answer)) ?? Data("{}".utf8)
    }
}
