import Foundation
import NIOPosix
import RosterDomain

/// Where the server keeps its data: the embedded SQLite file (the default, in the data
/// directory or at a path) or a PostgreSQL database that several nodes share.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    /// Parses `--store`: `sqlite:PATH`, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (also
    /// `postgresql://`), or `postgres:///DATABASE?host=/run/postgresql` for a Unix socket.
    public init(parsing text: String) throws(StoreLocationError) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else {
                throw .invalid(text, "sqlite: needs a file path, e.g. sqlite:/var/lib/roster/roster.sqlite")
            }
            self = .sqlite(path: path)
            return
        }
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            throw .invalid(text, "a store is sqlite:PATH or postgres://USER@HOST[:PORT]/DATABASE")
        }
        self = .postgres(try PostgresAddress(parsing: text))
    }

    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let address): return address.description
        }
    }
}

/// The store drivers that live in targets of their own, so that what embeds the server library
/// builds only the databases it uses. The executables pass every driver.
public struct StoreDrivers: Sendable {
    /// Opens a PostgreSQL store (migrating its schema); nil: PostgreSQL is not available.
    public var postgres: (@Sendable (PostgresAddress) async throws -> any RosterStore)?

    public init(postgres: (@Sendable (PostgresAddress) async throws -> any RosterStore)? = nil) {
        self.postgres = postgres
    }
}

/// A PostgreSQL server and database, from a `postgres://` URL. The password is never printed.
public struct PostgresAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// A directory holding the server's socket, used instead of host and port when set.
    public var socketDirectory: String?
    public var user: String
    public var password: String?
    public var database: String
    /// libpq's `sslmode` (`disable` … `verify-full`); nil: libpq's default, `prefer`. TLS to
    /// PostgreSQL goes through the system OpenSSL, as libpq is built on it.
    public var sslMode: String?

    /// The `sslmode` values libpq knows.
    public static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    public init(
        host: String, port: Int, user: String, password: String? = nil, database: String,
        socketDirectory: String? = nil,
        sslMode: String? = nil
    ) {
        (self.host, self.port, self.user, self.password, self.database) = (host, port, user, password, database)
        self.socketDirectory = socketDirectory
        self.sslMode = sslMode
    }

    public init(parsing text: String) throws(StoreLocationError) {
        guard let url = URLComponents(string: text) else { throw .invalid(text, "is not a URL") }
        let socket = url.queryItems?.first(where: { $0.name == "host" })?.value
        guard let user = url.user, !user.isEmpty else {
            throw .invalid(text, "names no user: postgres://USER@HOST/DATABASE")
        }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw .invalid(text, "names no database: postgres://USER@HOST/DATABASE") }
        let host = url.host ?? ""
        guard !host.isEmpty || socket != nil else { throw .invalid(text, "names no host") }
        let sslMode = url.queryItems?.first(where: { $0.name == "sslmode" })?.value
        if let sslMode, !Self.sslModes.contains(sslMode) {
            throw .invalid(text, "sslmode must be one of \(Self.sslModes.joined(separator: ", "))")
        }
        if let unknown = url.queryItems?.first(where: { !["host", "sslmode"].contains($0.name) }) {
            throw .invalid(text, "knows no parameter \"\(unknown.name)\" (only host and sslmode)")
        }
        self.init(
            host: host.isEmpty ? "localhost" : host, port: url.port ?? 5432, user: user,
            password: url.password.flatMap { $0.removingPercentEncoding }, database: database, socketDirectory: socket,
            sslMode: sslMode)
    }

    public var description: String {
        let ssl = sslMode.map { "sslmode=\($0)" }
        if let socketDirectory {
            return "postgres://\(user)@/\(database)?"
                + (["host=\(socketDirectory)"] + [ssl].compactMap { $0 }).joined(separator: "&")
        }
        return "postgres://\(user)@\(host):\(port)/\(database)" + (ssl.map { "?\($0)" } ?? "")
    }
}

public enum StoreLocationError: Error, CustomStringConvertible, Equatable {
    case invalid(String, String)

    public var description: String {
        switch self {
        case .invalid(let text, let why):
            // A password in the URL must not reach a log or a terminal.
            let shown = text.replacingOccurrences(of: #":[^:@/]*@"#, with: ":***@", options: .regularExpression)
            return "invalid store \(shown): \(why)"
        }
    }
}

/// Errors of any store, whatever the database underneath.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// Whether the change should be validated again against the store's newer state and retried.
    public var isConflict: Bool {
        switch self {
        case .revisionConflict, .planMoved, .settingsMoved: return true
        default: return false
        }
    }

    /// Another node committed first: the tenant is at `stored`, not at the revision before the
    /// one being committed. The change is re-validated against the newer plan and tried again.
    case revisionConflict(tenant: String, stored: UInt64, expected: UInt64)
    /// The database was migrated by a newer Roster: this build does not know these versions.
    case schemaNewer(unknown: [String])
    case noSuchTenant(String)
    /// The tenant's notifications were planned further by another node than this change assumed.
    case planMoved(tenant: String)
    /// The tenant's webhooks, reminder rules or planning were changed through another node
    /// after this node read them: its change derived its events from settings no longer current.
    case settingsMoved(tenant: String)

    public var description: String {
        switch self {
        case .revisionConflict(let tenant, let stored, let expected):
            return
                "tenant \(tenant) is at revision \(stored) in the store, not \(expected): another node committed first"
        case .schemaNewer(let unknown):
            return
                "the store's schema is newer than this roster-server (it has \(unknown.joined(separator: ", ")), which this build does not know); run the newer roster-server"
        case .noSuchTenant(let id):
            return "no tenant \(id) in the store"
        case .planMoved(let tenant):
            return "tenant \(tenant)'s notifications were planned further by another node"
        case .settingsMoved(let tenant):
            return "tenant \(tenant)'s notification settings were changed through another node"
        }
    }
}

/// The schema versions, oldest first: both backends apply the same list, each in its own SQL,
/// and record which they applied, so a node can tell a schema newer than itself.
public enum StoreSchema {
    public static let versions = [
        "v1", "v2-tokens", "v3-schedules", "v4-token-employee", "v5-audit", "v6-calendar",
        "v7-notifications", "v8-token-minted-by", "v9-duty-record",
        "v10-chat", "v11-time-off", "v12-escalation", "v13-identity", "v14-provisioning",
        "v15-login-refresh", "v16-push",
    ]

    /// v16: push to phones (docs/PUSH.md). A person's push subscription is a webhook row bound
    /// to them (`person_id`), so it shares the outbox's durability, order and retries; a Web
    /// Push subscription's public key is in `push_key`, its `auth` secret sealed in `secret`.
    /// People's settings and the tenant's VAPID key are kept whole, as rules are. The same SQL
    /// in SQLite and PostgreSQL.
    public static let pushSQL = """
        ALTER TABLE webhook ADD COLUMN person_id TEXT NOT NULL DEFAULT '';
        ALTER TABLE webhook ADD COLUMN push_key TEXT NOT NULL DEFAULT '';
        ALTER TABLE webhook ADD COLUMN label TEXT NOT NULL DEFAULT '';
        CREATE INDEX webhook_by_person ON webhook(tenant_id, person_id);
        CREATE TABLE push_setting (
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            rule TEXT NOT NULL,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE TABLE push_key (
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            rule TEXT NOT NULL,
            PRIMARY KEY (tenant_id, id)
        )
        """

    /// v12: escalation policies and services (docs/ESCALATION.md), each whole as its protobuf
    /// message's JSON (`kind` is "policy" or "service"), as schedules are kept whole. The same
    /// SQL in SQLite and PostgreSQL.
    public static let escalationSQL = """
        CREATE TABLE escalation_record (
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            id TEXT NOT NULL,
            definition TEXT NOT NULL,
            PRIMARY KEY (tenant_id, kind, id)
        );
        """

    /// v11: people's time off (`TimeOff`) and the tenant's holiday calendars (`HolidaySet`, days
    /// comma-separated). The same SQL in SQLite and PostgreSQL; time off goes with its person
    /// (the change that deletes them deletes it first).
    public static let timeOffSQL = """
        CREATE TABLE time_off (
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            start_ms BIGINT NOT NULL,
            end_ms BIGINT NOT NULL,
            reason TEXT NOT NULL,
            source TEXT NOT NULL,
            author TEXT NOT NULL,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE TABLE holiday_calendar (
            tenant_id TEXT NOT NULL,
            name TEXT NOT NULL,
            days TEXT NOT NULL,
            PRIMARY KEY (tenant_id, name)
        );
        """

    /// v10: chat (docs/CHAT.md). The same SQL in SQLite and PostgreSQL: a person's chat handles
    /// (JSON, platform to handle), a webhook's format, an event meant for one webhook only (an
    /// announcement), announcement rules, and the slash commands' secrets (sealed).
    public static let chatSQL = """
        ALTER TABLE employee ADD COLUMN chat TEXT NOT NULL DEFAULT '';
        ALTER TABLE webhook ADD COLUMN format TEXT NOT NULL DEFAULT 'json';
        ALTER TABLE notice ADD COLUMN webhook_id TEXT;
        CREATE TABLE announce_rule (
            tenant_id TEXT NOT NULL,
            id TEXT NOT NULL,
            rule TEXT NOT NULL,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE TABLE chat_command (
            tenant_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            secret TEXT NOT NULL,
            PRIMARY KEY (tenant_id, platform)
        );
        """

    /// The employee table's `chat` column: the handles as a JSON object; "" for none.
    public static func chatColumn(_ handles: [String: String]) -> String {
        guard !handles.isEmpty else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(handles)) ?? Data(), as: UTF8.self)
    }

    public static func chatHandles(_ column: String) -> [String: String] {
        column.isEmpty ? [:] : (try? JSONDecoder().decode([String: String].self, from: Data(column.utf8))) ?? [:]
    }

    /// v9: the duty record (`DutyRecord`): stretches as they were, and each schedule's mark.
    /// The same SQL in SQLite and PostgreSQL. No foreign key: the record outlives a deleted
    /// schedule.
    public static let dutyRecordSQL = """
        CREATE TABLE duty_record (
            tenant_id TEXT NOT NULL,
            schedule_id TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            start_ms BIGINT NOT NULL,
            end_ms BIGINT NOT NULL,
            kind TEXT NOT NULL,
            replacing TEXT NOT NULL
        );
        CREATE INDEX duty_record_by_time ON duty_record(tenant_id, start_ms);
        CREATE INDEX duty_record_by_end ON duty_record(tenant_id, schedule_id, employee_id, end_ms);
        CREATE TABLE duty_record_mark (
            tenant_id TEXT NOT NULL,
            schedule_id TEXT NOT NULL,
            since_ms BIGINT NOT NULL,
            until_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant_id, schedule_id)
        );
        """

    /// The applied versions this build does not know (a newer build migrated the store).
    public static func unknown(applied: [String]) -> [String] {
        applied.filter { !versions.contains($0) }.sorted()
    }
}
