// The checks record failures with Swift Testing. A static release build of the whole package
// (scripts/release) has no Testing module: there this target compiles empty.
#if canImport(Testing)
    import Foundation
    import RosterDomain
    import RosterProtocol
    import RosterStore
    import Testing

    /// What every `RosterStore` must do, as checks a store's own tests run against two handles of one
    /// fresh store (as two nodes would hold, or two processes on one SQLite file). RosterServerTests
    /// runs them on SQLite and on PostgreSQL; a new store runs them the same way:
    ///
    ///     @Test(arguments: StoreConformance.checks)
    ///     func conforms(_ check: StoreConformance.Check) async throws {
    ///         let (store, other) = try await openTwoHandlesOfAFreshStore()
    ///         try await check.run(store, other, StoreConformance.Traits(deliveryLease: 120_000))
    ///     }
    public enum StoreConformance {
        /// What a store does that the protocol leaves to it.
        public struct Traits: Sendable {
            /// How long a delivery handed to one handle is withheld from the others (a node's lease);
            /// nil when the store serves one process, which never asks again for a head it is sending.
            public var deliveryLease: UnixMillis?

            public init(deliveryLease: UnixMillis?) { self.deliveryLease = deliveryLease }
        }

        /// One check: `run` gets the two handles and the store's traits, and records its failures
        /// with `#expect`.
        public struct Check: Sendable, CustomTestStringConvertible {
            public let name: String
            public let run:
                @Sendable (_ store: any RosterStore, _ other: any RosterStore, _ traits: Traits) async throws -> Void

            init(
                _ name: String,
                _ run:
                    @escaping @Sendable (_ store: any RosterStore, _ other: any RosterStore, _ traits: Traits)
                    async throws -> Void
            ) {
                (self.name, self.run) = (name, run)
            }

            public var testDescription: String { name }
        }

        public static let checks: [Check] = [
            Check("a committed plan loads back with its history") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 42)
                let schedule = ScheduleDefinition(id: "sch_1", name: "Primary", zone: "Europe/Berlin")
                let shift = Shift(
                    id: "s1", employeeID: "e1", start: 1_000, end: 5_000, role: "primary", scheduleID: "sch_1")
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 1, committedAt: 10,
                        changes: [
                            .employeeUpserted(StoreConformance.alice), .scheduleUpserted(schedule), .shiftAdded(shift),
                            .motdSet("hello"),
                        ]), historyLimit: 100)
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 2, committedAt: 20,
                        changes: [
                            .shiftAdded(Shift(id: "s2", employeeID: "e1", start: 6_000, end: 7_000))
                        ]), historyLimit: 100)

                // The other handle (another node) sees every committed row.
                let loaded = try #require(try await other.loadTenants().first)
                #expect(loaded.epoch == 42 && loaded.revision == 2)
                #expect(loaded.state.tenant == Tenant(id: "acme", name: "Acme", motd: "hello"))
                #expect(loaded.state.employees["e1"] == StoreConformance.alice)
                #expect(loaded.state.shifts["s1"] == shift)
                #expect(loaded.state.shifts["s2"]?.end == 7_000)
                #expect(loaded.state.schedules["sch_1"]?.name == "Primary")
                #expect(loaded.history.map(\.revision) == [1, 2])
                #expect(try await other.history(tenantID: "acme", after: 1).map(\.revision) == [2])
                #expect(try await other.history(tenantID: "acme", after: 2).isEmpty)
                #expect(try await other.revisions() == ["acme": 2])
                #expect(try await other.tenantIDs() == ["acme"])

                // Deleting the employee takes their shifts; the history keeps only the newest `historyLimit`.
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(revision: 3, committedAt: 30, changes: [.employeeDeleted(id: "e1")]),
                    historyLimit: 2)
                let after = try #require(try await other.loadTenants().first)
                #expect(after.state.employees.isEmpty && after.state.shifts.count == 0)
                #expect(after.history.map(\.revision) == [2, 3])
            },
            Check("time off, holidays and temporary schedules load back; time off goes with its person") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 7)
                let away = TimeOff(
                    id: "off_1", employeeID: "e1", start: 1_000, end: 90_000, reason: "holiday",
                    source: "ics:uid-1@example.org",
                    author: "tok_admin")
                var schedule = ScheduleDefinition(
                    id: "sch_1", name: "Primary", zone: "Europe/Berlin",
                    layers: [
                        ScheduleLayer(
                            level: 0,
                            rotations: [
                                Rotation(
                                    id: "r1", slots: [["e1"]], cadence: .weeks(1),
                                    handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9),
                                    onTimeOff: .skip)
                            ])
                    ])
                schedule.temporary = [
                    TemporarySchedule(
                        id: "tmp_1", start: 10_000, end: 20_000,
                        shifts: [.init(employeeID: "e1", start: 10_000, end: 20_000)], author: "tok_admin")
                ]
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 1, committedAt: 10,
                        changes: [
                            .employeeUpserted(StoreConformance.alice),
                            .holidaysSet(HolidaySet(name: "de-by", days: ["2026-12-25", "2026-12-24"])),
                            .scheduleUpserted(schedule), .timeOffSet(away),
                        ]), historyLimit: 100)
                let loaded = try #require(try await other.loadTenants().first)
                #expect(loaded.state.timeOff["off_1"] == away)
                #expect(loaded.state.holidays["de-by"]?.days == ["2026-12-24", "2026-12-25"])
                #expect(loaded.state.schedules["sch_1"]?.temporary == schedule.temporary)
                #expect(loaded.state.schedules["sch_1"]?.layers.first?.rotations.first?.onTimeOff == .skip)
                #expect(
                    loaded.history.first?.changes.contains(.timeOffSet(away)) == true,
                    "the history carries the time off")
                // Changed in place, then its person deleted: it goes with them.
                var moved = away
                moved.end = 95_000
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 2, committedAt: 20, changes: [.timeOffSet(moved)]),
                    historyLimit: 100)
                #expect(try await other.loadTenants().first?.state.timeOff["off_1"]?.end == 95_000)
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 3, committedAt: 30,
                        changes: [
                            .timeOffDeleted(id: "off_1"), .employeeDeleted(id: "e1"), .holidaysDeleted(name: "de-by"),
                        ]), historyLimit: 100)
                let emptied = try await other.loadTenants().first?.state
                #expect(emptied?.timeOff.isEmpty == true && emptied?.holidays.isEmpty == true)
            },
            Check("escalation policies and services load back whole and go when deleted") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                let schedule = ScheduleDefinition(id: "sch_1", name: "Primary", zone: "Europe/Berlin")
                let policy = EscalationPolicy(
                    id: "pol_1", name: "Payments", team: "Core", description: "Pages the payments people",
                    repeatCount: 2,
                    steps: [
                        EscalationStep(delayMinutes: 15, targets: [.schedule("sch_1"), .team("Core")]),
                        EscalationStep(delayMinutes: 30, targets: [.person("e1")], strategy: .roundRobin),
                    ])
                let service = PagingService(
                    id: "svc_1", name: "Payments API", policyID: "pol_1", team: "Core",
                    links: [.init(title: "Runbook", url: "https://runbooks.example/payments")])
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 1, committedAt: 10,
                        changes: [
                            .employeeUpserted(StoreConformance.alice), .scheduleUpserted(schedule),
                            .escalationPolicySet(policy), .serviceSet(service),
                        ]), historyLimit: 100)
                let loaded = try #require(try await other.loadTenants().first)
                #expect(loaded.state.escalation.policies["pol_1"] == policy)
                #expect(loaded.state.escalation.services["svc_1"] == service)
                #expect(loaded.state.escalation.service(idOrName: "payments api")?.id == "svc_1")
                #expect(loaded.history.first?.changes.contains(.escalationPolicySet(policy)) == true)
                var shorter = policy
                shorter.steps.removeLast()
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(
                        revision: 2, committedAt: 20,
                        changes: [.escalationPolicySet(shorter), .serviceDeleted(id: "svc_1")]),
                    historyLimit: 100)
                let changed = try #require(try await other.loadTenants().first).state.escalation
                #expect(changed.policies["pol_1"]?.steps.count == 1 && changed.services.isEmpty)
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(revision: 3, committedAt: 30, changes: [.escalationPolicyDeleted(id: "pol_1")]),
                    historyLimit: 100)
                #expect(try await other.loadTenants().first?.state.escalation.policies.isEmpty == true)
            },
            Check("sign-in settings and identity links are kept per tenant and replaced whole") {
                store, other, traits in
                #expect(try await other.singleSignOn(tenantID: "acme") == nil)
                let first = StoredSingleSignOn(
                    settings: "{\"issuer\":\"https://a\"}", clientSecret: "sealed:v1:x", updatedAt: 5)
                try await store.setSingleSignOn(tenantID: "acme", first)
                #expect(try await other.singleSignOn(tenantID: "acme") == first)
                #expect(try await other.singleSignOn(tenantID: "other") == nil)
                let second = StoredSingleSignOn(
                    settings: "{\"issuer\":\"https://b\"}", clientSecret: "sealed:v1:y", updatedAt: 9)
                try await other.setSingleSignOn(tenantID: "acme", second)
                #expect(try await store.singleSignOn(tenantID: "acme") == second)
                try await store.setSingleSignOn(tenantID: "acme", nil)
                #expect(try await other.singleSignOn(tenantID: "acme") == nil)

                // A person is found by (tenant, issuer, subject): another issuer's same subject is
                // someone else, as is the same pair in another tenant.
                try await store.linkIdentity(
                    tenantID: "acme", issuer: "https://a", subject: "u1", employeeID: "e1", at: 1)
                #expect(try await other.identityLink(tenantID: "acme", issuer: "https://a", subject: "u1") == "e1")
                #expect(try await other.identityLink(tenantID: "acme", issuer: "https://b", subject: "u1") == nil)
                #expect(try await other.identityLink(tenantID: "other", issuer: "https://a", subject: "u1") == nil)
                try await other.linkIdentity(
                    tenantID: "acme", issuer: "https://a", subject: "u1", employeeID: "e2", at: 2)
                #expect(try await store.identityLink(tenantID: "acme", issuer: "https://a", subject: "u1") == "e2")
            },
            Check("SCIM resources go with their revision, names stay unique, deactivation loads back") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                func user(_ id: String, _ name: String, at: UnixMillis) -> ProvisionedResource {
                    ProvisionedResource(
                        kind: .user, id: id, name: name, body: "{\"userName\":\"\(name)\"}", createdAt: 1, updatedAt: at
                    )
                }
                var gone = StoreConformance.alice
                gone.deactivated = true
                try await store.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(revision: 1, committedAt: 10, changes: [.employeeUpserted(gone)]),
                    historyLimit: 100, audit: nil, outbox: OutboxWrite(), duty: DutyRecordWrite(),
                    provisioning: ProvisioningWrite(put: [user(StoreConformance.alice.id, "alice", at: 10)]))
                #expect(
                    try await other.loadTenants().first?.state.employees[StoreConformance.alice.id]?.deactivated == true
                )
                #expect(try await other.provisioned(tenantID: "acme", kind: .user).map(\.name) == ["alice"])
                #expect(try await other.provisioned(tenantID: "acme", kind: .group).isEmpty)
                // The same name in another case is refused; a name given up and taken in one write is not.
                await #expect(throws: (any Error).self) {
                    try await other.writeProvisioning(
                        tenantID: "acme", ProvisioningWrite(put: [user("e9", "ALICE", at: 11)]))
                }
                try await other.writeProvisioning(
                    tenantID: "acme",
                    ProvisioningWrite(put: [user("e9", "ALICE", at: 12)], removed: [(.user, StoreConformance.alice.id)])
                )
                #expect(try await store.provisioned(tenantID: "acme", kind: .user).map(\.id) == ["e9"])
                #expect(try await other.provisioned(tenantID: "acme", kind: .user, nameKey: "alice")?.id == "e9")
                #expect(try await other.provisioned(tenantID: "acme", kind: .group, nameKey: "alice") == nil)
                #expect(try await other.provisioned(tenantID: "acme", kind: .user, id: "e9")?.name == "ALICE")
                #expect(try await other.provisioned(tenantID: "other", kind: .user, id: "e9") == nil)
                #expect(
                    try await other.provisioned(tenantID: "acme", kind: .user, ids: ["e9", "nobody"]).keys.sorted() == [
                        "e9"
                    ])
                // A refused commit writes none of its resources.
                await #expect(throws: (any Error).self) {
                    try await store.commit(
                        tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 20, changes: [.motdSet("x")]),
                        historyLimit: 100, audit: nil, outbox: OutboxWrite(), duty: DutyRecordWrite(),
                        provisioning: ProvisioningWrite(put: [user("e10", "bob", at: 20)]))
                }
                #expect(try await other.provisioned(tenantID: "acme", kind: .user).map(\.id) == ["e9"])

                let token = ProvisioningToken(id: "p1", tenantID: "acme", secretHash: "ab", label: "okta", createdAt: 5)
                try await store.insertProvisioningToken(token)
                #expect(try await other.provisioningToken(id: "p1") == token)
                #expect(try await other.revokeProvisioningToken(tenantID: "other", id: "p1", at: 6) == false)
                #expect(try await other.revokeProvisioningToken(tenantID: "acme", id: "p1", at: 6))
                #expect(try await store.revokeProvisioningToken(tenantID: "acme", id: "p1", at: 7) == false)
                #expect(try await store.provisioningTokens(tenantID: "acme").map(\.revokedAt) == [6])
            },
            Check("tokens that ended before a cutoff are pruned, the rest kept") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                func token(_ id: String, expires: UnixMillis? = nil, revoked: UnixMillis? = nil) -> StoredToken {
                    StoredToken(
                        id: id, tenantID: "acme", role: .reader, secretHash: [1, 2], createdAt: 0, expiresAt: expires,
                        revokedAt: revoked)
                }
                for made in [
                    token("forever"), token("expired-long-ago", expires: 10), token("revoked-long-ago", revoked: 20),
                    token("expires-later", expires: 1_000), token("revoked-lately", revoked: 900),
                ] {
                    try await store.insertToken(made)
                }
                #expect(try await other.pruneTokens(before: 500) == 2)
                #expect(
                    Set(try await store.loadTokens().map(\.id)) == ["forever", "expires-later", "revoked-lately"])
            },
            Check("a login's refresh secret turns over once per expected secret and goes when it ends") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                let login = LoginRefresh(
                    id: "l1", tenantID: "acme", employeeID: "emp_1", role: .reader, secretHash: "s1",
                    accessTokenID: "t1", createdAt: 10, expiresAt: 1_000)
                try await store.insertLoginRefresh(login)
                #expect(try await other.loginRefresh(id: "l1") == login)
                #expect(try await other.loginRefresh(id: "nobody") == nil)
                // Of two renewals with one secret, one wins.
                #expect(
                    try await store.rotateLoginRefresh(
                        id: "l1", expectedHash: "s1", newHash: "s2", accessTokenID: "t2", expiresAt: 2_000))
                #expect(
                    try await other.rotateLoginRefresh(
                        id: "l1", expectedHash: "s1", newHash: "s3", accessTokenID: "t3", expiresAt: 3_000) == false)
                var turned = login
                (turned.secretHash, turned.previousHash, turned.accessTokenID, turned.expiresAt) = (
                    "s2", "s1", "t2", 2_000
                )
                #expect(try await other.loginRefresh(id: "l1") == turned)
                #expect(try await other.revokeLoginRefresh(id: "l1", at: 50))
                #expect(try await store.revokeLoginRefresh(id: "l1", at: 60) == false, "revoked once")
                #expect(
                    try await store.rotateLoginRefresh(
                        id: "l1", expectedHash: "s2", newHash: "s4", accessTokenID: "t4", expiresAt: 4_000) == false,
                    "an ended login does not turn over")
                var lasting = login
                (lasting.id, lasting.expiresAt) = ("l2", 5_000)
                try await store.insertLoginRefresh(lasting)
                _ = try await other.pruneTokens(before: 100)
                #expect(try await store.loginRefresh(id: "l1") == nil, "ended before the cutoff: gone")
                #expect(try await store.loginRefresh(id: "l2") == lasting)
            },
            Check("a commit at a stale revision is refused and changes nothing") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 1, changes: [.motdSet("first")]),
                    historyLimit: 100)
                // The other node still believes the tenant is at 0.
                await #expect(throws: StoreError.revisionConflict(tenant: "acme", stored: 1, expected: 0)) {
                    try await other.commit(
                        tenantID: "acme",
                        entry: HistoryEntry(revision: 1, committedAt: 2, changes: [.motdSet("second")]),
                        historyLimit: 100)
                }
                let loaded = try #require(try await store.loadTenants().first)
                #expect(loaded.state.tenant.motd == "first" && loaded.revision == 1 && loaded.history.count == 1)
                await #expect(throws: StoreError.noSuchTenant("nobody")) {
                    try await store.commit(
                        tenantID: "nobody", entry: HistoryEntry(revision: 1, committedAt: 2, changes: []),
                        historyLimit: 100)
                }
            },
            Check("concurrent commits from two handles give one gap free sequence") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                // Each writer commits 20 changes, retrying at the store's revision after a conflict.
                @Sendable func writer(_ handle: any RosterStore, _ name: String) async throws -> Int {
                    var conflicts = 0
                    var written = 0
                    while written < 20 {
                        let revision = try await handle.revisions()["acme"]! + 1
                        do {
                            try await handle.commit(
                                tenantID: "acme",
                                entry: HistoryEntry(
                                    revision: revision, committedAt: 1,
                                    changes: [.motdSet("\(name) \(written)")]),
                                historyLimit: 1_000)
                            written += 1
                        } catch StoreError.revisionConflict {
                            conflicts += 1
                        }
                    }
                    return conflicts
                }
                async let a = writer(store, "a")
                async let b = writer(other, "b")
                _ = try await (a, b)
                let loaded = try #require(try await store.loadTenants().first)
                #expect(loaded.revision == 40)
                #expect(loaded.history.map(\.revision) == Array(1...40))
                let texts = loaded.history.compactMap { entry -> String? in
                    if case .motdSet(let text) = entry.changes.first { return text }
                    return nil
                }
                #expect(texts.filter { $0.hasPrefix("a ") } == (0..<20).map { "a \($0)" })
                #expect(texts.filter { $0.hasPrefix("b ") } == (0..<20).map { "b \($0)" })
            },
            Check("tokens audit and calendar feeds round trip") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                let token = StoredToken(
                    id: "tok_1", tenantID: "acme", role: .admin, secretHash: Array(repeating: 7, count: 32),
                    label: "ops",
                    createdAt: 100, expiresAt: 9_000, employeeID: "e1", scope: "schedule:sch_1")
                try await store.insertToken(token)
                #expect(try await other.loadTokens() == [token])
                #expect(try await other.revokeToken(id: token.id, at: 200))
                #expect(try await store.loadTokens().first?.revokedAt == 200)
                #expect(try await store.revokeToken(id: "missing", at: 200) == false)

                for (at, kind) in [(Int64(10), "auth.failed"), (20, "change"), (30, "change")] {
                    try await store.appendAudit(
                        tenantID: "acme",
                        .with {
                            $0.atMs = at; $0.kind = kind
                        })
                }
                let changes = try await other.auditEntries(tenantID: "acme", since: 0, limit: 1) { $0.kind == "change" }
                #expect(changes.entries.map(\.atMs) == [30] && changes.truncated)
                #expect(changes.entries.first?.id ?? 0 > 0)
                #expect(try await store.pruneAudit(before: 25) == 2)
                #expect(
                    try await other.auditEntries(tenantID: "acme", since: 0, limit: 10) { _ in true }.entries.map(
                        \.atMs) == [30])

                let event = CalendarEvent(
                    uid: "u1", start: 1_000, end: 2_000, summary: "On call", sequence: 1, lastModified: 5)
                try await store.saveCalendarEvents(tenantID: "acme", feed: "schedule:sch_1", store: [event], forget: [])
                var changed = event
                changed.sequence = 2
                try await store.saveCalendarEvents(
                    tenantID: "acme", feed: "schedule:sch_1", store: [changed], forget: [])
                #expect(try await other.calendarEvents(tenantID: "acme", feed: "schedule:sch_1") == [changed])
                try await store.saveCalendarEvents(tenantID: "acme", feed: "schedule:sch_1", store: [], forget: ["u1"])
                #expect(try await other.calendarEvents(tenantID: "acme", feed: "schedule:sch_1").isEmpty)
                try await store.checkWritable()
            },
            /// A head handed out counts as an attempt at once: when the process (or node) that took it
            /// dies before recording the outcome, the next try is attempt 2, not 1 again.
            Check("a delivery whose sender died is counted when tried again") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                try await store.insertWebhook(
                    StoredWebhook(
                        id: "wh_1", tenantID: "acme", url: "http://127.0.0.1:9/hook", secret: "s",
                        events: [], schedules: [], created: 0))
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 100, changes: [.motdSet("x")]),
                    historyLimit: 10, audit: nil,
                    outbox: OutboxWrite(events: [StoreConformance.event("evt_a", due: 100)]))
                let first = try await store.deliveryHeads(now: 200, excluding: [])
                #expect(first.heads.map(\.attempts) == [0], "the first try is attempt 1")
                // Its sender dies: nothing is recorded. Another process (after a PostgreSQL node's lease) tries again.
                let later: UnixMillis = 200 + (traits.deliveryLease ?? 0) + 100
                let again = try await other.deliveryHeads(now: later, excluding: [])
                #expect(again.heads.map(\.event.id) == ["evt_a"])
                #expect(again.heads.map(\.attempts) == [1], "the try that was lost is counted: this one is attempt 2")
                try await other.recordAttempt(
                    DeliveryAttempt(
                        webhookID: "wh_1", eventID: "evt_a", eventType: "on-duty.changed", attempt: 2,
                        at: later + 10, status: 500, error: "HTTP 500", durationMillis: 3),
                    outcome: .retry(at: later + 1_000))
                let retried = try await store.deliveryHeads(now: later + 1_000, excluding: [])
                #expect(retried.heads.map(\.attempts) == [2], "a recorded attempt is not counted twice")
            },
            /// A handoff due to many subscriptions: each head carries the event's people and payload
            /// (read once for all), and their outcomes are recorded in one batch, each as its own.
            Check("one event due to many webhooks is handed out whole and recorded in one batch") { store, other, _ in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                for index in 1...3 {
                    try await store.insertWebhook(
                        StoredWebhook(
                            id: "psh_\(index)", tenantID: "acme", url: "http://127.0.0.1:9/push/\(index)", secret: "s",
                            events: [], schedules: [], created: 0, format: .webPush,
                            personID: index == 3 ? "e2" : "e1", pushKey: "k"))
                }
                var handoff = StoreConformance.event("evt_h", due: 100)
                handoff.people = ["e1", "e2"]
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 100, changes: [.motdSet("x")]),
                    historyLimit: 10, audit: nil, outbox: OutboxWrite(events: [handoff]))
                let heads = try await other.deliveryHeads(now: 200, excluding: []).heads
                #expect(heads.map(\.webhook.id).sorted() == ["psh_1", "psh_2", "psh_3"])
                #expect(heads.allSatisfy { $0.event.people == ["e1", "e2"] && $0.event.payload == handoff.payload })
                let outcomes: [DeliveryOutcome] = [.delivered, .retry(at: 1_000), .remove]
                func attempt(_ webhookID: String, _ eventID: String) -> DeliveryAttempt {
                    DeliveryAttempt(
                        webhookID: webhookID, eventID: eventID, eventType: "on-duty.changed", attempt: 1, at: 210,
                        status: 201, error: "", durationMillis: 1)
                }
                let pending = try await other.recordAttempts(
                    zip(["psh_1", "psh_2", "psh_3"], outcomes).map { id, outcome in (attempt(id, "evt_h"), outcome) })
                #expect(pending == ["psh_2"], "only the one to retry has more to deliver")
                #expect(try await store.webhooks(tenantID: "acme", now: 300).map(\.id) == ["psh_1", "psh_2"])
                #expect(try await store.pushSubscriptions(tenantID: "acme", personID: "e1", now: 300).count == 2)
                #expect(try await store.pushSubscriptions(tenantID: "acme", personID: "e2", now: 300).isEmpty)
                let later = try await store.deliveryHeads(now: 1_000, excluding: []).heads
                #expect(later.map(\.webhook.id) == ["psh_2"], "delivered once, retried once, removed once")
                // Two more events for e1: the first delivered leaves the second to send.
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 2, committedAt: 1_100, changes: [.motdSet("y")]),
                    historyLimit: 10, audit: nil,
                    outbox: OutboxWrite(events: [
                        StoreConformance.event("evt_1", due: 1_100), StoreConformance.event("evt_2", due: 1_200),
                    ]))
                #expect(try await other.recordAttempts([(attempt("psh_1", "evt_1"), .delivered)]) == ["psh_1"])
                #expect(try await other.recordAttempts([(attempt("psh_1", "evt_2"), .delivered)]).isEmpty)
            },
            Check("the outbox delivers each event once in order and publishes it with a sequence") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                let hook = StoredWebhook(
                    id: "wh_1", tenantID: "acme", url: "http://127.0.0.1:9/hook", secret: "s", events: [],
                    schedules: [],
                    created: 0)
                try await store.insertWebhook(hook)
                let rule = ReminderRule(id: "r1", timing: .lead(minutes: 15))
                try await store.insertRule(rule, tenantID: "acme")
                #expect(try await other.rules(ReminderRule.self, tenantID: "acme") == [rule])

                // Two events from a change, committed with it; a planned one for later; the same id twice is one event.
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 100, changes: [.motdSet("x")]),
                    historyLimit: 10, audit: nil,
                    outbox: OutboxWrite(events: [
                        StoreConformance.event("evt_a", due: 100), StoreConformance.event("evt_b", due: 100),
                    ]))
                try await other.writeOutbox(
                    tenantID: "acme",
                    OutboxWrite(
                        events: [
                            StoreConformance.event("evt_p", due: 5_000, planned: true),
                            StoreConformance.event("evt_a", due: 100),
                        ], plannedThrough: 6_000))
                #expect(try await store.plannedThrough(tenantID: "acme") == 6_000)
                #expect(try await store.notices(tenantID: "acme").map(\.id) == ["evt_a", "evt_b", "evt_p"])
                #expect(try await other.webhooks(tenantID: "acme", now: 200).first?.pending == 2)

                // A webhook the asking node is busy with is left out, and its head not claimed.
                #expect(try await other.deliveryHeads(now: 200, excluding: ["wh_1"]).heads.isEmpty)
                // The head is the oldest; while one handle holds it, the other does not get it again.
                let first = try await store.deliveryHeads(now: 200, excluding: [])
                #expect(first.heads.map(\.event.id) == ["evt_a"])
                if traits.deliveryLease != nil {
                    #expect(
                        try await other.deliveryHeads(now: 200, excluding: []).heads.isEmpty,
                        "claimed by the first node")
                }
                try await store.recordAttempt(
                    DeliveryAttempt(
                        webhookID: "wh_1", eventID: "evt_a", eventType: "on-duty.changed", attempt: 1,
                        at: 210, status: 204, error: "", durationMillis: 3), outcome: .delivered)
                let second = try await other.deliveryHeads(now: 300, excluding: [])
                #expect(second.heads.map(\.event.id) == ["evt_b"])
                try await other.recordAttempt(
                    DeliveryAttempt(
                        webhookID: "wh_1", eventID: "evt_b", eventType: "on-duty.changed", attempt: 1,
                        at: 310, status: 500, error: "HTTP 500", durationMillis: 3), outcome: .retry(at: 1_000))
                let waiting = try await store.deliveryHeads(now: 400, excluding: [])
                #expect(waiting.heads.isEmpty && waiting.nextDue == 1_000)
                #expect(
                    try await store.deliveryAttempts(tenantID: "acme", webhookID: nil, limit: 10).map(\.status) == [
                        500, 204,
                    ])

                // A change withdraws the planned event of its schedule (never attempted).
                try await store.writeOutbox(
                    tenantID: "acme",
                    {
                        var write = OutboxWrite()
                        write.withdrawPlanned = (from: 1_000, schedules: ["sch_1"])
                        return write
                    }())
                #expect(try await other.notices(tenantID: "acme").map(\.id) == ["evt_a", "evt_b"])

                // Published in due order with the tenant's sequence, once.
                let published = try await store.publishDue(now: 500)
                #expect(published.published["acme"]?.map(\.sequence) == [1, 2])
                #expect(published.published["acme"]?.map(\.event.id) == ["evt_a", "evt_b"])
                #expect(try await other.publishDue(now: 600).published.isEmpty)
                #expect(try await other.publishedNotices(tenantID: "acme", limit: 1).map(\.sequence) == [2])
                #expect(try await store.removeWebhook(tenantID: "acme", id: "wh_1"))
                #expect(try await other.webhooks(tenantID: nil, now: 0).isEmpty)
                #expect(try await store.removeRule(ReminderRule.self, tenantID: "acme", id: "r1"))
            },
            Check("the duty record extends continued stretches, keeps marks, and yields to a change") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                let first = RecordedStretch(
                    scheduleID: "sch_1", employeeID: "e1", start: 1_000, end: 2_000, kind: .rotation)
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 2_000, changes: [.motdSet("a")]),
                    historyLimit: 100, audit: nil, outbox: OutboxWrite(),
                    duty: DutyRecordWrite(stretches: [first], marks: ["sch_1": 2_000]))
                // A round at the stored revision continues the stretch (one row) and moves the mark.
                var more = first
                (more.start, more.end) = (2_000, 3_000)
                let cover = RecordedStretch(
                    scheduleID: "sch_1", employeeID: "e2", start: 2_500, end: 3_000, kind: .cover, replacing: "e1")
                #expect(
                    try await other.recordDuty(
                        tenantID: "acme", atRevision: 1,
                        DutyRecordWrite(stretches: [more, cover], marks: ["sch_1": 3_000])))
                // A round made at an older revision writes nothing.
                #expect(
                    try await store.recordDuty(
                        tenantID: "acme", atRevision: 0, DutyRecordWrite(marks: ["sch_1": 9_000])) == false)
                // A mark never moves back.
                #expect(
                    try await store.recordDuty(
                        tenantID: "acme", atRevision: 1, DutyRecordWrite(marks: ["sch_1": 2_500])))
                #expect(
                    try await store.dutyRecordMarks(tenantID: "acme") == [
                        "sch_1": DutyRecordMark(since: 2_000, until: 3_000)
                    ])
                let read = try await store.dutyRecord(tenantID: "acme", from: 0, to: 10_000, limit: 10)
                #expect(
                    read.stretches == [
                        RecordedStretch(
                            scheduleID: "sch_1", employeeID: "e1", start: 1_000, end: 3_000, kind: .rotation), cover,
                    ])
                #expect(!read.truncated)
                #expect(try await store.dutyRecord(tenantID: "acme", from: 0, to: 10_000, limit: 1).truncated)
                #expect(
                    try await store.dutyRecord(tenantID: "acme", from: 3_000, to: 10_000, limit: 10).stretches.isEmpty)
                #expect(try await store.dutyRecordMarks(tenantID: "other").isEmpty)
                // A change that resolved from an older mark writes only what lies past the stored one.
                let overlapping = RecordedStretch(
                    scheduleID: "sch_1", employeeID: "e3", start: 2_000, end: 4_000, kind: .override)
                try await other.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 2, committedAt: 4_000, changes: [.motdSet("b")]),
                    historyLimit: 100, audit: nil, outbox: OutboxWrite(),
                    duty: DutyRecordWrite(stretches: [overlapping], marks: ["sch_1": 4_000]))
                let after = try await store.dutyRecord(tenantID: "acme", from: 0, to: 10_000, limit: 10).stretches
                #expect(
                    after.filter { $0.employeeID == "e3" } == [
                        RecordedStretch(
                            scheduleID: "sch_1", employeeID: "e3", start: 3_000, end: 4_000,
                            kind: .override)
                    ])
            },
            /// Chat (docs/CHAT.md): a webhook's format, an announcement meant for one webhook only and
            /// never published, coalescing's look-ahead, announcement rules and slash-command secrets.
            Check("chat webhooks, announcements and slash-command secrets are kept") { store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                for (id, format) in [("wh_chat", WebhookFormat.mattermost), ("wh_json", .json)] {
                    try await store.insertWebhook(
                        StoredWebhook(
                            id: id, tenantID: "acme", url: "http://127.0.0.1:9/\(id)", secret: "s",
                            events: [], schedules: [], created: 0, format: format))
                }
                #expect(try await other.webhooks(tenantID: "acme", now: 0).map(\.format) == [.mattermost, .json])
                func announcement(_ id: String, about: UnixMillis) -> NotificationEvent {
                    var event = NotificationEvent(
                        id: id, type: .announcement, tenantID: "acme", revision: 1, about: about, due: about + 3_000,
                        planned: false, scheduleIDs: ["sch_1"], people: ["e1"], payload: Data("{}".utf8))
                    event.webhookID = "wh_chat"
                    return event
                }
                try await store.writeOutbox(
                    tenantID: "acme",
                    OutboxWrite(events: [announcement("evt_1", about: 100), announcement("evt_2", about: 1_100)]))
                let heads = try await other.deliveryHeads(now: 4_000, excluding: [])
                #expect(heads.heads.map(\.webhook.id) == ["wh_chat"], "only its webhook gets an announcement")
                let head = try #require(heads.heads.first)
                #expect(head.event.webhookID == "wh_chat" && head.event.id == "evt_1")
                #expect(
                    try await store.laterAnnouncement(after: head, within: 3_000), "evt_2 follows within the window")
                #expect(try await store.laterAnnouncement(after: head, within: 500) == false)
                #expect(try await store.publishDue(now: 10_000).published.isEmpty, "announcements are not NOTICES")
                try await other.recordAttempt(
                    DeliveryAttempt(
                        webhookID: "wh_chat", eventID: "evt_1", eventType: "announcement", attempt: 1,
                        at: 4_000, status: nil, error: "skipped", durationMillis: 0), outcome: .skipped)
                let next = try await store.deliveryHeads(now: 4_100 + (traits.deliveryLease ?? 0), excluding: [])
                #expect(next.heads.map(\.event.id) == ["evt_2"], "a skipped announcement is done with")

                let rule = AnnounceRule(
                    id: "ann_1", scheduleID: "sch_1", webhookID: "wh_chat",
                    trigger: .at(minuteOfDay: 540, weekdays: [2]))
                try await store.insertRule(rule, tenantID: "acme")
                #expect(try await other.rules(AnnounceRule.self, tenantID: "acme") == [rule])
                #expect(try await other.removeRule(AnnounceRule.self, tenantID: "acme", id: "ann_1"))
                #expect(try await store.rules(AnnounceRule.self, tenantID: "acme").isEmpty)

                try await store.setChatCommandSecret(tenantID: "acme", platform: "slack", secret: "sealed-1")
                #expect(try await other.chatCommandSecret(tenantID: "acme", platform: "slack") == "sealed-1")
                try await other.setChatCommandSecret(tenantID: "acme", platform: "slack", secret: "sealed-2")
                #expect(try await store.chatCommandPlatforms(tenantID: "acme") == ["slack"])
                #expect(try await store.chatCommandSecret(tenantID: "acme", platform: "slack") == "sealed-2")
                try await store.setChatCommandSecret(tenantID: "acme", platform: "slack", secret: nil)
                #expect(try await other.chatCommandSecret(tenantID: "acme", platform: "slack") == nil)
            },
            Check(
                "each kind of rule is its own: one id in two kinds, removed by kind, a twin id refused, tenants apart"
            ) { store, other, _ in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                try await store.createTenant(Tenant(id: "globex", name: "Globex"), epoch: 1)
                let reminder = ReminderRule(id: "same", scheduleID: "sch_1", timing: .lead(minutes: 10))
                let announcement = AnnounceRule(id: "same", scheduleID: "sch_1", webhookID: "wh_1", trigger: .change)
                try await store.insertRule(reminder, tenantID: "acme")
                try await store.insertRule(announcement, tenantID: "acme")
                try await other.insertRule(reminder, tenantID: "globex")
                await #expect(throws: (any Error).self, "an id the tenant has for that kind") {
                    try await other.insertRule(reminder, tenantID: "acme")
                }
                #expect(try await other.removeRule(ReminderRule.self, tenantID: "acme", id: "same"))
                #expect(try await !store.removeRule(ReminderRule.self, tenantID: "acme", id: "same"), "gone already")
                #expect(try await store.rules(ReminderRule.self, tenantID: "acme").isEmpty)
                #expect(try await other.rules(AnnounceRule.self, tenantID: "acme") == [announcement])
                #expect(try await other.rules(ReminderRule.self, tenantID: "globex") == [reminder])
            },
            Check("webhooks and rules written with a commit are its own: kept with it, gone with a refused one") {
                store, other, traits in
                try await store.createTenant(Tenant(id: "acme", name: "Acme"), epoch: 1)
                try await store.insertWebhook(
                    StoredWebhook(
                        id: "wh_old", tenantID: "acme", url: "http://127.0.0.1:9/old", secret: "s",
                        events: [], schedules: [], created: 0))
                try await store.insertRule(ReminderRule(id: "rem_old", timing: .lead(minutes: 5)), tenantID: "acme")
                var settings = NotificationSettingsWrite()
                settings.removedWebhooks = ["wh_old"]
                settings.remove(ReminderRule.self, id: "rem_old")
                settings.insertedWebhooks = [
                    StoredWebhook(
                        id: "wh_new", tenantID: "acme", url: "http://127.0.0.1:9/new", secret: "s1",
                        events: ["on-duty.changed"], schedules: [], created: 10)
                ]
                settings.insertedRules = [
                    ReminderRule(
                        id: "rem_new", timing: .daysBefore(days: 1, minuteOfDay: 1_080), zone: "Europe/Berlin"),
                    AnnounceRule(id: "ann_new", scheduleID: "sch_1", webhookID: "wh_new", trigger: .change),
                ]
                var outbox = OutboxWrite()
                outbox.settings = settings
                // One handle commits revision 1; the other, still at 0, is refused with its settings, whole.
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 1, committedAt: 10, changes: [.motdSet("applied")]),
                    historyLimit: 100, audit: nil, outbox: OutboxWrite(), duty: DutyRecordWrite())
                var refused = settings
                refused.insertedWebhooks[0].id = "wh_refused"
                refused.removedWebhooks = []
                refused.insertedRules = []
                refused.removedRules = []
                var refusedOutbox = OutboxWrite()
                refusedOutbox.settings = refused
                await #expect(throws: StoreError.revisionConflict(tenant: "acme", stored: 1, expected: 0)) {
                    try await other.commit(
                        tenantID: "acme",
                        entry: HistoryEntry(revision: 1, committedAt: 11, changes: [.motdSet("late")]),
                        historyLimit: 100, audit: nil, outbox: refusedOutbox, duty: DutyRecordWrite())
                }
                #expect(
                    try await store.webhooks(tenantID: "acme", now: 20).map(\.id) == ["wh_old"],
                    "nothing of the refused commit")
                try await other.commit(
                    tenantID: "acme",
                    entry: HistoryEntry(revision: 2, committedAt: 20, changes: [.motdSet("settings")]),
                    historyLimit: 100, audit: nil, outbox: outbox, duty: DutyRecordWrite())
                #expect(try await store.webhooks(tenantID: "acme", now: 30).map(\.id) == ["wh_new"])
                #expect(try await store.rules(ReminderRule.self, tenantID: "acme").map(\.id) == ["rem_new"])
                #expect(try await store.rules(AnnounceRule.self, tenantID: "acme").map(\.id) == ["ann_new"])
                // A changed webhook keeps its id and queue: updated in place.
                var changed = NotificationSettingsWrite()
                var webhook = settings.insertedWebhooks[0]
                (webhook.url, webhook.events, webhook.format) = ("http://127.0.0.1:9/changed", [], .mattermost)
                changed.updatedWebhooks = [webhook]
                var changedOutbox = OutboxWrite()
                changedOutbox.settings = changed
                try await store.commit(
                    tenantID: "acme", entry: HistoryEntry(revision: 3, committedAt: 30, changes: []),
                    historyLimit: 100, audit: nil, outbox: changedOutbox, duty: DutyRecordWrite())
                let stored = try #require(try await other.webhooks(tenantID: "acme", now: 40).first)
                #expect(
                    (stored.id, stored.url, stored.events, stored.format) == (
                        "wh_new", "http://127.0.0.1:9/changed", [], .mattermost
                    ))
                #expect(try await other.loadTenants().first?.revision == 3)
            },
        ]

        static let alice = Employee(
            id: "e1", firstName: "Alice", lastName: "Ng", email: "alice@example.com", phone: "+1 555 0100",
            position: "SRE", team: "Platform", projects: ["pager", "db"], biography: "Bio — ünïcode",
            photoURL: "https://example.com/a.png", type: .fullTime,
            chat: ["slack": "U0ALICE", "matrix": "@alice:example.org"])

        static func event(_ id: String, due: UnixMillis, planned: Bool = false, schedules: [String] = ["sch_1"])
            -> NotificationEvent
        {
            NotificationEvent(
                id: id, type: .onDutyChanged, tenantID: "acme", revision: 1, about: due, due: due, planned: planned,
                scheduleIDs: schedules, people: ["e1"], payload: Data(#"{"id":"\#(id)"}"#.utf8))
        }
    }
#endif
