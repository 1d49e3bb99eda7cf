import Foundation
import RosterNotifications
import RosterTLS

/// Web Push's CPU per message (issue #55), on one thread: a payload of the size a handoff notice
/// has encrypted for a subscription (RFC 8291: a fresh P-256 key, ECDH, HKDF, AES-128-GCM), and a
/// VAPID token signed (ES256), each timed alone. A sender signs one token per push service
/// origin and keeps it for hours, so a handoff to many subscriptions pays the encryption per
/// message and the signature per origin.
package struct WebPushBenchmark {
    package var messages: Int

    package init(messages: Int) { self.messages = messages }

    package struct Result {
        package var encryption: LatencySummary
        package var signing: LatencySummary
        package var encryptionsPerSecond: Double
    }

    package func run() throws -> Result {
        let subscriber = try PrivateKey.generate()
        let p256dh = subscriber.publicPoint, auth = Crypto.randomBytes(16)
        let payload = Array(
            #"{"kind":"on-duty","title":"You are on duty now","body":"Platform primary until Monday 09:00","url":"https://roster.example.com/me","id":"0123456789abcdef","at":1800000000000}"#
                .utf8)
        let vapid = try PrivateKey.generate()
        var encryption: [UInt64] = [], signing: [UInt64] = []
        encryption.reserveCapacity(messages)
        let started = nanos()
        for _ in 0..<messages {
            let before = nanos()
            _ = try WebPushMessage.encrypt(payload, p256dh: p256dh, auth: auth)
            encryption.append(nanos() - before)
        }
        let elapsed = Double(nanos() - started) / 1e9
        for index in 0..<min(messages, 2_000) {
            let before = nanos()
            _ = VAPID.authorization(
                endpoint: "https://push.example.net/wpush/\(index)", subject: "mailto:oncall@example.com", key: vapid,
                now: 1_800_000_000)
            signing.append(nanos() - before)
        }
        return Result(
            encryption: LatencySummary(encryption), signing: LatencySummary(signing),
            encryptionsPerSecond: Double(messages) / elapsed)
    }
}
