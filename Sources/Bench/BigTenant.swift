import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterStore
import RosterStoreSQLite
import RosterServer
import RosterServerCore

/// A big tenant served by a roster-server process: how long it takes to load, what it holds in
/// memory, how long a snapshot takes to reach a client, and how long a small admin change takes
/// to be acknowledged. The store is written directly (one revision with every record), since the
/// protocol's frame limit makes importing a million shifts a matter of many batches.
package struct BigTenantBenchmark {
    package var employees: Int
    package var shifts: Int
    package var changes: Int
    package var maxFrameBytes: Int
    package var serverExecutable: URL
    /// Registers a webhook for every event type first, so that each change also derives its
    /// notifications and writes them to the outbox (its endpoint refuses connections: deliveries
    /// are retried in the background, as for an endpoint that is down).
    package var webhook = false

    package init(
        employees: Int, shifts: Int, changes: Int, maxFrameBytes: Int, serverExecutable: URL, webhook: Bool = false
    ) {
        self.webhook = webhook
        self.employees = employees
        self.shifts = shifts
        self.changes = changes
        self.maxFrameBytes = maxFrameBytes
        self.serverExecutable = serverExecutable
    }

    package struct Result {
        package var seedSeconds: Double
        package var loadSeconds: Double
        package var residentBytes: Int
        package var snapshotBytes: Int
        package var snapshot: LatencySummary
        /// Why the snapshot did not arrive, when it did not.
        package var snapshotFailure: String?
        package var ack: LatencySummary
    }

    package func run() async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let seedStart = nanos()
        try await seed(DataDirectory(directory))
        let seedSeconds = Double(nanos() - seedStart) / 1e9

        let port = freePort()
        let loadStart = nanos()
        let server = try ChildProcess(
            executable: serverExecutable,
            arguments: [
                "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "none", "--data-dir", directory,
                "--log-level", "warning",
                "--max-frame-bytes", "\(maxFrameBytes)", "--ping-interval-ms", "3600000", "--progress-interval-ms",
                "3600000",
                "--shutdown-grace-ms", "0",
            ])
        defer { server.stop() }
        try waitForListener(port: port, timeout: 600)
        let token = try adminToken(dataDirectory: directory)
        var admin = try await RosterConnection.connect(
            host: "127.0.0.1", port: port, timeout: .seconds(600), hello: .with { $0.token = token })
        let loadSeconds = Double(nanos() - loadStart) / 1e9

        // A new client's whole roster: GetSnapshot, request to decoded answer, three times.
        var snapshotSamples: [UInt64] = []
        var snapshotBytes = 0
        var snapshotFailure: String?
        for _ in 0..<3 {
            let start = nanos()
            do {
                guard
                    case .snapshot(let snapshot) = try await admin.request(
                        .getSnapshot(.init()), timeout: .seconds(600))
                else {
                    throw BenchError("no Snapshot")
                }
                snapshotSamples.append(nanos() - start)
                snapshotBytes = (try snapshot.serializedBytes() as [UInt8]).count
            } catch {
                // A client that cannot take the snapshot loses its connection: note why, go on.
                snapshotFailure = "\(error)"
                admin = try await RosterConnection.connect(
                    host: "127.0.0.1", port: port, hello: .with { $0.token = token })
                break
            }
        }

        if webhook {
            guard
                case .notificationAdminResult = try await admin.request(
                    .notificationAdmin(
                        .with {
                            $0.addWebhook = .with { $0.url = "http://127.0.0.1:9/roster" }
                        }), timeout: .seconds(600))
            else { throw BenchError("no NotificationAdminResult") }
        }

        // Small changes: a shift added near now, then deleted.
        var ackSamples: [UInt64] = []
        let now = UnixMillis.now
        for change in 0..<changes {
            let start = nanos()
            let request: RosterMessage =
                change % 2 == 0
                ? .addShift(
                    .with {
                        $0.shift = .with {
                            $0.id = "bench"; $0.employeeID = "e\(change % employees)"; $0.startMs = now + 3_600_000;
                            $0.endMs = now + 7_200_000
                        }
                    })
                : .deleteShift(.with { $0.id = "bench" })
            guard case .mutationResult = try await admin.request(request, timeout: .seconds(60)) else {
                throw BenchError("no MutationResult")
            }
            ackSamples.append(nanos() - start)
        }
        let resident = residentBytes(pid: server.pid)
        await admin.close()
        return Result(
            seedSeconds: seedSeconds, loadSeconds: loadSeconds, residentBytes: resident, snapshotBytes: snapshotBytes,
            snapshot: LatencySummary(snapshotSamples), snapshotFailure: snapshotFailure, ack: LatencySummary(ackSamples)
        )
    }

    /// Tenant "demo" (the server's default) with the employees and a shift every 15 minutes
    /// from a year ago on, each an hour long.
    private func seed(_ directory: DataDirectory) async throws {
        let store = try await directory.openStore()
        try await store.createTenant(Tenant(id: "demo", name: "Big"), epoch: 1)
        var records: [RosterChange] = (0..<employees).map {
            .employeeUpserted(
                Employee(
                    id: "e\($0)", firstName: "First\($0)", lastName: "Last\($0)",
                    position: "P\($0 % 40)", team: "T\($0 % 25)"))
        }
        let hour: Int64 = 3_600_000
        let base = UnixMillis.now - 365 * 24 * hour
        records += (0..<shifts).map { index in
            .shiftAdded(
                Shift(
                    id: "s\(index)", employeeID: "e\(index % employees)", start: base + Int64(index) * hour / 4,
                    end: base + Int64(index) * hour / 4 + hour))
        }
        try await store.commit(
            tenantID: "demo", entry: HistoryEntry(revision: 1, committedAt: .now, changes: records),
            historyLimit: 1)
        try await store.close()
    }
}
