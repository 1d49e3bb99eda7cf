import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

extension Notifier {
    /// NotificationAdmin (admin role): webhooks and reminder rules of the connection's tenant.
    /// Runs on the mutation queue, so a new webhook's first planning round cannot interleave
    /// with a change. Adds and removes are recorded in the audit log with the request's reason.
    package func administer(_ request: Roster_V1_NotificationAdminRequest, tenant: TenantRuntime, actor: Caller) async
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
                guard let format = WebhookFormat(wire: wire.format) else {
                    let known = WebhookFormat.webhookFormats.map(\.rawValue).joined(separator: ", ")
                    return .failure(
                        WireError(.invalidArgument, "unknown webhook format \(wire.format) (known: \(known))"))
                }
                if let problem = Self.chatProblem(format: format, url: wire.url, accessToken: wire.accessToken) {
                    return .failure(WireError(.invalidArgument, problem))
                }
                let subscribable = NotificationType.subscribable.map(\.rawValue)
                let unknownTypes = wire.events.filter { !subscribable.contains($0) }
                if !unknownTypes.isEmpty {
                    return .failure(
                        WireError(
                            .invalidArgument,
                            "unknown event type \(unknownTypes.joined(separator: ", ")) (known: \(subscribable.joined(separator: ", ")))"
                        ))
                }
                var schedules: [String] = []
                for name in wire.schedules {
                    guard let schedule = tenant.view.state.schedule(idOrName: name) else {
                        return .failure(WireError(.notFound, "no schedule \(name)"))
                    }
                    schedules.append(schedule.id)
                }
                // A chat webhook is not signed by us: Matrix's access token is kept where a secret
                // is; the others' URL is their secret, and the signing secret is never used.
                let secret = format == .matrix ? wire.accessToken : WebhookSignature.newSecret()
                let webhook = StoredWebhook(
                    id: IdentifierFactory.make("whk"), tenantID: tenant.id, url: wire.url,
                    secret: notifier.sealer.seal(secret), events: wire.events, schedules: schedules,
                    created: clock.now(), format: format)
                try await store.insertWebhook(webhook)
                try await notifier.reload(tenantID: tenant.id)
                await notifier.plan(tenant)
                answer.webhooks = [Roster_V1_Webhook(webhook)]
                if !format.isChat { answer.secret = secret }
                await audit(
                    AuditLog.Kind.webhookAdded, Self.describe(webhook, state: tenant.view.state), request, tenant, actor
                )
            case .removeWebhook(let id):
                let removed = try await notifier.webhooks(of: tenant.id).first { $0.id == id }
                guard removed != nil, try await store.removeWebhook(tenantID: tenant.id, id: id) else {
                    return .failure(WireError(.notFound, "no webhook \(id)"))
                }
                try await notifier.reload(tenantID: tenant.id)
                let detail = removed.map { Self.describe($0, state: tenant.view.state) } ?? "webhook \(id)"
                await audit(AuditLog.Kind.webhookRemoved, detail, request, tenant, actor)
            case .listWebhooks:
                answer.webhooks = try await notifier.webhooks(of: tenant.id).map(
                    Roster_V1_Webhook.init)
            case .testWebhook(let id):
                guard try await notifier.webhooks(of: tenant.id).contains(where: { $0.id == id })
                else {
                    return .failure(WireError(.notFound, "no webhook \(id)"))
                }
                let now = clock.now()
                let event = NotificationEvent(
                    type: .ping, tenantID: tenant.id, key: "ping:\(id):\(now):\(UInt64.random(in: 0...UInt64.max))",
                    revision: tenant.view.revision, about: now, due: now, planned: false, scheduleIDs: [],
                    people: [], data: NotificationPayload.Ping(webhook: id))
                try await store.enqueue(event, forWebhook: id)
                notifier.dispatcher.wake()
                answer.eventID = event.id
            case .listDeliveries(let id):
                let limit = request.limit == 0 ? 100 : Int(min(request.limit, 1000))
                answer.deliveries = try await store.deliveryAttempts(
                    tenantID: tenant.id, webhookID: id.isEmpty ? nil : id, limit: limit
                )
                .map(Roster_V1_WebhookDelivery.init)
            case .addReminder(let wire):
                let rule: ReminderRule
                switch ReminderRule.make(wire, id: IdentifierFactory.make("rem"), state: tenant.view.state) {
                case .success(let made): rule = made
                case .failure(let error): return .failure(error)
                }
                try await store.insertRule(rule, tenantID: tenant.id)
                try await notifier.reload(tenantID: tenant.id)
                // Reminders due within the window already planned are written now.
                await notifier.replan(tenant)
                answer.reminders = [Roster_V1_ReminderRule(rule)]
                await audit(
                    AuditLog.Kind.reminderAdded, Self.describe(rule, state: tenant.view.state), request, tenant, actor)
            case .removeReminder(let id):
                let removed = try await store.rules(ReminderRule.self, tenantID: tenant.id).first { $0.id == id }
                guard try await store.removeRule(ReminderRule.self, tenantID: tenant.id, id: id) else {
                    return .failure(WireError(.notFound, "no reminder \(id)"))
                }
                try await notifier.reload(tenantID: tenant.id)
                await notifier.replan(tenant)
                let detail = removed.map { Self.describe($0, state: tenant.view.state) } ?? "reminder \(id)"
                await audit(AuditLog.Kind.reminderRemoved, detail, request, tenant, actor)
            case .listReminders:
                answer.reminders = try await store.rules(ReminderRule.self, tenantID: tenant.id).map(
                    Roster_V1_ReminderRule.init)
            case .addAnnouncement(let wire):
                let rule: AnnounceRule
                switch try await AnnounceRule.make(
                    wire, id: IdentifierFactory.make("ann"), state: tenant.view.state,
                    webhooks: notifier.webhooks(of: tenant.id))
                {
                case .success(let made): rule = made
                case .failure(let error): return .failure(error)
                }
                try await store.insertRule(rule, tenantID: tenant.id)
                try await notifier.reload(tenantID: tenant.id)
                await notifier.replan(tenant)
                answer.announcements = [Roster_V1_AnnounceRule(rule)]
                await audit(
                    AuditLog.Kind.announcementAdded, Self.describe(rule, state: tenant.view.state), request, tenant,
                    actor)
            case .removeAnnouncement(let id):
                let removed = try await store.rules(AnnounceRule.self, tenantID: tenant.id).first { $0.id == id }
                guard try await store.removeRule(AnnounceRule.self, tenantID: tenant.id, id: id) else {
                    return .failure(WireError(.notFound, "no announcement \(id)"))
                }
                try await notifier.reload(tenantID: tenant.id)
                await notifier.replan(tenant)
                let detail = removed.map { Self.describe($0, state: tenant.view.state) } ?? "announcement \(id)"
                await audit(AuditLog.Kind.announcementRemoved, detail, request, tenant, actor)
            case .listAnnouncements:
                answer.announcements = try await store.rules(AnnounceRule.self, tenantID: tenant.id).map(
                    Roster_V1_AnnounceRule.init)
            case .setChatCommand(let wire):
                guard ChatCommands.platforms.contains(wire.platform) else {
                    return .failure(
                        WireError(
                            .invalidArgument,
                            "a slash command is for \(ChatCommands.platforms.joined(separator: " or ")), not \(wire.platform)"
                        ))
                }
                if let problem = ChatCommands.secretProblem(wire.secret) {
                    return .failure(WireError(.invalidArgument, problem))
                }
                try await store.setChatCommandSecret(
                    tenantID: tenant.id, platform: wire.platform,
                    secret: wire.secret.isEmpty ? nil : notifier.sealer.seal(wire.secret))
                answer.chatCommands = try await store.chatCommandPlatforms(tenantID: tenant.id)
                let detail = "\(wire.platform) slash command " + (wire.secret.isEmpty ? "turned off" : "set up")
                await audit(AuditLog.Kind.chatCommandSet, detail, request, tenant, actor)
            case .listChatCommands:
                answer.chatCommands = try await store.chatCommandPlatforms(tenantID: tenant.id)
            case nil:
                return .failure(WireError(.invalidArgument, "NotificationAdmin names no action"))
            }
        } catch {
            return .failure(
                WireError(.unavailable, "the notification settings could not be stored: \(error)", retryable: true))
        }
        return .success(.notificationAdminResult(answer))
    }

    /// Appends the audit entry of a change already made: a store that cannot take it is logged,
    /// and the change (durable by now) is still answered as made.
    private func audit(
        _ kind: String, _ detail: String, _ request: Roster_V1_NotificationAdminRequest,
        _ tenant: TenantRuntime, _ actor: Caller
    ) async {
        let entry = AuditLog.administered(kind, detail: detail, reason: request.reason, at: clock.now(), actor: actor)
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
        return "webhook \(webhook.id) → \(origin) (" + (webhook.format.isChat ? "\(webhook.format.rawValue); " : "")
            + "events: "
            + (webhook.events.isEmpty ? "all" : webhook.events.joined(separator: ", "))
            + (schedules.isEmpty ? "" : "; schedules: " + schedules.joined(separator: ", ")) + ")"
    }

    /// What is wrong with a chat webhook's settings: Matrix needs its room's send URL base and an
    /// access token; the others take no token.
    static func chatProblem(format: WebhookFormat, url: String, accessToken: String) -> String? {
        if format == .matrix {
            guard let path = URLComponents(string: url)?.percentEncodedPath, path.contains("/rooms/"),
                !path.contains("/send/")
            else {
                return
                    "a matrix webhook's URL is the room's: https://HOMESERVER/_matrix/client/v3/rooms/ROOM_ID (Roster adds /send/…)"
            }
            guard !accessToken.isEmpty else {
                return "a matrix webhook needs the bot's access token (--access-token-file)"
            }
            guard accessToken.utf8.count <= 1_000,
                !accessToken.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
            else {
                return "the access token must be one line of at most 1000 bytes without spaces"
            }
        } else if !accessToken.isEmpty {
            return "only a matrix webhook takes an access token"
        }
        return nil
    }

    /// An announcement rule as the audit log names it.
    static func describe(_ rule: AnnounceRule, state: RosterState) -> String {
        let wire = Roster_V1_AnnounceRule(rule)
        let when =
            wire.onChange ? "on every change" : "at \(wire.at)" + (wire.weekdays.isEmpty ? "" : " on \(wire.weekdays)")
        return
            "announcement \(rule.id): \(state.schedules[rule.scheduleID]?.name ?? rule.scheduleID) to webhook \(rule.webhookID) \(when)"
    }

    /// A reminder rule as the audit log names it, in the words `admin reminder list` uses.
    static func describe(_ rule: ReminderRule, state: RosterState) -> String {
        "reminder \(rule.id): "
            + Roster_V1_ReminderRule(rule).sentence(
                scheduleName: state.schedules[rule.scheduleID]?.name,
                personName: state.employees[rule.personID]?.fullName)
    }
}
