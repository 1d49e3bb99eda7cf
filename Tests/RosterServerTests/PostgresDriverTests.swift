import Foundation
import RosterStore
@testable import RosterStorePostgres
import RosterTestSupport
import Testing

/// The PostgreSQL store's own driver on libpq, against a real cluster: values travel as typed
/// parameters and come back as the Swift types asked for, every wait ends at its deadline without
/// costing the pool its other connections, and libpq's settings reach it from the store URL.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: PostgresCluster.shouldRun, "PostgreSQL is not installed (apt-get install postgresql)"))
struct PostgresDriverTests {
    private func pool(_ address: PostgresAddress, operationLimit: Duration = .seconds(15)) -> PostgresConnections {
        PostgresConnections(
            parameters: PostgresRosterStore.connectionParameters(address), server: address.description, limit: 2,
            operationLimit: operationLimit)
    }

    @Test
    func valuesGoOutAsParametersAndComeBackAsTheirTypes() async throws {
        let address = try await PostgresCluster.shared().createDatabase()
        let connections = pool(address)
        let bytes = Data([0, 1, 0xFF, 0x5C, 0x78, 0])
        let text = "Grace Hopper'); DROP TABLE roster_schema; -- ✓ 東京"
        let missing: Int64? = nil
        let rows = try await connections.query(
            """
            SELECT \(Int64.min)::bigint, \(Int64(-1))::bigint, \(Int32(-40_000))::integer, (-2)::smallint, \(text)::text,
                   \(bytes)::bytea, \(true)::boolean, \(missing)::bigint, \(Int(7_000_000_000))::bigint
            """)
        let decoded = try rows.decode((Int64, Int64, Int32, Int64, String, Data, Bool, Int64?, Int64).self)
        try #require(decoded.count == 1)
        let row = decoded[0]
        #expect(row.0 == .min && row.1 == -1 && row.2 == -40_000 && row.3 == -2)
        #expect(row.4 == text && row.5 == bytes && row.6 && row.7 == nil && row.8 == 7_000_000_000)

        // One column reads as its type alone; a column that is not what was asked for is an error.
        #expect(try await connections.query("SELECT generate_series(1, 3)").decode(Int32.self) == [1, 2, 3])
        #expect(throws: PostgresDecodingError.self) {
            try rows.decode((String, Int64, Int32, Int64, String, Data, Bool, Int64?, Int64).self)
        }
        #expect(throws: PostgresDecodingError.self) { try rows.decode((Int64, Int64).self) }
        await connections.close()
    }

    @Test
    func aRefusedStatementSaysWhyAndATransactionThatFailsLeavesNothing() async throws {
        let address = try await PostgresCluster.shared().createDatabase()
        let connections = pool(address)
        let refused = await #expect(throws: PostgresConnections.StoreUnavailable.self) {
            _ = try await connections.query("SELECT * FROM no_such_table")
        }
        #expect(
            refused?.description.contains(#"relation "no_such_table" does not exist"#) == true,
            "\(String(describing: refused))")

        _ = try await connections.query("CREATE TABLE kept (value TEXT NOT NULL)")
        struct Abandoned: Error {}
        await #expect(throws: Abandoned.self) {
            try await connections.withTransaction { connection in
                try await connection.query("INSERT INTO kept (value) VALUES (\("rolled back"))")
                throw Abandoned()
            }
        }
        _ = try await connections.withTransaction { connection in
            try await connection.query("INSERT INTO kept (value) VALUES (\("committed"))")
        }
        #expect(try await connections.query("SELECT value FROM kept").decode(String.self) == ["committed"])
        await connections.close()
    }

    /// A statement PostgreSQL does not answer in time closes its connection (PostgreSQL rolls
    /// back) and fails with the limit named; the pool opens another for the next caller.
    @Test
    func aStatementPastItsDeadlineEndsAndThePoolGoesOn() async throws {
        let address = try await PostgresCluster.shared().createDatabase()
        // Long enough for a fresh connection's SELECT 1 on a loaded machine.
        let connections = pool(address, operationLimit: .seconds(3))
        let started = ContinuousClock.now
        let late = await #expect(throws: PostgresConnections.StoreUnavailable.self) {
            _ = try await connections.query("SELECT pg_sleep(30)")
        }
        #expect(late?.description.contains("did not answer within 3") == true, "\(String(describing: late))")
        #expect(ContinuousClock.now - started < .seconds(25), "the statement was waited for to its end")
        #expect(try await connections.query("SELECT 1").decode(Int32.self) == [1])
        await connections.close()
    }

    /// A database that does not answer at first (starting beside the node, or busy) is tried
    /// again at start, within the start window, instead of ending the server's start.
    @Test
    func aDatabaseThatAnswersLateIsWaitedForAtStart() async throws {
        var address = try await PostgresCluster.shared().createDatabase()
        let proxy = try await FaultProxy(upstreamPort: address.port)
        try await withCleanup(proxy, cleanUp: { await $0.close() }) { proxy in
            proxy.setMode(.blackhole)
            address.port = proxy.port
            let late = address
            let opening = Task { try await PostgresRosterStore.open(late, startWindow: .seconds(60)) }
            // The first attempt waits its five seconds for an answer that does not come (and the
            // one under way when the database comes back, whose first bytes were lost, too).
            try await Task.sleep(for: .seconds(6))
            proxy.setMode(.pass)
            let store = try await opening.value
            #expect(try await store.tenantIDs().isEmpty)
            try await store.close()
        }
    }

    /// `?sslmode=` reaches libpq: the test cluster has no TLS, so `require` is refused by libpq
    /// with its own words, and the URL's password is not among them.
    @Test
    func sslmodeFromTheStoreURLReachesLibpq() async throws {
        let plain = try await PostgresCluster.shared().createDatabase()
        var address = plain
        address.password = "hunter2"
        address.sslMode = "require"
        let error = await #expect(throws: (any Error).self) { _ = try await PostgresRosterStore.open(address) }
        let text = "\(error.map { String(describing: $0) } ?? "")"
        #expect(
            text.contains("could not connect to PostgreSQL at \(address.description)") && text.contains("SSL"),
            "\(text)")
        #expect(address.description.hasSuffix("?sslmode=require") && !text.contains("hunter2"), "\(text)")

        #expect(throws: StoreLocationError.self) { try PostgresAddress(parsing: "postgres://u@h/db?sslmode=sometimes") }
        #expect(throws: StoreLocationError.self) { try PostgresAddress(parsing: "postgres://u@h/db?sslcert=/etc/x") }
        #expect(try PostgresAddress(parsing: "postgres://u@h/db?sslmode=verify-full").sslMode == "verify-full")
    }
}
