import Foundation
import RosterDomain

/// The provider's own device authorization grant (RFC 8628), run by the server for
/// `roster-client login` when the provider offers it: the server asks the provider for codes,
/// the terminal shows the provider's page and code, and the server polls the provider's token
/// endpoint until the person has signed in there; the ID token then says who they are. What is
/// read from the provider is checked here: lengths, ranges, and an answer per RFC 8628 §3.5.
public enum ProviderDeviceGrant {
    public static let grantType = "urn:ietf:params:oauth:grant-type:device_code"
    /// The longest a provider's codes and page address may be, and the answer read.
    public static let maxText = 512
    public static let maxAnswerBytes = 64 * 1024

    /// What the provider's device authorization endpoint gave.
    public struct Started: Sendable, Equatable {
        public var deviceCode: String
        public var userCode: String
        public var verificationURI: String
        public var verificationURIComplete: String?
        /// Seconds, kept within 60 s to 30 minutes.
        public var expiresIn: Int64
        /// Seconds between polls, kept within 1 to 60 (5 when the provider says none, §3.2).
        public var interval: Int64
    }

    /// How a poll of the provider's token endpoint ended.
    public enum Answer: Sendable, Equatable {
        case signedIn(idToken: String)
        case pending
        case slowDown
        case denied
        case expired
        case failed(String)
    }

    /// A form to the provider as Roster's client; `client_id` is in the body either way (§3.1,
    /// §3.4 name it there).
    public static func form(
        _ fields: [(String, String)], metadata: ProviderMetadata, clientID: String, clientSecret: String
    ) -> (headers: [(String, String)], body: [UInt8]) {
        AuthorizationCodeFlow.clientForm(
            metadata.clientSecretInBody ? fields : fields + [("client_id", clientID)], clientID: clientID,
            clientSecret: clientSecret, secretInBody: metadata.clientSecretInBody)
    }

    /// The device authorization endpoint's answer (RFC 8628 §3.2), or what is wrong with it.
    public static func started(status: Int, body: [UInt8]) throws(IdentityError) -> Started {
        guard body.count <= maxAnswerBytes, let answer = JSONValue.parse(Data(body)), case .object = answer else {
            throw IdentityError("the provider's device authorization answer is not a JSON object (HTTP \(status))")
        }
        guard status == 200 else {
            throw IdentityError(
                "the provider refused to start a device login: \(SignInRefusal.cleaned(answer["error"]?.string ?? "HTTP \(status)"))"
            )
        }
        func text(_ name: String) throws(IdentityError) -> String {
            guard let value = answer[name]?.string, !value.isEmpty, value.utf8.count <= maxText,
                !ControlCharacters.contains(in: value)
            else { throw IdentityError("the provider's device authorization answer has no usable \(name)") }
            return value
        }
        let page = try text("verification_uri")
        guard let scheme = URLComponents(string: page)?.scheme?.lowercased(), ["https", "http"].contains(scheme) else {
            throw IdentityError("the provider's verification_uri is not a web address")
        }
        func seconds(_ name: String, default fallback: Int64, in range: ClosedRange<Int64>) -> Int64 {
            guard case .number(let value)? = answer[name], value.isFinite else { return fallback }
            return min(max(Int64(value.rounded()), range.lowerBound), range.upperBound)
        }
        let complete = answer["verification_uri_complete"]?.string.flatMap {
            $0.utf8.count <= maxText && $0.hasPrefix(page) ? $0 : nil
        }
        return Started(
            deviceCode: try text("device_code"), userCode: try text("user_code"), verificationURI: page,
            verificationURIComplete: complete, expiresIn: seconds("expires_in", default: 600, in: 60...1_800),
            interval: seconds("interval", default: 5, in: 1...60))
    }

    /// The token endpoint's answer to a poll (RFC 8628 §3.5).
    public static func answer(status: Int, body: [UInt8]) -> Answer {
        guard body.count <= maxAnswerBytes, let answer = JSONValue.parse(Data(body)), case .object = answer else {
            return .failed("the provider's token answer is not a JSON object (HTTP \(status))")
        }
        if status == 200 {
            guard let idToken = answer["id_token"]?.string else {
                return .failed("the provider's token answer has no ID token (is the openid scope allowed?)")
            }
            return .signedIn(idToken: idToken)
        }
        switch answer["error"]?.string {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown
        case "access_denied": return .denied
        case "expired_token": return .expired
        case let other:
            return .failed("the provider refused the device login: \(SignInRefusal.cleaned(other ?? "HTTP \(status)"))")
        }
    }
}
