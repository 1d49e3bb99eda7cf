import Foundation
import GRDB
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterStoreConformance
import RosterStorePostgres
import RosterTestSupport
import Testing

/// One suite, two backends: what the server relies on from `RosterStore` holds for the embedded
/// SQLite file and for PostgreSQL (a real cluster of the test's own).
@Suite(.timeLimit(.minutes(10)))
struct StoreConformanceTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
        var traits: StoreConformance.Traits {
            StoreConformance.Traits(deliveryLease: self == .postgres ? PostgresRosterStore.deliveryLease : nil)
        }
    }

    /// Opens a fresh store of `backend` twice (as two nodes would, or two processes on one SQLite
    /// file), runs `body`, and closes both and removes what was made, also when `body` throws.
    static func withStores(_ backend: Backend, _ body: (any RosterStore, any RosterStore) async throws -> Void)
        async throws
    {
        let location: StoreLocation
        var scratch: URL?
        switch backend {
        case .sqlite:
            scratch = TestScratch.directory("store")
            location = .sqlite(path: scratch!.appendingPathComponent("roster.sqlite").path)
        case .postgres:
            location = .postgres(try await PostgresCluster.shared().createDatabase())
        }
        defer { if let scratch { TestScratch.remove(scratch) } }
        let first = try await location.open(with: .withPostgreSQL)
        let second: any RosterStore
        do { second = try await location.open(with: .withPostgreSQL) } catch {
            try? await first.close()
            throw error
        }
        do {
            try await body(first, second)
        } catch {
            try? await first.close()
            try? await second.close()
            throw error
        }
        try await first.close()
        try await second.close()
    }

    /// Every check of the conformance suite, on both backends.
    @Test(arguments: Backend.allCases, StoreConformance.checks)
    func theStoreConforms(_ backend: Backend, _ check: StoreConformance.Check) async throws {
        try await Self.withStores(backend) { try await check.run($0, $1, backend.traits) }
    }

    /// A node that derived a change's events before it heard of a webhook added through another
    /// node has the change refused, so that it reads the settings again and derives anew.
    @Test func aCommitDerivedFromStaleNotificationSettingsIsRefused() async throws {
        try await Self.withStores(.postgres) { store, other in
            try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
            let before = try await other.settingsMark(tenantID: "acme")
            try await store.insertWebhook(
                StoredWebhook(
                    id: "wh_1", tenantID: "acme", url: "http://127.0.0.1:9/hook", secret: "s",
                    events: [], schedules: [], created: 0))
            let after = try await other.settingsMark(tenantID: "acme")
            #expect(before != nil && after != nil && before != after)
            var stale = OutboxWrite()
            stale.settingsMark = before
            await #expect(throws: StoreError.settingsMoved(tenant: "acme")) {
                try await other.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 2, changes: [.motdSet("x")]),
                    historyLimit: 100, audit: nil, outbox: stale)
            }
            var current = OutboxWrite()
            current.settingsMark = after
            try await other.commit(
                tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 2, changes: [.motdSet("x")]),
                historyLimit: 100, audit: nil, outbox: current)
            #expect(try await store.revisions() == ["acme": 1])
        }
    }

    @Test(.enabled(if: PostgresCluster.shouldRun, "PostgreSQL is not installed (apt-get install postgresql)"))
    func aPostgresStoreMigratedByANewerBuildIsRefused() async throws {
        let address = try await PostgresCluster.shared().createDatabase()
        let store = try await StoreLocation.postgres(address).open(with: .withPostgreSQL)
        try await store.close()
        try await PostgresCluster.shared().psql(
            address.database, "INSERT INTO roster_schema (version) VALUES ('v99-future')")
        await #expect(throws: StoreError.schemaNewer(unknown: ["v99-future"])) {
            _ = try await StoreLocation.postgres(address).open(with: .withPostgreSQL)
        }
    }

    @Test
    func anSQLiteStoreMigratedByANewerBuildIsRefused() async throws {
        let scratch = TestScratch.directory("store")
        defer { TestScratch.remove(scratch) }
        let path = scratch.appendingPathComponent("roster.sqlite").path
        try await StoreLocation.sqlite(path: path).open().close()
        let database = try DatabaseQueue(path: path)
        try await database.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-future')") }
        try database.close()
        await #expect(throws: StoreError.schemaNewer(unknown: ["v99-future"])) {
            _ = try await StoreLocation.sqlite(path: path).open()
        }
    }

    @Test
    func storeLocationsParseAndNeverShowAPassword() throws {
        #expect(
            try StoreLocation(parsing: "sqlite:/var/lib/roster/r.sqlite") == .sqlite(path: "/var/lib/roster/r.sqlite"))
        let address = try #require(
            { () throws -> PostgresAddress? in
                if case .postgres(let address) = try StoreLocation(
                    parsing: "postgres://roster:s%40cret@db.example:5433/rosterdb")
                {
                    return address
                }
                return nil
            }())
        #expect(
            address
                == PostgresAddress(
                    host: "db.example", port: 5433, user: "roster", password: "s@cret", database: "rosterdb"))
        #expect(!address.description.contains("cret"))
        #expect(
            try StoreLocation(parsing: "postgresql://roster@/rosterdb?host=/run/postgresql")
                == .postgres(
                    PostgresAddress(
                        host: "localhost", port: 5432, user: "roster", database: "rosterdb",
                        socketDirectory: "/run/postgresql")))
        for bad in ["mysql://x@y/z", "postgres://db.example/rosterdb", "postgres://roster@db.example/", "sqlite:"] {
            #expect(throws: StoreLocationError.self) { try StoreLocation(parsing: bad) }
        }
        do {
            _ = try StoreLocation(parsing: "postgres://u:hunter2@h/")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
        #expect(StoreSchema.versions.count == Set(StoreSchema.versions).count)
    }

    /// PostgreSQL down: the error says what happened and where, not PostgresNIO's generic text.
    @Test
    func anUnreachablePostgreSQLIsNamedWithItsCause() async throws {
        let location = try StoreLocation(parsing: "postgres://roster:hunter2@127.0.0.1:1/rosterdb")
        let error = await #expect(throws: (any Error).self) { _ = try await location.open(with: .withPostgreSQL) }
        let text = "\(error.map { String(describing: $0) } ?? "")"
        #expect(
            text.contains("could not connect to PostgreSQL at postgres://roster@127.0.0.1:1/rosterdb")
                && text.contains("refused"), "\(text)")
        #expect(
            !text.contains("PSQLError") && !text.contains("Generic description") && !text.contains("hunter2"), "\(text)"
        )
    }

    /// The server library alone has no PostgreSQL driver: asked for one, it says so (and never
    /// shows the password), without connecting anywhere.
    @Test
    func withoutItsDriverAPostgresStoreIsRefusedClearly() async throws {
        let location = try StoreLocation(parsing: "postgres://roster:hunter2@127.0.0.1:1/rosterdb")
        let error = await #expect(throws: StoreLocationError.self) { _ = try await location.open() }
        let text = "\(error.map { String(describing: $0) } ?? "")"
        #expect(text.contains("no PostgreSQL driver") && !text.contains("hunter2"), "\(text)")
    }
}
