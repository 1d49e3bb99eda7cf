import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterIdentity
import RosterServerCore
import RosterStore
import RosterTLS

/// A push subscription's request for one event (docs/PUSH.md, "Delivery"): the notice for its
/// person, then either an encrypted Web Push message with its VAPID header, or an ntfy publish.
/// Decided here, sent by the outbox dispatcher like any webhook's request. `now` is the server's
/// clock; the VAPID token's `exp` is on the wall clock (`wallClock`), which the push service
/// checks it against, as a webhook's signature time is.
enum PushDelivery {
    struct Request: Sendable {
        var url: String
        var headers: [(String, String)]
        var body: Data
    }

    enum Preparation: Sendable {
        case send(Request)
        /// Not sent, and why (recorded as the attempt's outcome).
        case skip(String)
        /// In the person's quiet hours: due again when they end.
        case hold(until: UnixMillis)
    }

    /// What the dispatcher knows of a subscription's tenant and person when it sends.
    struct Context: Sendable {
        var settings: PushSettings
        /// The tenant's VAPID key; nil until it is made (nothing is then sent).
        var key: PrivateKey?
        var contact: String
        /// The web app's public address (`--web-url`): an ntfy notice's click target.
        var webURL: String? = nil
    }

    /// `origin`, when given, names the endpoint's origin for the VAPID tokens kept (the
    /// dispatcher's reservation has read the URL already).
    static func prepare(
        _ head: DueDelivery, context: Context, authSecret: String, now: UnixMillis, tokens: VAPIDTokens,
        payloads: PushPayloads? = nil, origin: String? = nil,
        wallClock: UnixMillis = UnixMillis(Date().timeIntervalSince1970 * 1000)
    ) -> Preparation {
        let subscription = head.webhook
        let (personID, kinds) = (subscription.personID, context.settings.kinds)
        guard
            let made = payloads?.notice(of: head.event, personID: personID, kinds: kinds)
                ?? PushPayloads.Made.make(of: head.event, personID: personID, kinds: kinds, payloads: nil)
        else {
            return .skip("skipped: nothing in it for this person's push settings")
        }
        let (notice, payload) = (made.notice, made.message)
        guard notice.staleAt > now else {
            return .skip("skipped: stale since \(Timestamp.iso8601(notice.staleAt))")
        }
        if notice.urgency != .high, let end = context.settings.quietHours?.end(around: now) {
            return .hold(until: end)
        }
        switch subscription.format {
        case .ntfy:
            return .send(
                ntfy(
                    notice, topicURL: subscription.url, deliveryID: head.event.id,
                    click: context.webURL.map { $0 + notice.url }))
        default:
            guard let key = context.key else { return .skip("skipped: the tenant has no VAPID key yet") }
            guard let p256dh = Base64URL.decode(subscription.pushKey), let auth = Base64URL.decode(authSecret)
            else {
                return .skip("skipped: the subscription's keys cannot be read")
            }
            let body: [UInt8]
            do {
                body = try WebPushMessage.encrypt(payload, p256dh: p256dh, auth: auth)
            } catch {
                return .skip("skipped: the message could not be encrypted for this subscription (\(error))")
            }
            guard
                let authorization = tokens.authorization(
                    endpoint: subscription.url, origin: origin, subject: context.contact, key: key, now: wallClock)
            else {
                return .skip("skipped: the endpoint has no origin to sign for")
            }
            let headers = [
                ("Content-Type", "application/octet-stream"), ("Content-Encoding", "aes128gcm"),
                ("TTL", "\(notice.ttl(now: now))"), ("Urgency", notice.urgency.rawValue), ("Topic", notice.topic),
                ("Authorization", authorization),
            ]
            return .send(Request(url: subscription.url, headers: headers, body: Data(body)))
        }
    }

    /// ntfy's JSON publish (https://docs.ntfy.sh/publish/#publish-as-json): POSTed to the
    /// server's root with the topic in the body; going on duty at priority 5 (ntfy's "urgent").
    static func ntfy(_ notice: PushNotice, topicURL: String, deliveryID: String, click: String?) -> Request {
        var components = URLComponents(string: topicURL)
        let topic = components?.path.split(separator: "/").last.map(String.init) ?? ""
        components?.path = "/"
        var body: [String: Any] = [
            "topic": topic, "title": notice.title, "message": notice.body,
            "priority": notice.urgency == .high ? 5 : 3, "tags": [notice.kind.rawValue],
        ]
        if let click { body["click"] = click }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return Request(
            url: components?.string ?? topicURL,
            headers: [("Content-Type", "application/json"), ("Roster-Delivery", deliveryID)], body: data)
    }

    /// What a push service's answer means for the subscription (RFC 8030 §5, RFC 8292 §4).
    static func outcome(status: Int, retryAfter: String?, now: UnixMillis) -> Answer {
        switch status {
        case 200..<300: return .delivered
        case 404, 410: return .gone
        case 413: return .dropped("the push service refused the message as too large (413)")
        case 429:
            let later = retryAfter.flatMap { RetryAfter.instant($0, now: now) }
            return .retry(at: later, "HTTP 429")
        default: return .retry(at: nil, "HTTP \(status)")
        }
    }

    enum Answer: Equatable {
        case delivered
        /// The subscription expired or was withdrawn: it is deleted.
        case gone
        /// Not to be sent again.
        case dropped(String)
        /// Tried again, at the given instant or after the usual back-off.
        case retry(at: UnixMillis?, String)
    }
}

/// RFC 9110 §10.2.3's `Retry-After`: seconds, or an HTTP date; capped at a day, since a
/// push service cannot hold a subscription's queue longer than that.
enum RetryAfter {
    static let longest: UnixMillis = 86_400_000

    static func instant(_ text: String, now: UnixMillis) -> UnixMillis? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.count <= 9, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber),
            let seconds = Int64(trimmed)
        {
            return now + min(longest, seconds * 1000)
        }
        guard let date = TimeText.parseHTTPDate(trimmed) else { return nil }
        return min(now + longest, max(now, date))
    }
}

/// VAPID tokens made for each push service origin and kept for an hour (they are good for 12):
/// a handoff that notifies thousands of phones through one push service signs once.
final class VAPIDTokens: Sendable {
    static let reuse: UnixMillis = 3_600_000
    private let made = NIOLockedValueBox<[String: (authorization: String, at: UnixMillis, key: PrivateKey)]>([:])

    /// `origin` names the endpoint's origin in the table when the caller has it (in any
    /// spelling that is one per origin); otherwise the endpoint is read for it.
    func authorization(
        endpoint: String, origin known: String? = nil, subject: String, key: PrivateKey, now: UnixMillis
    ) -> String? {
        guard let origin = known ?? VAPID.origin(of: endpoint) else { return nil }
        // Kept per key object (a rotation makes a new one), which the entry holds, so no other
        // key can take its place in memory; the key's point is not read per message.
        let slot = origin + " " + subject
        if let kept = made.withLockedValue({ $0[slot] }), kept.key === key, now - kept.at < Self.reuse, now >= kept.at {
            return kept.authorization
        }
        guard let fresh = VAPID.authorization(endpoint: endpoint, subject: subject, key: key, now: now / 1000) else {
            return nil
        }
        made.withLockedValue { table in
            if table.count > 1_000 { table.removeAll() }  // a bound: origins are few in practice
            table[slot] = (fresh, now, key)
        }
        return fresh
    }
}
