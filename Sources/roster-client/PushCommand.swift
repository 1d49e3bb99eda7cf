import ArgumentParser
import RosterCommandLine
import RosterDomain

/// `roster-client push ...`: your phones, browsers and ntfy topics, and what they are told
/// (docs/PUSH.md). Managed with your login (`roster-client login`).
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Your phones, browsers and ntfy topics, and what they are told.",
        subcommands: [Add.self, List.self, Remove.self, Settings.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Register a Web Push endpoint (a UnifiedPush distributor's, e.g. ntfy's app) or an ntfy topic.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The endpoint URL the distributor gives, or an ntfy topic URL with --ntfy.") var endpoint: String
        @Option(help: "The subscription's public key (base64url), as the distributor gives it.") var p256dh = ""
        @Option(help: "The subscription's auth secret (base64url).") var auth = ""
        @Flag(help: "The endpoint is an ntfy topic: a plain JSON publish, no keys.") var ntfy = false
        @Option(help: "What it is (shown by list): \"Pixel 8\".") var label = ""

        func validate() throws {
            if !ntfy && (p256dh.isEmpty || auth.isEmpty) {
                throw ValidationError("a Web Push endpoint needs --p256dh and --auth (or say --ntfy for an ntfy topic)")
            }
        }

        func run() async throws {
            try await options.runner().addPushSubscription(
                endpoint: endpoint, p256dh: p256dh, auth: auth, ntfy: ntfy, label: label
            ).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Your push subscriptions and settings (an admin also sees counts).")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listPushSubscriptions().exit() }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Stop pushes to one of your subscriptions.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The subscription's id (from list).") var id: String
        func run() async throws { try await options.runner().removePushSubscription(id: id).exit() }
    }

    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "What you are told (on-duty, cover-asked, my-requests, conflicts, shift-changes) and quiet hours."
        )
        @OptionGroup var options: ConnectionOptions
        @Option(help: "What you are told, comma-separated; \"none\" for nothing.") var kinds: String?
        @Option(help: "Quiet hours, e.g. 22:00-07:00: nothing but going on duty then.") var quiet: String?
        @Option(help: "The zone of the quiet hours (default UTC).") var zone = "UTC"
        @Flag(help: "No quiet hours.") var noQuiet = false

        func run() async throws {
            let chosen = kinds.map { $0 == "none" ? [] : $0.split(separator: ",").map(String.init) }
            var hours: (start: Int, end: Int, zone: String)??
            if noQuiet { hours = .some(nil) }
            if let quiet {
                let parts = quiet.split(separator: "-").map(String.init)
                guard parts.count == 2, let start = RestrictionWindow.minuteOfDay(parts[0]),
                    let end = RestrictionWindow.minuteOfDay(parts[1]), start < 1440, end < 1440
                else {
                    throw ValidationError("--quiet takes two times such as 22:00-07:00 (got \"\(quiet)\")")
                }
                hours = .some((start, end, zone))
            }
            try await options.runner().setPushSettings(kinds: chosen, quiet: hours).exit()
        }
    }
}

/// `roster-client admin push ...`: the tenant's counts and its VAPID key.
struct PushAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Push subscriptions: counts, and the VAPID key.",
        subcommands: [Counts.self, RotateKey.self])

    struct Counts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "counts", abstract: "How many people and subscriptions (never whose endpoints).")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listPushSubscriptions().exit() }
    }

    struct RotateKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-key",
            abstract: "A new VAPID key; browsers subscribe again at their Notifications page.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().rotatePushKey().exit() }
    }
}
