import RosterDomain
import RosterServerCore
import RosterStore

// `escalation.changed` (docs/ESCALATION.md): whom a policy pages at some step changed. Planned
// at each handoff of a schedule the policy reaches where a step's people change, and written
// with a change that alters them now (an override, a schedule or the policy edited).
extension NoticeDerivation {
    /// Each step's people, by id, if a page reached it at `instant`; `indexes`: the reached
    /// schedules' on-duty indexes when built already (a lookup in one is a search, not a resolution).
    static func escalationPeople(
        _ policy: EscalationPolicy, state: RosterState, at instant: UnixMillis,
        indexes: [String: ScheduleOnDutyIndex] = [:]
    ) -> [EscalationResolver.Step] {
        EscalationResolver.steps(
            of: policy, at: instant, onDuty: { indexes[$0]?.lookup(at: $1) ?? state.onDuty(of: $0, at: $1) },
            teamSchedules: state.schedules(ofTeam:))
    }

    /// The planned events in [from, to): at each instant a schedule the policy reaches hands
    /// off, one event if any step's people change there. `schedules`: only the policies reaching
    /// one of those (nil: every policy).
    func plannedEscalations(
        state: RosterState, revision: UInt64, from: UnixMillis, to: UnixMillis, schedules only: Set<String>?
    ) -> [NotificationEvent] {
        var events: [NotificationEvent] = []
        for policy in state.escalation.sortedPolicies {
            let reached = state.schedules(reachedBy: policy)
            guard only.map({ !$0.isDisjoint(with: reached) }) ?? true else { continue }
            var instants = Set<UnixMillis>()
            var indexes: [String: ScheduleOnDutyIndex] = [:]
            for id in reached {
                guard let index = state.onDutyIndex(of: id, around: from) else { continue }
                indexes[id] = index
                for change in OnDutyTracker.handoffs(scheduleID: id, in: index, from: from, to: to) {
                    instants.insert(change.at)
                }
            }
            // At most as many instants per policy and window as a schedule's handoffs (a policy
            // over minute rotations would otherwise resolve tens of thousands in a long window).
            for instant in instants.sorted().prefix(Self.maxShifts) {
                let before = Self.escalationPeople(policy, state: state, at: instant - 1, indexes: indexes)
                let after = Self.escalationPeople(policy, state: state, at: instant, indexes: indexes)
                guard
                    let event = escalationChanged(
                        policy, before: before, after: after, state: state, revision: revision, at: instant,
                        cause: "handoff", actor: nil,
                        key: "escalation:\(policy.id):\(instant):\(Self.signature(after))",
                        planned: true)
                else { continue }
                events.append(event)
            }
        }
        return events
    }

    /// The events a change causes now: each policy it may touch (its record, a schedule it
    /// reaches, a team it names) whose people at `now` differ between the two states; a deleted
    /// policy, once, as removed.
    func escalationsAfterChange(
        previous: RosterState, current: RosterState, changes: [RosterChange], schedules: Set<String>,
        revision: UInt64, now: UnixMillis, actor: String
    ) -> [NotificationEvent] {
        let edited = TenantRuntime.policies(changedBy: changes, previous: previous)
        let touched =
            edited
            .union(TenantRuntime.policies(namingTeamsChangedBy: changes, previous: previous, current: current))
            .union(current.escalation.policies(namingAny: schedules, in: current))
            .union(previous.escalation.policies(namingAny: schedules, in: previous))
        var events: [NotificationEvent] = []
        for id in touched.sorted() {
            let key = "rev:\(revision):escalation:\(id)"
            guard let policy = current.escalation.policies[id] else {
                guard let old = previous.escalation.policies[id] else { continue }
                let data = NotificationPayload.EscalationChanged(
                    policy: .init(id: id, name: old.name), services: [], cause: "policy-changed", steps: [],
                    changedLevels: [], removed: true, by: actor.isEmpty ? nil : actor, zone: nil)
                events.append(
                    NotificationEvent(
                        type: .escalationChanged, tenantID: tenantID, key: key, revision: revision, about: now,
                        due: now, planned: false, scheduleIDs: previous.schedules(reachedBy: old), people: [],
                        data: data))
                continue
            }
            let before = previous.escalation.policies[id].map { Self.escalationPeople($0, state: previous, at: now) }
            let after = Self.escalationPeople(policy, state: current, at: now)
            let policyEdited = edited.contains(id) && previous.escalation.policies[id] != policy
            guard
                let event = escalationChanged(
                    policy, before: before ?? [], after: after, state: current, revision: revision, at: now,
                    cause: policyEdited || before == nil ? "policy-changed" : "plan-changed",
                    actor: actor, key: key, planned: false, always: policyEdited || before == nil)
            else { continue }
            events.append(event)
        }
        return events
    }

    /// The event for `after` against `before`; nil when no step's people changed (unless `always`).
    private func escalationChanged(
        _ policy: EscalationPolicy, before: [EscalationResolver.Step], after: [EscalationResolver.Step],
        state: RosterState, revision: UInt64, at instant: UnixMillis, cause: String, actor: String?, key: String,
        planned: Bool, always: Bool = false
    ) -> NotificationEvent? {
        func ids(_ step: EscalationResolver.Step?) -> [String] { step?.people.map(\.employeeID) ?? [] }
        let changed = after.indices.filter { $0 >= before.count || ids(before[$0]) != ids(after[$0]) }
        guard always || !changed.isEmpty else { return nil }
        let data = NotificationPayload.EscalationChanged(
            policy: .init(id: policy.id, name: policy.name),
            services: state.escalation.services(using: policy.id).map { .init(id: $0.id, name: $0.name) },
            cause: cause,
            steps: after.map { step in
                .init(
                    level: step.index + 1, people: step.people.map { .init($0.employeeID, in: state) },
                    until: step.until.map(Timestamp.iso8601), untilMs: step.until)
            },
            changedLevels: changed.map { $0 + 1 }, removed: nil,
            by: actor.flatMap { $0.isEmpty ? nil : $0 }, zone: state.zone(of: policy))
        let people = Set(changed.flatMap { ids(after[$0]) + ($0 < before.count ? ids(before[$0]) : []) }).sorted()
        return NotificationEvent(
            type: .escalationChanged, tenantID: tenantID, key: key, revision: revision, about: instant, due: instant,
            planned: planned, scheduleIDs: state.schedules(reachedBy: policy), people: people, data: data)
    }

    /// The people of each step, as one text: the same handoff planned twice is one event.
    static func signature(_ steps: [EscalationResolver.Step]) -> String {
        steps.map { $0.people.map(\.employeeID).joined(separator: ",") }.joined(separator: "|")
    }
}
