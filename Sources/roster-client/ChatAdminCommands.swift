import ArgumentParser
import Foundation
import RosterCommandLine
import RosterProtocol

/// `roster-client admin announce ...`
struct AnnounceAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "announce", abstract: "Post who is on call on a schedule to a chat webhook (docs/CHAT.md).",
        subcommands: [Add.self, List.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract:
                "Announce a schedule's on-call person: --on change, or --at \"Mon 09:00\" (the schedule's time zone).",
            discussion: """
                --on change posts at every handoff and every change of who is on duty (changes within a few seconds \
                make one post). --at posts at a local time: "09:00" every day (or on --weekdays Mon-Fri), "Mon 09:00" \
                on Mondays; exact across daylight-saving changes.
                """)
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The schedule (id or name).") var schedule: String
        @Option(help: "The webhook's id (`admin webhook list`).") var webhook: String
        @Option(help: "change: at every change of who is on duty.") var on: String?
        @Option(help: "A local time: \"09:00\" or \"Mon 09:00\".") var at: String?
        @Option(help: "With a bare --at: the days, e.g. Mon-Fri.") var weekdays: String?
        @OptionGroup var why: ReasonOption

        func validate() throws {
            if let on, on != "change" { throw ValidationError("--on takes change") }
            if (on == nil) == (at == nil) { throw ValidationError("give --on change or --at TIME (one)") }
            if weekdays != nil && at == nil { throw ValidationError("--weekdays goes with --at") }
        }

        func run() async throws {
            let rule = Roster_V1_AnnounceRule.with {
                $0.schedule = schedule
                $0.webhook = webhook
                $0.onChange = on == "change"
                $0.at = at ?? ""
                $0.weekdays = weekdays ?? ""
            }
            try await options.runner().addAnnouncement(rule, reason: why.reason).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The tenant's announcements.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listAnnouncements().exit() }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete an announcement.", aliases: ["remove"])
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The announcement's id.") var id: String
        @OptionGroup var why: ReasonOption
        func run() async throws { try await options.runner().removeAnnouncement(id: id, reason: why.reason).exit() }
    }
}

/// `roster-client admin chat ...`: the slash commands' secrets.
struct ChatAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat", abstract: "Set up \"/oncall\" in Slack or Mattermost (docs/CHAT.md).",
        subcommands: [Slack.self, Mattermost.self, List.self])

    struct Slack: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "slack",
            abstract: "Answer Slack's /oncall: requests are verified with the app's signing secret.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "A file holding the Slack app's signing secret.") var signingSecretFile: String?
        @Flag(help: "Turn the slash command off.") var off = false
        @OptionGroup var why: ReasonOption

        func validate() throws {
            if (signingSecretFile == nil) == !off { throw ValidationError("give --signing-secret-file FILE or --off") }
        }

        func run() async throws {
            let secret = try signingSecretFile.map(SecretFile.read) ?? ""
            try await options.runner().setChatCommand(platform: "slack", secret: secret, reason: why.reason).exit()
        }
    }

    struct Mattermost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mattermost",
            abstract: "Answer Mattermost's /oncall: requests must carry the command's token.",
            discussion:
                "--token-file is the admin token every command takes; the command's own token is --command-token-file.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "A file holding the Mattermost slash command's token.") var commandTokenFile: String?
        @Flag(help: "Turn the slash command off.") var off = false
        @OptionGroup var why: ReasonOption

        func validate() throws {
            if (commandTokenFile == nil) == !off { throw ValidationError("give --command-token-file FILE or --off") }
        }

        func run() async throws {
            let secret = try commandTokenFile.map(SecretFile.read) ?? ""
            try await options.runner().setChatCommand(platform: "mattermost", secret: secret, reason: why.reason).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The slash commands set up.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listChatCommands().exit() }
    }
}

/// A secret from a file: its first line, trimmed; a file that cannot be read or is empty is an error.
enum SecretFile {
    static func read(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read \(path)")
        }
        let secret = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !secret.isEmpty else { throw ValidationError("\(path) is empty") }
        return secret
    }
}
