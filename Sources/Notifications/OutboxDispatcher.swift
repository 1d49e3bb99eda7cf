import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTLS

/// How a webhook request is signed (docs/NOTIFICATIONS.md, "Verifying a delivery"): HMAC-SHA256
/// under the webhook's secret over "TIMESTAMP.BODY", sent as `Roster-Signature: t=TIMESTAMP,v1=HEX`,
/// the way Stripe signs; the timestamp lets a receiver refuse replays.
public enum WebhookSignature {
    public static let header = "Roster-Signature"

    public static func sign(secret: String, timestamp: Int64, body: Data) -> String {
        let mac = Crypto.hmacSHA256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + Array(body))
        return "t=\(timestamp),v1=\(Crypto.hex(mac))"
    }

    /// Whether `header` is a valid signature of `body` under `secret` made within `tolerance`
    /// seconds of `now` (what a receiver does; the tests check deliveries with it).
    public static func verify(header: String, body: Data, secret: String, now: Int64, tolerance: Int64 = 300) -> Bool {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now - timestamp) <= tolerance else { return false }
        let expected = Array(sign(secret: secret, timestamp: timestamp, body: body).split(separator: "=").last!.utf8)
        return signatures.contains { Crypto.constantTimeEqual(Array($0.utf8), expected) }
    }

    /// A new secret: "whsec_" and 32 random bytes in hex.
    static func newSecret() -> String { "whsec_" + Crypto.hex(Crypto.randomBytes(32)) }
}

/// Takes events out of the outbox when they fall due: publishes them to NOTICES subscribers
/// (each with the tenant's next sequence, through `onPublished`), and delivers them to webhooks:
/// for each enabled webhook the oldest due event, one at a time per webhook (so each receives its events in order), many webhooks at once. A failed
/// attempt is retried with exponential back-off and jitter; a webhook that has failed for the
/// whole retry budget is disabled with the reason. At least once: the delivery is marked done
/// only after a 2xx, so a crash between the response and the mark sends it again with the same
/// `Roster-Delivery` id, which the receiver deduplicates on.
package final class OutboxDispatcher: Sendable {
    let store: any NotificationStore
    let settings: ServerConfiguration.NotificationSettings
    let clock: any ServerClock
    let logger: Logger
    let client: WebhookClient
    let sealer: SecretSealer
    /// What the dispatcher calls out to, set once after it is made. Kept as fields of a struct:
    /// a function type as the lock box's value itself is re-abstracted by every `withLockedValue`
    /// and written back wrapped in two more thunks, so each read made every later call slower
    /// (40 % of a 10,000-message handoff's CPU) and some 300,000 reads overflowed the stack.
    struct Hooks {
        /// What a push subscription's tenant and person need at sending (set by the notifier).
        var pushContext: (@Sendable (String, String) -> PushDelivery.Context)?
        /// Where published notices go (the server's tenants).
        var publish: (@Sendable (String, [PublishedNotice]) -> Void)?
    }
    let hooks = NIOLockedValueBox(Hooks())
    /// VAPID tokens kept per push service.
    let vapidTokens = VAPIDTokens()
    let pushPayloads = PushPayloads()
    private let recorder: AttemptRecorder
    /// Which addresses deliveries may reach.
    var addresses: WebhookAddressPolicy { client.addresses }
    private let wakeups: AsyncStream<Void>.Continuation
    private let wakeStream: AsyncStream<Void>
    /// Webhooks whose head is being delivered or waits in its lane.
    private let inFlight = NIOLockedValueBox<Set<String>>([])
    /// A head given to its destination's lane, with the news count of the round that found it.
    private struct LaneItem: Sendable {
        var head: DueDelivery
        var newsBefore: UInt64
        var queued = ContinuousClock.now
    }
    private let lanes = DeliveryLanes<LaneItem>()
    /// How many times something new was said to be due (`wake`): a round that starts while a
    /// webhook is busy skips its head, so a delivery that ends after news looks again.
    private let news = NIOLockedValueBox<UInt64>(0)
    /// Webhook deliveries held (a data directory restored from a backup: its copy must not send
    /// production's webhooks again); NOTICES are still published to subscribers.
    private let paused = NIOLockedValueBox(false)
    private let rounds = NIOLockedValueBox<UInt64>(0)

    /// Where published notices go (the server's tenants); set once before `run`.
    package func onPublished(_ body: @escaping @Sendable (String, [PublishedNotice]) -> Void) {
        hooks.withLockedValue { $0.publish = body }
    }

    init(
        store: any NotificationStore, settings: ServerConfiguration.NotificationSettings, clock: any ServerClock,
        logger: Logger, trust: TLSClientConfiguration = TLSClientConfiguration(),
        addresses: WebhookAddressPolicy = WebhookAddressPolicy(),
        sealer: SecretSealer
    ) {
        self.sealer = sealer
        self.store = store
        recorder = AttemptRecorder(store: store)
        self.settings = settings
        self.clock = clock
        self.logger = logger
        // NIO's process-wide group, not the server's: webhook I/O never runs on the loops that
        // serve clients. Nothing here blocks (a server in a test suite starts in milliseconds):
        // the TLS context, which reads the system's CA file, is made on first use.
        client = WebhookClient(
            group: MultiThreadedEventLoopGroup.singleton, tls: WebhookClient.LazyTLS(trust), addresses: addresses)
        (wakeStream, wakeups) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Something new may be due: look now rather than at the next poll.
    func wake() {
        news.withLockedValue { $0 += 1 }
        lookNow()
    }

    /// A round now: the dispatcher's own alarms, and a delivery whose webhook has more.
    private func lookNow() { wakeups.yield() }

    /// Rounds looked at so far, deliveries under way, and a round now: a test that asserts that
    /// nothing was sent waits for a whole round after moving its clock instead of sleeping.
    package var completedRounds: UInt64 { rounds.withLockedValue { $0 } }
    package var deliveriesInFlight: Int { inFlight.withLockedValue { $0.count } }
    package func lookAgain() { wake() }

    package var isPaused: Bool { paused.withLockedValue { $0 } }

    /// Holds or releases webhook deliveries; released, what is due goes out at once.
    package func setPaused(_ pause: Bool) {
        paused.withLockedValue { $0 = pause }
        if !pause { wake() }
    }

    /// Delivers until cancelled; then waits for requests in flight and stops its thread.
    package func run() async {
        await withDiscardingTaskGroup { deliveries in
            var wakes = wakeStream.makeAsyncIterator()
            while !Task.isCancelled {
                var nextDue: UnixMillis?
                let roundStarted = ContinuousClock.now
                let newsBefore = news.withLockedValue { $0 }
                do {
                    // A webhook busy when the query starts may finish during it: its head as read
                    // is then stale (already delivered), so it waits for the next round, which its
                    // finishing delivery wakes.
                    let due = try await store.publishDue(now: clock.now())
                    if let publish = hooks.withLockedValue({ $0.publish }) {
                        for (tenantID, notices) in due.published { publish(tenantID, notices) }
                    }
                    let busy = inFlight.withLockedValue { $0 }
                    let found =
                        isPaused
                        ? (heads: [], nextDue: nil)
                        : try await store.deliveryHeads(now: clock.now(), excluding: busy)
                    nextDue = [found.nextDue, due.nextDue].compactMap { $0 }.min()
                    for head in found.heads
                    where !busy.contains(head.webhook.id)
                        && inFlight.withLockedValue({ $0.insert(head.webhook.id).inserted })
                    {
                        let (lane, item) = (
                            lanes.lane(of: head.webhook.url), LaneItem(head: head, newsBefore: newsBefore)
                        )
                        guard lanes.admit(item, lane: lane, tenant: head.webhook.tenantID) else { continue }
                        deliveries.addTask { await self.drive(lane, from: item) }
                    }
                } catch is CancellationError {
                    break  // the server is stopping: not a failure to report
                } catch {
                    logger.warning("could not read the webhook outbox: \(error)")
                }
                rounds.withLockedValue { $0 += 1 }
                // A round reads the whole outbox, and deliveries that end with more to send wake
                // one each: rounds back to back would take the CPU the deliveries need. The next
                // starts only after four times this one's length, so rounds take at most a fifth
                // of a core.
                let spent = ContinuousClock.now - roundStarted
                if spent > .milliseconds(1) { try? await Task.sleep(for: min(.seconds(1), spent * 4)) }
                // Sleep until woken, or until the next due instant, at most a second (the clock
                // may be a test's, and a retry due later than that is looked at again anyway).
                let wait = min(1_000, max(10, (nextDue ?? .max) - clock.now()))
                // Cancelled when something else woke us: then it must not wake us again, or the
                // next round would start at once, and so on.
                let sleeper = Task {
                    guard (try? await Task.sleep(for: .milliseconds(wait))) != nil else { return }
                    self.lookNow()
                }
                // A test's manual clock moves by jumps: its alarm wakes us at the due instant.
                let alarm = nextDue.map { clock.schedule(at: $0) { [weak self] in self?.lookNow() } }
                let woken: Void? = await wakes.next()
                sleeper.cancel()
                alarm?.cancel()
                if woken == nil { break }  // stopped or cancelled
            }
        }
    }

    /// Ends `run` (also when it has not started yet).
    package func shutdown() async {
        wakeups.finish()
    }

    /// Delivers `first`, then whatever waits in its lane after it, until none does or the
    /// dispatcher stops.
    private func drive(_ lane: String, from first: LaneItem) async {
        var current: LaneItem? = first
        while let item = current {
            if ContinuousClock.now - item.queued <= settings.laneWait {
                let more = await deliver(item.head)
                inFlight.withLockedValue { _ = $0.remove(item.head.webhook.id) }
                // Only a webhook with more to deliver, or one a round may have skipped as busy
                // after news, needs a round: a handoff's thousands of ends each woke one, and
                // each read the whole outbox.
                if more || news.withLockedValue({ $0 }) != item.newsBefore { lookNow() }
            } else {
                // Read long ago: the webhook may have been removed or changed since. Left for a
                // round to read anew (its head was counted as an attempt when handed out).
                inFlight.withLockedValue { _ = $0.remove(item.head.webhook.id) }
                lookNow()
            }
            // Stopping: what still waits stays pending in the store, and goes after a start.
            guard !Task.isCancelled else { return }
            current = lanes.next(in: lane)
        }
    }

    /// Sends `head` and records the outcome; whether its webhook has more to deliver.
    private func deliver(_ head: DueDelivery) async -> Bool {
        let attempt = head.attempts + 1
        let started = clock.now()
        if head.webhook.format.isPush { return await deliverPush(head, attempt: attempt, started: started) }
        let deliveryID = "\(head.event.id).\(head.webhook.id)"
        // A secret this node cannot open was sealed under another key: nothing is sent unsigned.
        let secret = sealer.open(head.webhook.secret)
        var request: ChatDelivery.Request?
        if head.webhook.format.isChat {
            let words = Words[Language(rawValue: settings.chatLanguage) ?? .english]
            switch await ChatDelivery.prepare(head, store: store, words: words) {
            case .send(let made): request = made
            case .skip(let why):
                return await record(
                    head, attempt: attempt, started: started, status: nil, problem: why, outcome: .skipped)
            }
        }
        var status: Int?
        var problem = ""
        do throws(WebhookClient.Failure) {
            guard let secret else {
                throw WebhookClient.Failure.connection(
                    """
                    the webhook's secret was sealed with another key: every node needs the same secrets key \
                    (DATA_DIR/secrets.key or --secrets-key-file; docs/SCALING.md)
                    """)
            }
            if let request {
                // A chat platform's own authentication: the URL's secret, or Matrix's access token.
                // Posts are at least once (one in flight at a crash goes again): the delivery id
                // lets a relay in front of the platform drop the second.
                var headers = [
                    ("Content-Type", "application/json"), ("User-Agent", "Roster-Webhooks/\(RosterVersion.release)"),
                    ("Roster-Delivery", deliveryID), ("Idempotency-Key", deliveryID),
                ]
                if head.webhook.format == .matrix { headers.append(("Authorization", "Bearer \(secret)")) }
                status = try await client.post(
                    url: request.url, method: request.method, headers: headers, body: request.body,
                    timeout: settings.requestTimeout
                ).status
            } else {
                let timestamp = Int64(Date().timeIntervalSince1970)
                let headers = [
                    ("Content-Type", "application/json"),
                    ("User-Agent", "Roster-Webhooks/\(RosterVersion.release)"),
                    ("Roster-Event", head.event.type.rawValue),
                    ("Roster-Event-Id", head.event.id),
                    ("Roster-Delivery", deliveryID),
                    ("Idempotency-Key", deliveryID),
                    ("Roster-Attempt", "\(attempt)"),
                    (
                        WebhookSignature.header,
                        WebhookSignature.sign(secret: secret, timestamp: timestamp, body: head.event.payload)
                    ),
                ]
                status = try await client.post(
                    url: head.webhook.url, headers: headers, body: head.event.payload,
                    timeout: settings.requestTimeout
                ).status
            }
            if !(200..<300).contains(status!) { problem = "HTTP \(status!)" }
        } catch {
            problem = error.description
        }
        // Stopping: the outcome is unknown, so the delivery stays pending and goes again after a start.
        if Task.isCancelled { return false }
        let now = clock.now()
        let outcome: DeliveryOutcome
        if let status, (200..<300).contains(status) {
            outcome = .delivered
        } else if now - (head.webhook.failingSince ?? now) >= settings.retryBudget.milliseconds {
            outcome = .disable(
                reason: "failing since \(Timestamp.iso8601(head.webhook.failingSince!)); last attempt: \(problem)")
            logger.warning(
                "disabled webhook \(head.webhook.id) (\(WebhookClient.redacted(head.webhook.url))): \(problem)")
        } else {
            outcome = .retry(at: now + backoff(attempt: attempt))
            logger.info("webhook \(head.webhook.id) attempt \(attempt) for \(head.event.id) failed: \(problem)")
        }
        return await record(
            head, attempt: attempt, started: started, status: status, problem: problem, outcome: outcome)
    }

    /// Records an attempt; whether its webhook has more to deliver (also when the record failed:
    /// the delivery is then still pending).
    func record(
        _ head: DueDelivery, attempt: Int, started: UnixMillis, status: Int?, problem: String,
        outcome: DeliveryOutcome
    ) async -> Bool {
        let now = clock.now()
        let record = DeliveryAttempt(
            webhookID: head.webhook.id, eventID: head.event.id, eventType: head.event.type.rawValue,
            attempt: attempt, at: now, status: status, error: problem,
            durationMillis: Int(max(0, now - started)))
        do {
            return try await recorder.record(record, outcome: outcome)
        } catch {
            // Not recorded: the delivery stays pending and is tried again, which at-least-once allows.
            logger.warning("could not record a webhook attempt: \(error)")
            try? await Task.sleep(for: .seconds(1))
            return true
        }
    }

    /// The wait before attempt `attempt + 1`: base × 2^(attempt-1), at most the cap, of which a
    /// random half is taken off ("equal jitter"), so that many failing webhooks do not retry in step.
    func backoff(attempt: Int) -> UnixMillis {
        let base = settings.retryBase.milliseconds, cap = settings.retryCap.milliseconds
        let full = min(cap, base << min(attempt - 1, 30))
        return full / 2 + UnixMillis.random(in: 0...max(0, full / 2))
    }
}
