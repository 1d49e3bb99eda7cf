import ArgumentParser
import RosterCommandLine
import RosterDomain
import RosterProtocol

/// `roster-client admin webhook ...`
struct WebhookAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Send notifications to an HTTP endpoint, signed (docs/NOTIFICATIONS.md).",
        subcommands: [Add.self, List.self, Remove.self, Test.self, Deliveries.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Register an endpoint; prints its signing secret once.",
            discussion: """
                Events: on-duty.changed, shift.starting, shifts.changed, coverage.gap (all when --events is not given). \
                Each is POSTed as JSON with Roster-Signature (HMAC-SHA256 over "TIMESTAMP.BODY" under the secret) and \
                retried with back-off for up to 24 hours.
                """)
        @OptionGroup var options: ConnectionOptions
        @Argument(
            help: "The endpoint: an http:// or https:// URL (a chat's incoming webhook; for matrix the room's URL).")
        var url: String
        @Option(help: "Comma-separated event types (default: all).") var events: String?
        @Option(name: .customLong("schedule"), help: "Only events of this schedule (id or name); repeatable.")
        var schedules: [String] = []
        @Option(help: "json (signed events, the default), slack, mattermost, teams, matrix or discord (docs/CHAT.md).")
        var format = "json"
        @Option(help: "matrix: a file holding the bot's access token.") var accessTokenFile: String?
        @OptionGroup var why: ReasonOption

        func run() async throws {
            let types = events.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
            let token = try accessTokenFile.map(SecretFile.read) ?? ""
            try await options.runner().addWebhook(
                url: url, events: types, schedules: schedules, format: format, accessToken: token,
                reason: why.reason
            ).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The tenant's webhooks, with pending events and failures.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listWebhooks().exit() }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a webhook (its undelivered events are dropped).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The webhook id.") var id: String
        @OptionGroup var why: ReasonOption
        func run() async throws { try await options.runner().removeWebhook(id: id, reason: why.reason).exit() }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a `ping` event to a webhook.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The webhook id.") var id: String
        func run() async throws { try await options.runner().testWebhook(id: id).exit() }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deliveries",
            abstract: "Recent delivery attempts with their HTTP status, newest first.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "A webhook id (default: every webhook).") var id: String?
        @Option(help: "At most this many attempts (1-1000).") var limit = 100

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000") }
        }

        func run() async throws { try await options.runner().webhookDeliveries(id: id, limit: limit).exit() }
    }
}

/// `roster-client admin reminder ...`
struct ReminderAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminder", abstract: "Remind people before their shifts (shift.starting events).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a reminder: --before 15m, or --days-before 1 --at 18:00 (the evening before).",
            discussion: "Without --schedule it applies to every schedule; with --person only to that person's shifts.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "How long before the shift starts, e.g. 15m, 2h.") var before: String?
        @Option(help: "On the day this many days before the shift (1-7), at --at.") var daysBefore: Int?
        @Option(help: "The local time for --days-before, HH:MM.") var at: String?
        @Option(help: "The time zone of --at (default: the schedule's).") var zone: String?
        @Option(help: "Only this schedule (id or name).") var schedule: String?
        @Option(help: "Only this person's shifts (id or full name).") var person: String?
        @OptionGroup var why: ReasonOption

        func validate() throws {
            if (before == nil) == (daysBefore == nil) { throw ValidationError("give --before or --days-before (one)") }
            if let before, Self.minutes(before) == nil {
                throw ValidationError("--before takes a duration in minutes or more, e.g. 15m, 2h, 1d")
            }
            if daysBefore != nil, at.flatMap(Self.minuteOfDay) == nil {
                throw ValidationError("--days-before needs --at HH:MM")
            }
            if daysBefore == nil, at != nil || zone != nil {
                throw ValidationError("--at and --zone go with --days-before")
            }
        }

        static func minutes(_ text: String) -> Int? {
            guard let duration = DurationText.parse(text), duration.milliseconds % 60_000 == 0 else { return nil }
            return Int(duration.milliseconds / 60_000)
        }

        static func minuteOfDay(_ text: String) -> Int? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
                (0..<60).contains(minute)
            else { return nil }
            return hour * 60 + minute
        }

        func run() async throws {
            let rule = Roster_V1_ReminderRule.with {
                if let before { $0.leadMinutes = Int64(Self.minutes(before)!) }
                if let daysBefore {
                    $0.daysBefore = UInt32(clamping: daysBefore)
                    $0.atMinuteOfDay = UInt32(Self.minuteOfDay(at!)!)
                }
                $0.timeZone = zone ?? ""
                $0.schedule = schedule ?? ""
                $0.person = person ?? ""
            }
            try await options.runner().addReminder(rule, reason: why.reason).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The tenant's reminders.")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().listReminders().exit() }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a reminder.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The reminder id.") var id: String
        @OptionGroup var why: ReasonOption
        func run() async throws { try await options.runner().removeReminder(id: id, reason: why.reason).exit() }
    }
}
