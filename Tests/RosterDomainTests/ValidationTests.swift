import Foundation
import RosterDomain
import Testing

let ada = Employee(
    id: "e1", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", position: "Engineer",
    team: "Core", projects: ["Analytical Engine"])
let rene = Employee(
    id: "e2", firstName: "René", lastName: "Descartes", email: "rene@example.com", position: "philosopher",
    team: "Core")
let zoe = Employee(id: "e3", firstName: "Zoë", lastName: "Ångström", position: "Engineer", team: "")
let bob = Employee(id: "e4", firstName: "Bob", lastName: "Descartes", position: "Philosopher", team: "Edge")

@Suite(.timeLimit(.minutes(10))) struct ValidationTests {
    let state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: [ada, rene])

    func violations(_ change: RosterChange) -> [String] {
        state.violations(of: change).map(\.description)
    }

    @Test func emptyNamesAreRefused() {
        let messages = violations(.employeeUpserted(Employee(id: "x", firstName: " ", lastName: "")))
        #expect(messages == ["first_name: is empty", "last_name: is empty"])
    }

    @Test func malformedEmailIsRefused() {
        for bad in ["ada", "ada@", "@example.com", "ada@example", "a da@example.com", "a@b@c.d"] {
            #expect(
                violations(.employeeUpserted(Employee(id: "x", firstName: "A", lastName: "B", email: bad))).count == 1,
                "\(bad)")
        }
        #expect(
            violations(.employeeUpserted(Employee(id: "x", firstName: "A", lastName: "B", email: "a.b@c.io"))).isEmpty)
    }

    @Test func fullNameMustBeUniqueIgnoringCase() {
        let clash = Employee(id: "x", firstName: "ADA", lastName: "lovelace")
        #expect(violations(.employeeUpserted(clash)) == ["name: \"ADA lovelace\" is already used by employee e1"])
        var renamed = ada
        renamed.email = "new@example.com"
        #expect(violations(.employeeUpserted(renamed)).isEmpty, "updating oneself is no clash")
    }

    @Test func shiftNeedsStartBeforeEndAndAKnownEmployee() {
        #expect(
            violations(.shiftAdded(Shift(id: "s", employeeID: "e1", start: 5, end: 5))) == [
                "end: the start is not before the end"
            ])
        #expect(
            violations(.shiftAdded(Shift(id: "s", employeeID: "nobody", start: 1, end: 5))) == [
                "employee_id: unknown employee \"nobody\""
            ])
    }

    @Test func batchIsAllOrNothingAndReportsEveryLocation() {
        let changes: [(location: String, change: RosterChange)] = [
            ("line 2", .employeeUpserted(Employee(id: "x", firstName: "New", lastName: "Person"))),
            ("line 3", .employeeUpserted(Employee(id: "y", firstName: "", lastName: "Person"))),
            ("line 4", .shiftAdded(Shift(id: "s", employeeID: "x", start: 9, end: 1))),
        ]
        #expect(
            throws: RosterError.invalid([
                RosterViolation(location: "line 3", field: "first_name", message: "is empty"),
                RosterViolation(location: "line 4", field: "end", message: "the start is not before the end"),
            ])
        ) { try state.applyingValidated(changes) }
    }

    @Test func deletingAnUnknownEmployeeSuggestsCloseNames() {
        #expect(throws: RosterError.notFound("employee \"Ada Lovelase\"", suggestions: ["Ada Lovelace"])) {
            try state.applyingValidated([("", .employeeDeleted(id: "Ada Lovelase"))])
        }
    }

    @Test func deletingAnEmployeeDeletesTheirShifts() throws {
        var state = state
        state.apply(.shiftAdded(Shift(id: "s1", employeeID: "e1", start: 0, end: 10)))
        state.apply(.shiftAdded(Shift(id: "s2", employeeID: "e2", start: 0, end: 10)))
        let next = try state.applyingValidated([("", .employeeDeleted(id: "e1"))])
        #expect(Array(next.shifts.keys) == ["s2"])
    }

    @Test func findsAnEmployeeByIdOrFoldedFullName() {
        #expect(state.employee(idOrName: "e2") == rene)
        #expect(state.employee(idOrName: "rene DESCARTES") == rene)
        #expect(state.employee(idOrName: "nobody") == nil)
    }
}
