import ArgumentParser
import Foundation
import RosterCommandLine
import RosterDomain
import RosterProtocol

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Who carried the load: hours per person, and a schedule's coverage and fairness.",
        discussion: """
            Reports read the server's duty record for the past (what actually happened, immutable) and the current \
            definitions for the future; a window may span both, and the report says where. docs/REPORTS.md has every \
            definition. Admin tokens; a token bound to a person may ask for its own hours.
            """,
        subcommands: [Hours.self, Quality.self])

    struct Window: ParsableArguments {
        @Option(parsing: .unconditional, help: "Start of the window (ISO 8601, \"30d ago\", yesterday 09:00).")
        var from: String
        @Option(parsing: .unconditional, help: "End of the window (default: now; at most 400 days after --from).")
        var to: String = "now"
        @Flag(help: "Comma-separated values (RFC 4180), one row per person, for a spreadsheet.") var csv = false
    }

    struct Hours: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hours", abstract: "On-duty hours per person, split into disjoint categories that add up.",
            discussion: """
                Covered time: overlapping stretches count once (within a schedule and across schedules). Every hour \
                is in exactly one category: a holiday, else a weekend day (not in --workdays), else --night, else \
                outside --business-hours, else business hours. Days of 23 and 25 hours at DST changes count as they are.
                """)
        @OptionGroup var options: ConnectionOptions
        @OptionGroup var window: Window
        @Option(help: "Only this schedule (id or name); default: every schedule.") var schedule: String?
        @Option(help: "Only this person (id or full name).") var person: String?
        @Option(help: "IANA zone the days and hours are counted in (default: the schedule's).") var zone: String?
        @Option(help: "Business hours on workdays (default 09:00-18:00).") var businessHours: String?
        @Option(help: "Workdays (default Mon-Fri).") var workdays: String?
        @Option(help: "A night window, e.g. 22:00-08:00 (default: none).") var night: String?
        @Option(
            help:
                "A holiday calendar of the tenant (`admin holidays`) or an iCalendar file of holidays (one all-day event each)."
        )
        var holidays: String?

        func validate() throws {
            _ = try options.time(window.from)
            _ = try options.time(window.to)
            if window.csv && options.json { throw ValidationError("choose --json or --csv") }
        }

        func run() async throws {
            var dates: [String] = []
            let runner = try options.runner()
            if let holidays, !FileManager.default.fileExists(atPath: holidays), HolidaySet.nameProblem(holidays) == nil
            {
                guard let named = await runner.holidayDays(named: holidays) else {
                    throw ValidationError(
                        "--holidays \(holidays): neither a file nor a holiday calendar of the tenant (`admin holidays list`)"
                    )
                }
                dates = named
            } else if let holidays {
                let text: String
                do { text = try String(contentsOfFile: holidays, encoding: .utf8) } catch {
                    throw ValidationError("--holidays: cannot read \(holidays): \(error.localizedDescription)")
                }
                do throws(HolidayCalendar.Invalid) { dates = try HolidayCalendar.dates(fromICS: text) } catch {
                    throw ValidationError("--holidays \(holidays): \(error.description)")
                }
            }
            let (start, end) = (try options.time(window.from) ?? 0, try options.time(window.to) ?? 0)
            let request = Roster_V1_GetReportRequest.with {
                $0.kind = .hours
                $0.fromMs = start
                $0.toMs = end
                $0.schedule = schedule ?? ""
                $0.person = person ?? ""
                $0.zone = zone ?? ""
                $0.businessHours = businessHours ?? ""
                $0.workdays = workdays ?? ""
                $0.night = night ?? ""
                $0.holidays = dates
            }
            try await runner.report(request, output: options.json ? .json : window.csv ? .csv : .table).exit()
        }
    }

    struct Quality: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quality",
            abstract: "A schedule's coverage with its gaps, and how evenly it spreads the hours; or a policy's steps.",
            discussion: """
                Coverage is the union of covered time (two people at once count once). Equity is 100 - 100·σ/μ of the \
                participants' hours; balance is Grafana OnCall's pairwise min/max score, for comparison. The window \
                defaults to the last 28 days. With --policy: each step's coverage and the stretches it pages nobody, \
                the steps that name one person only, and when no step pages anyone (at night, 22:00-08:00 in the \
                policy's zone, and at weekends).
                """)
        @OptionGroup var options: ConnectionOptions
        @Option(help: "The schedule (id or name).") var schedule: String?
        @Option(help: "An escalation policy (id or name) instead of a schedule.") var policy: String?
        @Option(parsing: .unconditional, help: "Start of the window (default: 28 days ago).") var from: String?
        @Option(parsing: .unconditional, help: "End of the window (default: now).") var to: String?
        @Flag(help: "Comma-separated values: people, then the gaps.") var csv = false

        func validate() throws {
            _ = try options.time(from)
            _ = try options.time(to)
            if csv && options.json { throw ValidationError("choose --json or --csv") }
            if (schedule == nil) == (policy == nil) { throw ValidationError("name a --schedule or a --policy") }
        }

        func run() async throws {
            let now = UnixMillis.now
            let end = (try options.time(to)) ?? now
            let start = (try options.time(from)) ?? end - 28 * 86_400_000
            let request = Roster_V1_GetReportRequest.with {
                $0.kind = .quality
                $0.fromMs = start
                $0.toMs = end
                $0.schedule = schedule ?? ""
                $0.policy = policy ?? ""
            }
            try await options.runner().report(request, output: options.json ? .json : csv ? .csv : .table).exit()
        }
    }
}
