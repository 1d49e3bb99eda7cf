import Foundation
import RosterAsCode
import RosterClient
import RosterDomain
import RosterProtocol

/// Schedules as code (issue #38) against a roster-server process, on the hours report's big
/// tenant (1,000 people, 100 schedules in three zones, 150 rotations): the export as a file, read
/// back with every line noted; the first apply, which creates everything; then a plan of the
/// same file (nothing to do: every object compared), a plan with one rotation's people changed,
/// and applies that each change one rotation (one revision each). Latency as the client sees it
/// and server CPU per request.
package struct DefinitionBenchmark {
    package var people: Int
    package var schedules: Int
    package var runs: Int
    package var serverExecutable: URL

    package init(people: Int, schedules: Int, runs: Int, serverExecutable: URL) {
        (self.people, self.schedules, self.runs, self.serverExecutable) = (people, schedules, runs, serverExecutable)
    }

    package struct Result {
        package var fileBytes: Int
        package var read: LatencySummary
        package var create: Double
        package var noChange, oneChangePlan, oneChangeApply: LatencySummary
        package var cpuNoChange, cpuApply: Double
        package var dutyListed: Int
    }

    package func run() async throws -> Result {
        let now = UnixMillis(Date().timeIntervalSince1970 * 1000)
        let state = ReportBenchmark(people: people, schedules: schedules, runs: 1).state()
        let text = DefinitionExport.yaml(state, settings: .init(), now: now)
        var reads: [UInt64] = []
        var file: DefinitionFile?
        for _ in 0..<max(1, runs / 4) {
            let began = nanos()
            file = try DefinitionFile.parse(text, path: "bench.yaml") { _ in nil }
            reads.append(nanos() - began)
        }
        guard let document = file?.document else { throw BenchError("the big tenant's export did not read back") }
        // The same file with the first rotation's turns reversed, and reversed back: each apply changes one rotation.
        var reversed = document
        reversed.schedules[0].layers[0].rotations[0].slots.reverse()

        let bench = try await BenchServer.start(serverExecutable)
        do {
            let result = try await measure(on: bench, document: document, reversed: reversed)
            await bench.stop()
            return Result(
                fileBytes: text.utf8.count, read: LatencySummary(reads), create: result.create,
                noChange: result.noChange,
                oneChangePlan: result.oneChangePlan, oneChangeApply: result.oneChangeApply,
                cpuNoChange: result.cpuNoChange,
                cpuApply: result.cpuApply, dutyListed: result.dutyListed)
        } catch {
            await bench.stop()
            throw error
        }
    }

    private func measure(
        on bench: BenchServer, document: Roster_V1_DefinitionDocument, reversed: Roster_V1_DefinitionDocument
    ) async throws
        -> (
            create: Double, noChange: LatencySummary, oneChangePlan: LatencySummary, oneChangeApply: LatencySummary,
            cpuNoChange: Double,
            cpuApply: Double, dutyListed: Int
        )
    {
        let (server, admin) = (bench.process, bench.admin)
        func apply(_ document: Roster_V1_DefinitionDocument, planOnly: Bool) async throws -> Roster_V1_DefinitionPlan {
            guard
                case .definitionPlan(let plan) = try await admin.request(
                    .applyDefinition(
                        .with {
                            $0.definition = document
                            $0.planOnly = planOnly
                        }), timeout: .seconds(120))
            else { throw BenchError("expected DefinitionPlan") }
            return plan
        }
        let began = nanos()
        let created = try await apply(document, planOnly: false)
        let create = Double(nanos() - began) / 1e6
        guard created.committed else { throw BenchError("the first apply committed nothing") }

        var same: [UInt64] = [], planned: [UInt64] = [], applied: [UInt64] = []
        var cpu = cpuMillis(pid: server.pid)
        for _ in 0..<runs {
            let start = nanos()
            let plan = try await apply(document, planOnly: true)
            same.append(nanos() - start)
            guard plan.changes.allSatisfy({ $0.action == .notInFile }) else {
                throw BenchError("the same file planned changes")
            }
        }
        let cpuNoChange = (cpuMillis(pid: server.pid) - cpu) / Double(max(1, runs))
        var listed = 0
        for _ in 0..<runs {
            let start = nanos()
            listed = try await apply(reversed, planOnly: true).duty.count
            planned.append(nanos() - start)
        }
        cpu = cpuMillis(pid: server.pid)
        for run in 0..<runs {
            let start = nanos()
            let plan = try await apply(run % 2 == 0 ? reversed : document, planOnly: false)
            applied.append(nanos() - start)
            guard plan.committed else { throw BenchError("an apply that changes a rotation committed nothing") }
        }
        let cpuApply = (cpuMillis(pid: server.pid) - cpu) / Double(max(1, runs))
        return (
            create, LatencySummary(same), LatencySummary(planned), LatencySummary(applied), cpuNoChange, cpuApply,
            listed
        )
    }
}
