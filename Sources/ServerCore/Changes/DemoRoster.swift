import RosterDomain

/// The demo tenant: two dozen people across positions and teams, and a plan in which the person
/// on duty changes every minute, around the clock. The plan is kept rolling: every ten minutes the
/// next two hours of one-minute shifts are added and shifts that ended over an hour ago removed,
/// each batch as one ordinary admin revision. Besides that default schedule, a realistic company's
/// schedules (`DemoRoster.schedules`): a weekly primary with an override, a daily secondary under a
/// follow-the-sun layer across three regions, business-hours support, and a rotation handing off
/// every minute.
package final class DemoRoster: Sendable {
    package static let tenantName = "Demo Corp"
    static let motd = "Welcome to the Roster demo: the person on duty changes every minute."

    private static let minute: Int64 = 60_000
    static let people: [Employee] = [
        ("Ada", "Lovelace", "Engineer", "Platform", ["Analytical Engine"]),
        ("Alan", "Turing", "Engineer", "Platform", ["Bombe", "ACE"]),
        ("Grace", "Hopper", "Engineering Manager", "Platform", ["COBOL"]),
        ("Edsger", "Dijkstra", "Engineer", "Platform", ["Shortest Paths"]),
        ("Barbara", "Liskov", "Architect", "Platform", ["CLU"]),
        ("Margaret", "Hamilton", "Site Reliability Engineer", "Operations", ["Apollo Guidance"]),
        ("Ken", "Thompson", "Site Reliability Engineer", "Operations", ["Unix", "Go"]),
        ("Dennis", "Ritchie", "Site Reliability Engineer", "Operations", ["C", "Unix"]),
        ("Radia", "Perlman", "Network Engineer", "Operations", ["Spanning Tree"]),
        ("Frances", "Allen", "Engineer", "Compilers", ["Optimisation"]),
        ("John", "Backus", "Engineer", "Compilers", ["Fortran"]),
        ("Niklaus", "Wirth", "Architect", "Compilers", ["Pascal", "Oberon"]),
        ("Katherine", "Johnson", "Data Scientist", "Analytics", ["Trajectories"]),
        ("Dorothy", "Vaughan", "Data Scientist", "Analytics", ["Fortran"]),
        ("Mary", "Jackson", "Data Engineer", "Analytics", ["Wind Tunnel"]),
        ("Hedy", "Lamarr", "Designer", "Mobile", ["Frequency Hopping"]),
        ("Susan", "Kare", "Designer", "Mobile", ["Icons"]),
        ("Bret", "Victor", "Designer", "Web", ["Explorable Explanations"]),
        ("Tim", "Berners-Lee", "Engineer", "Web", ["WWW"]),
        ("Håkon", "Wium Lie", "Engineer", "Web", ["CSS"]),
        ("Brendan", "Eich", "Engineer", "Web", ["JavaScript"]),
        ("Annie", "Easley", "Support Engineer", "Support", ["Centaur"]),
        ("Evelyn", "Boyd Granville", "Support Engineer", "Support", ["Vanguard"]),
        ("Sophie", "Wilson", "Product Manager", "Mobile", ["ARM"]),
    ].enumerated().map { index, person in
        let (first, last, position, team, projects) = person
        let handle = (first + "." + last).lowercased().replacingOccurrences(of: " ", with: "-")
            .replacingOccurrences(of: "å", with: "a")
        return Employee(
            id: "demo-\(index + 1)", firstName: first, lastName: last, email: "\(handle)@demo.example",
            phone: "+1 555 01\(String(format: "%02d", index + 1))", position: position, team: team, projects: projects,
            biography: "\(first) \(last) works on \(projects.joined(separator: " and ")) in the \(team) team.",
            photoURL: "https://demo.example/photos/\(handle).jpg",
            type: index % 7 == 6 ? .contractor : (index % 5 == 4 ? .partTime : .fullTime))
    }

    private let tenant: TenantRuntime
    private let context: ServerCore

    package init(tenant: TenantRuntime, core context: ServerCore) {
        self.tenant = tenant
        self.context = context
    }

    /// Adds the people and the message of the day once, when the tenant has no employees yet,
    /// and the schedules when it has none besides the default one (a demo made before
    /// schedules existed gets them too).
    package func seedIfEmpty() async throws {
        if tenant.view.state.employees.isEmpty {
            let changes: [RosterImport.Located] =
                Self.people.map { (tenant.id, .employeeUpserted($0)) } + [(tenant.id, .motdSet(Self.motd))]
            try await commitOnQueue(changes)
            try await roll()
        }
        let state = tenant.view.state
        if state.schedules.count == 1, Self.people.allSatisfy({ state.employees[$0.id] != nil }) {
            try await commitOnQueue(Self.schedules(now: context.clock.now()).map { (tenant.id, .scheduleUpserted($0)) })
        }
        // The escalation policies once their schedules and people are there (a demo made before
        // policies existed gets them too).
        let seeded = tenant.view.state
        let (policies, services) = Self.escalation
        if seeded.escalation.policies.isEmpty,
            policies.allSatisfy({ $0.steps.allSatisfy { $0.targets.allSatisfy { seeded.holds($0) } } })
        {
            try await commitOnQueue(
                policies.map { (tenant.id, .escalationPolicySet($0)) } + services.map { (tenant.id, .serviceSet($0)) })
        }
    }

    /// Two services and their policies: Payments API pages the fast rotation first (so a
    /// change shows within a minute), then Platform primary, then Grace Hopper, twice over.
    static let escalation: (policies: [EscalationPolicy], services: [PagingService]) = (
        [
            EscalationPolicy(
                id: "demo-payments", name: "Payments", team: "Platform", repeatCount: 1,
                steps: [
                    EscalationStep(delayMinutes: 5, targets: [.schedule("demo-fast")]),
                    EscalationStep(delayMinutes: 10, targets: [.schedule("demo-platform")]),
                    EscalationStep(delayMinutes: 15, targets: [.person("demo-3")]),
                ]),
            EscalationPolicy(
                id: "demo-customers", name: "Customer support", team: "Support",
                steps: [
                    EscalationStep(delayMinutes: 15, targets: [.schedule("demo-support")]),
                    EscalationStep(delayMinutes: 30, targets: [.team("Operations")], strategy: .roundRobin),
                ]),
        ],
        [
            PagingService(
                id: "demo-payments-api", name: "Payments API", policyID: "demo-payments", team: "Platform",
                description: "Takes card payments for the demo shop.",
                links: [.init(title: "Runbook", url: "https://runbooks.demo.example/payments")]),
            PagingService(
                id: "demo-customer-portal", name: "Customer portal", policyID: "demo-customers", team: "Support",
                description: "Where customers ask for help."),
        ]
    )

    /// The demo company's schedules. Anchors are fixed dates in the past, so every server
    /// resolves the same turns; the override is placed around `now`.
    static func schedules(now: UnixMillis) -> [ScheduleDefinition] {
        func person(_ last: String) -> String { people.first { $0.lastName == last }!.id }
        func rotation(
            _ id: String, _ people: [String], _ cadence: Cadence, _ handoff: LocalDateTime,
            only restrictions: [RestrictionWindow] = []
        ) -> Rotation {
            Rotation(
                id: id, slots: people.map { [person($0)] }, cadence: cadence, handoff: handoff,
                restrictions: restrictions)
        }
        let day: UnixMillis = 86_400_000
        let tomorrow = (now / day + 1) * day
        let weekdays = Set(2...6)
        return [
            ScheduleDefinition(
                id: "demo-platform", name: "Platform primary", zone: "Europe/Berlin", team: "Platform",
                description: "Weekly, handing off Mondays 09:00 Berlin time.",
                layers: [
                    ScheduleLayer(
                        level: 0,
                        rotations: [
                            rotation(
                                "platform-weekly", ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov"], .weeks(1),
                                LocalDateTime(year: 2026, month: 1, day: 5, hour: 9))
                        ])
                ],
                overrides: [
                    ScheduleOverride(
                        id: "demo-override", kind: .add(person("Liskov")), start: tomorrow + 8 * 3_600_000,
                        end: tomorrow + 16 * 3_600_000, author: "demo", reason: "release day: a second pair of eyes")
                ]),
            ScheduleDefinition(
                id: "demo-operations", name: "Operations secondary", zone: "UTC", team: "Operations",
                description: "Daily at 08:00 UTC; the follow-the-sun layer above covers each region's working hours.",
                layers: [
                    ScheduleLayer(
                        level: 0,
                        rotations: [
                            rotation(
                                "ops-daily", ["Hamilton", "Thompson", "Ritchie", "Perlman"], .days(1),
                                LocalDateTime(year: 2026, month: 1, day: 1, hour: 8))
                        ]),
                    ScheduleLayer(
                        level: 1,
                        rotations: [
                            rotation(
                                "sun-apac", ["Johnson", "Vaughan"], .weeks(1),
                                LocalDateTime(year: 2026, month: 1, day: 5),
                                only: [RestrictionWindow(weekdays: weekdays, start: 0, end: 8 * 60)]),
                            rotation(
                                "sun-emea", ["Berners-Lee", "Wium Lie"], .weeks(1),
                                LocalDateTime(year: 2026, month: 1, day: 5),
                                only: [RestrictionWindow(weekdays: weekdays, start: 8 * 60, end: 16 * 60)]),
                            rotation(
                                "sun-amer", ["Eich", "Victor"], .weeks(1), LocalDateTime(year: 2026, month: 1, day: 5),
                                only: [RestrictionWindow(weekdays: weekdays, start: 16 * 60, end: 24 * 60)]),
                        ]),
                ]),
            ScheduleDefinition(
                id: "demo-support", name: "Support business hours", zone: "America/New_York", team: "Support",
                description: "Weekdays 09:00-17:00 New York time, weekly turns.",
                layers: [
                    ScheduleLayer(
                        level: 0,
                        rotations: [
                            rotation(
                                "support-weekly", ["Easley", "Boyd Granville"], .weeks(1),
                                LocalDateTime(year: 2026, month: 1, day: 5, hour: 9),
                                only: [RestrictionWindow(weekdays: weekdays, start: 9 * 60, end: 17 * 60)])
                        ])
                ]),
            ScheduleDefinition(
                id: "demo-fast", name: "Demo fast rotation", zone: "UTC", team: "Mobile",
                description: "Hands off every minute, so `watch` shows a push within a minute.",
                layers: [
                    ScheduleLayer(
                        level: 0,
                        rotations: [
                            rotation(
                                "fast-minutely", ["Lamarr", "Kare", "Wilson", "Allen", "Backus", "Wirth"], .minutes(1),
                                LocalDateTime(year: 2026, month: 1, day: 1))
                        ])
                ]),
        ]
    }

    /// Extends the plan now (a restarted server finds its plan ended while it was down) and
    /// every ten minutes until cancelled. A failed commit ends the server's run with that error
    /// rather than leaving the demo silently frozen.
    package func run() async throws {
        while true {
            try await roll()
            try await context.clock.sleep(until: context.clock.now() + 10 * Self.minute)
        }
    }

    /// One-minute shifts from the current minute to two hours ahead, each person in turn.
    private func roll() async throws {
        let now = context.clock.now()
        let state = tenant.view.state
        let firstMinute = now / Self.minute
        var changes: [RosterImport.Located] = []
        for minuteIndex in firstMinute..<(firstMinute + 120) {
            let id = "demo-shift-\(minuteIndex)"
            guard state.shifts[id] == nil else { continue }
            let person = Self.people[Int(minuteIndex % Int64(Self.people.count))]
            guard state.employees[person.id] != nil else { continue }  // an admin removed them
            changes.append(
                (
                    tenant.id,
                    .shiftAdded(
                        Shift(
                            id: id, employeeID: person.id, start: minuteIndex * Self.minute,
                            end: (minuteIndex + 1) * Self.minute, role: "primary"))
                ))
        }
        for shift in state.shifts.values where shift.id.hasPrefix("demo-shift-") && shift.end < now - 60 * Self.minute {
            changes.append((tenant.id, .shiftDeleted(id: shift.id)))
        }
        if !changes.isEmpty { try await commitOnQueue(changes) }
    }

    private func commitOnQueue(_ changes: [RosterImport.Located]) async throws {
        let admin = context.admin, tenant = self.tenant
        let result: Result<Void, WireError> = await withCheckedContinuation { continuation in
            let queued = context.mutations.submit(tenant.id) {
                let committed = await admin.commit(
                    changes, on: tenant, actor: .demoRoller, reason: "the demo plan rolls forward")
                if case .success(let done) = committed { tenant.publish(done.revision) }
                continuation.resume(returning: committed.map { _ in () })
            }
            if !queued { continuation.resume(returning: .failure(WireError(.unavailable, "shutting down"))) }
        }
        try result.get()
    }
}
