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

struct Oncall: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oncall",
        abstract: "The final schedule over a window: who is on duty when, and why (rotation, shift or override).")
    @OptionGroup var options: ConnectionOptions
    @Option(parsing: .unconditional, help: "Window start (ISO 8601, now, tomorrow 09:00).") var from: String = "now"
    @Option(parsing: .unconditional, help: "Window end (at most 366 days after the start).") var to: String = "+7d"
    @Option(help: "Only this schedule (name or id).") var schedule: String?
    @Option(help: "Only this person (id or full name).") var person: String?
    @Flag(help: "Answer from the cache without contacting the server.") var offline = false

    func validate() throws {
        guard let start = try options.time(from), let end = try options.time(to), start < end else {
            throw ValidationError("--from must be before --to (got \(from) and \(to))")
        }
        guard end - start <= 366 * 86_400_000 else { throw ValidationError("the window is longer than 366 days") }
    }

    func run() async throws {
        let query = FinalScheduleQuery(schedule: schedule, from: try options.time(from)!, to: try options.time(to)!,
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
    @Flag(help: "Show who would gain or lose which duty where the change falls (35 days from its start, or to its end); change nothing.") var preview = false
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
        commandName: "schedule", abstract: "Add, change or remove a schedule.", subcommands: [Add.self, Edit.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a schedule.")
        @OptionGroup var options: EditOptions
        @Argument(help: "Its name, unique in the tenant.") var name: String
        @Option(help: "IANA time zone for handoffs and restrictions, e.g. Europe/Berlin.") var zone: String
        @Option(help: "The team it belongs to.") var team = ""
        @Option(help: "What it is for.") var description = ""
        @Flag(help: "Let readers whose token names them add overrides that put themselves on duty.")
        var readersMayVolunteer = false
        @Flag(help: "Switch self-service off: people may not take duty or use cover requests here (admins still act for them).")
        var noSelfService = false

        func validate() throws {
            guard TimeZone(identifier: zone) != nil else {
                throw ValidationError("\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin, America/Chicago, UTC)")
            }
        }

        func run() async throws {
            try await options.send(.with {
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
            try await options.send(.with {
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
            try await options.send(.with {
                $0.schedule = schedule
                $0.deleteSchedule = true
            }, done: "Removed \(removed)", runner: runner)
        }
    }
}

/// The parts of a rotation the add and edit commands take.
struct RotationFields: ParsableArguments {
    @Option(help: "How often it hands off: 30m, 12h, 1d, 1w, 2w, 1mo.") var every: String?
    @Option(help: "The first handoff, a local date-time in the schedule's zone: 2026-11-30T09:00.") var handoff: String?
    @Option(help: "Who takes turns, in order, comma-separated; people on duty together joined with +.") var people: String?
    @Option(help: "Only on duty in this window of local time (repeatable): \"Mon-Fri 09:00-17:00\", \"22:00-06:00\".")
    var restrict: [String] = []
    @Flag(help: "Advance by the calendar even through turns the restrictions hide entirely (default: count active turns only).")
    var calendarAdvance = false
    @Option(parsing: .unconditional, help: "No turns from this instant on.") var end: String?
    @Option(help: "When a person has time off: flag (stay on duty, shown as a conflict; the default) or skip (the next free person in order takes those stretches).")
    var onTimeoff: String?

    func apply(to rotation: inout Rotation, options: ConnectionOptions) throws {
        do {
            if let every { rotation.cadence = try ScheduleArguments.cadence(every) }
            if let handoff { rotation.handoff = try ScheduleArguments.handoff(handoff) }
            if let people { rotation.slots = try ScheduleArguments.people(people) }
            if !restrict.isEmpty { rotation.restrictions = try restrict.map(ScheduleArguments.restriction) }
        } catch {
            throw ValidationError(error.description)
        }
        if calendarAdvance { rotation.advance = .calendar }
        if let onTimeoff {
            guard let policy = Rotation.TimeOffPolicy(rawValue: onTimeoff) else { throw ValidationError("--on-timeoff is flag or skip") }
            rotation.onTimeOff = policy
        }
        if let end { rotation.end = try options.time(end) }
    }
}

struct RotationAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotation", abstract: "Add, change or end a rotation of a schedule.",
        subcommands: [Add.self, Edit.self, End.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a rotation: people taking turns at a cadence, from a handoff in the schedule's zone.")
        @OptionGroup var options: EditOptions
        @Option(help: "The schedule's name or id.") var schedule: String
        @OptionGroup var fields: RotationFields
        @Option(help: "The layer: where layers overlap, the highest one with anyone on duty wins.") var level = 0
        @Option(help: "An id for the rotation (default: assigned).") var id = ""

        func validate() throws {
            let missing = [("--every", fields.every), ("--handoff", fields.handoff), ("--people", fields.people)]
                .filter { $0.1 == nil }.map(\.0)
            guard missing.isEmpty else {
                throw ValidationError("missing \(missing.joined(separator: ", ")): a rotation needs --every, --handoff and --people")
            }
            var rotation = Rotation(id: "", slots: [], cadence: .weeks(1), handoff: LocalDateTime(year: 2000, month: 1, day: 1))
            try fields.apply(to: &rotation, options: options.connection)
        }

        func run() async throws {
            var rotation = Rotation(id: id, slots: [], cadence: .weeks(1), handoff: LocalDateTime(year: 2000, month: 1, day: 1))
            try fields.apply(to: &rotation, options: options.connection)
            try await options.send(.with {
                $0.schedule = schedule
                $0.upsertRotation = .with {
                    $0.rotation = Roster_V1_Rotation(rotation)
                    $0.level = Int32(level)
                }
            }, done: "Added a rotation to \(schedule)")
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a rotation from an instant on (default now); before it nothing changes.",
            discussion: """
                The new definition continues with the people the old one would have had at that instant, \
                unless --start-with names someone else.
                """)
        @OptionGroup var options: EditOptions
        @Argument(help: "The rotation's id (see `schedule show`).") var rotation: String
        @Option(help: "The schedule's name or id.") var schedule: String
        @OptionGroup var fields: RotationFields
        @Option(parsing: .unconditional, help: "When the change takes effect.") var effective: String?
        @Option(help: "Who has the turn at the effective instant (a name in --people).") var startWith: String?

        func run() async throws {
            let runner = try options.connection.runner()
            guard let definition = try await runner.schedule(named: schedule) else { throw ValidationError("no schedule \"\(schedule)\"") }
            guard var current = definition.rotation(id: rotation)?.rotation else {
                throw ValidationError("schedule \(definition.name) has no rotation \"\(rotation)\"")
            }
            try fields.apply(to: &current, options: options.connection)
            var startSlot: Int?
            if let startWith {
                let wanted = TextFolding.fold(startWith)
                let people = try await runner.client.employees().employees
                let ids = Set(people.filter { $0.id == startWith || TextFolding.fold($0.fullName) == wanted }.map(\.id))
                startSlot = current.slots.firstIndex { slot in
                    slot.contains { ids.contains($0) || TextFolding.fold($0) == wanted }
                }
                guard startSlot != nil else { throw ValidationError("\(startWith) is not one of the rotation's people") }
            }
            let effectiveAt = try options.connection.time(effective)
            try await options.send(.with {
                $0.schedule = definition.id
                $0.upsertRotation = .with {
                    $0.rotation = Roster_V1_Rotation(current)
                    if let effectiveAt { $0.effectiveMs = effectiveAt }
                    if let startSlot { $0.startSlot = UInt32(startSlot) }
                }
            }, done: "Changed rotation \(rotation)")
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end",
            abstract: "End a rotation at an instant (default now); its past stays.")
        @OptionGroup var options: EditOptions
        @Argument(help: "The rotation's id.") var rotation: String
        @Option(help: "The schedule's name or id.") var schedule: String
        @Option(parsing: .unconditional, help: "When it ends.") var effective: String?

        func run() async throws {
            let effectiveAt = try options.connection.time(effective)
            try await options.send(.with {
                $0.schedule = schedule
                $0.endRotation = .with {
                    $0.rotationID = rotation
                    if let effectiveAt { $0.effectiveMs = effectiveAt }
                }
            }, done: "Ended rotation \(rotation)")
        }
    }
}

struct OverrideAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "override", abstract: "Put someone on or off duty for a window, on one schedule.",
        subcommands: [Add.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Replace a person with another, add a person, or remove one, for a window.",
            discussion: """
                Overlapping overrides that involve the same person are refused, naming the other one. On a \
                schedule that lets readers volunteer, a reader token that names its holder may add one that puts \
                that person on duty (--add ME, or --replace SOMEONE --with ME). --suggested CONFLICT-ID (from \
                `oncall`) gives a time-off conflict to the free person with the fewest hours around it.
                """)
        @OptionGroup var options: EditOptions
        @Option(help: "The schedule's name or id.") var schedule: String?
        @Option(help: "A conflict's id (see `oncall`): its first proposal replaces its person there.") var suggested: String?
        @Option(help: "The person replaced (with --with).") var replace: String?
        @Option(help: "Who takes over (with --replace).") var with: String?
        @Option(help: "A person put on duty too.") var add: String?
        @Option(help: "A person taken off duty.") var remove: String?
        @Option(parsing: .unconditional, help: "Window start (ISO 8601, tomorrow 09:00, ...).") var from: String?
        @Option(parsing: .unconditional, help: "Window end.") var to: String?

        func validate() throws {
            if suggested != nil {
                guard [schedule, replace, with, add, remove, from, to].allSatisfy({ $0 == nil }) else {
                    throw ValidationError("--suggested takes everything from the conflict: give it alone")
                }
                return
            }
            guard schedule != nil, from != nil, to != nil else { throw ValidationError("give --schedule, --from and --to (or --suggested)") }
            let kinds = [replace != nil || with != nil, add != nil, remove != nil].filter { $0 }.count
            guard kinds == 1 else { throw ValidationError("give one of --replace A --with B, --add A, or --remove A") }
            if (replace == nil) != (with == nil) { throw ValidationError("--replace and --with go together") }
            guard let start = try options.connection.time(from), let end = try options.connection.time(to), start < end else {
                throw ValidationError("--from must be before --to")
            }
        }

        func run() async throws {
            if let suggested {
                try await options.send(.with { $0.takeSuggestion = suggested }, done: "Took the proposal for \(suggested)")
            }
            let schedule = schedule!
            let start = try options.connection.time(from)!, end = try options.connection.time(to)!
            try await options.send(.with {
                $0.schedule = schedule
                $0.addOverride = .with {
                    if let replace, let with {
                        $0.kind = .replace
                        $0.replacedEmployeeID = replace
                        $0.employeeID = with
                    } else if let add {
                        $0.kind = .add
                        $0.employeeID = add
                    } else if let remove {
                        $0.kind = .remove
                        $0.employeeID = remove
                    }
                    $0.startMs = start
                    $0.endMs = end
                    $0.reason = options.reason
                }
            }, done: "Added an override to \(schedule)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove an override.", aliases: ["delete"])
        @OptionGroup var options: EditOptions
        @Argument(help: "The override's id (see `schedule show`).") var id: String
        @Option(help: "The schedule's name or id.") var schedule: String

        func run() async throws {
            let runner = try options.connection.runner()
            let removed = await runner.overrideRemovalName(id, schedule: schedule)
            try await options.send(.with {
                $0.schedule = schedule
                $0.deleteOverride = id
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
    @Option(name: .customLong("at"), parsing: .unconditionalSingleValue, help: "An instant in the first person's turn, then one in the second's (give --at twice).")
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
            CommandRunner.err("\(person) is not on duty on \(schedule) at \(instant): give an instant inside their turn "
                              + "(`roster-client oncall --schedule \"\(schedule)\" --person \"\(person)\"` lists them).")
            try ClientExitCode.invalidInput.exit()
        }
        guard let firstTurn, let secondTurn else { return }
        try await options.send(.with {
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
