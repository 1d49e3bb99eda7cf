import Foundation
import RosterDomain
import RosterIdentity
import RosterTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// ID tokens from an independent implementation (Fixtures/id_tokens.py: joserfc signs the valid
/// ones, the hostile ones are made by hand, one broken rule each) checked by Roster's verifier:
/// the valid ones accepted with their claims, each hostile one refused with its own reason.
@Suite(.timeLimit(.minutes(10))) struct IDTokenVerifierTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            var name: String
            var token: String
            var expect: String
            var algorithms: [String]?
        }
        var issuer: String
        var clientID: String
        var nonce: String
        var now: Int64
        var cases: [Case]
    }

    /// The fixture's document and its key set's raw JSON (parsed by Roster, not by the decoder).
    static func fixture() async throws -> (Fixture, Data) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/id_tokens.py").path
        let python = try ChildProcess("/usr/bin/env", ["python3", script])
        guard let status = await python.waitForExit(timeout: .seconds(120)) else {
            await python.stop(signal: SIGKILL)
            throw TestFailure("python3 did not finish")
        }
        guard status == 0 else {
            throw TestFailure("python3 with joserfc (scripts/test-tools installs it): \(python.stderr)")
        }
        let data = Data(python.stdout.utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let keys = try JSONSerialization.data(withJSONObject: try #require(document["jwks"]))
        return (try JSONDecoder().decode(Fixture.self, from: data), keys)
    }

    @Test func eachTokenIsAcceptedOrRefusedForItsOwnReason() async throws {
        let (fixture, keyData) = try await Self.fixture()
        let keys = try JSONWebKeySet.parse(Array(keyData))
        // The 1024-bit RSA key, the P-384 key and the encryption key are left out, each said why.
        #expect(keys.keys.compactMap(\.keyID).sorted() == ["ec-1", "ed-1", "rsa-1"])
        #expect(keys.skipped.count == 3, "\(keys.skipped)")
        #expect(keys.skipped.contains { $0.contains("rsa-short") && $0.contains("1024 bits") })
        #expect(keys.skipped.contains { $0.contains("ec-384") && $0.contains("P-256") })
        #expect(keys.skipped.contains { $0.contains("rsa-enc") && $0.contains("not for signatures") })

        var messages: [String: String] = [:]
        for entry in fixture.cases {
            var expectation = IDTokenExpectation(
                issuer: fixture.issuer, clientID: fixture.clientID, nonce: fixture.nonce)
            if let names = entry.algorithms { expectation.algorithms = Set(names.compactMap(SignatureAlgorithm.init)) }
            do {
                let claims = try IDTokenVerifier.verify(
                    entry.token, keys: keys, expecting: expectation, now: fixture.now)
                #expect(entry.expect == "accepted", "\(entry.name): accepted, expected \(entry.expect)")
                #expect(claims.subject == "248289761001", "\(entry.name)")
                #expect(claims.issuer == fixture.issuer)
                #expect(claims.text(at: "email") == "ada@example.test")
                #expect(claims.emailVerified)
                #expect(claims.texts(at: "groups") == ["oncall-admins", "payments"])
                #expect(claims.texts(at: "realm_access.roles") == ["reader"])
            } catch {
                #expect(
                    error.code == entry.expect,
                    "\(entry.name): refused as \(error.code) (\(error)), expected \(entry.expect)")
                messages[error.code] = error.description
            }
        }
        // Every kind of refusal the fixture makes is a message of its own.
        #expect(Set(messages.values).count == messages.count)
        #expect(messages.count >= 17)
        // The device grant sends no nonce, so expects none: the same token without one is taken.
        let unnonced = try #require(fixture.cases.first { $0.name == "no nonce" })
        let claims = try IDTokenVerifier.verify(
            unnonced.token, keys: keys,
            expecting: IDTokenExpectation(issuer: fixture.issuer, clientID: fixture.clientID, nonce: nil),
            now: fixture.now)
        #expect(claims.subject == "248289761001")
    }

    @Test func aKeySetThatIsGarbageIsRefusedInWords() throws {
        let refusals: [(String, String)] = [
            ("not json", "not a JSON object"),
            ("{\"keys\": {}}", "not a JSON object with a \"keys\" list"),
            ("{\"keys\": [{\"kty\": \"oct\", \"k\": \"c2VjcmV0\"}]}", "no key Roster can verify with"),
            (
                "{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"AAAA\", \"y\": \"AAAA\"}]}",
                "no usable x and y"
            ),
        ]
        for (text, words) in refusals {
            #expect {
                try JSONWebKeySet.parse(Array(text.utf8))
            } throws: { ($0 as? IdentityError)?.message.contains(words) == true }
        }
        // A point off the curve: a valid-looking key that would let a forger choose the answer.
        let x = Base64URL.encode([UInt8](repeating: 1, count: 32))
        let offCurve = "{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"\(x)\", \"y\": \"\(x)\"}]}"
        #expect {
            try JSONWebKeySet.parse(Array(offCurve.utf8))
        } throws: { ($0 as? IdentityError)?.message.contains("P-256") == true }
        let tooMany = "{\"keys\": [" + Array(repeating: "{}", count: 65).joined(separator: ",") + "]}"
        #expect {
            try JSONWebKeySet.parse(Array(tooMany.utf8))
        } throws: { ($0 as? IdentityError)?.message.contains("more than 64") == true }
    }

    @Test func base64URLHasOneSpellingForEachValue() {
        #expect(Base64URL.decode("aGVsbG8") == Array("hello".utf8))
        #expect(Base64URL.encode(Array("hello".utf8)) == "aGVsbG8")
        #expect(Base64URL.decode("aGVsbG8=") == nil)  // padding
        #expect(Base64URL.decode("aGVsbG9") == nil)  // bits set past the data
        #expect(Base64URL.decode("a+b/") == nil)  // the standard alphabet
        #expect(Base64URL.decode("a") == nil)  // no whole byte
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}
