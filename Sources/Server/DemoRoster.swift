import RosterDomain

/// The demo tenant: two dozen people across positions and teams, and a plan in which the person
/// on duty changes every minute, around the clock. The plan is kept rolling: every ten minutes the
/// next two hours of one-minute shifts are added and shifts that ended over an hour ago removed,
/// each batch as one ordinary admin revision.
final class DemoRoster: Sendable {
    static let tenantName = "Demo Corp"
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
    private let context: ServerContext

    init(tenant: TenantRuntime, context: ServerContext) {
        self.tenant = tenant
        self.context = context
    }

    /// Adds the people and the message of the day once, when the tenant has no employees yet.
    func seedIfEmpty() async throws {
        guard tenant.view.state.employees.isEmpty else { return }
        let changes: [RosterImport.Located] = Self.people.map { ("demo", .employeeUpserted($0)) } + [("demo", .motdSet(Self.motd))]
        try await commitOnQueue(changes)
        try await roll()
    }

    /// Extends the plan now (a restarted server finds its plan ended while it was down) and
    /// every ten minutes until cancelled. A failed commit ends the server's run with that error
    /// rather than leaving the demo silently frozen.
    func run() async throws {
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
            changes.append(("demo", .shiftAdded(Shift(id: id, employeeID: person.id, start: minuteIndex * Self.minute,
                                                      end: (minuteIndex + 1) * Self.minute, role: "primary"))))
        }
        for shift in state.shifts.values where shift.id.hasPrefix("demo-shift-") && shift.end < now - 60 * Self.minute {
            changes.append(("demo", .shiftDeleted(id: shift.id)))
        }
        if !changes.isEmpty { try await commitOnQueue(changes) }
    }

    private func commitOnQueue(_ changes: [RosterImport.Located]) async throws {
        let admin = context.admin, tenant = self.tenant
        let result: Result<Void, WireError> = await withCheckedContinuation { continuation in
            let queued = context.mutations.submit {
                let committed = await admin.commit(changes, on: tenant)
                if case .success(let done) = committed { tenant.publish(done.revision) }
                continuation.resume(returning: committed.map { _ in () })
            }
            if !queued { continuation.resume(returning: .failure(WireError(.unavailable, "shutting down"))) }
        }
        try result.get()
    }
}
