import RosterDomain
import RosterProtocol
import RosterStore

/// What the audit log records (who, when, from where, what with the values before, and why) and
/// how an admin's GetAudit is matched. Change entries are written by the store in the same
/// transaction as their revision; the rest (auth failures, tokens) are appended on their own.
package enum AuditLog {
    package enum Kind {
        static let change = "change"
        static let authFailed = "auth.failed"
        package static let tokenCreated = "token.created"
        package static let tokenRevoked = "token.revoked"
        package static let webhookAdded = "webhook.added"
        package static let webhookRemoved = "webhook.removed"
        package static let reminderAdded = "reminder.added"
        package static let reminderRemoved = "reminder.removed"
        package static let announcementAdded = "announcement.added"
        package static let announcementRemoved = "announcement.removed"
        package static let chatCommandSet = "chat-command.set"
        package static let singleSignOnSet = "sso.set"
        package static let singleSignOnRemoved = "sso.removed"
        package static let provisioned = "scim.changed"
        package static let provisioningTokenCreated = "scim-token.created"
        package static let provisioningTokenRevoked = "scim-token.revoked"
    }

    /// The most entries one GetAudit returns (and the default).
    static let maxEntries = 1000

    /// Refused Hellos recorded one by one: a burst of `burst`, then one every `refillMillis`
    /// (a token bucket). A flood beyond is counted and the count told with the next one
    /// recorded, so guessing cannot fill the disk or the write path: at most 43,200 a day.
    struct FailureBudget: Sendable {
        static let burst = 20
        static let refillMillis: UnixMillis = 2_000
        private var available = Double(burst)
        private var updatedAt: UnixMillis?
        private var suppressed = 0

        /// Whether to record a failure at `now`, and how many went unrecorded before it.
        mutating func admit(at now: UnixMillis) -> (record: Bool, suppressedBefore: Int) {
            if let updatedAt, now > updatedAt {
                available = min(Double(Self.burst), available + Double(now - updatedAt) / Double(Self.refillMillis))
            }
            updatedAt = max(updatedAt ?? now, now)
            guard available >= 1 else {
                suppressed += 1
                return (false, 0)
            }
            available -= 1
            defer { suppressed = 0 }
            return (true, suppressed)
        }
    }

    /// A tenant name from a refused Hello as a log line may show it: at most 64 characters,
    /// control characters dropped.
    static func loggable(_ text: String) -> String {
        let stripped = ControlCharacters.stripped(text)
        return stripped.count > 64 ? String(stripped.prefix(64)) + "…" : stripped
    }

    /// Who acts when a command runs on the server's host (`roster-server token ...`).
    static let localAdmin = "local admin"

    /// The entry for a revision about to be committed: each change with the record as `state`
    /// (the state before the revision) held it.
    static func change(
        revision: UInt64, at: UnixMillis, changes: [RosterChange], before state: RosterState, actor: Caller,
        reason: String
    ) -> Roster_V1_AuditEntry {
        var entry = entry(kind: Kind.change, at: at, actor: actor)
        entry.revision = revision
        entry.reason = reason
        entry.changes = changes.map { change in
            Roster_V1_AuditChange.with {
                $0.change = Roster_V1_Change(change)
                if let before = previous(of: change, in: state) { $0.before = Roster_V1_Change(before) }
            }
        }
        return entry
    }

    static func authFailure(at: UnixMillis, address: String, tokenID: String, detail: String) -> Roster_V1_AuditEntry {
        .with {
            $0.kind = Kind.authFailed
            $0.atMs = at
            $0.address = address
            $0.tokenID = tokenID
            $0.detail = detail
        }
    }

    /// A token created or revoked on the host; `detail` names the token, never its secret.
    package static func token(_ kind: String, _ token: StoredToken, at: UnixMillis) -> Roster_V1_AuditEntry {
        .with {
            $0.kind = kind
            $0.atMs = at
            $0.actor = localAdmin
            var detail = "token \(token.id) (\(token.role.rawValue)"
            if !token.label.isEmpty { detail += ", \"\(token.label)\"" }
            if let employee = token.employeeID { detail += ", held by \(employee)" }
            if let scope = token.scope { detail += ", feed \(scope)" }
            $0.detail = detail + ")"
        }
    }

    /// An administrative act that is no change of the plan (a webhook or reminder rule added or
    /// removed, sign-in set up, a SCIM token made); `detail` says which and what it does.
    package static func administered(_ kind: String, detail: String, reason: String, at: UnixMillis, actor: Caller)
        -> Roster_V1_AuditEntry
    {
        var entry = entry(kind: kind, at: at, actor: actor)
        entry.detail = detail
        entry.reason = reason
        return entry
    }

    private static func entry(kind: String, at: UnixMillis, actor: Caller) -> Roster_V1_AuditEntry {
        .with {
            $0.kind = kind
            $0.atMs = at
            $0.tokenID = actor.tokenID ?? ""
            $0.actor = actor.name
            $0.address = actor.address
        }
    }

    /// The record a change replaces or removes, as the change that would recreate it.
    private static func previous(of change: RosterChange, in state: RosterState) -> RosterChange? {
        switch change {
        case .employeeUpserted(let employee): state.employees[employee.id].map(RosterChange.employeeUpserted)
        case .employeeDeleted(let id): state.employees[id].map(RosterChange.employeeUpserted)
        case .shiftAdded(let shift): state.shifts[shift.id].map(RosterChange.shiftAdded)
        case .shiftDeleted(let id): state.shifts[id].map(RosterChange.shiftAdded)
        case .motdSet: .motdSet(state.tenant.motd)
        case .scheduleUpserted(let schedule): state.schedules[schedule.id].map(RosterChange.scheduleUpserted)
        case .scheduleDeleted(let id): state.schedules[id].map(RosterChange.scheduleUpserted)
        case .timeOffSet(let entry): state.timeOff[entry.id].map(RosterChange.timeOffSet)
        case .timeOffDeleted(let id): state.timeOff[id].map(RosterChange.timeOffSet)
        case .holidaysSet(let calendar): state.holidays[calendar.name].map(RosterChange.holidaysSet)
        case .holidaysDeleted(let name): state.holidays[name].map(RosterChange.holidaysSet)
        case .escalationPolicySet(let policy):
            state.escalation.policies[policy.id].map(RosterChange.escalationPolicySet)
        case .escalationPolicyDeleted(let id): state.escalation.policies[id].map(RosterChange.escalationPolicySet)
        case .serviceSet(let service): state.escalation.services[service.id].map(RosterChange.serviceSet)
        case .serviceDeleted(let id): state.escalation.services[id].map(RosterChange.serviceSet)
        }
    }

    /// The reason an admin request gives, if any.
    static func reason(of request: RosterMessage) -> String {
        switch request {
        case .upsertEmployee(let body): body.reason
        case .deleteEmployee(let body): body.reason
        case .addShift(let body): body.reason
        case .deleteShift(let body): body.reason
        case .setMotd(let body): body.reason
        case .importData(let body): body.reason
        case .editSchedule(let body): body.reason
        case .applyDefinition(let body): body.reason
        default: ""
        }
    }

    /// Which entries a GetAudit asks for: those touching any of `people` (employee ids; see
    /// `named`) and the schedule (by id, or by name as it is now).
    static func matcher(_ request: Roster_V1_GetAuditRequest, people: Set<String>?, state: RosterState)
        -> @Sendable (Roster_V1_AuditEntry) -> Bool
    {
        let schedule = request.schedule.trimmingCharacters(in: .whitespaces)
        let scheduleID = schedule.isEmpty ? nil : (state.schedule(idOrName: schedule)?.id ?? schedule)
        return { entry in
            let changes = entry.changes.flatMap { [$0.change, $0.before] }.compactMap(RosterChange.init)
            if let people, !changes.contains(where: { touches($0, people: people) }) { return false }
            if let scheduleID, !changes.contains(where: { touches($0, scheduleID: scheduleID) }) { return false }
            return true
        }
    }

    /// Entries holding an employee record with this full name (folded): how someone deleted
    /// since is still found by name.
    static func named(_ name: String) -> @Sendable (Roster_V1_AuditEntry) -> Bool {
        let folded = TextFolding.fold(name.trimmingCharacters(in: .whitespaces))
        return { entry in !employeeIDs(in: entry, folded: folded).isEmpty }
    }

    /// The ids of the employees with this full name in `entries` (found by `named`).
    static func employeeIDs(named name: String, in entries: [Roster_V1_AuditEntry]) -> Set<String> {
        let folded = TextFolding.fold(name.trimmingCharacters(in: .whitespaces))
        return entries.reduce(into: Set<String>()) { ids, entry in ids.formUnion(employeeIDs(in: entry, folded: folded))
        }
    }

    private static func employeeIDs(in entry: Roster_V1_AuditEntry, folded: String) -> Set<String> {
        var ids = Set<String>()
        for audited in entry.changes {
            for case .employeeUpserted(let employee)? in [audited.change.kind, audited.before.kind]
            where TextFolding.fold(employee.firstName + " " + employee.lastName) == folded {
                ids.insert(employee.id)
            }
        }
        return ids
    }

    private static func touches(_ change: RosterChange, people: Set<String>) -> Bool {
        switch change {
        case .employeeUpserted(let employee): people.contains(employee.id)
        case .employeeDeleted(let id): people.contains(id)
        case .shiftAdded(let shift): people.contains(shift.employeeID)
        case .scheduleUpserted(let schedule): !schedule.mentionedEmployees.isDisjoint(with: people)
        case .timeOffSet(let entry): people.contains(entry.employeeID)
        case .escalationPolicySet(let policy):
            policy.steps.contains {
                $0.targets.contains { if case .person(let id) = $0 { people.contains(id) } else { false } }
            }
        case .shiftDeleted, .motdSet, .scheduleDeleted, .timeOffDeleted, .holidaysSet, .holidaysDeleted,
            .escalationPolicyDeleted, .serviceSet, .serviceDeleted:
            false
        }
    }

    private static func touches(_ change: RosterChange, scheduleID: String) -> Bool {
        switch change {
        case .scheduleUpserted(let schedule): schedule.id == scheduleID
        case .scheduleDeleted(let id): id == scheduleID
        case .shiftAdded(let shift):
            (shift.scheduleID.isEmpty ? ScheduleDefinition.defaultID : shift.scheduleID) == scheduleID
        case .escalationPolicySet(let policy): policy.steps.contains { $0.targets.contains(.schedule(scheduleID)) }
        case .employeeUpserted, .employeeDeleted, .shiftDeleted, .motdSet, .timeOffSet, .timeOffDeleted, .holidaysSet,
            .holidaysDeleted, .escalationPolicyDeleted, .serviceSet, .serviceDeleted:
            false
        }
    }
}

extension ServerCore {
    /// Records a refused Hello: why (the peer only ever hears "authentication failed"), from
    /// where, and under the tenant of the token it named (else the tenant it asked for). Written
    /// off the event loop; a store that cannot take it is logged, not fatal.
    func auditAuthenticationFailure(_ hello: Roster_V1_Hello, address: String, at now: UnixMillis) {
        auditAuthenticationFailure(token: hello.token, tenant: hello.tenant, address: address, door: nil, at: now)
    }

    /// Records a refused token or sign-in on another door (an HTTP Bearer token, the web app's
    /// sign-in form) as a refused Hello is, under the same per-second budget, with the door
    /// named and a line in the server's log.
    package func auditAuthenticationFailure(token: String, address: String, door: String, at now: UnixMillis) {
        auditAuthenticationFailure(token: token, tenant: "", address: address, door: door, at: now)
    }

    private func auditAuthenticationFailure(
        token: String, tenant requested: String, address: String, door: String?, at now: UnixMillis
    ) {
        let admitted = authFailureBudget.withLockedValue { $0.admit(at: now) }
        guard admitted.record else { return }
        let refusal = tokens.refusal(of: token, now: now)
        if let door { logger.info("authentication failed (\(door)) from \(address): \(refusal.detail)") }
        let tenantID = refusal.tenantID ?? (requested.isEmpty ? defaultTenant : requested)
        // A tenant that does not exist has no audit log to read: such a Hello (its name is the
        // peer's, of any length) goes to the server's log only.
        guard tenant(tenantID) != nil else {
            logger.info("refused a Hello for unknown tenant \"\(AuditLog.loggable(tenantID))\" from \(address)")
            return
        }
        let detail = refusal.detail + (door.map { " (\($0))" } ?? "")
        record(
            detail: detail, tokenID: refusal.tokenID, tenantID: tenantID, address: address, admitted: admitted, at: now)
    }

    /// Records a refused sign-in with the tenant's identity provider (docs/SSO.md) as a refused
    /// Hello is: an `auth.failed` entry under the same budget, and a line in the server's log.
    package func auditSignInFailure(tenantID: String, address: String, detail: String, at now: UnixMillis) {
        let admitted = authFailureBudget.withLockedValue { $0.admit(at: now) }
        guard admitted.record, tenant(tenantID) != nil else { return }
        logger.info("sign-in with the identity provider refused from \(address): \(detail)")
        record(
            detail: detail + " (single sign-on)", tokenID: "", tenantID: tenantID, address: address, admitted: admitted,
            at: now)
    }

    /// Records a refused SCIM bearer token (docs/SSO.md) as a refused Hello is: under the tenant
    /// of the token it named, else the default tenant.
    package func auditProvisioningFailure(tenantID: String?, address: String, detail: String, at now: UnixMillis) {
        let admitted = authFailureBudget.withLockedValue { $0.admit(at: now) }
        guard admitted.record else { return }
        logger.info("SCIM request refused from \(address): \(detail)")
        let tenantID = tenantID ?? defaultTenant
        guard tenant(tenantID) != nil else { return }
        record(
            detail: detail + " (SCIM bearer token)", tokenID: "", tenantID: tenantID, address: address,
            admitted: admitted, at: now)
    }

    private func record(
        detail: String, tokenID: String, tenantID: String, address: String,
        admitted: (record: Bool, suppressedBefore: Int), at now: UnixMillis
    ) {
        var detail = detail
        if admitted.suppressedBefore > 0 {
            detail += " (\(admitted.suppressedBefore) more failures before this one were not recorded one by one)"
        }
        let entry = AuditLog.authFailure(at: now, address: address, tokenID: tokenID, detail: detail)
        let store = admin.store, logger = self.logger, detachedWrites = self.detachedWrites
        detachedWrites.withLockedValue { $0 += 1 }
        Task {
            do { try await store.appendAudit(tenantID: tenantID, entry) } catch {
                logger.warning("could not record an authentication failure in the audit log: \(error)")
            }
            detachedWrites.withLockedValue { $0 -= 1 }
        }
    }

    /// Drops entries older than the configured retention.
    package func pruneAudit() async {
        // Delivered notifications are kept 30 days, for `admin webhook deliveries`.
        if let notifications {
            do {
                try await notifications.pruneDelivered(before: clock.now() - 30 * 86_400_000)
            } catch {
                logger.warning("could not prune delivered notifications: \(error)")
            }
        }
        let cutoff = clock.now() - UnixMillis(configuration.auditRetention.milliseconds)
        do {
            let dropped = try await admin.store.pruneAudit(before: cutoff)
            if dropped > 0 { logger.info("audit log: dropped \(dropped) entries older than the retention") }
        } catch {
            logger.warning("could not prune the audit log: \(error)")
        }
        // Tokens that ended 30 days ago go (`token list` shows the recent ones; the audit log
        // keeps their story): every web sign-in and login mints one.
        do {
            let dropped = try await admin.store.pruneTokens(before: clock.now() - Self.endedTokensKept)
            if dropped > 0 { logger.info("tokens: dropped \(dropped) that expired or were revoked 30 days ago") }
        } catch {
            logger.warning("could not prune ended tokens: \(error)")
        }
    }

    /// How long a token that expired or was revoked stays in the store.
    package static let endedTokensKept: UnixMillis = 30 * 86_400_000
}
