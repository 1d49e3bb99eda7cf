import ArgumentParser
import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterProtocol

// Rotations and overrides: `admin rotation add|edit|end` and `admin override add|remove`.

/// The parts of a rotation the add and edit commands take.
struct RotationFields: ParsableArguments {
    @Option(help: "How often it hands off: 30m, 12h, 1d, 1w, 2w, 1mo.") var every: String?
    @Option(help: "The first handoff, a local date-time in the schedule's zone: 2026-11-30T09:00.") var handoff: String?
    @Option(help: "Who takes turns, in order, comma-separated; people on duty together joined with +.") var people:
        String?
    @Option(help: "Only on duty in this window of local time (repeatable): \"Mon-Fri 09:00-17:00\", \"22:00-06:00\".")
    var restrict: [String] = []
    @Flag(
        help:
            "Advance by the calendar even through turns the restrictions hide entirely (default: count active turns only)."
    )
    var calendarAdvance = false
    @Option(parsing: .unconditional, help: "No turns from this instant on.") var end: String?
    @Option(
        help:
            "When a person has time off: flag (stay on duty, shown as a conflict; the default) or skip (the next free person in order takes those stretches)."
    )
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
            guard let policy = Rotation.TimeOffPolicy(rawValue: onTimeoff) else {
                throw ValidationError("--on-timeoff is flag or skip")
            }
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
                throw ValidationError(
                    "missing \(missing.joined(separator: ", ")): a rotation needs --every, --handoff and --people")
            }
            var rotation = Rotation(
                id: "", slots: [], cadence: .weeks(1), handoff: LocalDateTime(year: 2000, month: 1, day: 1))
            try fields.apply(to: &rotation, options: options.connection)
        }

        func run() async throws {
            var rotation = Rotation(
                id: id, slots: [], cadence: .weeks(1), handoff: LocalDateTime(year: 2000, month: 1, day: 1))
            try fields.apply(to: &rotation, options: options.connection)
            try await options.send(
                .with {
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
            guard let definition = try await runner.schedule(named: schedule) else {
                throw ValidationError("no schedule \"\(schedule)\"")
            }
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
                guard startSlot != nil else {
                    throw ValidationError("\(startWith) is not one of the rotation's people")
                }
            }
            let effectiveAt = try options.connection.time(effective)
            try await options.send(
                .with {
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
            try await options.send(
                .with {
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
        @Option(help: "A conflict's id (see `oncall`): its first proposal replaces its person there.") var suggested:
            String?
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
            guard schedule != nil, from != nil, to != nil else {
                throw ValidationError("give --schedule, --from and --to (or --suggested)")
            }
            let kinds = [replace != nil || with != nil, add != nil, remove != nil].filter { $0 }.count
            guard kinds == 1 else { throw ValidationError("give one of --replace A --with B, --add A, or --remove A") }
            if (replace == nil) != (with == nil) { throw ValidationError("--replace and --with go together") }
            guard let start = try options.connection.time(from), let end = try options.connection.time(to), start < end
            else {
                throw ValidationError("--from must be before --to")
            }
        }

        func run() async throws {
            if let suggested {
                try await options.send(
                    .with { $0.takeSuggestion = suggested }, done: "Took the proposal for \(suggested)")
            }
            let schedule = schedule!
            let start = try options.connection.time(from)!, end = try options.connection.time(to)!
            try await options.send(
                .with {
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
            try await options.send(
                .with {
                    $0.schedule = schedule
                    $0.deleteOverride = id
                }, done: "Removed \(removed)", runner: runner)
        }
    }
}
