import ArgumentParser
import RosterDomain
import Foundation
import RosterBench
import RosterSystem

@main
struct RosterBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster-bench",
        abstract: "Measures roster-server: push fan-out against a floor, and query throughput.",
        discussion: "Build and run in release: swift run -c release roster-bench fanout --subscribers 10000",
        subcommands: [
            Fanout.self, Query.self, TenantSize.self, BigTenant.self, Resolve.self, Schedules.self, Attack.self,
            Cover.self, Report.self, Escalation.self, Conflicts.self, Definitions.self,
            WebPages.self, Chat.self, FloorServer.self, Migrate.self, SignIn.self, Provisioning.self, WebPush.self,
            PushHandoff.self,
        ])
}

/// The roster-server binary next to this one.
func siblingExecutable(_ name: String) -> URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent(name)
}

struct Query: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Closed-loop \"on duty now\" requests: throughput and latency.")
    @Option(help: "Connections, each with one request in flight.") var connections = 50
    @Option(help: "Seconds to run.") var duration: Double = 10
    @Option(
        help: "Port of a running server on 127.0.0.1 to load (e.g. under a profiler); default: start one with --demo.")
    var port: Int?
    @Flag(help: "Over TLS (starts the server with --tls).") var tls = false

    func run() async throws {
        ProcessLimits.raiseOpenFileLimit()
        let (rate, latency) = try await QueryBenchmark(
            connections: connections, seconds: duration,
            serverExecutable: siblingExecutable("roster-server"),
            existingServerPort: port, tls: tls
        ).run()
        print(
            "query: \(connections) connections, \(duration) s, on duty now (\(tls ? "TLS" : "plaintext"), demo roster)")
        print(String(format: "  %.0f requests/s  latency %@", rate, latency.description))
    }
}

struct TenantSize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant-size",
        abstract: "What one small admin change and one snapshot cost on a tenant of this size (in process).")
    @Option(help: "Employees.") var employees = 10_000
    @Option(help: "Shifts.") var shifts = 100_000
    @Option(help: "Single-shift changes to time.") var changes = 20

    func run() throws {
        let result = try TenantSizeBenchmark(employees: employees, shifts: shifts, changes: changes).run()
        print("tenant-size: \(employees) employees, \(shifts) shifts")
        print(String(format: "  build the state and its on-duty index once: %.0f ms", result.buildMillis))
        print("  one AddShift, validate and apply: \(result.applyMillis)")
        print("  rebuild the on-duty index after it:  \(result.indexMillis)")
        print("  one employee's phone changed, validate and apply: \(result.employeeMillis)")
        print(
            String(
                format: "  snapshot: %d bytes, encoded in %.0f ms", result.snapshotBytes, result.snapshotEncodeMillis))
        print(String(format: "  resident memory of the process: %.0f MB", Double(result.residentBytes) / 1_048_576))
    }
}

struct BigTenant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "big-tenant",
        abstract:
            "A roster-server process serving a big tenant: load time, memory, snapshot to a client, admin change ack.")
    @Option(help: "Employees.") var employees = 10_000
    @Option(help: "Shifts.") var shifts = 100_000
    @Option(help: "Single-shift changes to time (added, then deleted).") var changes = 200
    @Option(help: "The server's --max-frame-bytes.") var maxFrameBytes = 1_048_576
    @Flag(
        help:
            "Register a webhook for every event first (its endpoint refuses connections): each change then also queues a delivery, retried in the background."
    ) var webhook = false

    func run() async throws {
        let result = try await BigTenantBenchmark(
            employees: employees, shifts: shifts, changes: changes, maxFrameBytes: maxFrameBytes,
            serverExecutable: siblingExecutable("roster-server"), webhook: webhook
        ).run()
        print(
            "big-tenant: \(employees) employees, \(shifts) shifts (store written in \(String(format: "%.1f s", result.seedSeconds)))"
        )
        print(
            String(format: "  server start to first answer (store loaded, indexes built): %.2f s", result.loadSeconds))
        print(String(format: "  server resident memory: %.0f MB", Double(result.residentBytes) / 1_048_576))
        if let failure = result.snapshotFailure {
            print("  snapshot to a client: failed: \(failure)")
        } else {
            print(
                "  snapshot to a client (\(result.snapshotBytes) bytes), request to decoded answer: \(result.snapshot)")
        }
        print(
            "  admin change (a shift added or deleted)\(webhook ? " with a webhook for every event" : ""), acknowledged: \(result.ack)"
        )
    }
}

struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve a year of a three-layer schedule with 50 people, restrictions and 200 overrides.")
    @Option(help: "Times to resolve it.") var runs = 20
    @Flag(help: "Also time one whole resolution budget, and the active-turn sweep of a restricted minutely rotation.")
    var budget = false

    func run() throws {
        let result = try ResolveBenchmark(runs: runs).run()
        print(
            String(
                format:
                    "resolve: one year, 3 layers, 50 participants, 200 overrides: median %.2f ms, worst %.2f ms, %d shifts",
                result.median, result.worst, result.shifts))
        guard budget else { return }
        let cost = try BudgetBenchmark(runs: runs).run()
        print(
            String(
                format: "resolve: one whole budget (%d units, minutely rotations): median %.1f ms, worst %.1f ms",
                ResolutionBudget.perRequest, cost.budgetMedian, cost.budgetWorst))
        print(
            String(
                format:
                    "resolve: active turns of a restricted minutely rotation anchored 10 years back: first %.1f ms, again %.2f ms",
                cost.sweepFirst, cost.sweepAgain))
    }
}

struct Schedules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedules",
        abstract: "A tenant with many schedules: acknowledgement of an admin change to one of them.")
    @Option(help: "Schedules in the tenant.") var schedules = 1000
    @Option(help: "Changes to time (an override added, then deleted).") var changes = 400

    func run() async throws {
        let result = try await ScheduleTenantBenchmark(
            schedules: schedules, changes: changes,
            serverExecutable: siblingExecutable("roster-server")
        ).run()
        print(
            "schedules: \(schedules) schedules (weekly rotations of 5, half restricted), set up in "
                + String(format: "%.1f s", result.setupSeconds))
        print("  admin change to one schedule, acknowledged: \(result.ack)")
        print(String(format: "  server resident memory %.1f MB", Double(result.residentBytes) / 1e6))
    }
}

struct Attack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attack",
        abstract:
            "The hostile-client repros, each beside another tenant's admin: its ack latency, server memory, whether it stays up.",
        discussion:
            "docs/RELIABILITY.md, \"Limits and what happens at them\", has the figures. --server runs another build for comparison."
    )
    @Argument(
        help:
            "Attacks to run: \(AttackBenchmark.Attack.allCases.map(\.rawValue).joined(separator: ", ")) (default: all)."
    )
    var attacks: [String] = []
    @Option(help: "The roster-server to attack (default: the one beside roster-bench).") var server: String?
    @Option(help: "Admin changes of the other tenant timed before and during each attack.") var changes = 20

    func run() async throws {
        let chosen = try (attacks.isEmpty ? AttackBenchmark.Attack.allCases.map(\.rawValue) : attacks).map { name in
            guard let attack = AttackBenchmark.Attack(rawValue: name) else {
                throw ValidationError("unknown attack \(name)")
            }
            return attack
        }
        let executable = server.map { URL(fileURLWithPath: $0) } ?? siblingExecutable("roster-server")
        let bench = AttackBenchmark(server: executable, administration: executable, changes: changes)
        for attack in chosen {
            let result = try await bench.run(attack)
            print("attack \(attack.rawValue):")
            let sample = attack == .yearQueries ? "GET /v1/oncall (now)" : "connects, changes"
            print("  other tenant \(sample), quiet:        \(result.quiet)")
            if let under = result.underAttack {
                print("  other tenant \(sample), under attack: \(under)")
            } else {
                print("  other tenant \(sample), under attack: not answered: \(result.failure ?? "?")")
            }
            print(
                String(
                    format: "  server resident memory: %.0f MB before, %.0f MB at most during",
                    Double(result.residentBefore) / 1_048_576,
                    Double(result.residentPeak) / 1_048_576))
            if attack == .yearQueries { print("  year queries answered while it ran: \(result.attackAnswers)") }
            print("  server afterwards: \(result.alive ? "up" : "DOWN")")
        }
    }
}

struct FloorServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor-server", abstract: "The floor broadcaster (started by fanout).", shouldDisplay: false)
    @Option var port: Int
    @Option(help: "The push frame, hex.") var frame: String

    func run() throws {
        var bytes: [UInt8] = []
        var index = frame.startIndex
        while index < frame.endIndex {
            let next = frame.index(index, offsetBy: 2)
            bytes.append(UInt8(frame[index..<next], radix: 16) ?? 0)
            index = next
        }
        try FloorBroadcaster.run(port: port, pushFrame: bytes)
    }
}

struct WebPages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-pages",
        abstract: "The web app's pages for a big tenant: time per page (p50/p99), server CPU per page, bytes per page.")
    @Option(help: "People in the directory.") var people = 1000
    @Option(help: "Schedules, each a weekly rotation of ten people with an override.") var schedules = 100
    @Option(help: "Requests per page.") var requests = 200
    @Option(help: "Ask for the pages in this language (Accept-Language), e.g. de.") var language: String?

    func run() async throws {
        let result = try await WebPagesBenchmark(
            people: people, schedules: schedules, requests: requests,
            serverExecutable: siblingExecutable("roster-server"), language: language
        ).run()
        print(
            String(
                format:
                    "web pages: %d people, %d schedules (set up in %.1f s), %d requests per page, one keep-alive connection",
                people, schedules, result.setupSeconds, requests))
        for page in result.pages {
            print(
                "  " + page.path.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format: "p50 %7.2f ms  p99 %7.2f ms  server CPU %6.2f ms  %7d bytes of HTML, %6d gzipped",
                        page.latency.p50, page.latency.p99, page.cpuMillis, page.bytes, page.wireBytes))
        }
        print(
            "  (timed as a browser asks: rendered and gzipped); a first visit also fetches \(result.assetBytes) bytes"
                + " of style sheet and script, gzipped (then cached)")
    }
}

struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Slack's /oncall against a big tenant: time per signed request (p50/p99), server CPU per answer.")
    @Option(help: "People in the directory.") var people = 1000
    @Option(help: "Schedules, each a weekly rotation of ten people with an override.") var schedules = 100
    @Option(help: "Requests per command.") var requests = 300

    func run() async throws {
        let commands = try await ChatBenchmark(
            people: people, schedules: schedules, requests: requests,
            serverExecutable: siblingExecutable("roster-server")
        ).run()
        print(
            "/oncall from Slack: \(people) people, \(schedules) schedules, \(requests) signed requests per command, one keep-alive connection"
        )
        for command in commands {
            print(
                "  " + command.text.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(
                        format: "p50 %6.2f ms  p99 %6.2f ms  server CPU %5.2f ms  %6d bytes",
                        command.latency.p50, command.latency.p99, command.cpuMillis, command.answerBytes))
        }
    }
}

struct Cover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract:
            "Cover requests: open, two takers racing, cancel; latency per step (p50/p99), server CPU per round, one taker each race."
    )
    @Option(help: "Rounds of open, race, cancel.") var rounds = 300

    func run() async throws {
        let result = try await CoverRequestBenchmark(
            rounds: rounds, serverExecutable: siblingExecutable("roster-server")
        ).run()
        print(
            "cover requests: \(rounds) rounds on one schedule (SQLite), each: an admin opens for Grace, Ada and Alan take at once, Grace cancels"
        )
        print("  open          \(result.open)")
        print("  take (winner) \(result.take)")
        print("  take (loser)  \(result.refusal)")
        print("  cancel        \(result.cancel)")
        print(
            String(
                format:
                    "  races with exactly one taker: %d of %d; server CPU per round (3 commits, 1 refusal): %.2f ms",
                result.oneTaker, rounds, result.cpuMillisPerRound))
    }
}

struct Definitions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "definitions",
        abstract:
            "Schedules as code on a big tenant: read the file, the first apply, plans and one-rotation applies (p50/p99, server CPU)."
    )
    @Option(help: "People in the tenant.") var people = 1_000
    @Option(help: "Schedules of ten people each.") var schedules = 100
    @Option(help: "Plans and applies timed, each.") var runs = 20

    func run() async throws {
        let result = try await DefinitionBenchmark(
            people: people, schedules: schedules, runs: runs,
            serverExecutable: siblingExecutable("roster-server")
        ).run()
        print(
            "definitions: \(people) people, \(schedules) schedules in 3 zones; the file is \(result.fileBytes / 1024) KiB"
        )
        print("  read the file (client)            \(result.read)")
        print(String(format: "  first apply (creates everything)  %.1f ms", result.create))
        print("  plan, nothing to do               \(result.noChange)")
        print("  plan, one rotation changed        \(result.oneChangePlan)  (\(result.dutyListed) stretches listed)")
        print("  apply, one rotation changed       \(result.oneChangeApply)")
        print(
            String(
                format: "  server CPU: %.1f ms a plan with nothing to do, %.1f ms an apply", result.cpuNoChange,
                result.cpuApply))
    }
}

struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "A year's hours report for a big tenant: store read and computation (p50/p99), resident memory it adds.")
    @Option(help: "People in the tenant.") var people = 1_000
    @Option(help: "Schedules of ten people each.") var schedules = 100
    @Option(help: "Reports timed.") var runs = 20

    func run() async throws {
        let result = try await ReportBenchmark(people: people, schedules: schedules, runs: runs).run()
        print(
            "hours report: a year (half recorded, \(result.recordedStretches) stretches in SQLite; half planned), \(people) people, "
                + "\(schedules) schedules in 3 zones, night 22:00-06:00; \(result.rows) rows")
        print("  store read    \(result.read)")
        print("  computation   \(result.compute)")
        print("  whole report  \(result.total)")
        print(String(format: "  resident memory added: %.1f MiB", Double(result.residentGrowthBytes) / 1_048_576))
    }
}

struct Conflicts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract:
            "Time-off conflicts and their proposals on a big tenant: the final schedule of every schedule, then the conflicts (p50/p99)."
    )
    @Option(help: "People in the tenant.") var people = 1_000
    @Option(help: "Schedules of ten people each.") var schedules = 100
    @Option(help: "Days of the final schedule.") var days = 14
    @Option(help: "Every how many people one has two weeks off.") var awayEvery = 10
    @Option(help: "Answers timed.") var runs = 20

    func run() async throws {
        let result = try ConflictBenchmark(
            people: people, schedules: schedules, runs: runs, days: days, awayEvery: awayEvery
        ).run()
        print(
            "conflicts: \(people) people, \(schedules) schedules in 3 zones, \(result.timeOff) people with two weeks off; "
                + "\(days) days of every schedule: \(result.shifts) stretches\(result.truncated ? " (cut at the answer's limit)" : ""), "
                + "\(result.conflicts) conflicts, \(result.withProposals) with proposals")
        print("  final schedule  \(result.resolve)")
        print("  conflicts       \(result.conflictsTime)")
    }
}
