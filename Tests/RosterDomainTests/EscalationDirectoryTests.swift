import Foundation
import RosterDomain
import Testing

/// Escalation policies and services as records of a tenant (issue #56): kept by id and found by
/// name, and every bad change refused with its own sentence, nothing of it applied.
@Suite(.timeLimit(.minutes(10)))
struct EscalationDirectoryTests {
    static let ada = Employee(id: "ada", firstName: "Ada", lastName: "Lovelace", team: "Core")
    static let primary = ScheduleDefinition(id: "primary", name: "Primary", zone: "Europe/Berlin", team: "Core")
    static let policy = EscalationPolicy(
        id: "pol", name: "Payments",
        steps: [
            EscalationStep(delayMinutes: 10, targets: [.schedule("primary")]),
            EscalationStep(delayMinutes: 20, targets: [.person("ada"), .team("core")]),
        ])
    static let service = PagingService(id: "svc", name: "Payments API", policyID: "pol")

    static func state() throws -> RosterState {
        try RosterState(tenant: Tenant(id: "t", name: "T"), employees: [ada], schedules: [primary])
            .applyingValidated([("", .escalationPolicySet(policy)), ("", .serviceSet(service))])
    }

    static func refusal(_ state: RosterState, _ changes: [RosterChange]) -> [String] {
        do {
            _ = try state.applyingValidated(changes.enumerated().map { ("changes[\($0.offset)]", $0.element) })
            return []
        } catch .invalid(let violations) {
            return violations.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func policiesAndServicesAreFoundByIdOrName() throws {
        let state = try Self.state()
        #expect(state.escalation.service(idOrName: "PAYMENTS api")?.id == "svc")
        #expect(state.escalation.policy(idOrName: "payments") == Self.policy)
        #expect(state.escalation.services(using: "pol").map(\.id) == ["svc"])
        #expect(state.schedules(ofTeam: "CORE") == ["primary"])
        var renamed = Self.service
        renamed.name = "Checkout"
        let next = try state.applyingValidated([("", .serviceSet(renamed))])
        #expect(next.escalation.service(idOrName: "Payments API") == nil)
        #expect(next.escalation.service(idOrName: "checkout")?.id == "svc")
        // A team's schedules follow the schedules' edits (kept as an index, folded once).
        var moved = Self.primary
        moved.team = "Öps"
        var state2 = next
        state2.apply(.scheduleUpserted(moved))
        state2.apply(.scheduleUpserted(ScheduleDefinition(id: "second", name: "Second", zone: "UTC", team: "ops")))
        #expect(state2.schedules(ofTeam: "core").isEmpty && state2.schedules(ofTeam: "OPS") == ["primary", "second"])
        state2.apply(.scheduleDeleted(id: "second"))
        #expect(state2.schedules(ofTeam: "ops") == ["primary"])
        #expect(RosterState(tenant: state2.tenant, schedules: [moved]).schedules(ofTeam: "öps") == ["primary"])
    }

    @Test func badPoliciesAndServicesAreRefusedEachWithItsSentence() throws {
        let state = try Self.state()
        let bad = EscalationPolicy(
            id: "bad", name: "Payments",
            steps: [
                EscalationStep(delayMinutes: 0, targets: []),
                EscalationStep(delayMinutes: 5, targets: [.person("nobody"), .schedule("gone"), .team("Nope")]),
            ])
        #expect(
            Self.refusal(state, [.escalationPolicySet(bad)]) == [
                "changes[0], name: \"Payments\" is already the name of escalation policy pol",
                "changes[0], steps: step 1: the delay is 1 to 1440 minutes (got 0)",
                "changes[0], steps: step 1 names nobody: give it a person, a schedule or a team",
                "changes[0], steps: step 2: no person \"nobody\"", "changes[0], steps: step 2: no schedule \"gone\"",
                "changes[0], steps: step 2: no team \"Nope\"",
            ])
        let lost = PagingService(
            id: "svc2", name: "Old ledger", policyID: "nope",
            links: [.init(title: "Runbook", url: "file:///etc/passwd")])
        #expect(
            Self.refusal(state, [.serviceSet(lost)]) == [
                "changes[0], policy: no escalation policy \"nope\"",
                "changes[0], links: \"file:///etc/passwd\" is not an http(s) address",
            ])
        // One bad change in a batch: nothing of the batch is applied.
        let good = PagingService(id: "svc3", name: "Ledger", policyID: "pol")
        #expect(Self.refusal(state, [.serviceSet(good), .serviceSet(lost)]).count == 2)
        #expect(state.escalation.services["svc3"] == nil)
    }

    @Test func whatAPolicyOrServiceNamesCannotBeDeletedUnderIt() throws {
        let state = try Self.state()
        #expect(
            Self.refusal(state, [.scheduleDeleted(id: "primary")]) == [
                "changes[0], id: schedule \"Primary\" is named by the escalation policy \"Payments\" (step 1); take it out of them first"
            ])
        #expect(
            Self.refusal(state, [.employeeDeleted(id: "ada")]) == [
                "changes[0], id: Ada Lovelace is named by the escalation policy \"Payments\" (step 2); take it out of them first"
            ])
        #expect(
            Self.refusal(state, [.escalationPolicyDeleted(id: "pol")]) == [
                "changes[0], id: escalation policy \"Payments\" is used by the service \"Payments API\": point them at another policy first"
            ])
        // In the order that takes each out before what it names, the whole chain goes.
        let emptied = try state.applyingValidated([
            ("", .serviceDeleted(id: "svc")), ("", .escalationPolicyDeleted(id: "pol")),
            ("", .scheduleDeleted(id: "primary")), ("", .employeeDeleted(id: "ada")),
        ])
        #expect(emptied.escalation.policies.isEmpty && emptied.escalation.services.isEmpty)
        #expect(throws: RosterError.notFound("service \"svc\"", suggestions: [])) {
            try emptied.applyingValidated([("", .serviceDeleted(id: "svc"))])
        }
    }
}
