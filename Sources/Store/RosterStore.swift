import RosterDomain
import RosterProtocol

/// A tenant as loaded from storage at start-up.
public struct StoredTenant: Sendable {
    public var state: RosterState
    public var epoch: UInt64
    public var revision: UInt64
    /// The retained change history, oldest first.
    public var history: [HistoryEntry]

    public init(state: RosterState, epoch: UInt64, revision: UInt64, history: [HistoryEntry]) {
        self.state = state
        self.epoch = epoch
        self.revision = revision
        self.history = history
    }
}

/// One committed revision: what changed and when.
public struct HistoryEntry: Sendable, Hashable {
    public var revision: UInt64
    public var committedAt: UnixMillis
    public var changes: [RosterChange]

    public init(revision: UInt64, committedAt: UnixMillis, changes: [RosterChange]) {
        self.revision = revision
        self.committedAt = committedAt
        self.changes = changes
    }
}

/// Durable storage of tenants, their data and their change history.
///
/// The server keeps every tenant's current state in memory and writes through this boundary;
/// nothing above it knows which database is underneath. `commit` must not return before the
/// transaction is durable: the server acknowledges an admin change only after it returns.
public protocol RosterStore: NotificationStore, IdentityStore {
    /// Every tenant with its state, revision, epoch and retained history.
    func loadTenants() async throws -> [StoredTenant]

    /// Creates an empty tenant at revision 0 with a fresh epoch.
    func createTenant(_ tenant: Tenant, epoch: UInt64) async throws

    /// Applies `entry.changes` to the tenant's tables, records the entry in the history, drops
    /// history older than the newest `historyLimit` revisions and appends `audit` to the audit
    /// log, and writes `outbox` (the notifications the change causes), in one durable
    /// transaction: an acknowledged change always has its audit entry and its notifications.
    /// Throws `StoreError.revisionConflict` unless the tenant is at `entry.revision - 1` in the
    /// store (another node committed first), changing nothing.
    /// `duty` (the duty record up to the change, `DutyRecord`) and `provisioning` (the SCIM
    /// resources a provisioning request changed) are written in the same transaction.
    func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?, outbox: OutboxWrite,
        duty: DutyRecordWrite, provisioning: ProvisioningWrite) async throws

    /// Each schedule's duty-record mark: from when to when the record holds it.
    func dutyRecordMarks(tenantID: String) async throws -> [String: DutyRecordMark]

    /// The recorded stretches overlapping [from, to), by start; at most `limit` (`truncated` then).
    func dutyRecord(tenantID: String, from: UnixMillis, to: UnixMillis, limit: Int) async throws
        -> (stretches: [RecordedStretch], truncated: Bool)

    /// Writes a recording round's stretches and marks if the tenant is still at `revision` (the
    /// definitions they were resolved from); false, writing nothing, if another change came first.
    /// Here and in `commit`, each stretch is cut at its schedule's stored mark first (what is
    /// recorded is never recorded twice), and one that continues a recorded stretch (same
    /// schedule, person, kind; starting where it ends) extends it.
    func recordDuty(tenantID: String, atRevision revision: UInt64, _ write: DutyRecordWrite) async throws -> Bool

    /// Appends an audit entry that belongs to no revision (an auth failure, a token created or
    /// revoked). The store assigns `id`.
    func appendAudit(tenantID: String, _ entry: Roster_V1_AuditEntry) async throws

    /// The tenant's audit entries at or after `since` that `matching` accepts, newest first, at
    /// most `limit`; `truncated` when more matched.
    func auditEntries(
        tenantID: String, since: UnixMillis, limit: Int,
        matching: @escaping @Sendable (Roster_V1_AuditEntry) -> Bool
    ) async throws
        -> (entries: [Roster_V1_AuditEntry], truncated: Bool)

    /// Deletes every tenant's audit entries older than `before` (the retention); returns how many.
    func pruneAudit(before: UnixMillis) async throws -> Int

    /// Deletes the tokens that expired or were revoked before `before` (every sign-in mints one:
    /// without this the table, which every node loads whole, would only grow); returns how many.
    func pruneTokens(before: UnixMillis) async throws -> Int

    /// Every access token, revoked ones included (so that revocation is seen by running servers).
    func loadTokens() async throws -> [StoredToken]

    func insertToken(_ token: StoredToken) async throws

    /// Marks a token revoked; false when there is no such token.
    func revokeToken(id: String, at: UnixMillis) async throws -> Bool

    /// The ids of every tenant, cheaply (for noticing tenants created while running).
    func tenantIDs() async throws -> [String]

    /// What a calendar feed ("schedule:ID", "person:ID") last published (`CalendarFeedState`).
    func calendarEvents(tenantID: String, feed: String) async throws -> [CalendarEvent]

    /// Stores the feed's new and changed events and forgets `forget`, in one transaction.
    func saveCalendarEvents(tenantID: String, feed: String, store events: [CalendarEvent], forget: [String])
        async throws

    /// The tenant's committed entries after `revision`, oldest first (a node catching up with
    /// changes another node committed). Empty when it holds none after it.
    func history(tenantID: String, after revision: UInt64) async throws -> [HistoryEntry]

    /// Every tenant's committed revision (a node comparing what it holds).
    func revisions() async throws -> [String: UInt64]

    /// What other nodes did, for a store that several nodes share; nil for one that only this
    /// process writes (SQLite). One stream per store, read by one reader.
    var signals: AsyncStream<StoreSignal>? { get }

    /// Throws unless the store takes writes now (for /readyz): takes the write lock and gives it back.
    func checkWritable() async throws

    /// Releases the database.
    func close() async throws
}

/// A change another node made, as a shared store announces it (PostgreSQL's NOTIFY).
public enum StoreSignal: Sendable, Equatable {
    case committed(tenant: String, revision: UInt64)
    case noticesPublished(tenant: String)
    /// The tenant's webhooks or reminder rules changed.
    case notificationSettingsChanged(tenant: String)
    /// Tokens or tenants changed.
    case accessChanged
    /// The store's listening connection was re-established: announcements may have been missed,
    /// so compare revisions.
    case resync
}

extension RosterStore {
    public var signals: AsyncStream<StoreSignal>? { nil }

    /// A commit with nothing to audit (tests, tools).
    public func commit(tenantID: String, entry: HistoryEntry, historyLimit: Int) async throws {
        try await commit(
            tenantID: tenantID, entry: entry, historyLimit: historyLimit, audit: nil, outbox: OutboxWrite(),
            duty: DutyRecordWrite())
    }

    /// A commit that records no duty.
    public func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
        outbox: OutboxWrite
    ) async throws {
        try await commit(
            tenantID: tenantID, entry: entry, historyLimit: historyLimit, audit: audit, outbox: outbox,
            duty: DutyRecordWrite())
    }

    /// A commit that writes no SCIM resource.
    public func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
        outbox: OutboxWrite, duty: DutyRecordWrite
    ) async throws {
        try await commit(
            tenantID: tenantID, entry: entry, historyLimit: historyLimit, audit: audit, outbox: outbox, duty: duty,
            provisioning: ProvisioningWrite())
    }
}
