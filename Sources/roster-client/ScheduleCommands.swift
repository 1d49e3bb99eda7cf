import ArgumentParser
import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterProtocol

// Schedules: reading them (schedules, schedule show, oncall, next) and changing them (admin
// schedule|rotation|override|swap). The work is in RosterCommandLine; these only declare.

struct Schedules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedules",
        abstract: "Every schedule, with who is on duty on it now.")
    @OptionGroup var options: ConnectionOptions

    func run() async throws {
        try await options.runner().schedules().exit()
    }
}

struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "One schedule in detail.", subcommands: [ShowSchedule.self])

    struct ShowSchedule: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "A schedule's layers and overrides, then one line per handoff (in its zone and yours).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The schedule's name or id.") var name: String
        @Option(help: "How many days ahead to show.") var days = 14

        func validate() throws {
            guard (1...366).contains(days) else { throw ValidationError("--days must be 1 to 366") }
        }

        func run() async throws {
            try await options.runner().showSchedule(name, days: days).exit()
        }
    }
}

struct EscalationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "escalation", abstract: "Escalation policies and services (docs/ESCALATION.md).",
        subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "A service's or a policy's steps as written, and whom each pages now.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "A service's or an escalation policy's name or id.") var name: String

        func run() async throws {
            try await options.runner().escalationShow(name).exit()
        }
    }
}

struct Oncall: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oncall",
        abstract:
            "The final schedule over a window: who is on duty when, and why (rotation, shift or override); with --service, whom a page reaches at each step."
    )
    @OptionGroup var options: ConnectionOptions
    @Option(parsing: .unconditional, help: "Window start (ISO 8601, now, tomorrow 09:00).") var from: String = "now"
    @Option(parsing: .unconditional, help: "Window end (at most 366 days after the start).") var to: String = "+7d"
    @Option(help: "Only this schedule (name or id).") var schedule: String?
    @Option(help: "Only this person (id or full name).") var person: String?
    @Option(help: "Whom a page for this service (name or id) reaches at each step of its escalation policy.")
    var service: String?
    @Option(help: "The same for an escalation policy (name or id).") var policy: String?
    @Option(parsing: .unconditional, help: "With --service: the page's start (default now).") var at: String?
    @Flag(help: "With --service: the page's whole timeline, each step at its own instant, through the repeats.")
    var simulate = false
    @Flag(help: "Answer from the cache without contacting the server.") var offline = false

    func validate() throws {
        if service != nil || policy != nil {
            guard service == nil || policy == nil else { throw ValidationError("give --service or --policy, not both") }
            guard schedule == nil, person == nil else {
                throw ValidationError("--schedule and --person are for the final schedule, not with --service")
            }
            if let at { _ = try options.time(at) }
            return
        }
        guard at == nil, !simulate else { throw ValidationError("--at and --simulate go with --service or --policy") }
        guard let start = try options.time(from), let end = try options.time(to), start < end else {
            throw ValidationError("--from must be before --to (got \(from) and \(to))")
        }
        guard end - start <= 366 * 86_400_000 else { throw ValidationError("the window is longer than 366 days") }
    }

    func run() async throws {
        if service != nil || policy != nil {
            let query = EscalationQuery(
                service: service, policy: policy, at: try at.flatMap { try options.time($0) }, simulate: simulate)
            try await options.runner().escalation(query, offline: offline).exit()
        }
        let query = FinalScheduleQuery(
            schedule: schedule, from: try options.time(from)!, to: try options.time(to)!,
            employee: person)
        try await options.runner().oncall(query, offline: offline).exit()
    }
}

struct Next: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "When a person is next on duty on each schedule; without a person, each schedule's next handoff.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "An employee id or full name.") var person: String?
    @Option(help: "Only this schedule (name or id).") var schedule: String?

    func run() async throws {
        try await options.runner().next(person: person, schedule: schedule).exit()
    }
}

// MARK: Administration

/// `--preview`, `--reason` and the connection, shared by every schedule change.
struct EditOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions
    @Flag(
        help:
            "Show who would gain or lose which duty where the change falls (35 days from its start, or to its end); change nothing."
    ) var preview = false
    @Option(help: "Why: kept in the audit log (and, for an override or swap, with the override).") var reason = ""

    /// Sends the edit, over `runner`'s connection when a lookup already opened one.
    func send(_ edit: Roster_V1_EditScheduleRequest, done: String, runner: CommandRunner? = nil) async throws -> Never {
        var edit = edit
        edit.preview = preview
        edit.reason = reason
        try await (runner ?? connection.runner()).editSchedule(edit, done: done).exit()
    }
}

struct ScheduleAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Add, change or remove a schedule.",
        subcommands: [Add.self, Edit.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a schedule.")
        @OptionGroup var options: EditOptions
        @Argument(help: "Its name, unique in the tenant.") var name: String
        @Option(help: "IANA time zone for handoffs and restrictions, e.g. Europe/Berlin.") var zone: String
        @Option(help: "The team it belongs to.") var team = ""
        @Option(help: "What it is for.") var description = ""
        @Flag(help: "Let readers whose token names them add overrides that put themselves on duty.")
        var readersMayVolunteer = false
        @Flag(
            help:
                "Switch self-service off: people may not take duty or use cover requests here (admins still act for them)."
        )
        var noSelfService = false

        func validate() throws {
            guard TimeZone(identifier: zone) != nil else {
                throw ValidationError("\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin, America/Chicago, UTC)")
            }
        }

        func run() async throws {
            try await options.send(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = name
                        $0.zone = zone
                        $0.team = team
                        $0.description_p = description
                        $0.readersMayVolunteer = readersMayVolunteer
                        $0.selfServiceOff = noSelfService
                    }
                }, done: "Added schedule \(name)")
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a schedule's name, zone, team, description or who may change their own duty.")
        @OptionGroup var options: EditOptions
        @Argument(help: "The schedule's name or id.") var schedule: String
        @Option(help: "New name.") var name: String?
        @Option(help: "New IANA time zone.") var zone: String?
        @Option(help: "New team.") var team: String?
        @Option(help: "New description.") var description: String?
        @Option(help: "Let readers whose token names them put themselves on duty: true or false.")
        var readersMayVolunteer: Bool?
        @Option(help: "Self-service (take, cover requests) for the people on it: true (the default) or false.")
        var selfService: Bool?

        func run() async throws {
            let runner = try options.connection.runner()
            guard let current = try await runner.schedule(named: schedule) else {
                throw ValidationError("no schedule \"\(schedule)\"")
            }
            try await options.send(
                .with {
                    $0.upsertSchedule = .with {
                        $0.id = current.id
                        $0.name = name ?? current.name
                        $0.zone = zone ?? current.zone
                        $0.team = team ?? current.team
                        $0.description_p = description ?? current.description
                        $0.readersMayVolunteer = readersMayVolunteer ?? current.readersMayVolunteer
                        $0.selfServiceOff = selfService.map { !$0 } ?? current.selfServiceOff
                    }
                }, done: "Changed schedule \(name ?? current.name)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a schedule, its rotations, overrides and one-off shifts.", aliases: ["delete"])
        @OptionGroup var options: EditOptions
        @Argument(help: "The schedule's name or id.") var schedule: String

        func run() async throws {
            let runner = try options.connection.runner()
            let removed = await runner.scheduleRemovalName(schedule)
            try await options.send(
                .with {
                    $0.schedule = schedule
                    $0.deleteSchedule = true
                }, done: "Removed \(removed)", runner: runner)
        }
    }
}

struct SwapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swap", abstract: "Exchange two people's turns in one change.",
        discussion: """
            Each --at is any instant inside that person's turn; the whole turn is exchanged: the second \
            person takes the first one's turn and the first takes the second's.
            """)
    @OptionGroup var options: EditOptions
    @Option(help: "The schedule's name or id.") var schedule: String
    @Argument(help: "The first person.") var first: String
    @Option(
        name: .customLong("at"), parsing: .unconditionalSingleValue,
        help: "An instant in the first person's turn, then one in the second's (give --at twice).")
    var at: [String] = []
    @Argument(help: "The second person.") var second: String

    func validate() throws {
        guard at.count == 2 else { throw ValidationError("give --at twice: an instant in each person's turn") }
        for text in at { _ = try options.connection.time(text) }
    }

    func run() async throws {
        let runner = try options.connection.runner()
        let firstAt = try options.connection.time(at[0])!, secondAt = try options.connection.time(at[1])!
        let firstTurn: Range<UnixMillis>?, secondTurn: Range<UnixMillis>?
        do {
            firstTurn = try await runner.turn(of: first, on: schedule, at: firstAt)
            secondTurn = try await runner.turn(of: second, on: schedule, at: secondAt)
        } catch {
            try runner.report(error).exit()
        }
        for (person, turn, instant) in [(first, firstTurn, at[0]), (second, secondTurn, at[1])] where turn == nil {
            CommandRunner.err(
                "\(person) is not on duty on \(schedule) at \(instant): give an instant inside their turn "
                    + "(`roster-client oncall --schedule \"\(schedule)\" --person \"\(person)\"` lists them).")
            try ClientExitCode.invalidInput.exit()
        }
        guard let firstTurn, let secondTurn else { return }
        try await options.send(
            .with {
                $0.schedule = schedule
                $0.swap = .with {
                    $0.first = first
                    $0.firstFromMs = firstTurn.lowerBound
                    $0.firstToMs = firstTurn.upperBound
                    $0.second = second
                    $0.secondFromMs = secondTurn.lowerBound
                    $0.secondToMs = secondTurn.upperBound
                    $0.reason = options.reason
                }
            }, done: "Swapped the turns of \(first) and \(second)")
    }
}
