import Foundation
import RosterIdentity
import RosterNotifications
import RosterTLS
import RosterTestSupport
import Synchronization
import Testing

/// The Web Push sender's message (RFC 8291) and VAPID header (RFC 8292), checked by independent
/// implementations (Fixtures/web_push_check.py): `http_ece` decrypts what Roster encrypted for
/// a subscription whose keys Python made, and `cryptography` verifies the VAPID signature.
@Suite(.timeLimit(.minutes(5))) struct WebPushMessageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/web_push_check.py").path

    static func python(_ mode: String, input: String? = nil) async throws -> [String: Any] {
        let child = try ChildProcess("/usr/bin/env", ["python3", script, mode], stdin: input != nil)
        if let input {
            child.write(input)
            child.closeInput()
        }
        guard let status = await child.waitForExit(timeout: .seconds(60)) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("web_push_check.py did not finish")
        }
        let answer = try JSONSerialization.jsonObject(with: Data(child.stdout.utf8)) as? [String: Any]
        guard status == 0, let answer else {
            throw TestFailure("web_push_check.py \(mode) (python3 with http_ece): \(child.output)")
        }
        return answer
    }

    @Test func aSubscriberDecryptsTheMessageAndVerifiesTheSender() async throws {
        let keys = try await Self.python("keys")
        let p256dh = try #require((keys["p256dh"] as? String).flatMap(Base64URL.decode))
        let auth = try #require((keys["auth"] as? String).flatMap(Base64URL.decode))
        let payload = #"{"kind":"on-duty","title":"You are on duty now","url":"/me"}"#
        let body = try WebPushMessage.encrypt(Array(payload.utf8), p256dh: p256dh, auth: auth)
        let server = try PrivateKey.generate()
        let endpoint = "https://push.example.net:8443/wpush/v2/abc?x=1"
        let now: Int64 = 1_800_000_000
        let authorization = try #require(
            VAPID.authorization(endpoint: endpoint, subject: "mailto:oncall@example.com", key: server, now: now))
        let request: [String: Any] = [
            "private": keys["private"] as Any, "auth": keys["auth"] as Any, "body": Base64URL.encode(body),
            "authorization": authorization, "endpoint": endpoint, "subject": "mailto:oncall@example.com",
        ]
        let checked = try await Self.python(
            "check", input: String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
        #expect(checked["plaintext"] as? String == payload)
        #expect(checked["rs"] as? Int == 4_096 && checked["keyid_length"] as? Int == 65)
        #expect(checked["aud"] as? String == "https://push.example.net:8443", "the endpoint's origin only")
        #expect(checked["exp"] as? Int == Int(now + 12 * 3_600), "within RFC 8292's 24 hours")
        #expect(checked["sub"] as? String == "mailto:oncall@example.com")
        #expect(checked["typ"] as? String == "JWT" && checked["alg"] as? String == "ES256")

        // A fresh key and salt each time: the same payload never encrypts alike.
        let again = try WebPushMessage.encrypt(Array(payload.utf8), p256dh: p256dh, auth: auth)
        #expect(again != body && Array(again.prefix(16)) != Array(body.prefix(16)))
        // A kept VAPID key is the same key after a round trip through its PEM.
        #expect(try PrivateKey(pem: server.pem).publicPoint == server.publicPoint)
    }

    /// Each message's key agreement shares one P-256 group, and its HKDF one HMAC context,
    /// across threads: messages made on several at once must each decrypt to their own payload.
    @Test func messagesEncryptedOnManyThreadsAtOnceEachDecrypt() async throws {
        let keys = try await Self.python("keys")
        let p256dh = try #require((keys["p256dh"] as? String).flatMap(Base64URL.decode))
        let auth = try #require((keys["auth"] as? String).flatMap(Base64URL.decode))
        let count = 64
        let bodies = Mutex([String?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let body = try? WebPushMessage.encrypt(Array("message \(index)".utf8), p256dh: p256dh, auth: auth)
            bodies.withLock { $0[index] = body.map(Base64URL.encode) }
        }
        let made = bodies.withLock { $0 }.compactMap { $0 }
        try #require(made.count == count, "every message encrypted")
        let request: [String: Any] = ["private": keys["private"] as Any, "auth": keys["auth"] as Any, "bodies": made]
        let answer = try await Self.python(
            "decrypt", input: String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
        let plaintexts = try #require(answer["plaintexts"] as? [Any])
        #expect(plaintexts.map { $0 as? String } == (0..<count).map { "message \($0)" })
    }

    @Test func aBadSubscriptionOrAnOversizedPayloadIsRefused() throws {
        let browser = try PrivateKey.generate()
        let auth = Crypto.randomBytes(16)
        var offCurve = browser.publicPoint
        offCurve[64] ^= 0x01
        #expect(throws: WebPushMessage.Refusal.badSubscriptionKey) {
            try WebPushMessage.encrypt([1], p256dh: offCurve, auth: auth)
        }
        #expect(throws: WebPushMessage.Refusal.badSubscriptionKey) {
            try WebPushMessage.encrypt([1], p256dh: Array(browser.publicPoint.prefix(33)), auth: auth)
        }
        // Coordinates at or past the field's prime, and the origin, are no points either.
        for point in [[0x04] + [UInt8](repeating: 0xFF, count: 64), [0x04] + [UInt8](repeating: 0, count: 64)] {
            #expect(throws: WebPushMessage.Refusal.badSubscriptionKey) {
                try WebPushMessage.encrypt([1], p256dh: point, auth: auth)
            }
        }
        #expect(throws: WebPushMessage.Refusal.badSubscriptionKey) {
            try WebPushMessage.encrypt([1], p256dh: browser.publicPoint, auth: Array(auth.prefix(15)))
        }
        let largest = [UInt8](repeating: 0x61, count: WebPushMessage.maxPayload)
        #expect(try WebPushMessage.encrypt(largest, p256dh: browser.publicPoint, auth: auth).count <= 4_096)
        #expect(throws: WebPushMessage.Refusal.tooLarge) {
            try WebPushMessage.encrypt(largest + [0x61], p256dh: browser.publicPoint, auth: auth)
        }
        #expect(VAPID.origin(of: "https://Push.Example.NET/x") == "https://push.example.net")
        #expect(VAPID.origin(of: "not a url") == nil)
    }
}
