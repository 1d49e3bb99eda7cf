import Foundation
import RosterDomain
import Testing

/// Imports never change data silently: what exists is an error unless asked to update (then
/// only the given fields change), re-imports are unchanged, and every error comes in one pass.
@Suite(.timeLimit(.minutes(10))) struct ImportRulesTests {
    let base = RosterState(
        tenant: Tenant(id: "t", name: "T"),
        employees: [
            Employee(
                id: "e-ada", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phone: "+44 1",
                position: "Engineer", team: "Core")
        ],
        shifts: [
            Shift(id: "s-1", employeeID: "e-ada", start: 1_767_258_000_000, end: 1_767_286_800_000, role: "primary")
        ])

    func plan(
        _ format: ImportFormat, _ text: String, _ options: ImportOptions = ImportOptions(),
        into state: RosterState? = nil
    ) throws(RosterError) -> ImportPlan {
        var counter = 0
        return try RosterImport.plan(format: format, data: Data(text.utf8), options: options, current: state ?? base) {
            prefix in
            counter += 1
            return "\(prefix)-new\(counter)"
        }
    }

    func failure(_ format: ImportFormat, _ text: String, _ options: ImportOptions = ImportOptions()) -> RosterError? {
        do {
            _ = try plan(format, text, options)
            return nil
        } catch {
            return error
        }
    }

    @Test func anExistingPersonIsNotReplacedWithoutUpdateExisting() {
        let error = failure(.employeesCSV, "first_name,last_name,email\nAda,Lovelace,new@example.com\n")
        #expect(
            error
                == .alreadyExists([
                    RosterViolation(
                        location: "line 2", field: "name",
                        message:
                            "employee e-ada \"Ada Lovelace\" already exists; --update-existing changes the fields this file gives"
                    )
                ]))
    }

    @Test func updateExistingChangesOnlyTheColumnsTheFileHas() throws {
        let result = try plan(
            .employeesCSV, "first_name,last_name,email\nAda,Lovelace,new@example.com\n",
            ImportOptions(updateExisting: true))
        let state = try base.applyingValidated(result.changes)
        let ada = try #require(state.employees["e-ada"])
        #expect(ada.email == "new@example.com")
        #expect(
            ada.phone == "+44 1" && ada.position == "Engineer" && ada.team == "Core", "absent columns keep their values"
        )
        #expect(state.employees.count == 1)
        #expect(result.rows.map(\.action) == [.updated])
    }

    @Test func aRowThatChangesNothingIsUnchangedAndSkipped() throws {
        let result = try plan(.employeesCSV, "first_name,last_name,team\nAda,Lovelace,Core\n")
        #expect(result.changes.isEmpty)
        #expect(
            result.rows == [
                ImportRow(
                    action: .unchanged, kind: "employee", id: "e-ada", description: "Ada Lovelace",
                    location: "line 2")
            ])
    }

    @Test func theSamePersonTwiceInOneFileNamesBothLines() {
        let error = failure(.employeesCSV, "first_name,last_name\nGrace,Hopper\nAlan,Turing\ngrace,HOPPER\n")
        #expect(
            error
                == .invalid([
                    RosterViolation(location: "line 4", field: "name", message: "\"grace HOPPER\" is also on line 2")
                ]))
    }

    @Test func reImportingTheSameShiftsFileAddsNothing() throws {
        let file =
            "employee,start,end,role\nAda Lovelace,2026-01-01T09:00:00Z,2026-01-01T17:00:00Z,primary\n"
            + "Ada Lovelace,2026-01-02T09:00:00Z,2026-01-02T17:00:00Z,primary\n"
        let first = try plan(.shiftsCSV, file)
        #expect(first.rows.map(\.action) == [.unchanged, .added], "the first row is the existing shift s-1")
        let after = try base.applyingValidated(first.changes)
        let second = try plan(.shiftsCSV, file, into: after)
        #expect(second.changes.isEmpty)
        #expect(second.rows.map(\.action) == [.unchanged, .unchanged])
        #expect(try after.applyingValidated(second.changes).shifts.count == 2)
    }

    @Test func anExplicitShiftIdThatExistsIsAlreadyExistsUnlessUpdating() throws {
        let file = "id,employee,start,end,role\ns-1,Ada Lovelace,2026-01-01T10:00:00Z,2026-01-01T17:00:00Z,primary\n"
        #expect(
            failure(.shiftsCSV, file)
                == .alreadyExists([
                    RosterViolation(
                        location: "line 2", field: "id",
                        message: "shift s-1 already exists; --update-existing changes it")
                ]))
        let updated = try plan(.shiftsCSV, file, ImportOptions(updateExisting: true))
        #expect(updated.rows.map(\.action) == [.updated])
        #expect(try base.applyingValidated(updated.changes).shifts["s-1"]?.start == 1_767_261_600_000)
    }

    @Test func everyErrorComesInOnePassUpToACap() {
        var file = "first_name,last_name,email\n"
        for index in 0..<150 { file += "Person\(index),,bad\(index)\n" }
        guard case .invalid(let found) = failure(.employeesCSV, file) else {
            Issue.record("expected invalid")
            return
        }
        #expect(found.count == RosterImport.maxViolations + 1)
        #expect(found.first == RosterViolation(location: "line 2", field: "last_name", message: "is empty"))
        #expect(
            found[1] == RosterViolation(location: "line 2", field: "email", message: "\"bad0\" is not an email address")
        )
        #expect(found.last == RosterViolation(location: "document", field: "", message: "and 200 more errors"))
    }

    @Test func aWrongHeaderNamesTheMissingAndUnknownColumns() {
        #expect(
            failure(.employeesCSV, "first_name,lastname_typo\nAda,Lovelace\n")
                == .invalid([
                    RosterViolation(
                        location: "line 1", field: "",
                        message: """
                            unknown column "lastname_typo" (known: id, first_name, last_name, email, phone, position, team, projects, \
                            biography, photo_url, type, chat)
                            """),
                    RosterViolation(location: "line 1", field: "", message: "missing column last_name"),
                ]))
        #expect(
            failure(.shiftsCSV, "employee,start\nAda Lovelace,2026-01-01T09:00:00Z\n")
                == .invalid([
                    RosterViolation(location: "line 1", field: "", message: "missing column end")
                ]))
    }

    @Test func anUnclosedQuoteNamesItsLine() {
        #expect(
            failure(
                .employeesCSV,
                "first_name,last_name,biography\nAda,Lovelace,fine\nAlan,Turing,\"never closed\nGrace,Hopper,x\n")
                == .invalid([
                    RosterViolation(
                        location: "line 3", field: "", message: "a quoted field opened here is never closed")
                ]))
    }

    @Test func lineNumbersCountLinesInsideQuotedFields() {
        let error = failure(
            .employeesCSV, "first_name,last_name,biography,email\nGrace,Hopper,\"two\nlines\",\nAlan,Turing,x,bad\n")
        #expect(
            error
                == .invalid([
                    RosterViolation(location: "line 4", field: "email", message: "\"bad\" is not an email address")
                ]))
    }

    @Test func replaceReportsWhatItRemovesAndKeepsWhatMatches() throws {
        let state = RosterState(
            tenant: base.tenant,
            employees: Array(base.employees.values) + [
                Employee(id: "e-alan", firstName: "Alan", lastName: "Turing")
            ], shifts: Array(base.shifts.values) + [Shift(id: "s-2", employeeID: "e-alan", start: 1, end: 2)])
        let result = try plan(
            .employeesCSV, "first_name,last_name,team\nAda,Lovelace,Core\n", ImportOptions(replace: true),
            into: state)
        #expect(result.rows.map(\.action) == [.removed, .removed, .unchanged])
        #expect(result.rows.map(\.id) == ["s-2", "e-alan", "e-ada"])
        let after = try state.applyingValidated(result.changes)
        #expect(after.employees.keys.sorted() == ["e-ada"])
        #expect(after.shifts.keys.sorted() == ["s-1"], "a directory replace keeps the plan of the people it keeps")
    }

    @Test func deletingAnEmployeeSaysEveryShiftItRemoves() {
        let expanded = base.expandingCascades([("", .employeeDeleted(id: "e-ada"))])
        #expect(expanded.map(\.change) == [.shiftDeleted(id: "s-1"), .employeeDeleted(id: "e-ada")])
    }
}
