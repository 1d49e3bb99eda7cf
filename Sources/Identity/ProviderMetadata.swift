import Foundation
import RosterDomain

/// What an OpenID Provider says of itself at `/.well-known/openid-configuration` (Discovery 1.0
/// §3), read with the checks that keep one provider from speaking for another: the issuer it
/// names is exactly the one configured (§4.3), every endpoint is https (plain http only on a
/// loopback host, for a provider on the same machine), and it signs ID tokens with at least one
/// algorithm Roster accepts.
public struct ProviderMetadata: Sendable, Equatable {
    /// The largest discovery document read (providers publish 2–10 KiB).
    public static let maxBytes = 256 * 1024

    public var issuer: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    public var jwksURI: URL
    public var userinfoEndpoint: URL?
    /// RFC 8628's endpoint, when the provider offers the device grant (`roster-client login`).
    public var deviceAuthorizationEndpoint: URL?
    public var revocationEndpoint: URL?
    /// RFC 7662's endpoint, when the provider offers it: how /scim/v2 checks the access tokens
    /// the provider's own SCIM client sends (`--scim-provider-tokens`).
    public var introspectionEndpoint: URL?
    /// Whether the introspection endpoint takes the client's secret in the body (it offers only
    /// `client_secret_post`) rather than HTTP Basic.
    public var introspectionSecretInBody = false
    /// Roster's allowlist narrowed to what the provider signs ID tokens with.
    public var signingAlgorithms: Set<SignatureAlgorithm>
    /// RFC 9207: the provider puts `iss` in every authorization response, so one without it is refused.
    public var issuerInAuthorizationResponse: Bool
    /// How the client authenticates at the token endpoint: HTTP Basic unless the provider offers
    /// only `client_secret_post`.
    public var clientSecretInBody: Bool
    /// The scopes the provider lists (`scopes_supported`); empty when it lists none.
    public var scopesSupported: Set<String> = []

    /// Where an issuer's discovery document is (Discovery 1.0 §4: the issuer, without a final
    /// slash, then `/.well-known/openid-configuration`).
    public static func discoveryURL(issuer: String) -> URL? {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        return URL(string: base + "/.well-known/openid-configuration")
    }

    /// The provider's metadata for `expectedIssuer`, or what is wrong with it.
    public static func parse(_ data: some Collection<UInt8>, expectedIssuer: String) throws(IdentityError)
        -> ProviderMetadata
    {
        guard data.count <= maxBytes else {
            throw IdentityError("the provider's discovery document is larger than 256 KiB")
        }
        guard let document = JSONValue.parse(Data(data)), case .object = document else {
            throw IdentityError("the provider's discovery document is not a JSON object")
        }
        guard let issuer = document["issuer"]?.string else {
            throw IdentityError("the provider's discovery document names no issuer")
        }
        guard issuer == expectedIssuer else {
            throw IdentityError(
                "the provider says its issuer is \(issuer), not \(expectedIssuer) as configured: the two must be equal, character for character"
            )
        }
        func endpoint(_ name: String, required: Bool) throws(IdentityError) -> URL? {
            guard let text = document[name]?.string else {
                if required { throw IdentityError("the provider's discovery document has no \(name)") }
                return nil
            }
            if let problem = ProviderAddress.problem(text) { throw IdentityError("the provider's \(name) \(problem)") }
            return URL(string: text)
        }
        let algorithms: Set<SignatureAlgorithm>
        switch document["id_token_signing_alg_values_supported"] {
        case .array(let names)?: algorithms = Set(names.compactMap { $0.string.flatMap(SignatureAlgorithm.init) })
        // Discovery requires the list; RS256 is the one every provider must support (Core §15.1).
        default: algorithms = [.rs256]
        }
        guard !algorithms.isEmpty else {
            throw IdentityError(
                "the provider signs ID tokens with none of RS256, ES256 or EdDSA, the algorithms Roster accepts")
        }
        if case .array(let methods)? = document["code_challenge_methods_supported"],
            !methods.contains(.string("S256"))
        {
            throw IdentityError(
                "the provider does not offer PKCE with S256 (code_challenge_methods_supported), which Roster requires")
        }
        var inBody = false
        if case .array(let methods)? = document["token_endpoint_auth_methods_supported"] {
            let offered = Set(methods.compactMap(\.string))
            inBody = !offered.contains("client_secret_basic") && offered.contains("client_secret_post")
        }
        var metadata = ProviderMetadata(
            issuer: issuer,
            authorizationEndpoint: try endpoint("authorization_endpoint", required: true)!,
            tokenEndpoint: try endpoint("token_endpoint", required: true)!,
            jwksURI: try endpoint("jwks_uri", required: true)!,
            userinfoEndpoint: try endpoint("userinfo_endpoint", required: false),
            deviceAuthorizationEndpoint: try endpoint("device_authorization_endpoint", required: false),
            revocationEndpoint: try endpoint("revocation_endpoint", required: false),
            signingAlgorithms: algorithms,
            issuerInAuthorizationResponse: document["authorization_response_iss_parameter_supported"] == .bool(true),
            clientSecretInBody: inBody)
        metadata.introspectionEndpoint = try endpoint("introspection_endpoint", required: false)
        if case .array(let methods)? = document["introspection_endpoint_auth_methods_supported"] {
            let offered = Set(methods.compactMap(\.string))
            metadata.introspectionSecretInBody =
                !offered.contains("client_secret_basic") && offered.contains("client_secret_post")
        }
        if case .array(let scopes)? = document["scopes_supported"] {
            metadata.scopesSupported = Set(scopes.compactMap(\.string))
        }
        return metadata
    }
}

/// Where a provider may be reached: https anywhere, plain http only on a loopback host.
public enum ProviderAddress {
    /// Why `text` is not an address Roster sends anything to, or nil.
    public static func problem(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "is not an absolute URL" }
        guard components.user == nil, components.password == nil else { return "carries a user name or password" }
        guard components.fragment == nil else { return "has a fragment" }
        switch scheme {
        case "https": return nil
        case "http":
            return HostPort.isLoopback(host: host)
                ? nil : "is plain http: only https is used, but for a provider on this host"
        default: return "is not an https URL"
        }
    }
}
