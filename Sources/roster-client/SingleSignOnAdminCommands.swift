import ArgumentParser
import Foundation
import RosterCommandLine
import RosterProtocol

/// `roster-client admin sso ...`: sign-in with the tenant's identity provider (docs/SSO.md).
struct SingleSignOnAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sso", abstract: "Sign people in with the organisation's identity provider (docs/SSO.md).",
        subcommands: [Set.self, Show.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the OpenID Connect provider people sign in with.",
            discussion: """
                The server fetches the provider's discovery document and keys before it keeps the settings, \
                and says the redirect URI to register with the provider. Run again to change any setting; \
                without --client-secret-file the secret kept before stays.
                """)
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The provider's issuer, exactly as its discovery document names it.") var issuer: String
        @Option(help: "The client id registered with the provider.") var clientId: String
        @Option(help: "A file holding the client secret (kept sealed; never shown again).") var clientSecretFile:
            String?
        @Option(help: "The claim (a dotted path for nested ones) that lists the person's groups.") var groupsClaim =
            "groups"
        @Option(help: "Members of this group sign in as admins (repeat for several).") var adminGroup: [String] = []
        @Option(help: "Only members of this group (or an admin group) may sign in (repeat for several).")
        var readerGroup: [String] = []
        @Option(help: "GROUP=TEAM: members of GROUP are put in TEAM (repeat for several).") var teamGroup: [String] = []
        @Option(help: "The scopes asked for, space-separated.") var scopes = "openid profile email"
        @Option(help: "The redirect URI registered with the provider (default: this server's /sign-in/sso/callback).")
        var redirectUri = ""
        @Flag(help: "Refuse people the directory does not know, instead of creating them at their first sign-in.")
        var noCreatePeople = false
        @Flag(help: "Link a first sign-in to the person with the e-mail address the provider says it verified.")
        var linkByVerifiedEmail = false
        @Flag(
            help: ArgumentHelp(
                "Let /scim/v2 take access tokens the provider issued to this client (checked at its introspection endpoint).",
                discussion: "For a provider whose SCIM client mints its own token, as Canaille does (docs/SSO.md)."))
        var scimProviderTokens = false
        @OptionGroup var why: ReasonOption

        func run() async throws {
            var teams: [String: String] = [:]
            for pair in teamGroup {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw ValidationError("--team-group takes GROUP=TEAM (got \"\(pair)\")")
                }
                teams[parts[0]] = parts[1]
            }
            let secret = try clientSecretFile.map(SecretFile.read) ?? ""
            let setting = Roster_V1_SingleSignOnSetting.with {
                $0.issuer = issuer
                $0.clientID = clientId
                $0.clientSecret = secret
                $0.groupsClaim = groupsClaim
                $0.adminGroups = adminGroup
                $0.readerGroups = readerGroup
                $0.teamGroups = teams
                $0.scopes = scopes.split(separator: " ").map(String.init)
                $0.redirectUri = redirectUri
                $0.createPeople = !noCreatePeople
                $0.linkByVerifiedEmail = linkByVerifiedEmail
                $0.scimProviderTokens = scimProviderTokens
            }
            try await options.runner().setSingleSignOn(setting, reason: why.reason).exit()
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "The provider set up, if any.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().showSingleSignOn().exit() }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Turn sign-in with the provider off (signed-in sessions stay until they end).")
        @OptionGroup var options: ConnectionOptions
        @OptionGroup var why: ReasonOption
        func run() async throws { try await options.runner().removeSingleSignOn(reason: why.reason).exit() }
    }
}
