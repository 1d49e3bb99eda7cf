import ArgumentParser
import RosterCommandLine

/// `roster-client admin scim ...`: directory sync from the tenant's identity provider (docs/SSO.md).
struct ProvisioningAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scim", abstract: "Let the identity provider keep the directory (SCIM 2.0, docs/SSO.md).",
        subcommands: [Token.self])

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "The bearer tokens the provider provisions with.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Print a new SCIM bearer token (shown once) and the /scim/v2 address to give the provider.")
            @OptionGroup var options: ConnectionOptions
            @Option(help: "What the token is for (shown by list).") var label = ""
            @OptionGroup var why: ReasonOption
            func run() async throws {
                try await options.runner().createProvisioningToken(label: label, reason: why.reason).exit()
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "The tenant's SCIM tokens, revoked ones too.")
            @OptionGroup var options: ConnectionOptions
            func run() async throws { try await options.runner().listProvisioningTokens().exit() }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke", abstract: "Stop a SCIM token at once.")
            @OptionGroup var options: ConnectionOptions
            @Argument(help: "The token's id (from list).") var id: String
            @OptionGroup var why: ReasonOption
            func run() async throws {
                try await options.runner().revokeProvisioningToken(id: id, reason: why.reason).exit()
            }
        }
    }
}
