import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

/// Schedules as code (docs/AS-CODE.md): the webhooks, reminder rules and announcement rules of a
/// tenant definition, checked as `admin webhook add`, `admin reminder add` and `admin announce`
/// check them, and written in the apply's own transaction (`NotificationSettingsWrite`).
extension Notifier {
    package func planSettings(
        _ document: Roster_V1_DefinitionDocument, tenantID: String, state: RosterState, prune: Bool
    ) async
        -> SettingsPlan
    {
        var plan = SettingsPlan()
        let everyone: [StoredWebhook], rules: [ReminderRule], announcements: [AnnounceRule]
        do {
            everyone = try await store.webhooks(tenantID: nil, now: clock.now())
            rules = try await store.rules(ReminderRule.self, tenantID: tenantID)
            announcements = try await store.rules(AnnounceRule.self, tenantID: tenantID)
        } catch {
            plan.violations.append(
                RosterViolation(field: "", message: "the tenant's webhooks could not be read: \(error)"))
            return plan
        }
        // People's push subscriptions are theirs, not the file's: never planned nor pruned.
        let webhooks = everyone.filter { $0.tenantID == tenantID && !$0.format.isPush }
        var known = webhooks
        if document.managesWebhooks {
            known = planWebhooks(
                document.webhooks, stored: webhooks, everyone: everyone, state: state, prune: prune, into: &plan)
        }
        if document.managesReminders {
            planReminders(document.reminders, stored: rules, state: state, prune: prune, into: &plan)
        }
        if document.managesAnnouncements {
            planAnnouncements(
                document.announcements, stored: announcements, webhooks: known, state: state, prune: prune, into: &plan)
        }
        return plan
    }

    package func settingsChanged(_ tenant: TenantRuntime) async {
        do { try await reload(tenantID: tenant.id) } catch {
            logger.warning("could not read tenant \(tenant.id)'s settings again: \(error)")
        }
        await replan(tenant)
        dispatcher.wake()
    }

    /// The webhooks as they will be (kept, changed and new), for the announcements' check.
    private func planWebhooks(
        _ wires: [Roster_V1_Webhook], stored: [StoredWebhook], everyone: [StoredWebhook], state: RosterState,
        prune: Bool,
        into plan: inout SettingsPlan
    ) -> [StoredWebhook] {
        var result: [StoredWebhook] = [], kept = Set<String>()
        for (index, given) in wires.enumerated() {
            let location = "webhooks[\(index)]"
            // A URL as `webhook list` and export show it (its password as ***) means the stored one.
            var wire = given
            let shownAs = stored.first { webhook in
                (given.id.isEmpty || webhook.id == given.id) && webhook.url != given.url
                    && WebhookClient.redacted(webhook.url) == given.url
            }
            if let shownAs { wire.url = shownAs.url }
            // Each problem with the field of the file it is about.
            var problems: [(field: String, message: String)] = []
            if let problem = WebhookClient.validate(wire.url, addresses: dispatcher.addresses) {
                problems.append(("url", "the URL \(problem)"))
            }
            if shownAs == nil, WebhookClient.isMasked(wire.url) {
                problems.append(
                    (
                        "url",
                        "the URL's user part is *** (as listings show it): write the real one, or the stored webhook's URL"
                    ))
            }
            let format = WebhookFormat(wire: wire.format)
            if format == nil {
                problems.append(
                    (
                        "format",
                        "unknown format \(wire.format) (known: \(WebhookFormat.webhookFormats.map(\.rawValue).joined(separator: ", ")))"
                    ))
            }
            let subscribable = NotificationType.subscribable.map(\.rawValue)
            for type in wire.events where !subscribable.contains(type) {
                problems.append(
                    ("events", "unknown event type \(type) (known: \(subscribable.joined(separator: ", ")))"))
            }
            var schedules: [String] = []
            for name in wire.schedules {
                if let schedule = state.schedule(idOrName: name) {
                    schedules.append(schedule.id)
                } else {
                    problems.append(("schedules", "no schedule \(name)"))
                }
            }
            let current =
                wire.id.isEmpty
                ? stored.first { $0.url == wire.url && !kept.contains($0.id) } : stored.first { $0.id == wire.id }
            if current == nil, !wire.id.isEmpty, everyone.contains(where: { $0.id == wire.id }) {
                problems.append(("id", "webhook id \(wire.id) is another tenant's: give this one another id"))
            }
            if let format {
                problems += secretProblems(wire.accessToken, format: format, url: wire.url, creating: current == nil)
                    .map { ("secret", $0) }
            }
            if let format, let current,
                let moved = Self.secretWouldMove(from: current, toURL: wire.url, format: format),
                wire.accessToken.isEmpty
            {
                problems.append(("secret", moved))
            }
            let id = current?.id ?? (wire.id.isEmpty ? IdentifierFactory.make("whk") : wire.id)
            if !kept.insert(id).inserted { problems.append(("id", "webhook \(id) is in the file twice")) }
            guard problems.isEmpty, let format else {
                plan.violations += problems.map {
                    RosterViolation(location: location, field: $0.field, message: $0.message)
                }
                continue
            }
            guard let current else {
                var secret = wire.accessToken
                if secret.isEmpty {
                    secret = WebhookSignature.newSecret()
                    plan.secrets[id] = secret
                }
                let made = StoredWebhook(
                    id: id, tenantID: current?.tenantID ?? state.tenant.id, url: wire.url, secret: sealer.seal(secret),
                    events: wire.events, schedules: schedules, created: clock.now(), format: format)
                plan.write.insertedWebhooks.append(made)
                plan.objects.append(.init(.create, "webhook", id, WebhookClient.redacted(wire.url), location: location))
                result.append(made)
                continue
            }
            var changed = current
            (changed.url, changed.events, changed.schedules, changed.format) = (
                wire.url, wire.events, schedules, format
            )
            var fields = Self.changes(Self.fields(of: current, state: state), Self.fields(of: changed, state: state))
            if current.url != changed.url, WebhookClient.redacted(current.url) == WebhookClient.redacted(changed.url) {
                fields.append(
                    .with {
                        ($0.field, $0.before, $0.after) = ("url", "(the stored password)", "(the file's password)")
                    })
            }
            if !wire.accessToken.isEmpty, sealer.open(current.secret) != wire.accessToken {
                changed.secret = sealer.seal(wire.accessToken)
                fields.append(
                    .with { ($0.field, $0.before, $0.after) = ("secret", "(stored)", "(from the file's reference)") })
            }
            if !fields.isEmpty {
                plan.write.updatedWebhooks.append(changed)
                plan.objects.append(
                    .init(.change, "webhook", id, WebhookClient.redacted(wire.url), fields: fields, location: location))
            }
            result.append(changed)
        }
        for webhook in stored where !kept.contains(webhook.id) {
            if prune { plan.write.removedWebhooks.append(webhook.id) } else { result.append(webhook) }
            plan.objects.append(
                .init(prune ? .delete : .notInFile, "webhook", webhook.id, WebhookClient.redacted(webhook.url)))
        }
        return result
    }

    /// Why a stored secret (a json webhook's signing secret, a matrix webhook's bot token) may not
    /// be kept as the webhook changes: a new scheme, host or port would send it (or sign with it)
    /// to a host it was not given for, and a new format would use it as something else. nil: it
    /// may be kept.
    static func secretWouldMove(from current: StoredWebhook, toURL url: String, format: WebhookFormat) -> String? {
        guard format == .json || format == .matrix else { return nil }
        let (before, after) = (WebhookClient.origin(of: current.url), WebhookClient.origin(of: url))
        if before != after {
            return
                "the URL moves from \(before ?? "?") to \(after ?? "?"): give its secret again (secret: {env: …} or {file: …}); "
                + "the stored one was given for the old host and is not sent to another"
        }
        if current.format != format {
            return "the format changes from \(current.format.rawValue) to \(format.rawValue): give its secret again"
        }
        return nil
    }

    /// A secret from the file: a json webhook's signing secret, a matrix webhook's access token;
    /// the other chat formats' URL is their secret.
    private func secretProblems(_ secret: String, format: WebhookFormat, url: String, creating: Bool) -> [String] {
        switch format {
        case .matrix:
            // An existing matrix webhook keeps its token when the file names none.
            return Self.chatProblem(
                format: format, url: url, accessToken: secret.isEmpty && !creating ? "kept" : secret
            ).map { [$0] } ?? []
        case .json:
            guard !secret.isEmpty else { return [] }
            guard (16...1_000).contains(secret.utf8.count),
                !secret.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
            else {
                return ["a signing secret is one line of 16 to 1000 bytes without spaces"]
            }
            return []
        default:
            return secret.isEmpty ? [] : ["a \(format.rawValue) webhook takes no secret: its URL is the secret"]
        }
    }

    private static func fields(of webhook: StoredWebhook, state: RosterState) -> [(String, String)] {
        // A password in the URL is never shown: a changed one reads *** → *** (still a change).
        [
            ("url", WebhookClient.redacted(webhook.url)), ("format", webhook.format.rawValue),
            ("events", webhook.events.joined(separator: ", ")),
            ("schedules", webhook.schedules.map { state.schedules[$0]?.name ?? $0 }.joined(separator: ", ")),
        ]
    }

    static func changes(_ before: [(String, String)], _ after: [(String, String)]) -> [Roster_V1_FieldChange] {
        zip(before, after).compactMap { old, new in
            old.1 == new.1
                ? nil : Roster_V1_FieldChange.with { ($0.field, $0.before, $0.after) = (old.0, old.1, new.1) }
        }
    }

    // MARK: - Reminders and announcements

    private func planReminders(
        _ wires: [Roster_V1_ReminderRule], stored: [ReminderRule], state: RosterState, prune: Bool,
        into plan: inout SettingsPlan
    ) {
        var kept = Set<String>()
        for (index, wire) in wires.enumerated() {
            let location = "reminders[\(index)]"
            let made: ReminderRule
            switch ReminderRule.make(wire, id: wire.id.isEmpty ? IdentifierFactory.make("rem") : wire.id, state: state)
            {
            case .success(let rule): made = rule
            case .failure(let error):
                plan.violations.append(RosterViolation(location: location, field: "", message: error.body.message))
                continue
            }
            var rule = made
            let current =
                wire.id.isEmpty
                ? stored.first { Self.same($0, rule) && !kept.contains($0.id) }
                : stored.first { $0.id == wire.id }
            if let current { rule.id = current.id }
            guard kept.insert(rule.id).inserted else {
                plan.violations.append(
                    RosterViolation(
                        location: location, field: "id", message: "reminder \(rule.id) is in the file twice"))
                continue
            }
            let name = Roster_V1_ReminderRule(rule).sentence(
                scheduleName: state.schedules[rule.scheduleID]?.name,
                personName: state.employees[rule.personID]?.fullName)
            guard let current else {
                plan.write.insertedRules.append(rule)
                plan.objects.append(.init(.create, "reminder", rule.id, name, location: location))
                continue
            }
            guard current != rule else { continue }
            let before = Roster_V1_ReminderRule(current).sentence(
                scheduleName: state.schedules[current.scheduleID]?.name,
                personName: state.employees[current.personID]?.fullName)
            plan.write.remove(ReminderRule.self, id: rule.id)
            plan.write.insertedRules.append(rule)
            plan.objects.append(
                .init(
                    .change, "reminder", rule.id, name,
                    fields: [.with { ($0.field, $0.before, $0.after) = ("rule", before, name) }],
                    location: location))
        }
        for rule in stored where !kept.contains(rule.id) {
            if prune { plan.write.remove(ReminderRule.self, id: rule.id) }
            let name = Roster_V1_ReminderRule(rule).sentence(
                scheduleName: state.schedules[rule.scheduleID]?.name,
                personName: state.employees[rule.personID]?.fullName)
            plan.objects.append(.init(prune ? .delete : .notInFile, "reminder", rule.id, name))
        }
    }

    private static func same(_ a: ReminderRule, _ b: ReminderRule) -> Bool {
        var other = b
        other.id = a.id
        return a == other
    }

    /// "Database to webhook db-chat at 09:00 on Mon": the audit log's words without the id.
    private static func named(_ rule: AnnounceRule, state: RosterState) -> String {
        let words = describe(rule, state: state)
        return words.range(of: ": ").map { String(words[$0.upperBound...]) } ?? words
    }

    private func planAnnouncements(
        _ wires: [Roster_V1_AnnounceRule], stored: [AnnounceRule], webhooks: [StoredWebhook], state: RosterState,
        prune: Bool, into plan: inout SettingsPlan
    ) {
        var kept = Set<String>()
        for (index, wire) in wires.enumerated() {
            let location = "announcements[\(index)]"
            var rule: AnnounceRule
            switch AnnounceRule.make(
                wire, id: wire.id.isEmpty ? IdentifierFactory.make("ann") : wire.id, state: state, webhooks: webhooks)
            {
            case .success(let made): rule = made
            case .failure(let error):
                plan.violations.append(RosterViolation(location: location, field: "", message: error.body.message))
                continue
            }
            let current =
                wire.id.isEmpty
                ? stored.first {
                    $0.scheduleID == rule.scheduleID && $0.webhookID == rule.webhookID && $0.trigger == rule.trigger
                        && !kept.contains($0.id)
                }
                : stored.first { $0.id == wire.id }
            if let current { rule.id = current.id }
            guard kept.insert(rule.id).inserted else {
                plan.violations.append(
                    RosterViolation(
                        location: location, field: "id", message: "announcement \(rule.id) is in the file twice"))
                continue
            }
            let name = Self.named(rule, state: state)
            guard let current else {
                plan.write.insertedRules.append(rule)
                plan.objects.append(.init(.create, "announcement", rule.id, name, location: location))
                continue
            }
            guard current != rule else { continue }
            plan.write.remove(AnnounceRule.self, id: rule.id)
            plan.write.insertedRules.append(rule)
            plan.objects.append(
                .init(
                    .change, "announcement", rule.id, name,
                    fields: [
                        .with { ($0.field, $0.before, $0.after) = ("rule", Self.named(current, state: state), name) }
                    ],
                    location: location))
        }
        for rule in stored where !kept.contains(rule.id) {
            // A pruned webhook takes its announcements with it.
            if prune || plan.write.removedWebhooks.contains(rule.webhookID) {
                plan.write.remove(AnnounceRule.self, id: rule.id)
            }
            plan.objects.append(
                .init(prune ? .delete : .notInFile, "announcement", rule.id, Self.named(rule, state: state)))
        }
    }
}
