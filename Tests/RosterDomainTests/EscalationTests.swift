import Foundation
import RosterDomain
import Testing

/// Escalation policies as pure values (issue #56): each step's people at an instant, the page's
/// timeline with each step at its own instant (a handoff during an escalation, the first Monday
/// after a DST change in three zones), against an independent model of daily rotations; and the
/// policy's problems, each at its place.
@Suite(.timeLimit(.minutes(10)))
struct EscalationTests {
    static let minute: UnixMillis = 60_000
    static let people = ["ada", "alan", "grace", "linus"].map { Employee(id: $0, firstName: $0, lastName: "X") }

    static func daily(_ id: String, _ slots: [String], zone: String = "UTC", team: String = "", hour: Int = 9)
        -> ScheduleDefinition
    {
        ScheduleDefinition(
            id: id, name: id, zone: zone, team: team,
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r-" + id, slots: slots.map { [$0] }, cadence: .days(1),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: hour))
                    ])
            ])
    }

    static func lookups(_ state: RosterState) -> EscalationResolver.OnDuty { { state.onDuty(of: $0, at: $1) } }

    static func teams(_ state: RosterState) -> (String) -> [String] {
        { team in state.sortedSchedules.filter { $0.team == team }.map(\.id) }
    }

    @Test func eachStepAtItsOwnInstantAndAHandoffDuringThePage() throws {
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: Self.people,
            schedules: [
                Self.daily("primary", ["ada", "alan"]), Self.daily("secondary", ["grace", "linus"], team: "Ops"),
                ScheduleDefinition(id: "empty", name: "empty", zone: "UTC"),
            ])
        let policy = EscalationPolicy(
            id: "p", name: "Platform", repeatCount: 1,
            steps: [
                EscalationStep(delayMinutes: 5, targets: [.schedule("primary")]),
                EscalationStep(delayMinutes: 10, targets: [.person("linus"), .team("Ops")], strategy: .roundRobin),
                EscalationStep(delayMinutes: 1, targets: [.schedule("empty")]),
            ])
        #expect(
            policy.problems(
                people: ["ada", "alan", "grace", "linus"], schedules: ["primary", "secondary", "empty"], teams: ["Ops"]
            ).isEmpty)
        // Tuesday 1 December 08:58 UTC: Ada's day on primary ends at 09:00, Linus's on secondary begins then.
        let start = TimeText.parseISO8601("2026-12-01T08:58:00Z")!
        let now = EscalationResolver.steps(
            of: policy, at: start, onDuty: Self.lookups(state), teamSchedules: Self.teams(state))
        #expect(now.map { $0.people.map(\.employeeID) } == [["ada"], ["linus", "grace"], []])
        #expect(now[0].until == TimeText.parseISO8601("2026-12-01T09:00:00Z"))
        #expect(now[1].people[0].source == .named)
        guard case .schedule(let id, _) = now[1].people[1].source else {
            Issue.record("Grace comes from a schedule")
            return
        }
        #expect(id == "secondary")
        #expect(now[1].strategy == .roundRobin && now[2].isEmpty && now[2].until == nil)

        let timeline = EscalationResolver.simulate(
            policy, from: start, onDuty: Self.lookups(state), teamSchedules: Self.teams(state))
        #expect(timeline.map(\.at) == [0, 5, 15, 16, 21, 31].map { start + $0 * Self.minute })
        #expect(timeline.map(\.round) == [0, 0, 0, 1, 1, 1] && timeline.map(\.index) == [0, 1, 2, 0, 1, 2])
        // Step 2 at 09:03 is after the handoff: Linus is named and on duty, once; the second
        // round's step 1, at 09:14, pages Alan, who took over primary at 09:00.
        #expect(timeline.map { $0.people.map(\.employeeID) } == [["ada"], ["linus"], [], ["alan"], ["linus"], []])
    }

    /// The first Monday after each zone's change: a weekly rotation hands off at 09:00 local; a
    /// page at 08:50 local reaches step 2 fifteen minutes later, after the handoff, in each.
    @Test func theFirstMondayOfADSTChangeInThreeZones() throws {
        // Each Monday and how many weeks after the rotation's first (Monday 1 March 2027) it is.
        for (zone, monday, weeks) in [
            ("Europe/Berlin", WallClock.Day(year: 2027, month: 3, day: 29), 4),
            ("America/New_York", WallClock.Day(year: 2027, month: 3, day: 15), 2),
            ("Australia/Sydney", WallClock.Day(year: 2027, month: 4, day: 5), 5),
        ] {
            let clock = try #require(WallClock(zone: zone))
            var schedule = Self.daily("weekly", ["ada", "alan"], zone: zone)
            schedule.layers[0].rotations[0].cadence = .weeks(1)
            schedule.layers[0].rotations[0].handoff = LocalDateTime(year: 2027, month: 3, day: 1, hour: 9)
            let state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: Self.people, schedules: [schedule])
            let handoff = clock.instant(monday, minuteOfDay: 9 * 60)
            let policy = EscalationPolicy(
                id: "p", name: "P",
                steps: [
                    EscalationStep(delayMinutes: 15, targets: [.schedule("weekly")]),
                    EscalationStep(delayMinutes: 15, targets: [.schedule("weekly")]),
                ])
            let timeline = EscalationResolver.simulate(
                policy, from: handoff - 10 * Self.minute, onDuty: Self.lookups(state), teamSchedules: { _ in [] })
            let before = weeks % 2 == 1 ? "ada" : "alan", after = weeks % 2 == 1 ? "alan" : "ada"
            #expect(timeline.map { $0.people.map(\.employeeID) } == [[before], [after]], "\(zone)")
            #expect(timeline[0].until == handoff, "\(zone): the handoff is 09:00 local, after the change")
            #expect(timeline[1].at - timeline[0].at == 15 * Self.minute, "\(zone)")
        }
    }

    /// Random policies over random daily rotations (UTC) against a model that computes each
    /// rotation's person by arithmetic: step i of round r at T + the delays before it.
    @Test func theTimelineIsTheModelsOnRandomPolicies() throws {
        let ids = ["a", "b", "c", "d", "e"]
        let employees = ids.map { Employee(id: $0, firstName: $0, lastName: "X") }
        for seed in 0..<150 {
            var random = SplitMix(seed: UInt64(seed) &* 7_919)
            // Up to three schedules, each a daily rotation of 2–4 people from its own hour.
            var schedules: [ScheduleDefinition] = []
            var model: [String: (anchor: UnixMillis, slots: [String])] = [:]
            for index in 0..<Int.random(in: 1...3, using: &random) {
                let slots = Array(ids.shuffled(using: &random).prefix(Int.random(in: 2...4, using: &random)))
                let hour = Int.random(in: 0...23, using: &random)
                let id = "s\(index)"
                schedules.append(Self.daily(id, slots, team: index == 0 ? "Ops" : "", hour: hour))
                model[id] = (TimeText.parseISO8601("2026-11-30T00:00:00Z")! + UnixMillis(hour) * 3_600_000, slots)
            }
            let state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: employees, schedules: schedules)
            var steps: [EscalationStep] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                var targets: [EscalationStep.Target] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: targets.append(.person(ids.randomElement(using: &random)!))
                    case 1: targets.append(.schedule(schedules.randomElement(using: &random)!.id))
                    default: targets.append(.team("Ops"))
                    }
                }
                steps.append(EscalationStep(delayMinutes: Int.random(in: 1...180, using: &random), targets: targets))
            }
            let policy = EscalationPolicy(
                id: "p", name: "P", repeatCount: Int.random(in: 0...2, using: &random), steps: steps)
            let start =
                TimeText.parseISO8601("2026-12-01T00:00:00Z")!
                + UnixMillis.random(in: 0..<(7 * 86_400_000), using: &random)
            let timeline = EscalationResolver.simulate(
                policy, from: start, onDuty: Self.lookups(state), teamSchedules: Self.teams(state))

            // The model: each step's instant by adding delays; each rotation's person by dividing.
            func onDuty(_ id: String, _ at: UnixMillis) -> String {
                let (anchor, slots) = model[id]!
                return slots[Int((at - anchor) / 86_400_000) % slots.count]
            }
            var expected: [[String]] = []
            var at = start
            for _ in 0...policy.repeatCount {
                for step in steps {
                    var paged: [String] = []
                    for target in step.targets {
                        let found: [String]
                        switch target {
                        case .person(let id): found = [id]
                        case .schedule(let id): found = [onDuty(id, at)]
                        case .team: found = [onDuty("s0", at)]
                        }
                        for person in found where !paged.contains(person) { paged.append(person) }
                    }
                    expected.append(paged)
                    at += UnixMillis(step.delayMinutes) * Self.minute
                }
            }
            #expect(timeline.map { $0.people.map(\.employeeID) } == expected, "seed \(seed)")
        }
    }

    @Test func eachProblemIsSaidAtItsPlace() {
        let policy = EscalationPolicy(
            id: "p", name: " ", repeatCount: 10,
            steps: [
                EscalationStep(delayMinutes: 0, targets: []),
                EscalationStep(delayMinutes: 1_441, targets: [.person("nobody"), .schedule("gone"), .team("Nope")]),
            ])
        #expect(
            policy.problems(people: ["ada"], schedules: ["primary"], teams: ["Ops"]) == [
                "the policy has no name", "repeat is 0 to 9 (got 10)",
                "step 1: the delay is 1 to 1440 minutes (got 0)",
                "step 1 names nobody: give it a person, a schedule or a team",
                "step 2: the delay is 1 to 1440 minutes (got 1441)", "step 2: no person \"nobody\"",
                "step 2: no schedule \"gone\"", "step 2: no team \"Nope\"",
            ])
        #expect(
            EscalationPolicy(id: "p", name: "P", steps: []).problems(people: [], schedules: [], teams: []) == [
                "the policy has no step"
            ])
    }
}
