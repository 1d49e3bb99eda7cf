import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

extension Notifier {
    /// NotificationAdmin (admin role): webhooks and reminder rules of the connection's tenant.
    /// Runs on the mutation queue, so a new webhook's first planning round cannot interleave
    /// with a change. Adds and removes are recorded in the audit log with the request's reason.
    package func administer(_ request: Roster_V1_NotificationAdminRequest, tenant: TenantRuntime, actor: Actor) async
        -> Result<RosterMessage, WireError>
    {
        let notifier = self
        var answer = Roster_V1_NotificationAdminResponse()
        do {
            switch request.action {
            case .addWebhook(let wire):
                if let problem = WebhookClient.validate(wire.url, addresses: notifier.dispatcher.addresses) {
                    return .failure(WireError(.invalidArgument, "the webhook URL \(problem)"))
                }
                let unknownTypes = wire.events.filter { NotificationType(rawValue: $0) == nil || $0 == NotificationType.ping.rawValue }
                if !unknownTypes.isEmpty {
                    let known = NotificationType.allCases.filter { $0 != .ping }.map(\.rawValue).joined(separator: ", ")
                    return .failure(WireError(.invalidArgument, "unknown event type \(unknownTypes.joined(separator: ", ")) (known: \(known))"))
                }
                var schedules: [String] = []
                for name in wire.schedules {
                    guard let schedule = tenant.view.state.schedule(idOrName: name) else {
                        return .failure(WireError(.notFound, "no schedule \(name)"))
                    }
                    schedules.append(schedule.id)
                }
                let secret = WebhookSignature.newSecret()
                let webhook = StoredWebhook(id: IdentifierFactory.make("whk"), tenantID: tenant.id, url: wire.url,
                                            secret: notifier.sealer.seal(secret), events: wire.events, schedules: schedules,
                                            created: clock.now())
                try await store.insertWebhook(webhook)
                try await notifier.reload(tenantID: tenant.id)
                await notifier.plan(tenant)
                answer.webhooks = [Roster_V1_Webhook(webhook)]
                answer.secret = secret
                await audit(AuditLog.Kind.webhookAdded, Self.describe(webhook, state: tenant.view.state), request, tenant, actor)
            case .removeWebhook(let id):
                let removed = try await store.webhooks(tenantID: tenant.id, now: clock.now()).first { $0.id == id }
                guard try await store.removeWebhook(tenantID: tenant.id, id: id) else {
                    return .failure(WireError(.notFound, "no webhook \(id)"))
                }
                try await notifier.reload(tenantID: tenant.id)
                let detail = removed.map { Self.describe($0, state: tenant.view.state) } ?? "webhook \(id)"
                await audit(AuditLog.Kind.webhookRemoved, detail, request, tenant, actor)
            case .listWebhooks:
                answer.webhooks = try await store.webhooks(tenantID: tenant.id, now: clock.now()).map(Roster_V1_Webhook.init)
            case .testWebhook(let id):
                guard try await store.webhooks(tenantID: tenant.id, now: clock.now()).contains(where: { $0.id == id }) else {
                    return .failure(WireError(.notFound, "no webhook \(id)"))
                }
                let now = clock.now()
                let event = NotificationEvent(type: .ping, tenantID: tenant.id, key: "ping:\(id):\(now):\(UInt64.random(in: 0...UInt64.max))",
                                              revision: tenant.view.revision, about: now, due: now, planned: false, scheduleIDs: [],
                                              people: [], data: NotificationPayload.Ping(webhook: id))
                try await store.enqueue(event, forWebhook: id)
                notifier.dispatcher.wake()
                answer.eventID = event.id
            case .listDeliveries(let id):
                let limit = request.limit == 0 ? 100 : Int(min(request.limit, 1000))
                answer.deliveries = try await store.deliveryAttempts(tenantID: tenant.id, webhookID: id.isEmpty ? nil : id, limit: limit)
                    .map(Roster_V1_WebhookDelivery.init)
            case .addReminder(let wire):
                let rule: ReminderRule
                switch ReminderRule.make(wire, id: IdentifierFactory.make("rem"), state: tenant.view.state) {
                case .success(let made): rule = made
                case .failure(let error): return .failure(error)
                }
                try await store.insertReminderRule(tenantID: tenant.id, rule)
                try await notifier.reload(tenantID: tenant.id)
                // Reminders due within the window already planned are written now.
                await notifier.replan(tenant)
                answer.reminders = [Roster_V1_ReminderRule(rule)]
                await audit(AuditLog.Kind.reminderAdded, Self.describe(rule, state: tenant.view.state), request, tenant, actor)
            case .removeReminder(let id):
                let removed = try await store.reminderRules(tenantID: tenant.id).first { $0.id == id }
                guard try await store.removeReminderRule(tenantID: tenant.id, id: id) else {
                    return .failure(WireError(.notFound, "no reminder \(id)"))
                }
                try await notifier.reload(tenantID: tenant.id)
                await notifier.replan(tenant)
                let detail = removed.map { Self.describe($0, state: tenant.view.state) } ?? "reminder \(id)"
                await audit(AuditLog.Kind.reminderRemoved, detail, request, tenant, actor)
            case .listReminders:
                answer.reminders = try await store.reminderRules(tenantID: tenant.id).map(Roster_V1_ReminderRule.init)
            case nil:
                return .failure(WireError(.invalidArgument, "NotificationAdmin names no action"))
            }
        } catch {
            return .failure(WireError(.unavailable, "the notification settings could not be stored: \(error)", retryable: true))
        }
        return .success(.notificationAdminResult(answer))
    }

    /// Appends the audit entry of a change already made: a store that cannot take it is logged,
    /// and the change (durable by now) is still answered as made.
    private func audit(_ kind: String, _ detail: String, _ request: Roster_V1_NotificationAdminRequest,
                       _ tenant: TenantRuntime, _ actor: Actor) async {
        let entry = AuditLog.notification(kind, detail: detail, reason: request.reason, at: clock.now(), actor: actor)
        do {
            try await store.appendAudit(tenantID: tenant.id, entry)
        } catch {
            logger.error("could not record \(kind) in the audit log of \(tenant.id): \(error)")
        }
    }

    /// A webhook as the audit log names it: id, the URL's scheme and host only (a chat's incoming
    /// webhook carries its secret in the path or query), events, schedules by name.
    static func describe(_ webhook: StoredWebhook, state: RosterState) -> String {
        let schedules = webhook.schedules.map { state.schedules[$0]?.name ?? $0 }
        var origin = "?"
        if let url = URLComponents(string: webhook.url), let scheme = url.scheme, let host = url.host {
            origin = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/…"
        }
        return "webhook \(webhook.id) → \(origin) (events: "
            + (webhook.events.isEmpty ? "all" : webhook.events.joined(separator: ", "))
            + (schedules.isEmpty ? "" : "; schedules: " + schedules.joined(separator: ", ")) + ")"
    }

    /// A reminder rule as the audit log names it, in the words `admin reminder list` uses.
    static func describe(_ rule: ReminderRule, state: RosterState) -> String {
        "reminder \(rule.id): " + Roster_V1_ReminderRule(rule).sentence(scheduleName: state.schedules[rule.scheduleID]?.name,
                                                                     personName: state.employees[rule.personID]?.fullName)
    }
}

extension Roster_V1_Webhook {
    init(_ webhook: StoredWebhook) {
        self.init()
        id = webhook.id
        url = WebhookClient.redacted(webhook.url)
        events = webhook.events
        schedules = webhook.schedules
        createdMs = webhook.created
        disabledMs = webhook.disabledAt ?? 0
        disabledReason = webhook.disabledReason
        failingSinceMs = webhook.failingSince ?? 0
        pending = UInt32(clamping: webhook.pending)
    }
}

extension Roster_V1_WebhookDelivery {
    init(_ attempt: DeliveryAttempt) {
        self.init()
        deliveryID = "\(attempt.eventID).\(attempt.webhookID)"
        eventID = attempt.eventID
        eventType = attempt.eventType
        webhookID = attempt.webhookID
        self.attempt = UInt32(clamping: attempt.attempt)
        atMs = attempt.at
        status = UInt32(clamping: attempt.status ?? 0)
        error = attempt.error
        durationMs = UInt32(clamping: attempt.durationMillis)
    }
}

extension Roster_V1_ReminderRule {
    init(_ rule: ReminderRule) {
        self.init()
        id = rule.id
        schedule = rule.scheduleID
        person = rule.personID
        timeZone = rule.zone
        switch rule.timing {
        case .lead(let minutes): leadMinutes = Int64(minutes)
        case .daysBefore(let days, let minute):
            daysBefore = UInt32(days)
            atMinuteOfDay = UInt32(minute)
        }
    }
}

extension ReminderRule {
    /// A rule from the wire, its schedule and person resolved by id or name.
    static func make(_ wire: Roster_V1_ReminderRule, id: String, state: RosterState) -> Result<ReminderRule, WireError> {
        var scheduleID = "", personID = ""
        if !wire.schedule.isEmpty {
            guard let schedule = state.schedule(idOrName: wire.schedule) else { return .failure(WireError(.notFound, "no schedule \(wire.schedule)")) }
            scheduleID = schedule.id
        }
        if !wire.person.isEmpty {
            guard let person = state.employee(idOrName: wire.person) else { return .failure(WireError(.notFound, "no employee \(wire.person)")) }
            personID = person.id
        }
        if !wire.timeZone.isEmpty && WallClock(zone: wire.timeZone) == nil {
            return .failure(WireError(.invalidArgument, "unknown time zone \(wire.timeZone)"))
        }
        let timing: Timing
        if wire.leadMinutes > 0 && wire.daysBefore == 0 {
            guard wire.leadMinutes <= 7 * 1440 else { return .failure(WireError(.invalidArgument, "a reminder comes at most 7 days ahead")) }
            timing = .lead(minutes: Int(wire.leadMinutes))
        } else if wire.daysBefore > 0 && wire.leadMinutes == 0 {
            guard wire.daysBefore <= 7, wire.atMinuteOfDay < 1440 else {
                return .failure(WireError(.invalidArgument, "days before is 1 to 7, at a time of day before 24:00"))
            }
            timing = .daysBefore(days: Int(wire.daysBefore), minuteOfDay: Int(wire.atMinuteOfDay))
        } else {
            return .failure(WireError(.invalidArgument, "a reminder has either a lead time or days before and a time of day"))
        }
        return .success(ReminderRule(id: id, scheduleID: scheduleID, personID: personID, timing: timing, zone: wire.timeZone))
    }
}
