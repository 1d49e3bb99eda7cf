/// Schedules as code (docs/AS-CODE.md): what a tenant definition (`roster-client apply -f`)
/// changes in the tenant's directory and schedules. Objects are matched by id, else by name (a
/// person's full name, a schedule's name) or place (a rotation's index in its layer), so that a
/// file without ids applies once and a second time changes nothing, and a renamed object keeps
/// its id. Everything is checked together and every problem is reported with its place in the
/// document ("schedules[0].layers[0].rotations[1]"), which the client turns into a line.
public struct DefinitionPlanner: Sendable {
    public let state: RosterState
    public let now: UnixMillis
    public let prune: Bool
    public let author: String
    public let newID: @Sendable (String) -> String
    /// What the duty preview may resolve, over every schedule the plan changes.
    public var previewBudget = Self.previewBudget

    public init(
        state: RosterState, now: UnixMillis, prune: Bool, author: String, newID: @escaping @Sendable (String) -> String
    ) {
        (self.state, self.now, self.prune, self.author, self.newID) = (state, now, prune, author, newID)
    }

    /// The roster side of a plan: the changes of one revision and what they do.
    public struct Outcome: Sendable {
        public var located: [RosterImport.Located] = []
        public var objects: [DefinitionChange] = []
        public var violations: [RosterViolation] = []
        /// The state after the changes (the current one when they are refused).
        public var after: RosterState
        public var deltas: [(scheduleID: String, delta: DutyDelta)] = []
        /// Where the domain's names of objects ("rotation rot_1") are in the document.
        public var places: [String: String] = [:]
        /// The preview's budget ran out: the schedules after those in `deltas` were not previewed.
        public var dutyCut = false
    }

    /// What the duty preview of one plan may resolve, over every schedule it changes: four
    /// requests' worth (about a second of one core), on the tenant's work pool.
    public static let previewBudget = 4 * ResolutionBudget.perRequest

    public func plan(_ document: DefinitionDocument) -> Outcome {
        var outcome = Outcome(after: state)
        var upserts: [RosterImport.Located] = [], deletions: [RosterImport.Located] = []
        // People first, so that rotations may name people the file adds.
        var people = state
        if document.managesPeople {
            let (changes, gone) = planPeople(document.people, into: &outcome)
            upserts += changes
            deletions += gone
            for (_, change) in changes { people.apply(change) }
        }
        let (scheduleChanges, scheduleDeletions) = planSchedules(document.schedules, people: people, into: &outcome)
        upserts += scheduleChanges
        var named = people
        for (_, change) in scheduleChanges { named.apply(change) }
        let (escalationChanges, escalationDeletions) = planEscalation(document, named: named, into: &outcome)
        // Services before the policies they use, policies before the schedules and people they
        // name, schedules before the people they name.
        let located = upserts + escalationChanges + escalationDeletions + scheduleDeletions + deletions
        // Checked as a commit checks them even when the file has other problems: every problem
        // is reported at once.
        let cascaded = state.expandingCascades(located)
        do throws(RosterError) {
            let after = try state.applyingValidated(cascaded, now: now)
            outcome.after = after
            guard outcome.violations.isEmpty else { return outcome }
            outcome.located = cascaded
            var touched = Set<String>()
            for (_, change) in cascaded {
                switch change {
                case .scheduleUpserted(let schedule): touched.insert(schedule.id)
                case .scheduleDeleted(let id): touched.insert(id)
                case .employeeDeleted(let id):
                    touched.formUnion(state.schedules.values.filter { $0.mentionedEmployees.contains(id) }.map(\.id))
                default: break
                }
            }
            var budget = ResolutionBudget(limit: previewBudget)
            for id in touched.sorted() {
                do throws(ScheduleResolver.Problem) {
                    outcome.deltas += try ScheduleEdit.deltas(
                        of: id, before: state, after: after, now: now, budget: &budget
                    ).map { (id, $0) }
                } catch {
                    if case .overBudget = error {
                        outcome.dutyCut = true
                        break
                    }
                }
            }
        } catch {
            let found: [RosterViolation] =
                switch error {
                case .invalid(let found), .alreadyExists(let found):
                    found.map { Self.placed($0, places: outcome.places) }
                case .notFound(let what, _): [RosterViolation(field: "", message: "no \(what)")]
                case .overBudget, .denied, .notNow, .full, .missing:
                    [RosterViolation(field: "", message: error.description)]
                }
            for violation in found where !outcome.violations.contains(violation) {
                outcome.violations.append(violation)
            }
            // Unchecked, only so that webhooks and rules find the schedules the file adds and
            // report their own problems, not those.
            var rough = state
            for (_, change) in cascaded { rough.apply(change) }
            outcome.after = rough
        }
        return outcome
    }

    /// The file's words for the domain's fields.
    private static let fileFields = [
        "end": "to", "window": "from", "cadence": "every", "slots": "people", "employee_id": "people",
    ]

    /// A violation of the domain's at its place in the document: "schedules[0], override ovr_1"
    /// becomes "schedules[0].overrides[2]".
    static func placed(_ violation: RosterViolation, places: [String: String]) -> RosterViolation {
        var placed = violation
        let parts = violation.location.components(separatedBy: ", ")
        if let known = parts.reversed().lazy.compactMap({ places[$0] }).first {
            placed.location = known
            if known.contains(".overrides[") || known.contains(".rotations[") {
                placed.field = fileFields[violation.field] ?? violation.field
            }
        }
        return placed
    }

    // MARK: - People

    private func planPeople(_ people: [Employee], into outcome: inout Outcome)
        -> (changes: [RosterImport.Located], deletions: [RosterImport.Located])
    {
        var changes: [RosterImport.Located] = [], kept = Set<String>()
        for (index, var person) in people.enumerated() {
            let location = "people[\(index)]"
            let existing = person.id.isEmpty ? state.employee(idOrName: person.fullName) : state.employees[person.id]
            person.id = existing?.id ?? (person.id.isEmpty ? newID("e") : person.id)
            guard kept.insert(person.id).inserted else {
                outcome.violations.append(
                    RosterViolation(
                        location: location, field: "id",
                        message: "\(person.fullName) (\(person.id)) is in the file twice"))
                continue
            }
            guard let existing else {
                changes.append((location, .employeeUpserted(person)))
                outcome.objects.append(.init(.create, "person", person.id, person.fullName, location: location))
                continue
            }
            let fields = Self.fieldChanges(Self.fields(of: existing), Self.fields(of: person))
            if !fields.isEmpty {
                changes.append((location, .employeeUpserted(person)))
                outcome.objects.append(
                    .init(.change, "person", person.id, person.fullName, fields: fields, location: location))
            }
        }
        var deletions: [RosterImport.Located] = []
        for person in state.sortedEmployees where !kept.contains(person.id) {
            if prune { deletions.append(("", .employeeDeleted(id: person.id))) }
            outcome.objects.append(.init(prune ? .delete : .notInFile, "person", person.id, person.fullName))
        }
        return (changes, deletions)
    }

    static func fields(of person: Employee) -> [(String, String)] {
        [
            ("firstName", person.firstName), ("lastName", person.lastName), ("email", person.email),
            ("phone", person.phone),
            ("position", person.position), ("team", person.team), ("projects", person.projects.joined(separator: ", ")),
            ("biography", person.biography), ("photoURL", person.photoURL), ("type", person.type.rawValue),
            ("chat", person.chat.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")),
        ]
    }

    /// The fields whose text differs, in order.
    static func fieldChanges(_ before: [(String, String)], _ after: [(String, String)]) -> [FieldChange] {
        zip(before, after).compactMap { old, new in
            old.1 == new.1 ? nil : FieldChange(field: old.0, before: old.1, after: new.1)
        }
    }
}
