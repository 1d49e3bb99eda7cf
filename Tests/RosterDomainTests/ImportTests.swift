import Foundation
import RosterDomain
import Testing

@Suite(.timeLimit(.minutes(10))) struct ImportTests {
    let empty = RosterState(tenant: Tenant(id: "t", name: "T"))

    func importing(_ format: ImportFormat, _ text: String, into state: RosterState? = nil) throws(RosterError)
        -> RosterState
    {
        let base = state ?? empty
        var counter = 0
        let changes = try RosterImport.changes(format: format, data: Data(text.utf8), current: base) { prefix in
            counter += 1
            return "\(prefix)\(counter)"
        }
        return try base.applyingValidated(changes)
    }

    func violations(_ format: ImportFormat, _ text: String) -> [String] {
        do {
            _ = try importing(format, text)
            return []
        } catch {
            guard case .invalid(let found) = error else { return ["\(error)"] }
            return found.map(\.description)
        }
    }

    @Test func snapshotJSONImportsEmployeesShiftsAndMotd() throws {
        let state = try importing(
            .snapshotJSON,
            """
            {"tenant": {"id": "t", "name": "T", "motd": "Hello"},
             "employees": [{"id": "a", "firstName": "Ada", "lastName": "Lovelace", "projects": ["X"], "type": "full-time"}],
             "shifts": [{"employeeId": "a", "start": "2026-01-01T09:00:00Z", "end": "2026-01-01T17:00:00.500Z"}]}
            """)
        #expect(state.tenant.motd == "Hello")
        #expect(state.employees["a"]?.projects == ["X"])
        #expect(state.employees["a"]?.type == .fullTime)
        let shift = try #require(state.shifts.values.first)
        #expect(shift.start == 1_767_258_000_000 && shift.end == 1_767_286_800_500)
    }

    @Test func snapshotJSONReportsEveryBadRecordWithIndexAndField() {
        #expect(
            violations(
                .snapshotJSON,
                """
                {"employees": [{"firstName": "Ada", "lastName": "Lovelace"}, {"firstName": 3, "lastName": "X", "type": "boss"}],
                 "shifts": [{"employeeId": "nobody", "start": "noon", "end": "2026-01-01T17:00:00Z"}]}
                """) == [
                    "employees[1], firstName: is not text",
                    "employees[1], type: \"boss\" is not one of full-time, part-time, contractor",
                    "shifts[0], start: \"noon\" is not an ISO 8601 time",
                    "shifts[0], employeeId: unknown employee \"nobody\"",
                ])
        #expect(violations(.snapshotJSON, "{not json") == ["document: is not valid JSON"])
    }

    @Test func legacyAppJSONCreatesPeopleAndShiftsOnce() throws {
        let state = try importing(
            .legacyAppJSON,
            """
            {"tenant": "Acme", "motd": "Be kind",
             "scheduledToday": {"name": "Grace Brewster Hopper", "fromDate": "2026-01-01T09:00:00Z", "toDate": "2026-01-01T17:00:00Z"},
             "roster": [{"name": "Grace Brewster Hopper", "fromDate": "2026-01-01T09:00:00Z", "toDate": "2026-01-01T17:00:00Z"},
                        {"name": "Alan Turing", "fromDate": "2026-01-01T17:00:00+01:00", "toDate": "2026-01-02T09:00:00Z"}]}
            """)
        #expect(state.tenant.motd == "Be kind")
        #expect(state.sortedEmployees.map(\.fullName) == ["Grace Brewster Hopper", "Alan Turing"])
        #expect(state.employee(idOrName: "Grace Brewster Hopper")?.lastName == "Hopper")
        #expect(state.shifts.count == 2, "scheduledToday repeats a roster entry")
        #expect(state.sortedShifts.last?.start == 1_767_283_200_000)
    }

    @Test func legacyAppJSONReportsMissingFields() {
        #expect(
            violations(
                .legacyAppJSON,
                """
                {"roster": [{"fromDate": "2026-01-01T09:00:00Z", "toDate": "2026-01-01T17:00:00Z"}, {"name": "A B", "fromDate": "x"}]}
                """) == [
                    "roster[0], name: is missing",
                    "roster[1], fromDate: \"x\" is not an ISO 8601 time",
                    "roster[1], toDate: is missing",
                ])
    }

    @Test func employeesCSVAcceptsQuotedFieldsAndReportsLines() throws {
        let state = try importing(
            .employeesCSV,
            """
            first_name,last_name,email,position,team,projects,type
            Ada,Lovelace,ada@example.com,Engineer,Core,"Engine; Notes",part-time
            "Descartes, Jr.",René,,Philosopher,Edge,,
            """)
        #expect(state.employee(idOrName: "Ada Lovelace")?.projects == ["Engine", "Notes"])
        #expect(state.employee(idOrName: "Descartes, Jr. René") != nil)
        #expect(
            violations(
                .employeesCSV,
                """
                first_name,last_name,email
                Ada,Lovelace,ada@example.com
                ,Nobody,bad-email
                """) == ["line 3, first_name: is empty", "line 3, email: \"bad-email\" is not an email address"])
    }

    @Test func shiftsCSVResolvesEmployeesByNameOrId() throws {
        let withAda = RosterState(tenant: Tenant(id: "t", name: "T"), employees: [ada])
        let state = try importing(
            .shiftsCSV,
            """
            employee,start,end,role
            Ada Lovelace,2026-01-01T09:00:00Z,2026-01-01T17:00:00Z,primary
            e1,2026-01-02T09:00:00Z,2026-01-02T17:00:00Z,
            """, into: withAda)
        #expect(state.shifts.count == 2)
        #expect(state.sortedShifts.first?.role == "primary")
        do {
            _ = try importing(.shiftsCSV, "employee,start,end\nNobody,2026-01-01T09:00:00Z,\n", into: withAda)
            Issue.record("expected a violation")
        } catch {
            #expect(
                error
                    == .invalid([
                        RosterViolation(location: "line 2", field: "end", message: "is missing"),
                        RosterViolation(location: "line 2", field: "employee", message: "unknown employee \"Nobody\""),
                    ]))
        }
    }

    /// A row without an id matches a shift of its own schedule only: the same person and times on
    /// another schedule are another shift, which the import neither moves nor changes.
    @Test func aRowWithoutAnIdNeverTakesAShiftOffAnotherSchedule() throws {
        let start: UnixMillis = 1_767_258_000_000, end = start + 8 * 3_600_000  // 2026-01-01 09:00-17:00 UTC
        var state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: [ada],
            schedules: [ScheduleDefinition(id: "p", name: "Platform", zone: "UTC")])
        state.apply(
            .shiftAdded(
                Shift(id: "s-platform", employeeID: "e1", start: start, end: end, role: "primary", scheduleID: "p")))
        let after = try importing(
            .shiftsCSV,
            """
            employee,start,end,role
            Ada Lovelace,2026-01-01T09:00:00Z,2026-01-01T17:00:00Z,primary
            """, into: state)
        #expect(after.shifts["s-platform"] == state.shifts["s-platform"], "the Platform shift stays where it was")
        #expect(after.shifts.count == 2)
        let added = try #require(after.shifts.values.first { $0.id != "s-platform" })
        #expect(ShiftTable.scheduleKey(added.scheduleID) == ScheduleDefinition.defaultID)
        // The same row again matches the shift it made, on its own schedule: nothing changes.
        let again = try importing(
            .shiftsCSV,
            """
            employee,start,end,role
            Ada Lovelace,2026-01-01T09:00:00Z,2026-01-01T17:00:00Z,primary
            """, into: after)
        #expect(again.shifts.count == 2)
    }

    @Test func replaceDeletesWhatTheFileDoesNotHold() throws {
        let base = RosterState(tenant: Tenant(id: "t", name: "T"), employees: [ada, rene])
        let changes = try RosterImport.changes(
            format: .employeesCSV, data: Data("first_name,last_name\nAda,Lovelace\n".utf8), replace: true,
            current: base,
            newID: { "\($0)-new" })
        let state = try base.applyingValidated(changes)
        #expect(state.sortedEmployees.map(\.fullName) == ["Ada Lovelace"])
    }
}
