import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// A year's hours report for a big tenant (issue #36): 1,000 people, 100 schedules of ten people
/// each (a weekly rotation, and on every other schedule a business-hours layer above it), in
/// three zones. The past half-year is in the duty record (a real SQLite file), the rest is the
/// plan. Times the server's own path, in process: reading the marks and the record from the
/// store, then `ReportAnswer.make` (gather, categories, hours) — what GetReport does on the work
/// pool — and the resident memory it adds.
package struct ReportBenchmark {
    package var people: Int
    package var schedules: Int
    package var runs: Int

    package init(people: Int, schedules: Int, runs: Int) {
        (self.people, self.schedules, self.runs) = (people, schedules, runs)
    }

    package struct Result {
        package var recordedStretches: Int
        package var rows: Int
        package var read: LatencySummary
        package var compute: LatencySummary
        package var total: LatencySummary
        package var residentGrowthBytes: Int
    }

    static let day: UnixMillis = 86_400_000

    /// The tenant: people e0…, schedule s0 has e0-e9, s1 e10-e19, and so on.
    func state() -> RosterState {
        let zones = ["Europe/Berlin", "America/New_York", "UTC"]
        let employees = (0..<people).map { Employee(id: "e\($0)", firstName: "P\($0)", lastName: "L\($0 % 97)") }
        let definitions = (0..<schedules).map { index -> ScheduleDefinition in
            let members = (0..<10).map { "e\((index * 10 + $0) % people)" }
            var layers = [
                ScheduleLayer(
                    level: 1,
                    rotations: [
                        Rotation(
                            id: "r\(index)", slots: members.map { [$0] }, cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2025, month: 1, day: 6, hour: 9), restrictions: [],
                            advance: .activeTurns)
                    ])
            ]
            if index % 2 == 0 {
                layers.append(
                    ScheduleLayer(
                        level: 2,
                        rotations: [
                            Rotation(
                                id: "b\(index)", slots: members.reversed().map { [$0] }, cadence: .days(1),
                                handoff: LocalDateTime(year: 2025, month: 1, day: 6, hour: 9),
                                restrictions: [
                                    RestrictionWindow(weekdays: [2, 3, 4, 5, 6], start: 9 * 60, end: 17 * 60)
                                ], advance: .activeTurns)
                        ]))
            }
            return ScheduleDefinition(
                id: "s\(index)", name: "Schedule \(index)", zone: zones[index % zones.count], layers: layers)
        }
        return RosterState(tenant: Tenant(id: "bench", name: "Bench"), employees: employees, schedules: definitions)
    }

    package func run() async throws -> Result {
        let state = state()
        let now = TimeText.parseISO8601("2026-07-01T00:00:00Z")!
        let from = now - 182 * Self.day, to = from + 365 * Self.day
        // The record of the past half-year, written as the rounds would have.
        var write = DutyRecordWrite()
        var budget = ResolutionBudget(limit: .max)
        for id in state.schedules.keys.sorted() {
            write.stretches += try DutyRecord.stretches(
                of: state.definition(of: id)!, from: from, to: now, budget: &budget)
            write.marks[id] = now
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteRosterStore.open(path: directory + "/roster.sqlite")
        try await store.createTenant(state.tenant, epoch: 1)
        // The marks begin at the window's start, as if the record had run all along.
        _ = try await store.recordDuty(
            tenantID: "bench", atRevision: 0, DutyRecordWrite(marks: write.marks.mapValues { _ in from }))
        _ = try await store.recordDuty(tenantID: "bench", atRevision: 0, write)
        let request = Roster_V1_GetReportRequest.with {
            $0.kind = .hours
            $0.fromMs = from
            $0.toMs = to
            $0.night = "22:00-06:00"
        }
        var reads: [UInt64] = [], computes: [UInt64] = [], totals: [UInt64] = []
        var rows = 0
        let before = residentBytes(pid: getpid())
        var peak = before
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let marks = try await store.dutyRecordMarks(tenantID: "bench")
            let recorded = try await store.dutyRecord(
                tenantID: "bench", from: from, to: now, limit: ServerCore.maxReportStretches)
            let read = DispatchTime.now().uptimeNanoseconds
            let report = try ReportAnswer.make(
                request, state: state, marks: marks, recorded: recorded.stretches, now: now,
                isAdmin: true, employeeID: nil)
            let done = DispatchTime.now().uptimeNanoseconds
            rows = report.people.count
            reads.append(read - start)
            computes.append(done - read)
            totals.append(done - start)
            peak = max(peak, residentBytes(pid: getpid()))
        }
        try await store.close()
        return Result(
            recordedStretches: write.stretches.count, rows: rows, read: LatencySummary(reads),
            compute: LatencySummary(computes),
            total: LatencySummary(totals), residentGrowthBytes: peak - before)
    }
}
