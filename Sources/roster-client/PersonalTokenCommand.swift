import ArgumentParser
import RosterCommandLine
import RosterDomain

/// `roster-client token ...`: your own tokens for scripts, calendars and status lights
/// (docs/SSO.md). Made with your login (`roster-client login`).
struct PersonalTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Your own tokens for scripts, calendars and status lights.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Print a new token of yours (shown once): reading only, or also your own actions.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "What the token is for (shown by list).") var label = ""
        @Flag(help: "Reading only: the token may not take duty, ask for cover or record time off.")
        var readOnly = false
        @Option(name: .customLong("schedule"), help: "Act only on this schedule (id or name); repeat for several.")
        var schedules: [String] = []
        @Option(help: "How long it lasts: 1h to 365d (default: 90d).") var expiresIn: String?

        func run() async throws {
            var lifetime: Duration?
            if let expiresIn {
                guard let parsed = DurationText.parse(expiresIn) else {
                    throw ValidationError("--expires-in takes a duration such as 12h, 30d (got \"\(expiresIn)\")")
                }
                lifetime = parsed
            }
            try await options.runner().createPersonalToken(
                label: label, readOnly: readOnly, schedules: schedules, expiresIn: lifetime
            ).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Your personal tokens still working (an admin's: everyone's).")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listPersonalTokens().exit() }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Stop a personal token at once (yours; an admin: anyone's).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The token's id (from list).") var id: String
        func run() async throws { try await options.runner().revokePersonalToken(id: id).exit() }
    }
}
