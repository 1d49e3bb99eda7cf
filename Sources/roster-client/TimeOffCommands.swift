import ArgumentParser
import Foundation
import RosterCommandLine
import RosterDomain
import RosterProtocol

/// An iCalendar file's bytes (- reads standard input), refused past the 1 MiB a request may carry.
func readCalendar(_ file: String) throws -> Data {
    let data: Data
    do {
        data =
            file == "-"
            ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
        throw ValidationError("cannot read \(file): \(error.localizedDescription)")
    }
    guard data.count <= TimeOffCalendar.maxBytes else { throw ValidationError("\(file) is larger than 1 MiB") }
    return data
}

struct TimeOffAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeoff",
        abstract: "Record, list, import or delete time off (a person's own token may record their own).",
        discussion: """
            Every schedule that would put the person on duty then shows a conflict (oncall, the web app, a \
            coverage.conflict notification) with who is free to cover it; a rotation added with --on-timeoff skip \
            hands those stretches to the next free person in its order instead.
            """,
        subcommands: [Add.self, List.self, Delete.self, Import.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Record time off for a person.")
        @OptionGroup var options: EditOptions
        @Argument(help: "An employee id or full name (default: the token's person).") var person: String?
        @Option(parsing: .unconditional, help: "From (ISO 8601, 2026-12-21, tomorrow 09:00, ...).") var from: String
        @Option(parsing: .unconditional, help: "To (at most 366 days later).") var to: String

        func validate() throws {
            guard let start = try options.connection.time(from), let end = try options.connection.time(to), start < end
            else {
                throw ValidationError("--from must be before --to")
            }
        }

        func run() async throws {
            let start = try options.connection.time(from)!, end = try options.connection.time(to)!
            try await options.send(
                .with {
                    $0.timeOff = .with {
                        $0.action = .add
                        $0.person = person ?? ""
                        $0.startMs = start
                        $0.endMs = end
                        $0.reason = options.reason
                    }
                }, done: "Recorded time off for \(person ?? "you")")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Time off that has not ended, by start.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "Only this person (id or full name).") var person: String?
        @Flag(help: "Include time off that has ended.") var past = false

        func run() async throws {
            try await options.runner().listTimeOff(person: person, past: past).exit()
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete time off by id (see `timeoff list`).",
            aliases: ["remove"])
        @OptionGroup var options: EditOptions
        @Argument(help: "The time off's id.") var id: String

        func run() async throws {
            try await options.send(
                .with {
                    $0.timeOff = .with {
                        $0.action = .delete
                        $0.id = id
                    }
                }, done: "Deleted time off \(id)")
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Record each event of an iCalendar file (.ics) as the person's time off.",
            discussion: """
                Importing the same file again changes its events in place (by UID); events that have ended are \
                skipped; a recurring event is refused. All-day and floating times are read in --zone.
                """)
        @OptionGroup var options: EditOptions
        @Argument(help: "An employee id or full name.") var person: String
        @Argument(help: "The .ics file (at most 1 MiB); - reads standard input.") var file: String
        @Option(help: "IANA zone of all-day and floating times.") var zone = "UTC"

        func run() async throws {
            let data = try readCalendar(file)
            try await options.send(
                .with {
                    $0.timeOff = .with {
                        $0.action = .import
                        $0.person = person
                        $0.calendar = data
                        $0.zone = zone
                    }
                }, done: "Imported time off for \(person) from \(file)")
        }
    }
}

struct TemporaryAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "temporary",
        abstract: "Temporary schedules: fixed shifts that replace a schedule's rules and overrides over a span.",
        discussion: """
            Inside the span only its shifts count; spans that overlap or touch merge; `delete` over part of a span \
            splits it. The past never changes: a span starting before now is taken from now. Times without a zone \
            are the schedule's wall-clock times, as a rotation's --handoff is (--utc: UTC).
            """,
        subcommands: [Add.self, List.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Set the shifts of a span (each --shift \"PERSON FROM TO\").")
        @OptionGroup var options: EditOptions
        @Option(help: "The schedule's name or id.") var schedule: String
        @Option(parsing: .unconditional, help: "Span start.") var from: String
        @Option(parsing: .unconditional, help: "Span end.") var to: String
        @Option(
            help:
                "A shift: \"Ada Lovelace 2026-12-24T09:00 2026-12-25T09:00\" (repeatable; times as --from takes them, without spaces)."
        )
        var shift: [String] = []
        @Flag(help: "Accept stretches of the span where nobody is on duty.") var allowGaps = false

        func shifts(in zone: TimeZone?) throws -> [Roster_V1_TemporaryShift] {
            try shift.map { text in
                let words = text.split(separator: " ").map(String.init)
                guard words.count >= 3, let start = try options.connection.time(words[words.count - 2], in: zone),
                    let end = try options.connection.time(words[words.count - 1], in: zone)
                else {
                    throw ValidationError(
                        "--shift \"\(text)\": write \"PERSON FROM TO\", e.g. \"Ada Lovelace 2026-12-24T09:00 2026-12-25T09:00\""
                    )
                }
                return .with {
                    $0.employeeID = words.dropLast(2).joined(separator: " ")
                    $0.startMs = start
                    $0.endMs = end
                }
            }
        }

        func validate() throws {
            guard let start = try options.connection.time(from), let end = try options.connection.time(to), start < end
            else {
                throw ValidationError("--from must be before --to")
            }
            // A span without shifts and without --allow-gaps is the server's to refuse (exit 9, naming the gap).
            _ = try shifts(in: nil)
        }

        func run() async throws {
            let runner = try options.connection.runner()
            let zone = try await options.connection.zone(ofSchedule: schedule, runner: runner)
            let start = try options.connection.time(from, in: zone)!, end = try options.connection.time(to, in: zone)!
            let shifts = try shifts(in: zone)
            try await options.send(
                .with {
                    $0.schedule = schedule
                    $0.temporary = .with {
                        $0.action = .set
                        $0.startMs = start
                        $0.endMs = end
                        $0.shifts = shifts
                        $0.allowGaps = allowGaps
                    }
                }, done: "Set a temporary schedule on \(schedule)", runner: runner)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "A schedule's temporary schedules.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The schedule's name or id.") var schedule: String

        func run() async throws {
            try await options.runner().listTemporary(schedule: schedule).exit()
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Clear temporary schedules from a range (a span across it splits).",
            aliases: ["remove"])
        @OptionGroup var options: EditOptions
        @Option(help: "The schedule's name or id.") var schedule: String
        @Option(parsing: .unconditional, help: "Range start.") var from: String
        @Option(parsing: .unconditional, help: "Range end.") var to: String

        func run() async throws {
            let runner = try options.connection.runner()
            let zone = try await options.connection.zone(ofSchedule: schedule, runner: runner)
            guard let start = try options.connection.time(from, in: zone),
                let end = try options.connection.time(to, in: zone), start < end
            else {
                throw ValidationError("--from must be before --to")
            }
            try await options.send(
                .with {
                    $0.schedule = schedule
                    $0.temporary = .with {
                        $0.action = .clear
                        $0.startMs = start
                        $0.endMs = end
                    }
                }, done: "Cleared temporary schedules on \(schedule)", runner: runner)
        }
    }
}

struct HolidaysAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holidays",
        abstract:
            "The tenant's holiday calendars: for restrictions (\"Mon-Fri 09:00-17:00 except holidays:NAME\") and `report hours --holidays NAME`.",
        subcommands: [Import.self, SetDates.self, List.self, Delete.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Set a calendar to the all-day events of an iCalendar file (public-holiday calendars publish them so).")
        @OptionGroup var options: EditOptions
        @Argument(help: "The calendar's name: letters, digits, '-' or '_'.") var name: String
        @Argument(help: "The .ics file (at most 1 MiB); - reads standard input.") var file: String

        func run() async throws {
            let data = try readCalendar(file)
            try await options.send(
                .with {
                    $0.holidays = .with {
                        $0.action = .set
                        $0.name = name
                        $0.calendar = data
                    }
                }, done: "Set holidays \(name) from \(file)")
        }
    }

    struct SetDates: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a calendar to the dates given.")
        @OptionGroup var options: EditOptions
        @Argument(help: "The calendar's name.") var name: String
        @Option(help: "Dates, comma-separated: 2026-12-24,2026-12-25.") var dates: String

        func run() async throws {
            try await options.send(
                .with {
                    $0.holidays = .with {
                        $0.action = .set
                        $0.name = name
                        $0.days = dates.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    }
                }, done: "Set holidays \(name)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Each calendar and its days.")
        @OptionGroup var options: ConnectionOptions

        func run() async throws {
            try await options.runner().listHolidays().exit()
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a calendar no restriction names.",
            aliases: ["remove"])
        @OptionGroup var options: EditOptions
        @Argument(help: "The calendar's name.") var name: String

        func run() async throws {
            try await options.send(
                .with {
                    $0.holidays = .with {
                        $0.action = .delete
                        $0.name = name
                    }
                }, done: "Deleted holidays \(name)")
        }
    }
}
