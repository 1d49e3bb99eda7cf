import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

/// Turns admin requests into committed revisions: resolve and validate against the current state,
/// commit durably through the store and record it in the tenant. The caller answers the admin,
/// then publishes to subscribers. Runs on the mutation queue, one at a time.
package struct AdminOperations: Sendable {
    let store: any RosterStore
    let clock: any ServerClock
    let historyLimit: Int
    var metrics: ServerMetrics? = nil
    /// Derives the notifications a change causes, committed with it; nil: none (tools, tests).
    var notifications: (any NotificationHooks)? = nil

    /// The answer for the admin, and the revision to publish once it is written (nil when
    /// nothing was committed).
    struct Performed: Sendable {
        var result: Result<Roster_V1_MutationResult, WireError>
        var committed: TenantRuntime.CommittedRevision?
        /// Another node committed to the tenant first: catch up and perform the request again.
        var conflicted = false
    }

    /// How long a request is tried again after another node committed to the tenant first. Each
    /// round some node's commit succeeds, so only a node that keeps losing to a busier writer of
    /// the same tenant uses it up; then the admin gets a retryable `unavailable`.
    static let conflictPatience: Duration = .seconds(10)

    /// The most bytes an answer's body may take (the frame limit, less room for its header):
    /// GetAudit leaves older entries out past it.
    var maxAnswerBytes: Int = WireProtocol.defaultMaxFrameLength - 1_024

    /// CPU-heavy steps (planning, validation, deriving notices, re-indexing) run on the work
    /// pool when there is one; without (tools, tests) they run where the caller is.
    var work: TenantWorkPool? = nil

    /// `body` on the work pool for `tenant`; nil when the pool refused it (the tenant has too
    /// much waiting, or the server is stopping).
    func computed<T: Sendable>(_ tenant: String, lane: TenantWorkPool.Lane = .long, _ body: @escaping @Sendable () -> T)
        async -> T?
    {
        guard let work else { return body() }
        return await work.run(tenant, lane: lane, body)
    }

    package static let busy = WireError(
        .resourceExhausted, "the server is busy with this tenant's work; try again shortly", retryable: true)

    /// What a request commits, or the answer when it commits nothing (a preview, a dry run, a
    /// refusal): worked out from the tenant's state alone.
    enum Plan: Sendable {
        case answer(Result<Roster_V1_MutationResult, WireError>)
        case commit(Changes)

        struct Changes: Sendable {
            var located: [RosterImport.Located]
            var summary: Roster_V1_ImportSummary?
            var preview: [Roster_V1_DutyDelta] = []
            var previewOmitted: UInt32 = 0
            var editIDs: [String] = []
            /// The audit log's reason when the request's own does not say enough (self-service:
            /// who acted for whom).
            var auditReason: String?
        }
    }

    func perform(_ request: RosterMessage, on tenant: TenantRuntime, actor: Caller) async -> Performed {
        let now = clock.now()
        guard
            let plan = await computed(
                tenant.id, lane: .of(request), { self.plan(request, view: tenant.view, actor: actor, now: now) })
        else {
            return Performed(result: .failure(Self.busy))
        }
        let changes: Plan.Changes
        switch plan {
        case .answer(let result): return Performed(result: result)
        case .commit(let planned): changes = planned
        }
        let committed: (epoch: UInt64, entry: HistoryEntry, revision: TenantRuntime.CommittedRevision)
        switch await commitOnce(
            changes.located, on: tenant, actor: actor, reason: changes.auditReason ?? AuditLog.reason(of: request))
        {
        case .success(let done): committed = done
        case .failure(let failure): return Performed(result: .failure(failure.error), conflicted: failure.conflicted)
        }
        let (epoch, entry) = (committed.epoch, committed.entry)
        return Performed(
            result: .success(
                Roster_V1_MutationResult.with {
                    $0.epoch = epoch
                    $0.revision = entry.revision
                    $0.changeCount = UInt32(entry.changes.count)
                    $0.ids = entry.changes.compactMap { change in
                        switch change {
                        case .employeeUpserted(let employee): employee.id
                        case .employeeDeleted(let id), .shiftDeleted(let id): id
                        case .shiftAdded(let shift): shift.id
                        case .scheduleUpserted(let schedule): schedule.id
                        case .scheduleDeleted(let id): id
                        case .timeOffSet(let entry): entry.id
                        case .timeOffDeleted(let id): id
                        case .holidaysSet(let calendar): calendar.name
                        case .holidaysDeleted(let name): name
                        case .escalationPolicySet(let policy): policy.id
                        case .serviceSet(let service): service.id
                        case .escalationPolicyDeleted(let id), .serviceDeleted(let id): id
                        case .motdSet: nil
                        }
                    }
                    if let summary = changes.summary { $0.importSummary = summary }
                    $0.preview = changes.preview
                    $0.previewOmitted = changes.previewOmitted
                    // A schedule edit names the schedule, then what it made (a rotation, overrides).
                    if !changes.editIDs.isEmpty { $0.ids = changes.editIDs }
                }), committed: committed.revision)
    }

    /// The changes `request` makes to `view`, or its answer when it makes none. Pure CPU work.
    func plan(_ request: RosterMessage, view: TenantRuntime.View, actor: Caller, now: UnixMillis) -> Plan {
        do throws(RosterError) {
            if case .editSchedule(let body) = request {
                let edit: ScheduleEdit
                var auditReason: String?
                let asked = ScheduleChangeRequest(body)
                if let limits = actor.limits,
                    let refusal = limits.refusal(changing: asked.scheduleID(in: view.state), state: view.state)
                {
                    throw refusal
                }
                if asked.isSelfService {
                    let planned = try SelfService.plan(
                        asked, actor: actor, state: view.state, now: now, newID: IdentifierFactory.make)
                    edit = try ScheduleEdit.finishing(
                        before: planned.before, after: planned.after, created: planned.created,
                        state: view.state, now: now)
                    auditReason = planned.auditReason
                } else {
                    if !actor.isAdmin, let refusal = ScheduleEdit.refusal(of: asked, by: actor, state: view.state) {
                        throw refusal
                    }
                    edit = try ScheduleEdit.plan(
                        asked, state: view.state, actor: actor, now: now, newID: IdentifierFactory.make)
                }
                var changes = Plan.Changes(located: edit.changes)
                changes.auditReason = auditReason
                // A minutely rotation moves tens of thousands of stretches: list the first ones.
                let deltas =
                    edit.deltas.map { (edit.scheduleID, $0) } + edit.otherDeltas.map { ($0.scheduleID, $0.delta) }
                changes.preview = deltas.prefix(ScheduleEdit.maxListedDeltas)
                    .map { Roster_V1_DutyDelta($0.1, scheduleID: $0.0, in: view.state) }
                changes.previewOmitted = UInt32(max(0, deltas.count - ScheduleEdit.maxListedDeltas))
                changes.editIDs = [edit.scheduleID] + edit.createdIDs
                // A re-imported calendar that changes nothing commits nothing.
                if body.preview || edit.changes.isEmpty {
                    return .answer(
                        .success(
                            .with {
                                $0.epoch = view.epoch
                                $0.revision = view.revision
                                $0.ids = changes.editIDs
                                $0.dryRun = body.preview
                                $0.preview = changes.preview
                                $0.previewOmitted = changes.previewOmitted
                            }))
                }
                return .commit(changes)
            } else if case .importData(let body) = request {
                let plan = try importPlan(body, state: view.state, now: now)
                let summary = Roster_V1_ImportSummary(plan)
                if body.dryRun || plan.changes.isEmpty {
                    // Nothing to commit: a dry run, or a file that changes nothing (all unchanged).
                    return .answer(
                        .success(
                            .with {
                                $0.epoch = view.epoch
                                $0.revision = view.revision
                                $0.importSummary = summary
                                $0.dryRun = body.dryRun
                            }))
                }
                return .commit(Plan.Changes(located: plan.changes, summary: summary))
            } else {
                return .commit(Plan.Changes(located: try changes(for: request, state: view.state)))
            }
        } catch {
            return .answer(.failure(WireError(error)))
        }
    }

    private func importPlan(_ body: Roster_V1_ImportRequest, state: RosterState, now: UnixMillis) throws(RosterError)
        -> ImportPlan
    {
        guard let format = ImportFormat(body.format) else {
            throw .invalid([RosterViolation(field: "format", message: "is not a known import format")])
        }
        let plan = try RosterImport.plan(
            format: format, data: body.data,
            options: ImportOptions(replace: body.replace, updateExisting: body.updateExisting),
            current: state, now: now, newID: IdentifierFactory.make)
        if plan.rows.isEmpty {
            throw .invalid([RosterViolation(location: "document", field: "", message: "holds no records")])
        }
        return plan
    }

    /// Validates `located` against the tenant's current state, commits it durably as the next
    /// revision and records it in the tenant; the caller publishes it (`TenantRuntime.publish`).
    /// Nothing is recorded, published or acknowledged if the store fails.
    func commit(_ located: [RosterImport.Located], on tenant: TenantRuntime, actor: Caller, reason: String) async
        -> Result<(epoch: UInt64, entry: HistoryEntry, revision: TenantRuntime.CommittedRevision), WireError>
    {
        await commitOnce(located, on: tenant, actor: actor, reason: reason).mapError(\.error)
    }

    struct CommitFailure: Error {
        var error: WireError
        var conflicted = false
    }

    /// A revision ready to be stored: the new state, its history entry, audit entry and outbox.
    struct Staged: Sendable {
        var state: RosterState
        var entry: HistoryEntry
        var audit: Roster_V1_AuditEntry
        var outbox: OutboxWrite
        /// The changed schedules' duty as it was up to the change (`DutyRecord`).
        var duty = DutyRecordWrite()
    }

    /// Validates `located` against `view` and derives what the commit writes. Pure CPU work.
    func stage(
        _ located: [RosterImport.Located], view: TenantRuntime.View, tenantID: String, actor: Caller, reason: String,
        now: UnixMillis, dutyMarks: [String: UnixMillis] = [:]
    ) -> Result<Staged, WireError> {
        let located = view.state.expandingCascades(located)
        let newState: RosterState
        do throws(RosterError) {
            newState = try view.state.applyingValidated(located, now: now)
        } catch {
            return .failure(WireError(error))
        }
        let entry = HistoryEntry(revision: view.revision + 1, committedAt: now, changes: located.map(\.change))
        let audit = AuditLog.change(
            revision: entry.revision, at: entry.committedAt, changes: entry.changes, before: view.state,
            actor: actor, reason: reason)
        let outbox =
            notifications?.outbox(
                tenantID: tenantID, previous: view.state, current: newState, changes: entry.changes,
                revision: entry.revision, now: entry.committedAt, actor: actor.name) ?? OutboxWrite()
        let duty = DutyRecord.record(
            DutyRecord.schedulesChanged(by: entry.changes, before: view.state), of: view.state, marks: dutyMarks,
            now: now
        ).write
        return .success(Staged(state: newState, entry: entry, audit: audit, outbox: outbox, duty: duty))
    }

    func commitOnce(
        _ located: [RosterImport.Located], on tenant: TenantRuntime, actor: Caller, reason: String,
        settings: NotificationSettingsWrite = NotificationSettingsWrite(), auditDetail: String = "",
        provisioning: ProvisioningWrite = ProvisioningWrite()
    ) async
        -> Result<(epoch: UInt64, entry: HistoryEntry, revision: TenantRuntime.CommittedRevision), CommitFailure>
    {
        let dutyMarks: [String: UnixMillis]
        do {
            dutyMarks = try await store.dutyRecordMarks(tenantID: tenant.id).mapValues(\.until)
        } catch {
            return .failure(
                CommitFailure(
                    error: WireError(.unavailable, "the duty record could not be read: \(error)", retryable: true)))
        }
        let view = tenant.view, now = clock.now(), tenantID = tenant.id
        guard
            let staged = await computed(
                tenant.id, lane: .of(changes: located.map(\.change)),
                {
                    self.stage(
                        located, view: view, tenantID: tenantID, actor: actor, reason: reason, now: now,
                        dutyMarks: dutyMarks)
                })
        else {
            return .failure(CommitFailure(error: Self.busy))
        }
        var ready: Staged
        switch staged {
        case .success(let done): ready = done
        case .failure(let error): return .failure(CommitFailure(error: error))
        }
        ready.outbox.settings = settings
        // What the revision's changes cannot say (webhooks and rules an apply wrote with it).
        if !auditDetail.isEmpty { ready.audit.detail = auditDetail }
        let entry = ready.entry
        do {
            let started = ContinuousClock.now
            try await store.commit(
                tenantID: tenant.id, entry: entry, historyLimit: historyLimit, audit: ready.audit, outbox: ready.outbox,
                duty: ready.duty, provisioning: provisioning)
            metrics?.committed(entry.changes, after: .now - started)
            notifications?.committed(tenantID: tenant.id, write: ready.outbox)
        } catch let conflict as StoreError {
            guard conflict.isConflict else {
                return .failure(
                    CommitFailure(
                        error: WireError(.unavailable, "the change could not be stored: \(conflict)", retryable: true)))
            }
            return .failure(
                CommitFailure(
                    error: WireError(.unavailable, "\(conflict); try again", retryable: true), conflicted: true))
        } catch {
            return .failure(
                CommitFailure(
                    error: WireError(.unavailable, "the change could not be stored: \(error)", retryable: true)))
        }
        // Durable now: the tenant takes it (re-indexing the schedules it touched), ahead of its
        // waiting queries, which should see it.
        let state = ready.state
        let revision: TenantRuntime.CommittedRevision
        if let work {
            revision = await withCheckedContinuation { continuation in
                work.urgent(tenant.id) { continuation.resume(returning: tenant.apply(entry, state: state)) }
            }
        } else {
            revision = tenant.apply(entry, state: state)
        }
        return .success((view.epoch, entry, revision))
    }

    private func changes(for request: RosterMessage, state: RosterState) throws(RosterError) -> [RosterImport.Located] {
        switch request {
        case .upsertEmployee(let body):
            var employee = Employee(body.employee)
            if employee.id.isEmpty { employee.id = IdentifierFactory.make("e") }
            return [("", .employeeUpserted(employee))]
        case .deleteEmployee(let body):
            guard let employee = state.employee(idOrName: body.id) else {
                throw .notFound("employee \"\(body.id)\"", suggestions: state.suggestions(for: body.id))
            }
            return [("", .employeeDeleted(id: employee.id))]
        case .addShift(let body):
            var shift = Shift(body.shift)
            if shift.id.isEmpty { shift.id = IdentifierFactory.make("s") }
            // The employee may be named instead of identified.
            if let employee = state.employee(idOrName: shift.employeeID) { shift.employeeID = employee.id }
            // AddShift creates; it never silently replaces a shift with the same id.
            if state.shifts[shift.id] != nil {
                throw .alreadyExists([RosterViolation(field: "id", message: "shift \(shift.id) already exists")])
            }
            return [("", .shiftAdded(shift))]
        case .deleteShift(let body):
            return [("", .shiftDeleted(id: body.id))]
        case .setMotd(let body):
            return [("", .motdSet(body.motd))]
        default:
            throw .invalid([RosterViolation(field: "type", message: "\(request.type) is not an admin operation")])
        }
    }
}
