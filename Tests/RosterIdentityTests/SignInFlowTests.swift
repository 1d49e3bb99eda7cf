import Foundation
import RosterDomain
import RosterIdentity
import Testing

/// The relying party's flow as values: discovery read with its checks, the authorization
/// request, the redirect back (single-use state, RFC 9207's issuer), the token request and its
/// answer, and who a verified token is in the directory.
@Suite(.timeLimit(.minutes(10))) struct SignInFlowTests {
    static let issuer = "https://id.example.test/realms/acme"

    static func discovery(_ changes: [String: Any?] = [:]) -> [UInt8] {
        var document: [String: Any] = [
            "issuer": issuer, "authorization_endpoint": issuer + "/auth", "token_endpoint": issuer + "/token",
            "jwks_uri": issuer + "/certs", "id_token_signing_alg_values_supported": ["RS256", "HS256"],
            "code_challenge_methods_supported": ["plain", "S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "authorization_response_iss_parameter_supported": true,
        ]
        for (key, value) in changes { document[key] = value }
        return Array(try! JSONSerialization.data(withJSONObject: document))
    }

    static func flow() throws -> AuthorizationCodeFlow {
        AuthorizationCodeFlow(
            metadata: try ProviderMetadata.parse(discovery(), expectedIssuer: issuer), clientID: "roster",
            clientSecret: "s3cret:&+", redirectURI: "https://roster.example.test/sign-in/sso/callback",
            scopes: ["profile", "email"])
    }

    @Test func discoveryIsReadWithItsChecks() throws {
        let metadata = try ProviderMetadata.parse(Self.discovery(), expectedIssuer: Self.issuer)
        #expect(metadata.signingAlgorithms == [.rs256])  // HS256 is never taken
        #expect(metadata.tokenEndpoint.absoluteString == Self.issuer + "/token")
        #expect(metadata.issuerInAuthorizationResponse)
        #expect(!metadata.clientSecretInBody)
        let refusals: [([String: Any?], String, String)] = [
            ([:], Self.issuer + "/", "not \(Self.issuer)/ as configured"),
            (["issuer": "https://evil.example.test/realms/acme"], Self.issuer, "its issuer is https://evil"),
            (["token_endpoint": nil], Self.issuer, "no token_endpoint"),
            (["jwks_uri": "http://id.example.test/certs"], Self.issuer, "jwks_uri is plain http"),
            (["authorization_endpoint": "https://user:pw@id.example.test/auth"], Self.issuer, "user name or password"),
            (
                ["id_token_signing_alg_values_supported": ["HS256", "none"]], Self.issuer,
                "none of RS256, ES256 or EdDSA"
            ),
            (["code_challenge_methods_supported": ["plain"]], Self.issuer, "PKCE with S256"),
        ]
        for (changes, expected, words) in refusals {
            #expect {
                try ProviderMetadata.parse(Self.discovery(changes), expectedIssuer: expected)
            } throws: { ($0 as? IdentityError)?.message.contains(words) == true }
        }
        #expect(throws: IdentityError.self) {
            try ProviderMetadata.parse(Array("[]".utf8), expectedIssuer: Self.issuer)
        }
        // A provider on this host may be plain http.
        let local = "http://127.0.0.1:5000"
        let onHost = try ProviderMetadata.parse(
            Self.discovery([
                "issuer": local, "authorization_endpoint": local + "/oauth/authorize",
                "token_endpoint": local + "/oauth/token", "jwks_uri": local + "/oauth/jwks.json",
                "token_endpoint_auth_methods_supported": ["client_secret_post"],
            ]), expectedIssuer: local)
        #expect(onHost.clientSecretInBody)
    }

    @Test func pkceIsRFC7636sS256() {
        // RFC 7636, appendix B.
        #expect(
            SignInAttempt.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func theAuthorizationRequestCarriesStateNonceAndChallenge() throws {
        let flow = try Self.flow()
        let attempts = SignInAttempts()
        let attempt = try #require(attempts.begin(tenantID: "default", address: "10.0.0.1", returnTo: "/me", now: 0))
        #expect(attempt.state.count == 43 && attempt.nonce.count == 43 && attempt.codeVerifier.count == 43)
        #expect(Set([attempt.state, attempt.nonce, attempt.codeVerifier]).count == 3)
        let url = flow.authorizationURL(for: attempt)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(url.absoluteString.hasPrefix(Self.issuer + "/auth?"))
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "roster")
        #expect(query["redirect_uri"] == "https://roster.example.test/sign-in/sso/callback")
        #expect(query["scope"] == "openid+profile+email")  // form-encoded spaces
        #expect(query["state"] == attempt.state && query["nonce"] == attempt.nonce)
        #expect(query["code_challenge"] == attempt.codeChallenge && query["code_challenge_method"] == "S256")
    }

    @Test func theRedirectBackIsReadOnceAndFromTheRightIssuer() throws {
        let flow = try Self.flow()
        let attempts = SignInAttempts()
        func begin() throws -> SignInAttempt {
            try #require(attempts.begin(tenantID: "t", address: "10.0.0.1", returnTo: "/", now: 1_000))
        }
        func refusal(_ query: [String: String], now: UnixMillis = 2_000) -> String? {
            do {
                _ = try flow.readRedirect(query, attempts: attempts, now: now)
                return nil
            } catch { return error.code }
        }
        let good = try begin()
        let (found, code) = try flow.readRedirect(
            ["state": good.state, "code": "abc", "iss": Self.issuer], attempts: attempts, now: 2_000)
        #expect(found == good && code == "abc")
        #expect(refusal(["state": good.state, "code": "abc", "iss": Self.issuer]) == "replayedState")
        #expect(refusal(["state": "never-issued", "code": "abc", "iss": Self.issuer]) == "unknownState")
        #expect(refusal(["code": "abc", "iss": Self.issuer]) == "unknownState")
        let late = try begin()
        #expect(
            refusal(["state": late.state, "code": "abc", "iss": Self.issuer], now: 1_000 + SignInAttempts.lifetime)
                == "expiredState")
        #expect(
            refusal(["state": try begin().state, "code": "abc", "iss": "https://evil.example.test"])
                == "wrongIssuerInResponse")
        #expect(refusal(["state": try begin().state, "code": "abc"]) == "missingIssuerInResponse")
        #expect(refusal(["state": try begin().state, "iss": Self.issuer]) == "noCode")
        let cancelled = try begin()
        do {
            _ = try flow.readRedirect(
                [
                    "state": cancelled.state, "iss": Self.issuer, "error": "access_denied",
                    "error_description": "The user said no\u{1B}[31m\u{202E}!",
                ], attempts: attempts, now: 2_000)
            Issue.record("an error answer was taken")
        } catch {
            #expect(error == .providerSaid("access_denied: The user said no [31m !"))
        }
    }

    @Test func signInAttemptsAreBoundedPerTenantAndInAll() throws {
        let attempts = SignInAttempts()
        let first = try #require(attempts.begin(tenantID: "noisy", address: "n0", returnTo: "/", now: 0))
        for index in 1..<SignInAttempts.maxPerTenant {
            _ = try #require(
                attempts.begin(tenantID: "noisy", address: "n\(index / 40)", returnTo: "/", now: UnixMillis(index)))
        }
        // The tenant's next one replaces its own oldest, never another tenant's.
        let other = try #require(attempts.begin(tenantID: "quiet", address: "q", returnTo: "/", now: 5))
        _ = try #require(attempts.begin(tenantID: "noisy", address: "n-last", returnTo: "/", now: 10_000))
        #expect(attempts.count == SignInAttempts.maxPerTenant + 1)
        #expect(throws: SignInRefusal.unknownState) { try attempts.finish(state: first.state, now: 10_001) }
        #expect(try attempts.finish(state: other.state, now: 10_001) == other)
        // Full in all: refused, nobody's under way is evicted; once they expire there is room.
        for index in 0..<(SignInAttempts.maxAttempts - attempts.count) {
            _ = try #require(
                attempts.begin(tenantID: "t\(index % 9)", address: "a\(index / 40)", returnTo: "/", now: 20_000))
        }
        #expect(attempts.begin(tenantID: "late", address: "late", returnTo: "/", now: 20_001) == nil)
        #expect(
            attempts.begin(tenantID: "late", address: "late", returnTo: "/", now: 20_000 + SignInAttempts.lifetime)
                != nil)
    }

    @Test func oneAddressReplacesOnlyItsOwnAttempts() throws {
        let attempts = SignInAttempts()
        let healthy = try #require(attempts.begin(tenantID: "acme", address: "10.0.0.1", returnTo: "/", now: 0))
        var hostile: [SignInAttempt] = []
        for index in 0..<(SignInAttempts.maxPerAddress * 3) {
            hostile.append(
                try #require(
                    attempts.begin(tenantID: "acme", address: "203.0.113.9", returnTo: "/", now: UnixMillis(index + 1)))
            )
        }
        #expect(attempts.count == SignInAttempts.maxPerAddress + 1, "the hostile address holds its cap, no more")
        #expect(try attempts.finish(state: healthy.state, now: 1_000) == healthy, "the healthy sign-in was kept")
        #expect(throws: SignInRefusal.unknownState) { try attempts.finish(state: hostile[0].state, now: 1_000) }
        #expect(try attempts.finish(state: hostile.last!.state, now: 1_000) == hostile.last!)
    }

    @Test func theTokenRequestAndItsAnswer() throws {
        let flow = try Self.flow()
        let attempt = try #require(SignInAttempts().begin(tenantID: "t", address: "10.0.0.1", returnTo: "/", now: 0))
        let (headers, body) = flow.tokenRequest(code: "c/1 +", attempt: attempt)
        let text = String(decoding: body, as: UTF8.self)
        #expect(
            text == "grant_type=authorization_code&code=c%2F1+%2B&redirect_uri=https%3A%2F%2Froster.example.test"
                + "%2Fsign-in%2Fsso%2Fcallback&code_verifier=\(attempt.codeVerifier)")
        // RFC 6749 §2.3.1: each part form-encoded before Basic.
        let basic = try #require(headers.first { $0.0 == "Authorization" }?.1)
        #expect(basic == "Basic " + Data("roster:s3cret%3A%26%2B".utf8).base64EncodedString())

        func answer(_ status: Int, _ json: String) -> String {
            do { return try AuthorizationCodeFlow.idToken(fromTokenResponse: status, body: Array(json.utf8)) } catch {
                return error.description
            }
        }
        #expect(answer(200, #"{"token_type":"Bearer","id_token":"a.b.c","access_token":"x"}"#) == "a.b.c")
        #expect(answer(200, #"{"token_type":"bearer","id_token":"a.b.c"}"#) == "a.b.c")
        #expect(
            answer(400, #"{"error":"invalid_grant","error_description":"code used"}"#).contains(
                "invalid_grant: code used"))
        #expect(answer(502, "<html>bad gateway</html>").contains("HTTP status 502"))
        #expect(answer(200, "garbage").contains("not a JSON object"))
        #expect(answer(200, #"{"token_type":"Bearer"}"#).contains("no id_token"))
        #expect(answer(200, #"{"token_type":"mac","id_token":"a.b.c"}"#).contains("not Bearer"))
    }
}
