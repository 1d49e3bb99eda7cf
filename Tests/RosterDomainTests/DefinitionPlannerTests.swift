import RosterDomain
import Testing

/// Schedules as code planned as a pure value (docs/AS-CODE.md): a definition's people and
/// schedules against a tenant, out come the changes of one revision, the objects a reader sees
/// (created, changed with their fields, deleted or not in the file), problems at their place in
/// the document, and the duty preview within its budget.
@Suite(.timeLimit(.minutes(10))) struct DefinitionPlannerTests {
    static let now: UnixMillis = 1_796_040_000_000
    static let day: UnixMillis = 86_400_000
    static let ada = Employee(id: "ada", firstName: "Ada", lastName: "Lovelace")
    static let alan = Employee(id: "alan", firstName: "Alan", lastName: "Turing")

    static func schedule(
        _ id: String, people: [String] = ["Ada Lovelace", "Alan Turing"], every cadence: Cadence = .days(1),
        overrides: [ScheduleOverride] = []
    ) -> ScheduleDefinition {
        ScheduleDefinition(
            id: id, name: id.uppercased(), zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r-\(id)", slots: people.map { [$0] }, cadence: cadence,
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
                    ])
            ], overrides: overrides)
    }

    static func planner(_ state: RosterState, prune: Bool = false) -> DefinitionPlanner {
        DefinitionPlanner(state: state, now: now, prune: prune, author: "t-admin", newID: { $0 + "_new" })
    }

    /// The tenant after `document` is applied to an empty one.
    static func applied(_ document: DefinitionDocument) throws -> RosterState {
        let outcome = planner(RosterState(tenant: Tenant(id: "t", name: "t"))).plan(document)
        try #require(outcome.violations.isEmpty, "\(outcome.violations)")
        return outcome.after
    }

    @Test func aFileAppliedTwiceChangesNothingTheSecondTime() throws {
        let document = DefinitionDocument(
            managesPeople: true, people: [Self.ada, Self.alan], schedules: [Self.schedule("s")])
        let first = Self.planner(RosterState(tenant: Tenant(id: "t", name: "t"))).plan(document)
        #expect(first.violations.isEmpty)
        #expect(
            first.objects.filter { $0.action == .create }.map(\.kind).sorted() == [
                "person", "person", "rotation", "schedule",
            ])
        #expect(
            first.after.schedules["s"]?.layers.first?.rotations.first?.slots == [["ada"], ["alan"]], "names became ids")
        let second = Self.planner(first.after).plan(document)
        #expect(second.located.isEmpty && second.violations.isEmpty)
        #expect(second.objects.filter { $0.action != .notInFile }.isEmpty, "\(second.objects)")
    }

    @Test func aChangedFieldIsListedWithItsBeforeAndAfterAndTheDutyItMoves() throws {
        let state = try Self.applied(
            DefinitionDocument(managesPeople: true, people: [Self.ada, Self.alan], schedules: [Self.schedule("s")]))
        var renamed = Self.ada
        renamed.email = "ada@example.org"
        let outcome = Self.planner(state).plan(
            DefinitionDocument(
                managesPeople: true, people: [renamed, Self.alan],
                schedules: [Self.schedule("s", every: .days(2))]))
        #expect(outcome.violations.isEmpty)
        let person = try #require(outcome.objects.first { $0.kind == "person" && $0.action == .change })
        #expect(
            person.id == "ada" && person.fields == [FieldChange(field: "email", before: "", after: "ada@example.org")])
        let rotation = try #require(outcome.objects.first { $0.kind == "rotation" })
        #expect(
            rotation.action == .change && rotation.fields == [FieldChange(field: "every", before: "1d", after: "2d")])
        #expect(rotation.location == "schedules[0].layers[0].rotations[0]" && rotation.name == "S / r-s")
        #expect(!outcome.deltas.isEmpty && outcome.deltas.allSatisfy { $0.scheduleID == "s" })
    }

    @Test func whatTheFileLeavesOutIsKeptUnlessPruned() throws {
        let state = try Self.applied(
            DefinitionDocument(
                managesPeople: true, people: [Self.ada, Self.alan],
                schedules: [Self.schedule("s"), Self.schedule("old")]))
        let document = DefinitionDocument(
            managesPeople: true, people: [Self.ada, Self.alan], schedules: [Self.schedule("s")])
        let kept = Self.planner(state).plan(document)
        #expect(kept.located.isEmpty && kept.objects.contains(DefinitionChange(.notInFile, "schedule", "old", "OLD")))
        let pruned = Self.planner(state, prune: true).plan(document)
        #expect(
            pruned.objects.contains(DefinitionChange(.delete, "schedule", "old", "OLD"))
                && pruned.after.schedules["old"] == nil)
    }

    @Test func problemsAreReportedAtTheirPlaceAndNothingIsPlanned() {
        let override = ScheduleOverride(
            id: "", kind: .add("Grace Hopper"), start: Self.now + Self.day, end: Self.now + 2 * Self.day)
        let document = DefinitionDocument(
            managesPeople: true, people: [Self.ada, Self.ada],
            schedules: [Self.schedule("s", people: ["Ada Lovelace", "Nobody"], overrides: [override])])
        let outcome = Self.planner(RosterState(tenant: Tenant(id: "t", name: "t"))).plan(document)
        #expect(outcome.located.isEmpty)
        #expect(
            outcome.violations.contains(
                RosterViolation(location: "people[1]", field: "id", message: "Ada Lovelace (ada) is in the file twice"))
        )
        #expect(
            outcome.violations.contains {
                $0.location == "schedules[0].layers[0].rotations[0]"
                    && $0.message.hasPrefix("unknown person \"Nobody\"")
            })
        #expect(outcome.violations.contains { $0.location == "schedules[0].overrides[0]" && $0.field == "add" })
    }

    @Test func thePreviewStopsAtItsBudgetAndSaysSo() throws {
        let document = DefinitionDocument(
            managesPeople: true, people: [Self.ada, Self.alan],
            schedules: (0..<3).map { Self.schedule("s\($0)", every: .hours(1)) })
        var planner = Self.planner(RosterState(tenant: Tenant(id: "t", name: "t")))
        let whole = planner.plan(document)
        #expect(whole.violations.isEmpty && !whole.dutyCut)
        #expect(Set(whole.deltas.map(\.scheduleID)) == ["s0", "s1", "s2"])
        // A budget for one schedule and a half: what resolving one schedule's preview costs.
        var probe = ResolutionBudget(limit: .max)
        _ = try ScheduleResolver.resolve(
            try #require(whole.after.definition(of: "s0")), from: Self.now, to: Self.now + 35 * Self.day,
            budget: &probe)
        planner.previewBudget = probe.spent * 3 / 2
        let cut = planner.plan(document)
        #expect(
            cut.dutyCut && cut.located.count == whole.located.count, "the plan itself is whole; only its preview stops")
        #expect(
            Set(cut.deltas.map(\.scheduleID)).count < 3 && !cut.deltas.isEmpty, "\(Set(cut.deltas.map(\.scheduleID)))")
    }
}
