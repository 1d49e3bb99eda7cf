import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// A store that hands every call to a real SQLite store; a test double conforms and replaces
/// only the calls it is about (a held commit, a refused write).
public protocol ForwardingStore: RosterStore {
    var inner: SQLiteRosterStore { get }
}

extension ForwardingStore {
    public func loadTenants() async throws -> [StoredTenant] { try await inner.loadTenants() }
    public func createTenant(_ tenant: Tenant, epoch: UInt64) async throws {
        try await inner.createTenant(tenant, epoch: epoch)
    }
    public func commit(
        tenantID: String, entry: HistoryEntry, historyLimit: Int, audit: Roster_V1_AuditEntry?,
        outbox: OutboxWrite, duty: DutyRecordWrite, provisioning: ProvisioningWrite
    ) async throws {
        try await inner.commit(
            tenantID: tenantID, entry: entry, historyLimit: historyLimit, audit: audit, outbox: outbox, duty: duty,
            provisioning: provisioning)
    }
    public func dutyRecordMarks(tenantID: String) async throws -> [String: DutyRecordMark] {
        try await inner.dutyRecordMarks(tenantID: tenantID)
    }
    public func dutyRecord(tenantID: String, from: UnixMillis, to: UnixMillis, limit: Int) async throws
        -> (stretches: [RecordedStretch], truncated: Bool)
    {
        try await inner.dutyRecord(tenantID: tenantID, from: from, to: to, limit: limit)
    }
    public func recordDuty(tenantID: String, atRevision revision: UInt64, _ write: DutyRecordWrite) async throws -> Bool
    {
        try await inner.recordDuty(tenantID: tenantID, atRevision: revision, write)
    }
    public func appendAudit(tenantID: String, _ entry: Roster_V1_AuditEntry) async throws {
        try await inner.appendAudit(tenantID: tenantID, entry)
    }
    public func auditEntries(
        tenantID: String, since: UnixMillis, limit: Int,
        matching: @escaping @Sendable (Roster_V1_AuditEntry) -> Bool
    ) async throws
        -> (entries: [Roster_V1_AuditEntry], truncated: Bool)
    {
        try await inner.auditEntries(tenantID: tenantID, since: since, limit: limit, matching: matching)
    }
    public func pruneAudit(before: UnixMillis) async throws -> Int { try await inner.pruneAudit(before: before) }
    public func pruneTokens(before: UnixMillis) async throws -> Int { try await inner.pruneTokens(before: before) }
    public func checkWritable() async throws { try await inner.checkWritable() }
    public func calendarEvents(tenantID: String, feed: String) async throws -> [CalendarEvent] {
        try await inner.calendarEvents(tenantID: tenantID, feed: feed)
    }
    public func saveCalendarEvents(tenantID: String, feed: String, store events: [CalendarEvent], forget: [String])
        async throws
    {
        try await inner.saveCalendarEvents(tenantID: tenantID, feed: feed, store: events, forget: forget)
    }
    public func loadTokens() async throws -> [StoredToken] { try await inner.loadTokens() }
    public func insertToken(_ token: StoredToken) async throws { try await inner.insertToken(token) }
    public func revokeToken(id: String, at: UnixMillis) async throws -> Bool {
        try await inner.revokeToken(id: id, at: at)
    }
    public func tenantIDs() async throws -> [String] { try await inner.tenantIDs() }
    public func singleSignOn(tenantID: String) async throws -> StoredSingleSignOn? {
        try await inner.singleSignOn(tenantID: tenantID)
    }
    public func setSingleSignOn(tenantID: String, _ value: StoredSingleSignOn?) async throws {
        try await inner.setSingleSignOn(tenantID: tenantID, value)
    }
    public func identityLink(tenantID: String, issuer: String, subject: String) async throws -> String? {
        try await inner.identityLink(tenantID: tenantID, issuer: issuer, subject: subject)
    }
    public func linkIdentity(tenantID: String, issuer: String, subject: String, employeeID: String, at: UnixMillis)
        async throws
    {
        try await inner.linkIdentity(
            tenantID: tenantID, issuer: issuer, subject: subject, employeeID: employeeID, at: at)
    }
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind) async throws -> [ProvisionedResource] {
        try await inner.provisioned(tenantID: tenantID, kind: kind)
    }
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, id: String) async throws
        -> ProvisionedResource?
    {
        try await inner.provisioned(tenantID: tenantID, kind: kind, id: id)
    }
    public func provisioned(tenantID: String, kind: ProvisionedResource.Kind, nameKey: String) async throws
        -> ProvisionedResource?
    {
        try await inner.provisioned(tenantID: tenantID, kind: kind, nameKey: nameKey)
    }
    public func writeProvisioning(tenantID: String, _ write: ProvisioningWrite) async throws {
        try await inner.writeProvisioning(tenantID: tenantID, write)
    }
    public func provisioningToken(id: String) async throws -> ProvisioningToken? {
        try await inner.provisioningToken(id: id)
    }
    public func provisioningTokens(tenantID: String) async throws -> [ProvisioningToken] {
        try await inner.provisioningTokens(tenantID: tenantID)
    }
    public func insertProvisioningToken(_ token: ProvisioningToken) async throws {
        try await inner.insertProvisioningToken(token)
    }
    public func revokeProvisioningToken(tenantID: String, id: String, at: UnixMillis) async throws -> Bool {
        try await inner.revokeProvisioningToken(tenantID: tenantID, id: id, at: at)
    }
    public func loginRefresh(id: String) async throws -> LoginRefresh? { try await inner.loginRefresh(id: id) }
    public func insertLoginRefresh(_ refresh: LoginRefresh) async throws { try await inner.insertLoginRefresh(refresh) }
    public func rotateLoginRefresh(
        id: String, expectedHash: String, newHash: String, accessTokenID: String, expiresAt: UnixMillis
    ) async throws -> Bool {
        try await inner.rotateLoginRefresh(
            id: id, expectedHash: expectedHash, newHash: newHash, accessTokenID: accessTokenID, expiresAt: expiresAt)
    }
    public func revokeLoginRefresh(id: String, at: UnixMillis) async throws -> Bool {
        try await inner.revokeLoginRefresh(id: id, at: at)
    }
    public func history(tenantID: String, after revision: UInt64) async throws -> [HistoryEntry] {
        try await inner.history(tenantID: tenantID, after: revision)
    }
    public func revisions() async throws -> [String: UInt64] { try await inner.revisions() }
    public var signals: AsyncStream<StoreSignal>? { inner.signals }
    public func close() async throws { try await inner.close() }

    public func settingsMark(tenantID: String) async throws -> String? {
        try await inner.settingsMark(tenantID: tenantID)
    }
    public func webhooks(tenantID: String?, now: UnixMillis) async throws -> [StoredWebhook] {
        try await inner.webhooks(tenantID: tenantID, now: now)
    }
    public func pushSubscriptions(tenantID: String, personID: String, now: UnixMillis) async throws
        -> [StoredWebhook]
    {
        try await inner.pushSubscriptions(tenantID: tenantID, personID: personID, now: now)
    }
    public func insertWebhook(_ webhook: StoredWebhook) async throws { try await inner.insertWebhook(webhook) }
    public func replaceWebhookSecret(tenantID: String, id: String, secret: String) async throws {
        try await inner.replaceWebhookSecret(tenantID: tenantID, id: id, secret: secret)
    }

    public func removeWebhook(tenantID: String, id: String) async throws -> Bool {
        try await inner.removeWebhook(tenantID: tenantID, id: id)
    }
    public func rules<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String) async throws -> [Rule] {
        try await inner.rules(kind, tenantID: tenantID)
    }
    public func insertRule<Rule: NotificationRule>(_ rule: Rule, tenantID: String) async throws {
        try await inner.insertRule(rule, tenantID: tenantID)
    }
    public func removeRule<Rule: NotificationRule>(_ kind: Rule.Type, tenantID: String, id: String) async throws -> Bool
    {
        try await inner.removeRule(kind, tenantID: tenantID, id: id)
    }
    public func chatCommandSecret(tenantID: String, platform: String) async throws -> String? {
        try await inner.chatCommandSecret(tenantID: tenantID, platform: platform)
    }
    public func setChatCommandSecret(tenantID: String, platform: String, secret: String?) async throws {
        try await inner.setChatCommandSecret(tenantID: tenantID, platform: platform, secret: secret)
    }
    public func chatCommandPlatforms(tenantID: String) async throws -> [String] {
        try await inner.chatCommandPlatforms(tenantID: tenantID)
    }
    public func laterAnnouncement(after head: DueDelivery, within window: UnixMillis) async throws -> Bool {
        try await inner.laterAnnouncement(after: head, within: window)
    }
    public func plannedThrough(tenantID: String) async throws -> UnixMillis? {
        try await inner.plannedThrough(tenantID: tenantID)
    }
    public func writeOutbox(tenantID: String, _ write: OutboxWrite) async throws {
        try await inner.writeOutbox(tenantID: tenantID, write)
    }
    public func enqueue(_ event: NotificationEvent, forWebhook webhookID: String) async throws {
        try await inner.enqueue(event, forWebhook: webhookID)
    }
    public func deliveryHeads(now: UnixMillis, excluding busy: Set<String>) async throws -> (
        heads: [DueDelivery], nextDue: UnixMillis?
    ) {
        try await inner.deliveryHeads(now: now, excluding: busy)
    }
    public func recordAttempt(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome) async throws {
        try await inner.recordAttempt(attempt, outcome: outcome)
    }
    public func recordAttempts(_ attempts: [(DeliveryAttempt, DeliveryOutcome)]) async throws -> Set<String> {
        try await inner.recordAttempts(attempts)
    }
    public func deliveryAttempts(tenantID: String, webhookID: String?, limit: Int) async throws -> [DeliveryAttempt] {
        try await inner.deliveryAttempts(tenantID: tenantID, webhookID: webhookID, limit: limit)
    }
    public func notices(tenantID: String) async throws -> [NotificationEvent] {
        try await inner.notices(tenantID: tenantID)
    }
    public func publishDue(now: UnixMillis) async throws -> (
        published: [String: [PublishedNotice]], nextDue: UnixMillis?
    ) {
        try await inner.publishDue(now: now)
    }
    public func publishedNotices(tenantID: String, limit: Int) async throws -> [PublishedNotice] {
        try await inner.publishedNotices(tenantID: tenantID, limit: limit)
    }
    public func pruneNotices(before: UnixMillis) async throws -> Int { try await inner.pruneNotices(before: before) }
}
