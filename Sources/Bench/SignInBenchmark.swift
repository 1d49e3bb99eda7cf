import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterIdentity
import RosterServerCore
import RosterStore
import RosterTLS
import RosterWeb

/// Sign-in with an identity provider (issue #54), the server's own work: a provider made here
/// (a P-256 key, ES256 tokens signed with the system OpenSSL, its discovery document and key set
/// answered from memory, so the token exchange costs nothing), and for each sign-in what the
/// callback does apart from the HTTP round trip to the provider and the store's writes: the
/// redirect read (state taken), the ID token verified with the held keys, the person resolved
/// against a directory, a token minted. Then what every signed-in page costs: the session and
/// its token looked up. And the memory a session holds, from the process's resident size.
package struct SignInBenchmark {
    package var signIns: Int
    package var people: Int
    package var sessions: Int

    package init(signIns: Int, people: Int, sessions: Int) {
        (self.signIns, self.people, self.sessions) = (signIns, people, sessions)
    }

    package struct Result {
        package var callback: LatencySummary
        package var verifyOnly: LatencySummary
        package var sessionCheck: LatencySummary
        package var bytesPerSession: Double
    }

    /// A provider answering from memory: discovery and the key set.
    struct MemoryProvider: ProviderTransport {
        let issuer: String
        let keySet: [UInt8]

        func send(_ request: ProviderRequest) async throws(IdentityError) -> ProviderResponse {
            if request.url.path.hasSuffix("openid-configuration") {
                let document = """
                    {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",
                    "jwks_uri":"\(issuer)/jwks","id_token_signing_alg_values_supported":["ES256"],
                    "code_challenge_methods_supported":["S256"]}
                    """
                return ProviderResponse(status: 200, body: Array(document.utf8))
            }
            return ProviderResponse(status: 200, body: keySet)
        }
    }

    package func run() async throws -> Result {
        let issuer = "https://id.example.test/realms/bench"
        let key = try PrivateKey.generate()
        let point = key.publicPoint
        let keySet = """
            {"keys":[{"kty":"EC","crv":"P-256","kid":"bench-1","use":"sig","alg":"ES256",
            "x":"\(Base64URL.encode(point[1..<33]))","y":"\(Base64URL.encode(point[33..<65]))"}]}
            """
        let providers = ProviderDirectory(transport: MemoryProvider(issuer: issuer, keySet: Array(keySet.utf8)))
        let metadata = try await providers.metadata(issuer: issuer, now: 0)
        _ = try await providers.keys(for: metadata, now: 0)
        let flow = AuthorizationCodeFlow(
            metadata: metadata, clientID: "roster", clientSecret: "s", redirectURI: "https://roster.example.test/cb",
            scopes: ["openid"])
        let settings = SingleSignOnSettings(issuer: issuer, clientID: "roster", adminGroups: ["oncall-admins"])
        let directory = (0..<people).map {
            Employee(id: "e\($0)", firstName: "Person", lastName: "Number \($0)", email: "p\($0)@example.test")
        }
        let attempts = SignInAttempts()
        let now = UnixMillis(Date().timeIntervalSince1970 * 1000)

        // The tokens first (signing is the provider's work, not timed).
        var prepared: [(query: [String: String], token: String)] = []
        for index in 0..<signIns {
            guard let attempt = attempts.begin(tenantID: "bench", address: "a\(index / 40)", returnTo: "/me", now: now)
            else { throw BenchError("sign-in attempts refused") }
            let claims = """
                {"iss":"\(issuer)","sub":"user-\(index)","aud":"roster","exp":\(now / 1000 + 600),"iat":\(now / 1000),
                "nonce":"\(attempt.nonce)","email":"p\(index % people)@example.test","email_verified":true,
                "given_name":"Bench","family_name":"User \(index)","groups":["oncall-admins"]}
                """
            let input =
                Base64URL.encode(Array(#"{"alg":"ES256","kid":"bench-1","typ":"JWT"}"#.utf8)) + "."
                + Base64URL.encode(Array(claims.utf8))
            let token = input + "." + Base64URL.encode(try key.es256Signature(Array(input.utf8)))
            prepared.append((["state": attempt.state, "code": "c\(index)"], token))
        }

        var callback: [UInt64] = []
        var verifyOnly: [UInt64] = []
        var minted: [StoredToken] = []
        for (query, token) in prepared {
            let began = nanos()
            let (attempt, _) = try flow.readRedirect(query, attempts: attempts, now: now)
            let expectation = IDTokenExpectation(
                issuer: issuer, clientID: "roster", nonce: attempt.nonce, algorithms: metadata.signingAlgorithms)
            let verifying = nanos()
            let claims = try await providers.verify(token, metadata: metadata, expecting: expectation, now: now)
            verifyOnly.append(nanos() - verifying)
            let identity = try SignInIdentity.resolve(
                claims, settings: settings, linked: nil, directory: directory, newID: { "new" })
            let issued = AccessToken.issue(
                tenantID: "bench", role: identity.role == .admin ? .admin : .reader, label: "web sign-in", now: now,
                expiresAt: now + 43_200_000, employeeID: "e1")
            callback.append(nanos() - began)
            minted.append(issued.stored)
        }

        // Every signed-in page: the session, then its token's current grant.
        let registry = TokenRegistry(minted)
        let webSessions = WebSessions()
        var opened: [WebSessions.Session] = []
        for token in minted.prefix(2_000) {
            if let session = webSessions.open(tokenID: token.id, tenantID: "bench", now: now) { opened.append(session) }
        }
        var checks: [UInt64] = []
        for index in 0..<(opened.count * 10) {
            let session = opened[index % opened.count]
            let began = nanos()
            guard let found = webSessions.session(session.id, now: now),
                registry.credential(tokenID: found.tokenID, now: now) != nil
            else { throw BenchError("a session was not found") }
            checks.append(nanos() - began)
        }

        // Memory: sessions of many tokens (one tenant holds at most 2,000: many tenants here).
        let many = WebSessions()
        let before = residentBytes(pid: getpid())
        var count = 0
        for index in 0..<sessions
        where many.open(tokenID: "tok\(index)", tenantID: "t\(index / 1_000)", now: now) != nil {
            count += 1
        }
        let after = residentBytes(pid: getpid())
        withExtendedLifetime(many) {}
        return Result(
            callback: LatencySummary(callback), verifyOnly: LatencySummary(verifyOnly),
            sessionCheck: LatencySummary(checks), bytesPerSession: Double(after - before) / Double(max(1, count)))
    }
}
