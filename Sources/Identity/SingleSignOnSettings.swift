/// A tenant's sign-in with its identity provider (docs/SSO.md): set by `roster-client admin sso
/// set`, kept by the store with the client secret sealed. Limits are checked by `problems`.
public struct SingleSignOnSettings: Sendable, Codable, Equatable {
    public var issuer: String
    public var clientID: String
    public var scopes: [String]
    /// Where each claim is read from: a member name, or a dotted path into nested objects.
    public var claims: ClaimPaths
    /// Members of any of these groups sign in as admins.
    public var adminGroups: [String]
    /// When not empty, only members of these groups (or of `adminGroups`) may sign in.
    public var readerGroups: [String]
    /// A group's members are put in a team: the first of the person's groups found here.
    public var teamGroups: [String: String]
    /// Whether a first sign-in by someone the directory does not know creates their person.
    public var createPeople: Bool
    /// Whether a first sign-in may be linked to an existing person by an e-mail address the
    /// provider says it verified (`email_verified`); off, an admin links people by hand.
    public var linkByVerifiedEmail: Bool
    /// The redirect URI registered with the provider; nil: this server's own address as the
    /// browser reached it, with `/sign-in/sso/callback`.
    public var redirectURI: String?
    /// Whether `/scim/v2` also takes access tokens this provider issued to Roster's client,
    /// checked at its introspection endpoint (RFC 7662; `TokenIntrospection`). Optional so that
    /// settings kept before it read as off.
    public var scimProviderTokens: Bool?

    public struct ClaimPaths: Sendable, Codable, Equatable {
        public var name = "name"
        public var givenName = "given_name"
        public var familyName = "family_name"
        public var email = "email"
        public var phone = "phone_number"
        public var groups = "groups"
        public init() {}
    }

    public init(
        issuer: String, clientID: String, scopes: [String] = ["openid", "profile", "email"],
        claims: ClaimPaths = ClaimPaths(), adminGroups: [String] = [], readerGroups: [String] = [],
        teamGroups: [String: String] = [:], createPeople: Bool = true, linkByVerifiedEmail: Bool = false
    ) {
        (self.issuer, self.clientID, self.scopes, self.claims) = (issuer, clientID, scopes, claims)
        (self.adminGroups, self.readerGroups, self.teamGroups) = (adminGroups, readerGroups, teamGroups)
        (self.createPeople, self.linkByVerifiedEmail) = (createPeople, linkByVerifiedEmail)
    }

    public static let maxGroups = 100
    public static let maxTextLength = 512

    /// What is wrong with these settings, one line each; empty when they may be stored.
    public var problems: [String] {
        var found: [String] = []
        if let problem = ProviderAddress.problem(issuer) { found.append("the issuer \(problem)") }
        if let redirectURI, let problem = ProviderAddress.problem(redirectURI) {
            found.append("the redirect URI \(problem)")
        }
        if issuer.contains("?") || issuer.contains("#") { found.append("the issuer has a query or fragment") }
        if clientID.isEmpty || clientID.utf8.count > Self.maxTextLength {
            found.append("the client id is empty or too long")
        }
        if scopes.count > 20 || scopes.contains(where: { $0.isEmpty || $0.contains(" ") || $0.utf8.count > 100 }) {
            found.append("scopes are at most 20 words without spaces")
        }
        let paths = [claims.name, claims.givenName, claims.familyName, claims.email, claims.phone, claims.groups]
        if paths.contains(where: { $0.isEmpty || $0.utf8.count > 200 }) {
            found.append("a claim path is empty or too long")
        }
        let groups = adminGroups + readerGroups + Array(teamGroups.keys) + Array(teamGroups.values)
        if adminGroups.count + readerGroups.count + teamGroups.count > Self.maxGroups {
            found.append("at most \(Self.maxGroups) groups are mapped")
        }
        if groups.contains(where: { $0.isEmpty || $0.utf8.count > 200 }) {
            found.append("a group or team name is empty or too long")
        }
        return found
    }
}
