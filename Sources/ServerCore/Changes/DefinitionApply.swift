import RosterDomain
import RosterProtocol
import RosterStore

/// ApplyDefinition (docs/AS-CODE.md): a whole tenant definition planned against the tenant and,
/// unless only a plan is asked for, committed as one revision with its webhooks and rules in
/// the same transaction: all of it or nothing.
extension AdminOperations {
    struct AppliedDefinition: Sendable {
        var result: Result<Roster_V1_DefinitionPlan, WireError>
        var committed: TenantRuntime.CommittedRevision?
        var conflicted = false
    }

    /// The most objects one document may hold, each kind: a definition is a frame (16 MiB at
    /// most), and this keeps a plan's work bounded besides.
    static let maxDefinitionObjects = 10_000

    func applyDefinition(_ request: Roster_V1_ApplyDefinitionRequest, on tenant: TenantRuntime, actor: Caller) async
        -> AppliedDefinition
    {
        let view = tenant.view, now = clock.now(), document = request.definition
        if request.hasExpectRevision, request.expectRevision != view.revision {
            return AppliedDefinition(
                result: .failure(
                    WireError(
                        .failedPrecondition,
                        "the tenant is at revision \(view.revision), not "
                            + "\(request.expectRevision) as when the plan was made: it changed since; plan again")))
        }
        let counts = [
            document.people.count, document.schedules.count, document.webhooks.count, document.reminders.count,
            document.announcements.count, document.escalationPolicies.count, document.services.count,
        ]
        if counts.contains(where: { $0 > Self.maxDefinitionObjects }) {
            return AppliedDefinition(
                result: .failure(
                    WireError(
                        .invalidArgument, "a definition holds at most \(Self.maxDefinitionObjects) objects of each kind"
                    )))
        }
        let planner = DefinitionPlanner(
            state: view.state, now: now, prune: request.prune, author: actor.author, newID: IdentifierFactory.make)
        let asked = DefinitionDocument(document)
        guard let roster = await computed(tenant.id, { planner.plan(asked) }) else {
            return AppliedDefinition(result: .failure(Self.busy))
        }
        var settings = SettingsPlan()
        if document.managesWebhooks || document.managesReminders || document.managesAnnouncements {
            if let notifications {
                settings = await notifications.planSettings(
                    document, tenantID: tenant.id, state: roster.after, prune: request.prune)
            } else {
                settings.violations.append(
                    RosterViolation(field: "webhooks", message: "notifications are off on this server"))
            }
        }
        let violations = roster.violations + settings.violations
        if !violations.isEmpty {
            var error = WireError(.invalid(violations))
            error.body.message =
                "the definition has \(violations.count) problem\(violations.count == 1 ? "" : "s"); nothing was changed"
            return AppliedDefinition(result: .failure(error))
        }
        var plan = Roster_V1_DefinitionPlan.with {
            $0.epoch = view.epoch
            $0.revision = view.revision
            $0.changes = roster.objects.map(Roster_V1_DefinitionChange.init) + settings.objects
            $0.duty = roster.deltas.prefix(ScheduleEdit.maxListedDeltas).map {
                Roster_V1_DutyDelta($0.delta, scheduleID: $0.scheduleID, in: roster.after)
            }
            $0.dutyOmitted = UInt32(max(0, roster.deltas.count - ScheduleEdit.maxListedDeltas))
            $0.dutyCut = roster.dutyCut
        }
        if request.planOnly || (roster.located.isEmpty && settings.write.isEmpty) {
            guard let fitted = AnswerFit.fit(plan, maxFrameBytes: maxAnswerBytes + AnswerFit.headroom) else {
                return AppliedDefinition(
                    result: .failure(
                        WireError(
                            .resourceExhausted,
                            """
                            the plan lists more changes than one answer frame holds (\(maxAnswerBytes + AnswerFit.headroom) bytes): \
                            apply the file in parts, or raise the server's --max-frame-bytes
                            """)))
            }
            return AppliedDefinition(result: .success(fitted))
        }
        let made = plan.changes.filter { $0.action != .notInFile }
        let reason = request.reason.isEmpty ? "apply of a definition: " + Self.tally(made) : request.reason
        let detail = settings.objects.filter { $0.action != .notInFile }
            .map { "\($0.kind) \($0.id) \(Self.word($0.action)): \($0.name)" }.joined(separator: "; ")
        switch await commitOnce(
            roster.located, on: tenant, actor: actor, reason: reason, settings: settings.write, auditDetail: detail)
        {
        case .success(let done):
            if !settings.write.isEmpty { await notifications?.settingsChanged(tenant) }
            plan.revision = done.entry.revision
            plan.committed = true
            plan.secrets = settings.secrets
            // Committed: the answer must reach the client whatever its size, so what does not fit
            // is left out (the audit entry has every change).
            var fitted = AnswerFit.fit(plan, maxFrameBytes: maxAnswerBytes + AnswerFit.headroom) ?? plan
            while (try? fitted.serializedBytes() as [UInt8])?.count ?? 0 > maxAnswerBytes, !fitted.changes.isEmpty {
                fitted.changes.removeLast(max(1, fitted.changes.count / 10))
            }
            return AppliedDefinition(result: .success(fitted), committed: done.revision)
        case .failure(let failure):
            return AppliedDefinition(result: .failure(failure.error), conflicted: failure.conflicted)
        }
    }

    static func word(_ action: Roster_V1_DefinitionAction) -> String {
        switch action {
        case .create: "created"
        case .change: "changed"
        case .delete: "deleted"
        default: "kept"
        }
    }

    /// "2 created, 1 changed, 1 deleted".
    static func tally(_ changes: [Roster_V1_DefinitionChange]) -> String {
        let counts = [("created", Roster_V1_DefinitionAction.create), ("changed", .change), ("deleted", .delete)]
            .compactMap { word, action in
                let n = changes.filter { $0.action == action }.count
                return n == 0 ? nil : "\(n) \(word)"
            }
        return counts.isEmpty ? "nothing" : counts.joined(separator: ", ")
    }
}
