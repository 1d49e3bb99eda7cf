import ArgumentParser
import Foundation
import RosterCommandLine
import RosterDomain
import RosterProtocol

@main
struct RosterClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster-client",
        abstract: "Watch who is on duty, browse the directory, and change the plan.",
        discussion: """
            Connects to a roster-server (default 127.0.0.1:7400). Reads fall back to the local cache when \
            the server is unreachable, and say how old the cached data is.

            Settings: command-line flags beat environment variables (ROSTER_SERVER, ROSTER_TOKEN, \
            ROSTER_TENANT, ROSTER_CACHE_DIR, ROSTER_UTC=1, ROSTER_TLS=1, ROSTER_CA_FILE, ROSTER_TIMEOUT), which beat the config file \
            ($XDG_CONFIG_HOME/roster/config: lines such as `server = host:7400`, `token-file = ~/admin.token`, \
            `tenant = demo`, `cache-dir = /var/cache/roster`, `utc = true`, `tls = true`, `ca-file = ca.pem`, \
            `contacts = ~/people.vcf`).

            TLS is used with --tls, with --ca-file, or when the server's CA was pinned with `roster-client trust`.

            \(ClientExitCode.summary)
            """,
        version: RosterVersion.description,
        subcommands: [
            Watch.self, Now.self, Employees.self, Search.self, Show.self, Shifts.self, Schedules.self,
            ScheduleCommand.self,
            Oncall.self, EscalationCommand.self, Next.self, TakeCommand.self, RequestCommand.self, RequestsCommand.self,
            CalendarCommand.self,
            Export.self, PlanCommand.self, ApplyCommand.self, MigrateCommand.self, ReportCommand.self, Admin.self,
            Trust.self, LoginCommand.self, LogoutCommand.self, PersonalTokenCommand.self, PushCommand.self,
        ])

    /// A mistake in the arguments prints one sentence and where the usage is, not the usage
    /// itself: the sentence stays the last thing on the screen. Help and version print as usual.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let brief = message(for: error)
            guard code != .success, !brief.isEmpty else { exit(withError: error) }
            let words = commandPath(arguments).joined(separator: " ")
            FileHandle.standardError.write(
                Data("Error: \(brief)\nSee `roster-client \(words.isEmpty ? "" : words + " ")--help`.\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}

extension RosterClientCommand {
    /// The subcommand names at the start of `arguments` ("admin", "override", "add"), without the
    /// arguments after them: a help hint names the command, not the person it was given.
    static func commandPath(_ arguments: [String]) -> [String] {
        var command: any ParsableCommand.Type = Self.self
        var path: [String] = []
        for word in arguments {
            guard
                let next = command.configuration.subcommands.first(where: {
                    $0._commandName == word || $0.configuration.aliases.contains(word)
                })
            else { break }
            path.append(word)
            command = next
        }
        return path
    }
}

/// Options every command takes.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Server address HOST:PORT, or the nodes of a cluster as HOST:PORT,HOST:PORT (a lost connection resumes on the next). (env: ROSTER_SERVER; default: 127.0.0.1:7400)"
    )
    var server: String?

    @Option(name: .long, help: "Access token. (env: ROSTER_TOKEN)")
    var token: String?

    @Option(name: .long, help: "Read the access token from this file.")
    var tokenFile: String?

    @Option(name: .long, help: "Tenant id. (env: ROSTER_TENANT; default: the server's default tenant)")
    var tenant: String?

    @Option(name: .long, help: "Cache directory. (env: ROSTER_CACHE_DIR; default: $XDG_CACHE_HOME/roster)")
    var cacheDir: String?

    @Flag(name: .long, help: "Connect over TLS, trusting the system's CAs (unless --ca-file or a pin says otherwise).")
    var tls = false

    @Option(name: .long, help: "Trust the CAs in this PEM file (implies --tls). (env: ROSTER_CA_FILE)")
    var caFile: String?

    @Option(
        name: .long,
        help: "How long connecting and each request may take: 10s, 500ms, 2m. (env: ROSTER_TIMEOUT; default: 10s)")
    var timeout: String?

    @Option(
        name: .long,
        help: "Mark the people of this vCard file (3.0 or 4.0) in listings and details. (env: ROSTER_CONTACTS)")
    var contacts: String?

    @Flag(name: .long, help: "Print JSON (one object per line for watch) instead of tables.")
    var json = false

    @Flag(name: .long, help: "Show and read times in UTC instead of the local time zone.")
    var utc = false

    func runner() throws -> CommandRunner {
        let flags = ClientSettings.Flags(
            server: server, token: token, tokenFile: tokenFile, tenant: tenant,
            cacheDirectory: cacheDir, utc: utc, tls: tls, caFile: caFile, timeout: timeout,
            contactsFile: contacts)
        let settings: ClientSettings
        do {
            settings = try ClientSettings.resolve(flags: flags)
        } catch {
            throw ValidationError(error.description)
        }
        do {
            return CommandRunner(settings: settings, json: json, contacts: try ContactsFile.load(settings.contactsFile))
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// A TIME argument; one without a zone is read in `zone` (a schedule's), else the local zone (UTC with --utc).
    func time(_ text: String?, in zone: TimeZone? = nil) throws -> UnixMillis? {
        guard let text else { return nil }
        do {
            return try TimeArgument.parse(text, timeZone: utc ? TimeZone(identifier: "UTC")! : zone ?? .current)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The zone of a schedule, for times that belong to it (a temporary schedule's span and
    /// shifts): nil with --utc, which reads every time in UTC.
    func zone(ofSchedule name: String, runner: CommandRunner) async throws -> TimeZone? {
        guard !utc else { return nil }
        guard let definition = try await runner.schedule(named: name) else {
            throw ValidationError("no schedule \"\(name)\"")
        }
        return TimeZone(identifier: definition.zone)
    }
}

extension ClientExitCode {
    /// Ends the process with this code, at once: unwinding first would free everything the
    /// command loaded (milliseconds for a 12,000-person cache). Output is written unbuffered.
    func exit() throws -> Never {
        Foundation.exit(rawValue)
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow the server live: on duty now at the top, the directory below.",
        discussion: """
            On a terminal, draws a live screen that redraws on every push: who is on duty, then the directory \
            grouped by position. Keys: / search (Enter done, Esc clear), g group by team or position, \
            up/down or j/k select, Enter show the person (Esc back), q or Ctrl-C quit. With --contacts, the \
            people in that vCard file are marked. When the output is \
            not a terminal, or with --json, prints one JSON object per event per line (state, synced, onDuty, \
            rosterChanged, resync, goingAway, warning, error), flushed at once. Reconnects by itself and \
            resumes where it left off.

            With --exec CMD, runs CMD (with /bin/sh) once for each change of who is on duty on a schedule, \
            one run at a time: the event as one JSON line on standard input, and ROSTER_SCHEDULE, \
            ROSTER_SCHEDULE_ID, ROSTER_ON_DUTY (names), ROSTER_ON_DUTY_IDS, ROSTER_UNTIL and ROSTER_SOURCE \
            (server or cache) in the environment. Handoffs in the cached plan run it while the server is \
            unreachable. A command that fails or outlives --exec-timeout is reported and the watch goes on. \
            --exec prints JSON lines, on a terminal too.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(name: .long, help: ArgumentHelp("Run this command for each on-duty change.", valueName: "command"))
    var exec: String?
    @Option(
        name: .long, help: ArgumentHelp("Stop a command from --exec after this many seconds.", valueName: "seconds"))
    var execTimeout: Int = 30
    @Option(help: "Follow whom a page for this service (name or id) would reach now, instead: a line per change.")
    var service: [String] = []
    @Option(help: "The same for an escalation policy (name or id).") var policy: [String] = []

    func validate() throws {
        if !(service.isEmpty && policy.isEmpty), exec != nil {
            throw ValidationError("--exec follows on-duty changes, not --service or --policy")
        }
        if let exec, exec.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--exec needs a command")
        }
        guard (1...86_400).contains(execTimeout) else {
            throw ValidationError("--exec-timeout must be 1 to 86400 seconds")
        }
    }

    func run() async throws {
        if !(service.isEmpty && policy.isEmpty) {
            try await options.runner().watchEscalation(services: service, policies: policy).exit()
        }
        try await options.runner().watch(exec: exec, execTimeLimit: .seconds(execTimeout)).exit()
    }
}

struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Who is on duty now (or at --at), until when, and who is next, per schedule.")
    @OptionGroup var options: ConnectionOptions
    // Unconditional: "--at -2h" is a time two hours ago, not an unknown option.
    @Option(parsing: .unconditional, help: "The instant: ISO 8601, now, +2h, -2h, 30m ago, tomorrow 09:00.")
    var at: String?
    @Option(help: "Only this schedule (name or id).")
    var schedule: String?
    @Flag(help: "Answer from the cache without contacting the server.")
    var offline = false

    func validate() throws {
        _ = try options.time(at)
    }

    func run() async throws {
        try await options.runner().now(at: options.time(at), offline: offline, schedule: schedule).exit()
    }
}

struct Employees: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees",
        abstract: "List the directory, sorted by last name.")
    @OptionGroup var options: ConnectionOptions
    @Option(help: "Group by position or team (groups A→Z).")
    var groupBy: EmployeeGrouping?

    func run() async throws {
        try await options.runner().employees(groupBy: groupBy).exit()
    }
}

extension EmployeeGrouping: ExpressibleByArgument {}

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find people by name, email, project or position (ignoring case and accents).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "What to look for; every word must match.")
    var text: String

    func run() async throws {
        try await options.runner().search(text).exit()
    }
}

struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One person's details, one-off shifts and duty from every source.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "An employee id or full name.")
    var nameOrID: String

    func run() async throws {
        try await options.runner().show(nameOrID).exit()
    }
}

struct Shifts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shifts",
        abstract: "Shifts overlapping a window, by start time.")
    @OptionGroup var options: ConnectionOptions
    @Option(help: "Window start (ISO 8601, now, +2h, tomorrow 09:00).")
    var from: String?
    @Option(help: "Window end.")
    var to: String?
    @Option(help: "Only this employee (id or full name).")
    var employee: String?

    func validate() throws {
        if let start = try options.time(from), let end = try options.time(to), start >= end {
            throw ValidationError("--from must be before --to (got \(from ?? "") and \(to ?? ""))")
        }
    }

    func run() async throws {
        try await options.runner().shifts(from: options.time(from), to: options.time(to), employee: employee).exit()
    }
}

struct Trust: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Show a server's TLS certificate authority and pin it (like ssh known_hosts).",
        discussion: """
            Connects without trusting anything, prints the CA's SHA-256 fingerprint, and after confirmation \
            writes it to $XDG_CONFIG_HOME/roster/known_hosts. From then on connections to that server use TLS \
            and trust only that CA; a different CA is refused with a warning.
            """)
    @Argument(help: "The server, HOST:PORT.") var server: String
    @Option(help: "The fingerprint the server logged (SHA256:AB:CD:...); pin only if it matches.") var fingerprint:
        String?
    @Flag(help: "Pin without asking.") var yes = false
    @Flag(help: "Replace a different CA pinned earlier for this server.") var replace = false

    func run() async throws {
        let settings: ClientSettings
        do {
            settings = try ClientSettings.resolve(flags: .init(server: server))
        } catch {
            throw ValidationError(error.description)
        }
        if fingerprint == nil && !yes && isatty(STDIN_FILENO) == 0 {
            throw ValidationError("not a terminal: pass --fingerprint SHA256:... (from the server's log) or --yes")
        }
        try await CommandRunner(settings: settings, json: false).trust(
            expectedFingerprint: fingerprint, assumeYes: yes, replace: replace,
            confirm: { question in
                FileHandle.standardOutput.write(Data(question.utf8))
                return readLine()?.lowercased().hasPrefix("y") == true
            }
        ).exit()
    }
}
