import Foundation
import RosterDomain
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// What `roster-server token ...` and `roster-server tenant ...` do, on the data directory's
/// store. A running server picks the changes up within `tokenRefresh`.
public struct StoreAdministration: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case noSuchTenant(String)
        case tenantExists(String)
        case noSuchToken(String)
        case invalid(String)

        public var description: String {
            switch self {
            case .noSuchTenant(let id):
                return "no tenant \"\(id)\" (create it with `roster-server tenant create \(id)`)"
            case .tenantExists(let id): return "tenant \"\(id)\" already exists"
            case .noSuchToken(let id): return "no token \"\(id)\" (see `roster-server token list`)"
            case .invalid(let why): return why
            }
        }
    }

    private let store: any RosterStore

    public init(store: any RosterStore) { self.store = store }

    /// Opens the SQLite store of a data directory a server has run on; creates nothing.
    public static func open(dataDirectory: String) async throws -> StoreAdministration {
        StoreAdministration(store: try await DataDirectory(dataDirectory).openExistingStore())
    }

    /// Returns the token's text, which is shown only this once.
    /// `employee` (an id or full name in the tenant) says who holds the token.
    public func createToken(
        tenant: String, role: AccessRole, expiresIn: Duration?, label: String = "", employee: String? = nil,
        now: UnixMillis = UnixMillis(Date().timeIntervalSince1970 * 1000)
    ) async throws -> (text: String, token: StoredToken) {
        guard try await store.tenantIDs().contains(tenant) else { throw Failure.noSuchTenant(tenant) }
        var employeeID: String?
        if let employee {
            let state = try await store.loadTenants().first { $0.state.tenant.id == tenant }?.state
            guard let found = state?.employee(idOrName: employee) else {
                let close = state?.suggestions(for: employee) ?? []
                throw Failure.invalid(
                    "tenant \(tenant) has no employee \"\(employee)\" (an id or full name)"
                        + (close.isEmpty ? "" : "; did you mean \(close.map { "\"\($0)\"" }.joined(separator: ", "))?"))
            }
            employeeID = found.id
        }
        let expiresAt = expiresIn.map { now + UnixMillis($0.components.seconds * 1000) }
        let issued = AccessToken.issue(
            tenantID: tenant, role: role, label: label, now: now, expiresAt: expiresAt, employeeID: employeeID)
        try await store.insertToken(issued.stored)
        try await store.appendAudit(
            tenantID: tenant, AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now))
        return (issued.text, issued.stored)
    }

    /// A calendar token: it opens the iCalendar feed of one schedule or one person (id or name)
    /// and nothing else. Returns the token's text, shown once; the feed is
    /// `http(s)://HOST:HTTP_PORT/v1/calendar/TEXT.ics`.
    public func createCalendarToken(
        tenant: String, schedule: String?, person: String?, expiresIn: Duration?, label: String = "",
        now: UnixMillis = UnixMillis(Date().timeIntervalSince1970 * 1000)
    ) async throws
        -> (text: String, token: StoredToken)
    {
        guard (schedule == nil) != (person == nil) else {
            throw Failure.invalid("a calendar is one schedule's or one person's: give one")
        }
        guard let state = try await store.loadTenants().first(where: { $0.state.tenant.id == tenant })?.state else {
            throw Failure.noSuchTenant(tenant)
        }
        let scope: String
        if let schedule {
            guard let found = state.schedule(idOrName: schedule) else {
                throw Failure.invalid("tenant \(tenant) has no schedule \"\(schedule)\" (an id or name)")
            }
            scope = "schedule:" + found.id
        } else {
            guard let found = state.employee(idOrName: person!) else {
                throw Failure.invalid("tenant \(tenant) has no employee \"\(person!)\" (an id or full name)")
            }
            scope = "person:" + found.id
        }
        let expiresAt = expiresIn.map { now + UnixMillis($0.components.seconds * 1000) }
        let issued = AccessToken.issue(
            tenantID: tenant, role: .calendar, label: label, now: now, expiresAt: expiresAt, scope: scope)
        try await store.insertToken(issued.stored)
        try await store.appendAudit(
            tenantID: tenant, AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now))
        return (issued.text, issued.stored)
    }

    public func tokens() async throws -> [StoredToken] { try await store.loadTokens() }

    /// The full name of each person a token names, per tenant then employee id (for `token list`).
    public func tokenHolders(_ tokens: [StoredToken]) async throws -> [String: [String: String]] {
        let wanted = Set(tokens.compactMap(\.employeeID))
        guard !wanted.isEmpty else { return [:] }
        var names: [String: [String: String]] = [:]
        for stored in try await store.loadTenants() {
            for id in wanted {
                if let person = stored.state.employees[id] {
                    names[stored.state.tenant.id, default: [:]][id] = person.fullName
                }
            }
        }
        return names
    }

    /// One line of `roster-server status` per tenant.
    public struct TenantStatus: Sendable {
        public var id: String
        public var revision: UInt64
        public var epoch: UInt64
        public var employees: Int
        public var schedules: Int
        public var shifts: Int
    }

    public func tenantStatus() async throws -> [TenantStatus] {
        try await store.loadTenants().map { stored in
            TenantStatus(
                id: stored.state.tenant.id, revision: stored.revision, epoch: stored.epoch,
                employees: stored.state.employees.count, schedules: stored.state.schedules.count,
                shifts: stored.state.shifts.count)
        }
    }

    public func revokeToken(_ id: String, now: UnixMillis = UnixMillis(Date().timeIntervalSince1970 * 1000))
        async throws
    {
        let bare = id.hasPrefix(AccessToken.prefix) ? (AccessToken.parse(id)?.id ?? id) : id
        guard try await store.revokeToken(id: bare, at: now) else { throw Failure.noSuchToken(id) }
        if let token = try await store.loadTokens().first(where: { $0.id == bare }) {
            try await store.appendAudit(
                tenantID: token.tenantID, AuditLog.token(AuditLog.Kind.tokenRevoked, token, at: now))
        }
    }

    public func createTenant(id: String, name: String) async throws {
        guard Tenant.isValidID(id) else { throw Failure.invalid("\(Tenant.idRule) (got \"\(id)\")") }
        guard !ControlCharacters.contains(in: name) else {
            throw Failure.invalid("a tenant name may not contain control characters")
        }
        guard try await !store.tenantIDs().contains(id) else { throw Failure.tenantExists(id) }
        try await store.createTenant(
            Tenant(id: id, name: name.isEmpty ? id : name), epoch: UInt64.random(in: 1...UInt64.max))
    }

    public func tenantIDs() async throws -> [String] { try await store.tenantIDs() }

    public func close() async { try? await store.close() }

    /// "30d", "12h", "90m", "45s": how long a token lasts (`DurationText`).
    public static func parseDuration(_ text: String) -> Duration? {
        DurationText.parse(text)
    }
}
