import Foundation
import RosterDomain

/// An access token the tenant's provider issued to Roster's own client, checked at the
/// provider's introspection endpoint (RFC 7662): how `/scim/v2` takes the token a provider's
/// SCIM client sends when that provider mints its own (Canaille does) rather than pasting
/// Roster's `rsp_` token. Only a token the provider says is active, issued to Roster's client
/// id, for Roster (when it names an audience), by the configured issuer (when it names one) and
/// not expired opens the tenant's SCIM; anything else is refused with the reason.
public enum TokenIntrospection {
    /// The largest token sent on (providers' opaque tokens are 30–100 characters, JWTs a few KiB).
    public static let maxTokenBytes = 4_096
    /// The largest answer read.
    public static let maxAnswerBytes = 64 * 1024

    /// What the provider said of an accepted token.
    public struct Accepted: Sendable, Equatable {
        /// When the provider says it expires (ms), if it says.
        public var expiresAt: UnixMillis?
        public var subject: String?
    }

    /// The POST that asks the provider about `token`, authenticated as Roster's client.
    public static func request(
        token: String, metadata: ProviderMetadata, clientID: String, clientSecret: String
    ) -> (url: URL, headers: [(String, String)], body: [UInt8])? {
        guard let url = metadata.introspectionEndpoint else { return nil }
        let form = AuthorizationCodeFlow.clientForm(
            [("token", token), ("token_type_hint", "access_token")], clientID: clientID, clientSecret: clientSecret,
            secretInBody: metadata.introspectionSecretInBody)
        return (url, form.headers, form.body)
    }

    /// The provider's answer read: the token accepted, or why not.
    public static func check(
        status: Int, body: [UInt8], issuer: String, clientID: String, now: UnixMillis
    ) throws(IdentityError) -> Accepted {
        guard status == 200 else {
            throw IdentityError("the provider's introspection endpoint answered HTTP \(status)")
        }
        guard body.count <= maxAnswerBytes, let answer = JSONValue.parse(Data(body)), case .object = answer else {
            throw IdentityError("the provider's introspection answer is not a JSON object")
        }
        guard answer["active"] == .bool(true) else { throw IdentityError("the provider says the token is not active") }
        guard answer["client_id"]?.string == clientID else {
            throw IdentityError("the token was issued to another client than \(clientID)")
        }
        switch answer["aud"] {
        case nil, .null?: break
        case .string(let one)?:
            guard one == clientID else { throw IdentityError("the token is for another audience") }
        case .array(let many)?:
            guard many.contains(.string(clientID)) else { throw IdentityError("the token is for another audience") }
        default: throw IdentityError("the token's audience is unreadable")
        }
        if let named = answer["iss"], named != .null, named.string != issuer {
            throw IdentityError("the token was issued by \(named.string ?? "?"), not \(issuer)")
        }
        var expiresAt: UnixMillis?
        if let exp = answer["exp"], exp != .null {
            guard case .number(let seconds) = exp, seconds.isFinite, seconds >= 0, seconds < 1e11 else {
                throw IdentityError("the token's exp is not a time")
            }
            let at = UnixMillis(seconds) * 1_000
            guard now < at + IDTokenVerifier.maxSkewSeconds * 1_000 else {
                throw IdentityError("the token has expired")
            }
            expiresAt = at
        }
        return Accepted(expiresAt: expiresAt, subject: answer["sub"]?.string)
    }
}
