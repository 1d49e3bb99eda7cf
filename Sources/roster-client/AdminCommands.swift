import ArgumentParser
import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterProtocol

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract:
            "Change the directory and the plan (needs an admin token, on loopback too: --token-file DATA_DIR/admin.token).",
        subcommands: [
            EmployeeCommands.self, ShiftCommands.self, MotdCommands.self, Import.self, ScheduleAdmin.self,
            RotationAdmin.self, TimeOffAdmin.self, TemporaryAdmin.self, HolidaysAdmin.self,
            OverrideAdmin.self, SwapCommand.self, AuditCommand.self, WebhookAdmin.self, ReminderAdmin.self,
            AnnounceAdmin.self, ChatAdmin.self, SingleSignOnAdmin.self, ProvisioningAdmin.self, PushAdmin.self,
        ])
}

/// `--reason`, which every admin change takes: kept in the audit log with the change.
struct ReasonOption: ParsableArguments {
    @Option(help: "Why: kept in the audit log with the change.") var reason = ""
}

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Who changed what, when, from where and why (admin tokens only).",
        discussion: """
            Shows each change with the values before and after, authentication failures, and tokens created or \
            revoked on the server's host. --json prints one JSON object per entry (JSON lines), for export. Entries \
            are kept for the server's --audit-retention-days (400 by default).
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(parsing: .unconditional, help: "Entries at or after this time (ISO 8601, \"7d ago\", yesterday 09:00).")
    var since: String?
    @Option(help: "Entries whose changes touch this employee (id or full name).") var person: String?
    @Option(help: "Entries whose changes touch this schedule (id or name).") var schedule: String?
    @Option(help: "The newest N matching entries (at most and by default 1000).") var limit: Int?

    func validate() throws {
        _ = try options.time(since)
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await options.runner().audit(
            AuditQuery(
                since: try options.time(since), person: person, schedule: schedule,
                limit: limit)
        ).exit()
    }
}

struct EmployeeFields: ParsableArguments {
    @Option(help: "First name.") var first: String?
    @Option(help: "Last name.") var last: String?
    @Option(help: "Email address.") var email: String?
    @Option(help: "Phone number.") var phone: String?
    @Option(help: "Position, e.g. Engineer.") var position: String?
    @Option(help: "Team.") var team: String?
    @Option(help: "A project (repeat for several; replaces the list).") var project: [String] = []
    @Option(help: "Biography.") var bio: String?
    @Option(help: "Photo URL.") var photoUrl: String?
    @Option(help: "full-time, part-time or contractor.") var type: String?
    @Option(help: "Chat handles, e.g. \"slack=U012AB3CD; mattermost=ada\" (replaces them; \"\" clears; docs/CHAT.md).")
    var chat: String?

    func apply(to employee: inout Employee) throws {
        if let first { employee.firstName = first }
        if let last { employee.lastName = last }
        if let email { employee.email = email }
        if let phone { employee.phone = phone }
        if let position { employee.position = position }
        if let team { employee.team = team }
        if !project.isEmpty { employee.projects = project }
        if let bio { employee.biography = bio }
        if let photoUrl { employee.photoURL = photoUrl }
        if let type {
            guard let parsed = EmployeeType(parsing: type) else {
                throw ValidationError("--type must be full-time, part-time or contractor")
            }
            employee.type = parsed
        }
        if let chat {
            switch ChatHandles.parse(chat) {
            case .success(let handles): employee.chat = handles
            case .failure(let problems): throw ValidationError("--chat: \(problems)")
            }
        }
    }
}

struct EmployeeCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employee", abstract: "Add, update or remove an employee.",
        subcommands: [Add.self, Update.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an employee.")
        @OptionGroup var options: ConnectionOptions
        @OptionGroup var fields: EmployeeFields
        @OptionGroup var why: ReasonOption

        func validate() throws {
            guard fields.first != nil, fields.last != nil else {
                throw ValidationError("--first and --last are required")
            }
        }

        func run() async throws {
            var employee = Employee(firstName: "", lastName: "")
            try fields.apply(to: &employee)
            try await options.runner().administer(
                .upsertEmployee(.with { $0.employee = .init(employee) }).withReason(why.reason),
                done: "Added \(employee.fullName)"
            ).exit()
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change some fields of an employee.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "An employee id or full name.") var nameOrID: String
        @OptionGroup var fields: EmployeeFields
        @OptionGroup var why: ReasonOption

        func run() async throws {
            let runner = try options.runner()
            var employee: Employee
            do {
                employee = try await runner.currentEmployee(nameOrID)
            } catch {
                try runner.report(error).exit()
            }
            try fields.apply(to: &employee)
            try await runner.administer(
                .upsertEmployee(.with { $0.employee = .init(employee) }).withReason(why.reason),
                done: "Updated \(employee.fullName)"
            ).exit()
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove an employee and their shifts.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "An employee id or full name.") var nameOrID: String
        @OptionGroup var why: ReasonOption

        func run() async throws {
            let runner = try options.runner()
            let removed = await runner.employeeRemovalName(nameOrID)
            try await runner.administer(
                .deleteEmployee(.with { $0.id = nameOrID }).withReason(why.reason), done: "Removed \(removed)"
            ).exit()
        }
    }
}

struct ShiftCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shift", abstract: "Add or remove a shift.", subcommands: [Add.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a shift [start, end) for an employee.")
        @OptionGroup var options: ConnectionOptions
        @Option(help: "Employee id or full name.") var employee: String
        @Option(parsing: .unconditional, help: "Start (ISO 8601, now, +2h, tomorrow 09:00).") var start: String
        @Option(parsing: .unconditional, help: "End (same forms; must be after the start).") var end: String
        @Option(help: "Optional role label, e.g. primary.") var role: String = ""
        @OptionGroup var why: ReasonOption

        func validate() throws {
            _ = try options.time(start)
            _ = try options.time(end)
        }

        func run() async throws {
            guard let startTime = try options.time(start), let endTime = try options.time(end) else { return }
            try await options.runner().administer(
                .addShift(
                    .with {
                        $0.shift = .with {
                            $0.employeeID = employee
                            $0.startMs = startTime
                            $0.endMs = endTime
                            $0.role = role
                        }
                    }
                ).withReason(why.reason), done: "Added a shift for \(employee)"
            ).exit()
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a shift by id (see `shifts`).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The shift id.") var id: String
        @OptionGroup var why: ReasonOption

        func run() async throws {
            let runner = try options.runner()
            let removed = await runner.shiftRemovalName(id)
            try await runner.administer(
                .deleteShift(.with { $0.id = id }).withReason(why.reason), done: "Removed \(removed)"
            ).exit()
        }
    }
}

struct MotdCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motd", abstract: "Set the message of the day.", subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the message of the day (empty clears it).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The message.") var text: String
        @OptionGroup var why: ReasonOption

        func run() async throws {
            try await options.runner().administer(
                .setMotd(.with { $0.motd = text }).withReason(why.reason), done: "Message of the day set"
            ).exit()
        }
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a file in one change: all of it, or nothing if any record is bad.",
        discussion: """
            Formats: snapshot-json (what `roster-client export` writes, schedules included), legacy-json (the \
            original roster app's JSON), employees-csv, shifts-csv, pagerduty-json (one PagerDuty schedule as \
            their API returns it: each layer becomes a rotation advancing by the calendar; its people must exist, \
            matched by full name or email). Without --format it is taken from the extension (.json, \
            .csv) and the content. Every bad record is listed with its line or index and field, all at once.

            employees-csv columns (a header row first): id, first_name (required), last_name (required), \
            email, phone, position, team, projects (separated by ";"), biography, photo_url, type \
            (full-time, part-time or contractor). Line 1 is the header.

            shifts-csv columns: id, employee (required: an id or a full name), start (required), end \
            (required), role. Times are ISO 8601 with a zone, e.g. 2026-01-01T09:00:00Z.

            Nothing changes silently: a row naming an existing employee (by id or full name) or shift \
            (by id) that would change it is refused unless --update-existing is given, and then only the \
            columns in the file change. A row equal to what exists is reported unchanged and skipped, so \
            importing the same file twice changes nothing.
            """)
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The file to import.") var file: String
    @Option(help: "snapshot-json, legacy-json, employees-csv, shifts-csv or pagerduty-json.") var format: ImportFormat?
    @Flag(
        help:
            "Replace what the file's format carries (the directory, the plan, or both) with the file. Asks first on a terminal."
    )
    var replace = false
    @Flag(help: "Let rows change the existing employees and shifts they name (only the columns given).")
    var updateExisting = false
    @Flag(help: "Show what would change (added, updated, unchanged, removed) and change nothing.")
    var dryRun = false
    @Flag(name: .shortAndLong, help: "Do not ask before --replace.")
    var yes = false
    @OptionGroup var why: ReasonOption

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("cannot read \(file)")
        }
        guard let format = format ?? CommandRunner.importFormat(path: file, data: data) else {
            throw ValidationError("cannot tell the format of \(file): use --format")
        }
        var confirm: ((String) -> Bool)?
        if replace && !yes && !dryRun {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationError(
                    "--replace removes what the file does not hold: confirm with --yes (or look first with --dry-run)")
            }
            confirm = { prompt in
                FileHandle.standardError.write(Data(prompt.utf8))
                return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
            }
        }
        try await options.runner().importFile(
            file, data: data, format: format,
            options: ImportOptions(replace: replace, updateExisting: updateExisting),
            dryRun: dryRun, reason: why.reason, confirm: confirm
        ).exit()
    }
}

/// `roster-client export`: what `admin import` reads back to the same state.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the directory and plan in a form `admin import` reads back to the same state.",
        discussion: """
            json (snapshot-json: employees, shifts and the motd in one file), employees-csv or shifts-csv. \
            Restore with `roster-client admin import FILE --replace` (for CSV: the employees file first). \
            yaml: the tenant's definition (people, schedules, rotations, standing overrides, webhooks, \
            reminders, announcements; admin token) for `plan` and `apply` (docs/AS-CODE.md).
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(help: "json, employees-csv, shifts-csv or yaml.") var format: ExportFormat = .json
    @Flag(help: "Write the iCalendar feed of --schedule or --person instead (what its calendar URL serves now).")
    var ical = false
    @Option(help: "With --ical: the schedule (id or name).") var schedule: String?
    @Option(help: "With --ical: the person (id or full name).") var person: String?
    @Option(help: "With --ical: an alarm this long before each shift, e.g. 15m.") var alarm: String?

    func validate() throws {
        if ical, (schedule == nil) == (person == nil) {
            throw ValidationError("--ical takes --schedule or --person (one)")
        }
        if !ical, schedule != nil || person != nil || alarm != nil {
            throw ValidationError("--schedule, --person and --alarm go with --ical")
        }
    }

    func run() async throws {
        let runner = try options.runner()
        if ical {
            try await runner.calendar(schedule: schedule, person: person, url: false, alarm: alarm, label: "").exit()
        }
        try await runner.export(format: format).exit()
    }
}

/// `roster-client calendar url|list|revoke`: feeds to subscribe to in a calendar program.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "Subscribe a calendar program to a schedule's or a person's shifts.",
        subcommands: [URLCommand.self, List.self, Revoke.self])

    struct URLCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url", abstract: "Print the URL of an iCalendar feed (a new calendar link, shown once).",
            discussion: """
                Each call makes a new link (a calendar token: the URL is shown only now), which opens that feed and \
                nothing else, for a year or until the token that made it stops. Needs a token: `calendar list` shows \
                the links it made, `calendar revoke TOKEN-ID` ends one. Off loopback the URL is https: the calendar \
                program must trust the server's certificate.
                """)
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The schedule (id or name).") var schedule: String?
        @Option(help: "The person (id or full name).") var person: String?
        @Option(help: "An alarm this long before each shift, e.g. 15m.") var alarm: String?
        @Option(help: "A note shown by `roster-server token list`.") var label = "calendar"

        func validate() throws {
            if (schedule == nil) == (person == nil) { throw ValidationError("give --schedule or --person (one)") }
        }

        func run() async throws {
            try await options.runner().calendar(
                schedule: schedule, person: person, url: true, alarm: alarm, label: label
            ).exit()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The calendar links this token made that still work (an admin token: every one of the tenant).")
        @OptionGroup var options: ConnectionOptions
        func run() async throws { try await options.runner().calendarLinks().exit() }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "End a calendar link at once (one this token made; an admin: any).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The link's token id (see `calendar list`).") var tokenID: String
        func run() async throws { try await options.runner().revokeCalendarLink(tokenID).exit() }
    }
}

extension ExportFormat: ExpressibleByArgument {}

extension ImportFormat: ExpressibleByArgument {}
