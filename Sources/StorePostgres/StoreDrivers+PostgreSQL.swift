import RosterStore

extension StoreDrivers {
    /// SQLite (built in) and PostgreSQL: what roster-server and the tests open.
    public static let withPostgreSQL = StoreDrivers(postgres: { try await PostgresRosterStore.open($0) })
}
