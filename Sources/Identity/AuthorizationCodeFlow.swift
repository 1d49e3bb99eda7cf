import Foundation
import RosterDomain

/// The relying party's side of the authorization code flow with PKCE (OIDC Core §3.1, RFC 7636,
/// RFC 9207, RFC 9700 §2.1): the request the browser is sent to, the reading of the redirect
/// back, and the token request and its answer. Values only: the web app sends and receives.
public struct AuthorizationCodeFlow: Sendable {
    public var metadata: ProviderMetadata
    public var clientID: String
    public var clientSecret: String
    /// Registered with the provider exactly as sent (RFC 9700 §2.1: exact matching).
    public var redirectURI: String
    public var scopes: [String]

    public init(
        metadata: ProviderMetadata, clientID: String, clientSecret: String, redirectURI: String, scopes: [String]
    ) {
        (self.metadata, self.clientID, self.clientSecret, self.redirectURI) = (
            metadata, clientID, clientSecret, redirectURI
        )
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    }

    /// Where the browser goes to sign in for `attempt`.
    public func authorizationURL(for attempt: SignInAttempt) -> URL {
        let query = Self.formEncoded([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", attempt.state), ("nonce", attempt.nonce),
            ("code_challenge", attempt.codeChallenge), ("code_challenge_method", "S256"),
        ])
        let base = metadata.authorizationEndpoint.absoluteString
        return URL(string: base + (base.contains("?") ? "&" : "?") + query)!
    }

    /// The redirect back's query read: the attempt it finishes (taken, never to be used again)
    /// and the code, or why the sign-in ends here.
    public func readRedirect(_ query: [String: String], attempts: SignInAttempts, now: UnixMillis) throws(SignInRefusal)
        -> (SignInAttempt, code: String)
    {
        guard let state = query["state"], !state.isEmpty else { throw .unknownState }
        let attempt = try attempts.finish(state: state, now: now)
        // RFC 9207: the issuer is checked before anything else the answer says.
        if let issuer = query["iss"] {
            guard issuer == metadata.issuer else { throw .wrongIssuerInResponse(SignInRefusal.cleaned(issuer)) }
        } else if metadata.issuerInAuthorizationResponse {
            throw .missingIssuerInResponse
        }
        if let error = query["error"] {
            let description = query["error_description"].map { ": " + $0 } ?? ""
            throw .providerSaid(SignInRefusal.cleaned(error + description))
        }
        guard let code = query["code"], !code.isEmpty, code.utf8.count <= 2_048 else { throw .noCode }
        return (attempt, code)
    }

    /// The token request for `code` (RFC 6749 §4.1.3 with RFC 7636's verifier): its headers and
    /// form body. The secret goes in HTTP Basic (RFC 6749 §2.3.1: each part form-encoded) unless
    /// the provider takes it only in the body.
    public func tokenRequest(code: String, attempt: SignInAttempt) -> (headers: [(String, String)], body: [UInt8]) {
        Self.clientForm(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                ("code_verifier", attempt.codeVerifier),
            ], clientID: clientID, clientSecret: clientSecret, secretInBody: metadata.clientSecretInBody)
    }

    /// A form posted to the provider as Roster's client (RFC 6749 §2.3.1): the id and secret in
    /// HTTP Basic, or in the body where the provider takes only that.
    public static func clientForm(
        _ fields: [(String, String)], clientID: String, clientSecret: String, secretInBody: Bool
    ) -> (headers: [(String, String)], body: [UInt8]) {
        var fields = fields
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if secretInBody {
            fields += [("client_id", clientID), ("client_secret", clientSecret)]
        } else {
            let pair = formComponent(clientID) + ":" + formComponent(clientSecret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        }
        return (headers, Array(formEncoded(fields).utf8))
    }

    /// The ID token in the token endpoint's answer, or why there is none (RFC 6749 §5.1, §5.2).
    public static func idToken(fromTokenResponse status: Int, body: [UInt8]) throws(SignInRefusal) -> String {
        guard body.count <= 64 * 1024 else { throw .tokenResponseUnreadable("larger than 64 KiB") }
        guard let document = JSONValue.parse(Data(body)), case .object = document else {
            throw status == 200
                ? .tokenResponseUnreadable("not a JSON object") : .codeRefused("HTTP status \(status)")
        }
        if let error = document["error"]?.string {
            let description = document["error_description"]?.string.map { ": " + $0 } ?? ""
            throw .codeRefused(SignInRefusal.cleaned(error + description))
        }
        guard status == 200 else { throw .codeRefused("HTTP status \(status)") }
        guard let type = document["token_type"]?.string, type.lowercased() == "bearer" else {
            throw .tokenResponseUnreadable("its token_type is not Bearer")
        }
        guard let token = document["id_token"]?.string else { throw .tokenResponseUnreadable("it has no id_token") }
        return token
    }

    /// `application/x-www-form-urlencoded` as the WHATWG URL standard writes it.
    public static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { formComponent($0.0) + "=" + formComponent($0.1) }.joined(separator: "&")
    }

    static func formComponent(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): output += "+"
            default: output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}
