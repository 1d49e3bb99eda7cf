import RosterProtocol

/// A person's push subscriptions and settings (docs/PUSH.md): phones and browsers reached with
/// Web Push, UnifiedPush distributors, ntfy topics. Managed with a token bound to the person.
extension RosterClient {
    /// Subscribes the connection's person; the answer names the new subscription.
    public func addPushSubscription(_ spec: Roster_V1_PushSubscriptionSpec) async throws -> Roster_V1_PushResponse {
        try await push(.with { $0.add = spec })
    }

    /// The person's subscriptions and settings, the VAPID key, and an admin's counts.
    public func pushSubscriptions() async throws -> Roster_V1_PushResponse {
        try await push(.with { $0.list = true })
    }

    public func removePushSubscription(id: String) async throws {
        _ = try await push(.with { $0.remove = id })
    }

    /// Replaces the person's settings whole.
    public func setPushSettings(_ settings: Roster_V1_PushSettings) async throws -> Roster_V1_PushResponse {
        try await push(.with { $0.setSettings = settings })
    }

    /// An admin's: a new VAPID key for the tenant.
    public func rotatePushKey() async throws -> Roster_V1_PushResponse {
        try await push(.with { $0.rotateKey = true })
    }

    private func push(_ body: Roster_V1_PushRequest) async throws -> Roster_V1_PushResponse {
        guard case .pushResult(let answer) = try await request(RosterMessage.push(body)) else {
            throw RosterClientError.protocolViolation("expected PushResult")
        }
        return answer
    }
}
