import RosterProtocol

/// Webhooks and reminder rules (admin tokens; docs/NOTIFICATIONS.md). The answers are the wire
/// messages themselves: they are what `roster-client admin webhook|reminder` prints.
extension RosterClient {
    /// Registers a webhook; the answer holds the webhook and its signing secret (shown only now).
    /// `reason`, as for every add and remove here, is kept in the audit log.
    /// `format`: "json" (signed events) or a chat platform's (docs/CHAT.md); a chat webhook has no
    /// signing secret (the answer's is empty), and a matrix one takes the bot's `accessToken`.
    public func addWebhook(
        url: String, events: [String] = [], schedules: [String] = [], format: String = "json",
        accessToken: String = "", reason: String = ""
    ) async throws
        -> (webhook: Roster_V1_Webhook, secret: String)
    {
        let answer = try await notificationAdmin(
            .with {
                $0.reason = reason
                $0.addWebhook = .with {
                    $0.url = url
                    $0.events = events
                    $0.schedules = schedules
                    $0.format = format
                    $0.accessToken = accessToken
                }
            })
        guard let webhook = answer.webhooks.first else {
            throw RosterClientError.protocolViolation("no webhook in the answer")
        }
        return (webhook, answer.secret)
    }

    public func webhooks() async throws -> [Roster_V1_Webhook] {
        try await notificationAdmin(.with { $0.listWebhooks = true }).webhooks
    }

    public func removeWebhook(id: String, reason: String = "") async throws {
        _ = try await notificationAdmin(
            .with {
                $0.removeWebhook = id
                $0.reason = reason
            })
    }

    /// Queues a `ping` event for the webhook; returns its event id.
    public func testWebhook(id: String) async throws -> String {
        try await notificationAdmin(.with { $0.testWebhook = id }).eventID
    }

    /// The newest delivery attempts (of one webhook, or of all), newest first.
    public func webhookDeliveries(webhookID: String? = nil, limit: Int = 100) async throws
        -> [Roster_V1_WebhookDelivery]
    {
        try await notificationAdmin(
            .with {
                $0.listDeliveries = webhookID ?? ""
                $0.limit = UInt32(clamping: limit)
            }
        ).deliveries
    }

    public func addReminder(_ rule: Roster_V1_ReminderRule, reason: String = "") async throws -> Roster_V1_ReminderRule
    {
        guard
            let made = try await notificationAdmin(
                .with {
                    $0.addReminder = rule
                    $0.reason = reason
                }
            ).reminders.first
        else {
            throw RosterClientError.protocolViolation("no reminder in the answer")
        }
        return made
    }

    public func reminders() async throws -> [Roster_V1_ReminderRule] {
        try await notificationAdmin(.with { $0.listReminders = true }).reminders
    }

    public func removeReminder(id: String, reason: String = "") async throws {
        _ = try await notificationAdmin(
            .with {
                $0.removeReminder = id
                $0.reason = reason
            })
    }

    /// Adds an announcement rule: `rule.onChange`, or `rule.at` ("Mon 09:00", "09:00") with
    /// optional `rule.weekdays` ("Mon-Fri"); its schedule by id or name, its webhook by id.
    public func addAnnouncement(_ rule: Roster_V1_AnnounceRule, reason: String = "") async throws
        -> Roster_V1_AnnounceRule
    {
        guard
            let made = try await notificationAdmin(
                .with {
                    $0.addAnnouncement = rule
                    $0.reason = reason
                }
            ).announcements.first
        else {
            throw RosterClientError.protocolViolation("no announcement in the answer")
        }
        return made
    }

    public func announcements() async throws -> [Roster_V1_AnnounceRule] {
        try await notificationAdmin(.with { $0.listAnnouncements = true }).announcements
    }

    public func removeAnnouncement(id: String, reason: String = "") async throws {
        _ = try await notificationAdmin(
            .with {
                $0.removeAnnouncement = id
                $0.reason = reason
            })
    }

    /// Sets a slash command's secret ("slack": the signing secret; "mattermost": the command's
    /// token); an empty secret turns it off. Returns the platforms set up now.
    public func setChatCommand(platform: String, secret: String, reason: String = "") async throws -> [String] {
        try await notificationAdmin(
            .with {
                $0.setChatCommand = .with {
                    $0.platform = platform
                    $0.secret = secret
                }
                $0.reason = reason
            }
        ).chatCommands
    }

    public func chatCommands() async throws -> [String] {
        try await notificationAdmin(.with { $0.listChatCommands = true }).chatCommands
    }

    private func notificationAdmin(_ body: Roster_V1_NotificationAdminRequest) async throws
        -> Roster_V1_NotificationAdminResponse
    {
        guard case .notificationAdminResult(let answer) = try await request(RosterMessage.notificationAdmin(body))
        else {
            throw RosterClientError.protocolViolation("expected NotificationAdminResult")
        }
        return answer
    }
}

/// What a NOTICES subscription yields: a notice, or word that some were missed.
public enum NoticeUpdate: Sendable {
    case notice(Roster_V1_Notice)
    /// The server's kept notices no longer reach back to the last one applied (a long absence,
    /// or a restored store): some notices were not seen.
    case missed
}

extension RosterClient {
    /// The tenant's notification events as they fall due (docs/NOTIFICATIONS.md): those of
    /// `people` (ids or full names), or else of `schedules` (ids or names; `allSchedules`: every
    /// one; neither: the default schedule). The stream reconnects with the client's back-off
    /// and resumes after the last notice it yielded, so none is missed or repeated while the
    /// server keeps them; start with `after` (a sequence from an earlier run) to resume across
    /// runs. It ends with an error when the server refuses the subscription (an unknown person).
    public nonisolated func notices(
        people: [String] = [], schedules: [String] = [], allSchedules: Bool = false,
        after: UInt64? = nil
    ) -> AsyncThrowingStream<NoticeUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream<NoticeUpdate, any Error>.makeStream()
        let task = Task {
            var last = after
            var attempt = 0
            while !Task.isCancelled {
                attempt += 1
                let opened = ContinuousClock.now
                do {
                    let connection = try await self.connect()
                    _ = connection.subscribe(
                        .with {
                            $0.topics = [.notices]
                            $0.noticePeople = people
                            $0.schedules = schedules
                            $0.allSchedules = allSchedules
                            if let last { $0.sinceNotice = last }
                        })
                    for await inbound in connection.inbound {
                        switch inbound.message {
                        case .notice(let notice) where notice.sequence > (last ?? 0):
                            last = notice.sequence
                            continuation.yield(.notice(notice))
                        case .synced(let synced):
                            if synced.noticesMissed { continuation.yield(.missed) }
                            if last == nil || synced.noticesMissed { last = synced.noticeSequence }
                        case .error(let error) where error.code != .resyncRequired:
                            await connection.close()
                            continuation.finish(throwing: RosterClientError.server(error))
                            return
                        default:
                            break
                        }
                    }
                    await connection.close()  // it ended, or the stream's reader went away
                } catch {
                    // Unreachable: try again after the back-off, like the client's own connection.
                }
                if ContinuousClock.now - opened >= configuration.reconnect.stableAfter { attempt = 1 }
                try? await Task.sleep(for: configuration.reconnect.delay(forAttempt: attempt + 1))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
