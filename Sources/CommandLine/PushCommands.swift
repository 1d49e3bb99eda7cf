import RosterDomain
import RosterProtocol

/// `roster-client push add|list|remove|settings` and `admin push rotate-key` (docs/PUSH.md).
extension CommandRunner {
    public func addPushSubscription(endpoint: String, p256dh: String, auth: String, ntfy: Bool, label: String) async
        -> ClientExitCode
    {
        await run {
            let answer = try await client.addPushSubscription(
                .with {
                    $0.endpoint = endpoint
                    $0.p256Dh = p256dh
                    $0.auth = auth
                    $0.format = ntfy ? "ntfy" : "web-push"
                    $0.label = label
                })
            if json { return Self.out(try answer.jsonString()) }
            Self.out("Push subscription \(answer.subscriptionID) added.")
        }
    }

    public func listPushSubscriptions() async -> ClientExitCode {
        await run {
            let answer = try await client.pushSubscriptions()
            if json { return Self.out(try answer.jsonString()) }
            printPush(answer)
        }
    }

    public func removePushSubscription(id: String) async -> ClientExitCode {
        await run {
            try await client.removePushSubscription(id: id)
            if !json { Self.out("Push subscription \(id) removed.") }
        }
    }

    /// `kinds` nil: kept as they are; `quiet` nil: kept, .some(nil): none.
    public func setPushSettings(kinds: [String]?, quiet: (start: Int, end: Int, zone: String)??) async
        -> ClientExitCode
    {
        await run {
            var settings = try await client.pushSubscriptions().settings
            if let kinds { settings.kinds = kinds }
            if let quiet {
                settings.quiet = quiet != nil
                settings.quietStartMinute = Int32(quiet?.start ?? 0)
                settings.quietEndMinute = Int32(quiet?.end ?? 0)
                settings.quietZone = quiet?.zone ?? ""
            }
            let answer = try await client.setPushSettings(settings)
            if json { return Self.out(try answer.settings.jsonString()) }
            Self.out(Self.describe(answer.settings))
        }
    }

    public func rotatePushKey() async -> ClientExitCode {
        await run {
            let answer = try await client.rotatePushKey()
            if json { return Self.out(try answer.jsonString()) }
            Self.out("New VAPID key: \(answer.vapidPublicKey)")
            Self.out(
                "Browsers subscribed with the old key subscribe again when their Notifications page is next opened.")
        }
    }

    private func printPush(_ answer: Roster_V1_PushResponse) {
        if answer.subscriptions.isEmpty {
            Self.out("No push subscriptions.")
        }
        for subscription in answer.subscriptions {
            var line = "\(subscription.id)  \(subscription.format)  \(subscription.origin)"
            if !subscription.label.isEmpty { line += "  \(subscription.label)" }
            if !subscription.disabledReason.isEmpty {
                line += "  (disabled: \(subscription.disabledReason))"
            } else if subscription.failingSinceMs != 0 {
                line += "  (failing since \(TimeText.iso8601(subscription.failingSinceMs)))"
            }
            Self.out(line)
        }
        Self.out(Self.describe(answer.settings))
        if answer.peopleSubscribed != 0 || answer.webPushSubscriptions != 0 || answer.ntfySubscriptions != 0 {
            Self.out(
                "Tenant: \(answer.peopleSubscribed) people subscribed; \(answer.webPushSubscriptions) Web Push, "
                    + "\(answer.ntfySubscriptions) ntfy")
        }
    }

    static func describe(_ settings: Roster_V1_PushSettings) -> String {
        let told = settings.kinds.isEmpty ? "nothing" : settings.kinds.joined(separator: ", ")
        guard settings.quiet else { return "Told of: \(told); no quiet hours" }
        func time(_ minute: Int32) -> String {
            (minute / 60 < 10 ? "0" : "") + "\(minute / 60):" + (minute % 60 < 10 ? "0" : "") + "\(minute % 60)"
        }
        return "Told of: \(told); quiet \(time(settings.quietStartMinute))-\(time(settings.quietEndMinute)) "
            + "\(settings.quietZone) (going on duty still rings)"
    }
}
