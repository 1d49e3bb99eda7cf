import PropertyBased
import RosterDomain
import Testing

/// The obvious, slow definition the engine must agree with.
enum OnDutyOracle {
    static func people(at t: UnixMillis, shifts: [Shift], employees: [String: Employee]) -> [Shift] {
        var chosen: [String: Shift] = [:]
        for shift in shifts where shift.start <= t && t < shift.end {
            if let existing = chosen[shift.employeeID], !precedes(shift, existing, employees) { continue }
            chosen[shift.employeeID] = shift
        }
        return chosen.values.sorted { precedes($0, $1, employees) }
    }

    static func precedes(_ a: Shift, _ b: Shift, _ employees: [String: Employee]) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if let ea = employees[a.employeeID], let eb = employees[b.employeeID], ea.id != eb.id {
            return Employee.displayOrder(ea, eb)
        }
        if a.employeeID != b.employeeID { return a.employeeID < b.employeeID }
        return a.id < b.id
    }

    static func lookup(at t: UnixMillis, shifts: [Shift], employees: [String: Employee]) -> OnDutyLookup {
        let current = people(at: t, shifts: shifts, employees: employees)
        let currentSet = Set(current.map(\.employeeID))
        let candidates = Set(shifts.flatMap { [$0.start, $0.end] }).filter { $0 > t }.sorted()
        for candidate in candidates {
            let then = people(at: candidate, shifts: shifts, employees: employees)
            if Set(then.map(\.employeeID)) != currentSet {
                return OnDutyLookup(at: t, current: current, until: candidate, next: then)
            }
        }
        return OnDutyLookup(at: t, current: current, until: nil, next: [])
    }
}

struct RandomPlan: Sendable, CustomStringConvertible {
    var shifts: [Shift]
    var probes: [UnixMillis]
    var description: String { "shifts: \(shifts.map { "\($0.employeeID)[\($0.start),\($0.end))" }), probes: \(probes)" }
}

let lastNames = ["Ng", "Åberg", "Abe", "Zhou", "Müller", "abbot"]
let testEmployees: [String: Employee] = Dictionary(
    uniqueKeysWithValues: (0..<6).map { i in
        ("e\(i)", Employee(id: "e\(i)", firstName: "P\(i)", lastName: lastNames[i]))
    })

/// Small time range so that overlaps, shared boundaries and back-to-back shifts are common.
let planGenerator = zip(
    zip(Gen.int(in: 0...5), Gen.int(in: 0...40), Gen.int(in: 1...12)).array(of: 0...14),
    Gen.int(in: -5...60).array(of: 1...8)
).map { raw, probes in
    RandomPlan(
        shifts: raw.enumerated().map { index, item in
            Shift(id: "s\(index)", employeeID: "e\(item.0)", start: Int64(item.1), end: Int64(item.1 + item.2))
        },
        probes: probes.map { Int64($0) })
}

@Suite(.timeLimit(.minutes(10))) struct OnDutyEngineTests {
    @Test func agreesWithTheOracleOnRandomPlans() async {
        await propertyCheck(count: 1000, input: planGenerator) { plan in
            let wrong = try await offThePool { () -> [UnixMillis] in
                let engine = OnDutyEngine(shifts: plan.shifts, employees: EmployeeDirectory(testEmployees))
                return plan.probes.filter {
                    engine.lookup(at: $0) != OnDutyOracle.lookup(at: $0, shifts: plan.shifts, employees: testEmployees)
                }
            }
            #expect(wrong.isEmpty, "the engine and the oracle differ at \(wrong)")
        }
    }

    @Test func shiftsAreHalfOpen() {
        let engine = OnDutyEngine(shifts: [Shift(id: "a", employeeID: "e0", start: 10, end: 20)])
        #expect(engine.lookup(at: 9).current.isEmpty)
        #expect(engine.lookup(at: 9).until == 10)
        #expect(engine.lookup(at: 10).currentEmployeeIDs == ["e0"])
        #expect(engine.lookup(at: 19).currentEmployeeIDs == ["e0"])
        #expect(engine.lookup(at: 19).until == 20)
        #expect(engine.lookup(at: 20).current.isEmpty)
        #expect(engine.lookup(at: 20).until == nil)
    }

    @Test func overlappingPeopleAreOrderedByStartThenLastName() {
        let shifts = [
            Shift(id: "1", employeeID: "e3", start: 0, end: 100),  // Zhou, started first
            Shift(id: "2", employeeID: "e0", start: 10, end: 100),  // Ng
            Shift(id: "3", employeeID: "e2", start: 10, end: 100),  // Abe
        ]
        let lookup = OnDutyEngine(shifts: shifts, employees: EmployeeDirectory(testEmployees)).lookup(at: 50)
        #expect(lookup.currentEmployeeIDs == ["e3", "e2", "e0"])
    }

    @Test func backToBackShiftsOfOnePersonAreNotAChange() {
        let shifts = [
            Shift(id: "1", employeeID: "e0", start: 0, end: 10),
            Shift(id: "2", employeeID: "e0", start: 10, end: 20),
            Shift(id: "3", employeeID: "e1", start: 20, end: 30),
        ]
        let lookup = OnDutyEngine(shifts: shifts, employees: EmployeeDirectory(testEmployees)).lookup(at: 5)
        #expect(lookup.until == 20)
        #expect(lookup.next.map(\.employeeID) == ["e1"])
    }

    @Test func emptyPlanHasNobodyAndNoChange() {
        let lookup = OnDutyEngine(shifts: []).lookup(at: 0)
        #expect(lookup.current.isEmpty && lookup.until == nil && lookup.next.isEmpty)
    }
}
