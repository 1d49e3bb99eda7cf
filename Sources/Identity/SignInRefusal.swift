import RosterDomain

/// Why a sign-in through the identity provider did not end in a session: each case a message
/// of its own for the sign-in page and the `auth.failed` audit entry, in words for the person
/// signing in or the admin who set sign-in up, never the provider's raw error stack.
public enum SignInRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The provider answered the authorization request with an error (the person cancelled, or
    /// the client is not allowed): its code and description, cut short and cleaned.
    case providerSaid(String)
    case unknownState
    case replayedState
    case expiredState
    case noCode
    case wrongIssuerInResponse(String)
    case missingIssuerInResponse
    /// The token endpoint refused the code (used already, expired, or not this client's).
    case codeRefused(String)
    case tokenResponseUnreadable(String)
    case idToken(IDTokenRefusal)
    /// The provider could not be reached or answered garbage (discovery, keys, token endpoint).
    case providerUnavailable(String)
    case notConfigured
    case notInAllowedGroup
    case unknownPerson
    case emailNotUnique
    case linkedPersonGone
    /// The person was deactivated (SCIM `active: false`, docs/SSO.md).
    case personDeactivated
    /// The directory refused the person a first sign-in would create (a name already taken).
    case directoryRefused(String)

    public var description: String {
        switch self {
        case .providerSaid(let said): "the identity provider did not sign you in: \(said)"
        case .unknownState: "this sign-in link is not one this server started; start again from the sign-in page"
        case .replayedState: "this sign-in link was used already; start again from the sign-in page"
        case .expiredState: "this sign-in took longer than 10 minutes; start again from the sign-in page"
        case .noCode: "the identity provider sent you back without an authorization code"
        case .wrongIssuerInResponse(let issuer):
            "the answer came from \(issuer), not from the configured identity provider (a mix-up attack is refused)"
        case .missingIssuerInResponse:
            "the identity provider's answer names no issuer (iss), though the provider says it always does"
        case .codeRefused(let said): "the identity provider refused the authorization code: \(said)"
        case .tokenResponseUnreadable(let what): "the identity provider's token answer is unreadable: \(what)"
        case .idToken(let refusal): refusal.description
        case .providerUnavailable(let what): "the identity provider cannot be used right now: \(what)"
        case .notConfigured: "sign-in with an identity provider is not set up for this tenant"
        case .notInAllowedGroup: "you are not in a group that may sign in to Roster; ask your admin"
        case .unknownPerson: "no person in Roster's directory is linked to you yet; ask your admin to add you"
        case .emailNotUnique:
            "more than one person in Roster's directory has your e-mail address; ask your admin to link you"
        case .linkedPersonGone: "the person you are linked to is no longer in Roster's directory; ask your admin"
        case .personDeactivated: "your person in Roster's directory is deactivated; ask your admin"
        case .directoryRefused(let why): "Roster could not add you to its directory (\(why)); ask your admin"
        }
    }

    /// The case's name, as audit entries and tests name it (an ID token's refusal by its own).
    public var code: String {
        switch self {
        case .providerSaid: "providerSaid"
        case .unknownState: "unknownState"
        case .replayedState: "replayedState"
        case .expiredState: "expiredState"
        case .noCode: "noCode"
        case .wrongIssuerInResponse: "wrongIssuerInResponse"
        case .missingIssuerInResponse: "missingIssuerInResponse"
        case .codeRefused: "codeRefused"
        case .tokenResponseUnreadable: "tokenResponseUnreadable"
        case .idToken(let refusal): refusal.code
        case .providerUnavailable: "providerUnavailable"
        case .notConfigured: "notConfigured"
        case .notInAllowedGroup: "notInAllowedGroup"
        case .unknownPerson: "unknownPerson"
        case .emailNotUnique: "emailNotUnique"
        case .linkedPersonGone: "linkedPersonGone"
        case .personDeactivated: "personDeactivated"
        case .directoryRefused: "directoryRefused"
        }
    }

    /// Text from the provider, shown on a page: printable, one line, at most 200 characters.
    static func cleaned(_ text: String) -> String {
        let printable = text.unicodeScalars.map { ControlCharacters.isControl($0) ? " " : String($0) }
            .joined()
        return printable.count > 200 ? String(printable.prefix(200)) + "…" : printable
    }
}
