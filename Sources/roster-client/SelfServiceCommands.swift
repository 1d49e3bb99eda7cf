import ArgumentParser
import Foundation
import RosterCommandLine
import RosterDomain

// Self-service: people take duty and ask for cover without an admin (take, request, requests).
// A token bound to a person acts for that person; an admin's acts for whoever --for names.
// The work is in RosterCommandLine; these only declare.

struct TakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take",
        abstract: "Take duty for yourself for a stretch, the one under way included.",
        discussion: """
            You become the one on duty on the schedule from --from (now, for a stretch under way) to --to: an \
            override that adds you, and one that takes each other person off duty there, with source \
            take:YOUR-ID. A mistaken take is undone with --undo (the past stays as it was). Needs a token bound to a person who takes part in the schedule (roster-server token \
            create --employee NAME), on a schedule where self-service is on; an admin names the person with --for.
            """)
    @OptionGroup var options: EditOptions
    @Option(help: "The schedule's name or id.") var schedule: String
    @Option(parsing: .unconditional, help: "Stretch start (ISO 8601, now, tomorrow 09:00); with --undo, default now.")
    var from: String?
    @Option(
        parsing: .unconditional, help: "Stretch end (at most 90 days after the start); with --undo, default 90 days on."
    ) var to: String?
    @Option(name: .customLong("for"), help: "Admins: the person who takes duty (id or full name).") var person: String?
    @Flag(
        help: "Undo your takes in the stretch instead: cut out of it (one under way ends now; parts outside it stay).")
    var undo = false

    /// The stretch: both ends given, or with --undo from now for 90 days unless said.
    func stretch() throws -> (start: UnixMillis, end: UnixMillis) {
        guard undo || (from != nil && to != nil) else { throw ValidationError("give --from and --to") }
        // The default end is 90 days from the start itself: two readings of the clock ("now",
        // then "+90d") could be a millisecond apart and make the stretch longer than the server allows.
        guard let start = try options.connection.time(from ?? "now"),
            let end = try to.map({ try options.connection.time($0) }) ?? start + 90 * 86_400_000, start < end
        else {
            throw ValidationError("--from must be before --to (got \(from ?? "now") and \(to ?? "+90d"))")
        }
        return (start, end)
    }

    func validate() throws { _ = try stretch() }

    func run() async throws {
        let (start, end) = try stretch()
        try await options.connection.runner().take(
            schedule: schedule, from: start, to: end, person: person, undo: undo,
            reason: options.reason, preview: options.preview
        ).exit()
    }
}

struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask for cover of your duty, or take, decline, cancel or back out of a cover request.",
        subcommands: [
            Cover.self, Step<TakeStep>.self, Step<DeclineStep>.self, Step<CancelStep>.self, Step<BackOutStep>.self,
        ])

    struct Cover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cover",
            abstract: "Ask for someone to cover a stretch of your duty; prints the request's id.",
            discussion: """
                The stretch must be yours (you are on duty throughout it) and still ahead. Everyone the schedule \
                names may take it, or only the people given: --addressed-to "A,B", or a second --to with names \
                (--to TIME --to "A,B"). The first who takes it gets it; nobody taking it by its start, it expires. \
                --suggested CONFLICT_ID (from `oncall`) asks the people free to cover a time-off conflict, for its \
                stretch, in one step.
                """)
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The schedule's name or id.") var schedule: String?
        @Option(parsing: .unconditional, help: "Stretch start (ISO 8601, tomorrow 09:00, ...).") var from: String?
        @Option(help: "A time-off conflict's id (see `oncall`): ask its proposals to cover its stretch.") var suggested:
            String?
        @Option(
            parsing: .unconditionalSingleValue,
            help: "Stretch end; given twice, the other --to names who is asked (\"A,B\").")
        var to: [String] = []
        @Option(help: "Ask only these people (full names or ids, comma-separated).") var addressedTo: String?
        @Option(help: "Why, for whoever covers.") var note = ""
        @Option(name: .customLong("for"), help: "Admins: the person who asks (id or full name).") var person: String?

        /// The stretch's end and who is asked: of the --to values, the one that reads as a time is the end.
        func parsed() throws -> (start: UnixMillis, end: UnixMillis, addressed: [String]) {
            guard let start = try options.time(from) else { throw ValidationError("give --from") }
            var end: UnixMillis?
            var names: [String] = addressedTo.map { [$0] } ?? []
            for value in to {
                if end == nil, let instant = try? options.time(value) { end = instant } else { names.append(value) }
            }
            guard let end else {
                throw ValidationError("give --to with the stretch's end (ISO 8601, tomorrow 09:00, ...)")
            }
            guard start < end else { throw ValidationError("--from must be before --to") }
            guard to.count <= 2 else { throw ValidationError("give --to at most twice: the end, and who is asked") }
            let addressed = names.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            return (start, end, addressed)
        }

        func validate() throws {
            if suggested != nil {
                guard schedule == nil, from == nil, to.isEmpty, addressedTo == nil, person == nil else {
                    throw ValidationError(
                        "--suggested takes the schedule, stretch and people from the conflict: give it with --note only"
                    )
                }
                return
            }
            guard schedule != nil else { throw ValidationError("give --schedule (or --suggested)") }
            _ = try parsed()
        }

        func run() async throws {
            if let suggested { try await options.runner().askForCover(suggested: suggested, note: note).exit() }
            let (start, end, addressed) = try parsed()
            try await options.runner().askForCover(
                schedule: schedule!, from: start, to: end, addressedTo: addressed, note: note,
                person: person
            ).exit()
        }
    }

    /// `request take|decline|cancel|back-out ID [--for PERSON]`, one type per step.
    struct Step<Kind: StepKind>: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: Kind.step.rawValue, abstract: Kind.abstract)
        }
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The request's id (`roster-client requests` lists them).") var id: String
        @Option(name: .customLong("for"), help: "Admins: the person who acts (id or full name).") var person: String?

        func run() async throws {
            try await options.runner().coverRequest(Kind.step, id: id, person: person).exit()
        }
    }
}

protocol StepKind { static var step: CoverRequestStep { get }; static var abstract: String { get } }
enum TakeStep: StepKind {
    static let step = CoverRequestStep.take
    static let abstract = "Take a cover request: you are on duty for its stretch (the first taker wins)."
}
enum DeclineStep: StepKind {
    static let step = CoverRequestStep.decline
    static let abstract = "Decline a cover request addressed to you."
}
enum CancelStep: StepKind {
    static let step = CoverRequestStep.cancel
    static let abstract = "Cancel your cover request: while open, or taken and not yet started (you are back on duty)."
}
enum BackOutStep: StepKind {
    static let step = CoverRequestStep.backOut
    static let abstract = "Back out of a cover request you took, before its stretch starts (it opens again)."
}

struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "Cover requests, by start, in the state they are in now.")
    @OptionGroup var options: ConnectionOptions
    @Option(help: "Only this schedule (name or id).") var schedule: String?
    @Option(help: "Only requests in this state: open, taken, cancelled or expired.") var state: String?

    func validate() throws {
        if let state, CoverRequest.State(rawValue: state) == nil {
            throw ValidationError("--state is open, taken, cancelled or expired (got \(state))")
        }
    }

    func run() async throws {
        try await options.runner().requests(
            schedule: schedule, state: state.flatMap(CoverRequest.State.init(rawValue:))
        ).exit()
    }
}
