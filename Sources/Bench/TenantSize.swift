import Foundation
import RosterDomain
import RosterProtocol

/// What one small admin change costs on a big tenant, stage by stage, in process: the work the
/// server does on its commit path (validate and apply, rebuild the on-duty index) and what a
/// new subscriber costs (the snapshot's encoding and size). No sockets and no store: this
/// isolates the parts that grow with the tenant.
package struct TenantSizeBenchmark {
    package var employees: Int
    package var shifts: Int
    package var changes: Int

    package init(employees: Int, shifts: Int, changes: Int = 20) {
        self.employees = employees
        self.shifts = shifts
        self.changes = changes
    }

    package struct Result {
        package var buildMillis: Double
        package var applyMillis: LatencyFigures
        package var indexMillis: LatencyFigures
        /// One employee's phone number changed: validate and apply.
        package var employeeMillis: LatencyFigures
        package var snapshotBytes: Int
        package var snapshotEncodeMillis: Double
        package var residentBytes: Int
    }

    /// Median and worst of a few timings, in milliseconds.
    package struct LatencyFigures: CustomStringConvertible {
        package var median: Double
        package var worst: Double
        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            median = sorted[sorted.count / 2]
            worst = sorted.last ?? 0
        }
        package var description: String { String(format: "median %.2f ms, worst %.2f ms", median, worst) }
    }

    package func run() throws -> Result {
        let start = nanos()
        let people = (0..<employees).map {
            Employee(
                id: "e\($0)", firstName: "First\($0)", lastName: "Last\($0)", position: "P\($0 % 40)",
                team: "T\($0 % 25)")
        }
        let hour: Int64 = 3_600_000
        let base: Int64 = 1_767_225_600_000
        let plan = (0..<shifts).map { index in
            Shift(
                id: "s\(index)", employeeID: "e\(index % employees)", start: base + Int64(index) * hour / 4,
                end: base + Int64(index) * hour / 4 + hour)
        }
        var state = RosterState(tenant: Tenant(id: "big", name: "Big"), employees: people, shifts: plan)
        _ = state.onDutyIndex(around: base)
        let buildMillis = Double(nanos() - start) / 1e6

        var apply: [Double] = [], index: [Double] = []
        for change in 0..<changes {
            let shift = Shift(id: "new\(change)", employeeID: "e\(change % employees)", start: base, end: base + hour)
            let t0 = nanos()
            state = try state.applyingValidated([(location: "bench", change: .shiftAdded(shift))])
            let t1 = nanos()
            _ = state.onDutyIndex(around: base)
            let t2 = nanos()
            apply.append(Double(t1 - t0) / 1e6)
            index.append(Double(t2 - t1) / 1e6)
        }
        var employee: [Double] = []
        for change in 0..<changes {
            var person = people[change % employees]
            person.phone = "+1 555 \(change)"
            let t0 = nanos()
            state = try state.applyingValidated([(location: "bench", change: .employeeUpserted(person))])
            employee.append(Double(nanos() - t0) / 1e6)
        }
        let t3 = nanos()
        let bytes = try Roster_V1_Snapshot(state, epoch: 1, revision: 1).serializedBytes() as [UInt8]
        let encodeMillis = Double(nanos() - t3) / 1e6
        return Result(
            buildMillis: buildMillis, applyMillis: LatencyFigures(apply), indexMillis: LatencyFigures(index),
            employeeMillis: LatencyFigures(employee),
            snapshotBytes: bytes.count, snapshotEncodeMillis: encodeMillis,
            residentBytes: residentBytes(pid: getpid()))
    }
}
