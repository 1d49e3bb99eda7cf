import Foundation
import RosterDomain
import Testing

@testable import RosterIdentity

/// How /scim/v2 reads a provider's introspection answer (RFC 7662) for a token its SCIM client
/// sent: only an active token issued to Roster's own client, for it, by the configured issuer,
/// not expired, is taken; each other answer is refused with its own words.
@Suite(.timeLimit(.minutes(5))) struct TokenIntrospectionTests {
    static let issuer = "https://id.example.com"
    static let now: UnixMillis = 1_800_000_000_000

    static func check(_ json: String, status: Int = 200) -> Result<TokenIntrospection.Accepted, IdentityError> {
        Result { () throws(IdentityError) in
            try TokenIntrospection.check(
                status: status, body: Array(json.utf8), issuer: issuer, clientID: "roster", now: now)
        }
    }

    @Test func onlyAnActiveTokenIssuedToRosterIsTaken() throws {
        let good =
            #"{"active": true, "client_id": "roster", "aud": ["roster"], "iss": "https://id.example.com", "exp": 1800000600}"#
        #expect(try Self.check(good).get() == TokenIntrospection.Accepted(expiresAt: 1_800_000_600_000, subject: nil))
        // Neither an audience nor an issuer nor an expiry is required of the answer.
        #expect((try? Self.check(#"{"active": true, "client_id": "roster", "sub": "svc"}"#).get())?.subject == "svc")
        let refused: [(String, Int, String)] = [
            (#"{"active": false}"#, 200, "the provider says the token is not active"),
            (#"{"active": "true", "client_id": "roster"}"#, 200, "the provider says the token is not active"),
            (#"{"active": true, "client_id": "portal"}"#, 200, "the token was issued to another client than roster"),
            (#"{"active": true}"#, 200, "the token was issued to another client than roster"),
            (#"{"active": true, "client_id": "roster", "aud": "portal"}"#, 200, "the token is for another audience"),
            (#"{"active": true, "client_id": "roster", "aud": ["portal"]}"#, 200, "the token is for another audience"),
            (#"{"active": true, "client_id": "roster", "aud": 3}"#, 200, "the token's audience is unreadable"),
            (
                #"{"active": true, "client_id": "roster", "iss": "https://evil.example"}"#, 200,
                "the token was issued by https://evil.example, not https://id.example.com"
            ),
            (#"{"active": true, "client_id": "roster", "exp": 1799999900}"#, 200, "the token has expired"),
            (#"{"active": true, "client_id": "roster", "exp": "soon"}"#, 200, "the token's exp is not a time"),
            (#"{"error": "invalid_client"}"#, 401, "the provider's introspection endpoint answered HTTP 401"),
            ("<html>", 200, "the provider's introspection answer is not a JSON object"),
        ]
        for (body, status, words) in refused {
            #expect(throws: IdentityError(words), "\(body)") { try Self.check(body, status: status).get() }
        }
        // Within the minute of clock skew sign-in allows, an expiry just passed is still taken.
        #expect((try? Self.check(#"{"active": true, "client_id": "roster", "exp": 1799999970}"#).get()) != nil)
    }

    @Test func theRequestAuthenticatesAsRostersClient() throws {
        var metadata = try ProviderMetadata.parse(
            Array(
                """
                {"issuer": "https://id.example.com", "authorization_endpoint": "https://id.example.com/a",
                 "token_endpoint": "https://id.example.com/t", "jwks_uri": "https://id.example.com/k",
                 "introspection_endpoint": "https://id.example.com/introspect",
                 "introspection_endpoint_auth_methods_supported": ["client_secret_basic"]}
                """.utf8), expectedIssuer: Self.issuer)
        let basic = try #require(
            TokenIntrospection.request(token: "t k", metadata: metadata, clientID: "roster", clientSecret: "s:1"))
        #expect(basic.url.absoluteString == "https://id.example.com/introspect")
        #expect(String(decoding: basic.body, as: UTF8.self) == "token=t+k&token_type_hint=access_token")
        let expected = "Basic " + Data("roster:s%3A1".utf8).base64EncodedString()
        #expect(basic.headers.contains { $0 == ("Authorization", expected) })
        metadata.introspectionSecretInBody = true
        let posted = try #require(
            TokenIntrospection.request(token: "t", metadata: metadata, clientID: "roster", clientSecret: "s"))
        #expect(!posted.headers.contains { $0.0 == "Authorization" })
        #expect(String(decoding: posted.body, as: UTF8.self).hasSuffix("&client_id=roster&client_secret=s"))
        metadata.introspectionEndpoint = nil
        #expect(
            TokenIntrospection.request(token: "t", metadata: metadata, clientID: "roster", clientSecret: "s") == nil)
    }
}
