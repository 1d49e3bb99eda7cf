import RosterProtocol

/// Webhooks and reminder rules (admin tokens; docs/NOTIFICATIONS.md). The answers are the wire
/// messages themselves: they are what `roster-client admin webhook|reminder` prints.
extension RosterClient {
    /// Registers a webhook; the answer holds the webhook and its signing secret (shown only now).
    public func addWebhook(url: String, events: [String] = [], schedules: [String] = []) async throws
        -> (webhook: Roster_V1_Webhook, secret: String)
    {
        let answer = try await notificationAdmin(.with {
            $0.addWebhook = .with {
                $0.url = url
                $0.events = events
                $0.schedules = schedules
            }
        })
        guard let webhook = answer.webhooks.first else { throw RosterClientError.protocolViolation("no webhook in the answer") }
        return (webhook, answer.secret)
    }

    public func webhooks() async throws -> [Roster_V1_Webhook] {
        try await notificationAdmin(.with { $0.listWebhooks = true }).webhooks
    }

    public func removeWebhook(id: String) async throws {
        _ = try await notificationAdmin(.with { $0.removeWebhook = id })
    }

    /// Queues a `ping` event for the webhook; returns its event id.
    public func testWebhook(id: String) async throws -> String {
        try await notificationAdmin(.with { $0.testWebhook = id }).eventID
    }

    /// The newest delivery attempts (of one webhook, or of all), newest first.
    public func webhookDeliveries(webhookID: String? = nil, limit: Int = 100) async throws -> [Roster_V1_WebhookDelivery] {
        try await notificationAdmin(.with {
            $0.listDeliveries = webhookID ?? ""
            $0.limit = UInt32(clamping: limit)
        }).deliveries
    }

    public func addReminder(_ rule: Roster_V1_ReminderRule) async throws -> Roster_V1_ReminderRule {
        guard let made = try await notificationAdmin(.with { $0.addReminder = rule }).reminders.first else {
            throw RosterClientError.protocolViolation("no reminder in the answer")
        }
        return made
    }

    public func reminders() async throws -> [Roster_V1_ReminderRule] {
        try await notificationAdmin(.with { $0.listReminders = true }).reminders
    }

    public func removeReminder(id: String) async throws {
        _ = try await notificationAdmin(.with { $0.removeReminder = id })
    }

    private func notificationAdmin(_ body: Roster_V1_NotificationAdminRequest) async throws -> Roster_V1_NotificationAdminResponse {
        guard case .notificationAdminResult(let answer) = try await request(RosterMessage.notificationAdmin(body)) else {
            throw RosterClientError.protocolViolation("expected NotificationAdminResult")
        }
        return answer
    }
}
