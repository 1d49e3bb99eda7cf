import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

/// Push subscriptions are delivered like webhooks (one at a time each, in order, at least once,
/// retried with back-off), with what a push service's answers mean (docs/PUSH.md, "Delivery").
extension OutboxDispatcher {
    /// Whether the subscription has more to deliver (`record`'s answer).
    func deliverPush(_ head: DueDelivery, attempt: Int, started: UnixMillis) async -> Bool {
        let subscription = head.webhook
        guard let context = pushContext(tenantID: subscription.tenantID, personID: subscription.personID) else {
            return await record(
                head, attempt: attempt, started: started, status: nil, problem: "not ready",
                outcome: .retry(at: started + 1_000))
        }
        guard let secret = sealer.open(subscription.secret) else {
            return await failed(
                head, attempt: attempt, started: started, status: nil,
                problem: """
                    the subscription's auth secret was sealed with another key: every node needs the same secrets key \
                    (DATA_DIR/secrets.key or --secrets-key-file; docs/SCALING.md)
                    """, retryAt: nil)
        }
        // A place at the push service first, then the message: a handoff's thousands wait in the
        // origin's queue (KeptConnections), and each is encrypted only when it can go.
        let reservation: WebhookClient.Reservation
        do throws(WebhookClient.Failure) {
            reservation = try await client.reserve(url: subscription.url)
        } catch {
            if Task.isCancelled { return false }
            return await failed(
                head, attempt: attempt, started: started, status: nil, problem: error.description, retryAt: nil)
        }
        let request: PushDelivery.Request
        switch PushDelivery.prepare(
            head, context: context, authSecret: secret, now: clock.now(), tokens: vapidTokens, payloads: pushPayloads,
            origin: reservation.origin)
        {
        case .send(let made): request = made
        case .skip(let why):
            client.giveBack(reservation)
            return await record(head, attempt: attempt, started: started, status: nil, problem: why, outcome: .skipped)
        case .hold(let until):
            client.giveBack(reservation)
            return await record(
                head, attempt: attempt, started: started, status: nil,
                problem: "held: quiet hours until \(Timestamp.iso8601(until))", outcome: .hold(until: until))
        }
        var status: Int?
        var answer: PushDelivery.Answer
        do throws(WebhookClient.Failure) {
            let response = try await client.post(
                url: request.url, on: reservation,
                headers: request.headers + [("User-Agent", "Roster/\(RosterVersion.release)")],
                body: request.body, timeout: settings.requestTimeout)
            status = response.status
            answer = PushDelivery.outcome(status: response.status, retryAfter: response.retryAfter, now: clock.now())
        } catch {
            answer = .retry(at: nil, error.description)
        }
        if Task.isCancelled { return false }  // stopping: the outcome is unknown, it goes again after a start
        switch answer {
        case .delivered:
            return await record(
                head, attempt: attempt, started: started, status: status, problem: "", outcome: .delivered)
        case .gone:
            logger.info("push subscription \(subscription.id) is gone (HTTP \(status ?? 0)): removed")
            return await record(
                head, attempt: attempt, started: started, status: status,
                problem: "the push service says the subscription is gone: removed", outcome: .remove)
        case .dropped(let why):
            return await record(
                head, attempt: attempt, started: started, status: status, problem: why, outcome: .skipped)
        case .retry(let at, let why):
            return await failed(head, attempt: attempt, started: started, status: status, problem: why, retryAt: at)
        }
    }

    /// What sending to a person's subscription needs to know of them and their tenant; nil
    /// before the notifier has said how to find out.
    func pushContext(tenantID: String, personID: String) -> PushDelivery.Context? {
        hooks.withLockedValue({ $0.pushContext })?(tenantID, personID)
    }

    /// A failed attempt: tried again after `retryAt` (a push service's Retry-After) or the
    /// back-off; a subscription failing for the whole retry budget is disabled.
    private func failed(
        _ head: DueDelivery, attempt: Int, started: UnixMillis, status: Int?, problem: String, retryAt: UnixMillis?
    ) async -> Bool {
        let now = clock.now()
        let outcome: DeliveryOutcome
        if now - (head.webhook.failingSince ?? now) >= settings.retryBudget.milliseconds {
            outcome = .disable(
                reason: "failing since \(Timestamp.iso8601(head.webhook.failingSince!)); last attempt: \(problem)")
            logger.warning("disabled push subscription \(head.webhook.id): \(problem)")
        } else {
            outcome = .retry(at: max(retryAt ?? 0, now + backoff(attempt: attempt)))
        }
        return await record(
            head, attempt: attempt, started: started, status: status, problem: problem, outcome: outcome)
    }
}
