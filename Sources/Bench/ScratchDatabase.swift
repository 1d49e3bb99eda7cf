import Foundation

/// A database of its own for one benchmark run, on the PostgreSQL server a URL names, so that
/// runs never see each other's tenants; made and dropped with `psql`.
struct ScratchDatabase {
    /// The store URL for the nodes: the given one with the database replaced.
    let url: String
    private let maintenanceURL: String
    private let name: String

    static func create(on server: String) async throws -> ScratchDatabase {
        guard var components = URLComponents(string: server), components.scheme?.hasPrefix("postgres") == true else {
            throw BenchError("--postgres takes a URL such as postgres://USER@127.0.0.1:5432/postgres, not \(server)")
        }
        let name = "roster_bench_\(UInt32.random(in: 1...UInt32.max))"
        let maintenance = server
        components.path = "/" + name
        guard let url = components.string else { throw BenchError("cannot name a database on \(server)") }
        let database = ScratchDatabase(url: url, maintenanceURL: maintenance, name: name)
        try await psql(maintenance, "CREATE DATABASE \(name)")
        return database
    }

    /// Drops it, closing what the killed nodes may still have open.
    func drop() async {
        try? await Self.psql(maintenanceURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one statement; the exit is awaited through the termination handler, never by
    /// blocking a thread.
    private static func psql(_ url: String, _ statement: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", statement]
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else { throw BenchError("psql \(statement) failed (exit \(status))") }
    }
}
