import Foundation
import RosterAsCode
import RosterDomain
import RosterProtocol

/// `migrate --verify-against FILE`: the source system's own rendered on-call list set beside
/// what Roster resolves from the definition file, stretch by stretch. The file is read back
/// and planned as `apply` would plan it against the directory, so what is compared is what the
/// file makes, not what the migration meant.
public struct MigrationVerification: Sendable {
    public struct Difference: Sendable, Hashable {
        public var schedule: String
        public var start: UnixMillis
        public var end: UnixMillis
        /// Names of the people on duty in the source and in Roster over [start, end).
        public var source: [String]
        public var roster: [String]
    }

    public var from: UnixMillis
    public var to: UnixMillis
    /// The schedules compared, by name.
    public var schedules: [String]
    public var differences: [Difference]

    /// The window in whole days, as the summary says it.
    public var days: Int { Int((to - from + 43_200_000) / 86_400_000) }

    public var text: String {
        var lines: [String] = []
        for difference in differences {
            let source = difference.source.isEmpty ? "nobody" : difference.source.joined(separator: ", ")
            let roster = difference.roster.isEmpty ? "nobody" : difference.roster.joined(separator: ", ")
            lines.append(
                "  \(difference.schedule): \(TimeText.iso8601(difference.start)) to \(TimeText.iso8601(difference.end)): "
                    + "source has \(source), Roster has \(roster)")
        }
        let count = differences.count
        lines.append(
            "\(count) difference\(count == 1 ? "" : "s") over \(days) day\(days == 1 ? "" : "s") "
                + "(\(schedules.count) schedule\(schedules.count == 1 ? "" : "s"), \(TimeText.iso8601(from)) to "
                + "\(TimeText.iso8601(to)))")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One schedule of a source's rendered list: who it had on duty when.
struct RenderedSchedule {
    var sourceID: String
    var path: String
    var entries: [(userID: String, name: String, start: UnixMillis, end: UnixMillis)]
}

extension Migration {
    /// Compares `definition` (the file this migration wrote, as text) with the source's
    /// rendered list in `rendered`, over the list's window. `directory` is the tenant's people,
    /// as the plan of an apply would see them.
    public func verify(definition: String, rendered data: Data, name: String, directory: RosterState)
        throws(MigrationError) -> MigrationVerification
    {
        let root = try SourceJSON.parse(data, name: name)
        var reading = SourceReading()
        var window: (from: UnixMillis, to: UnixMillis)?
        var rendered: [RenderedSchedule] = []
        switch source {
        case .pagerDuty: (window, rendered) = reading.renderedPagerDuty(root)
        case .goAlert: (window, rendered) = reading.renderedGoAlert(root)
        case .opsgenie: (window, rendered) = reading.renderedOpsgenie(root)
        case .grafanaOnCall: (window, rendered) = reading.renderedGrafanaOnCall(root)
        }
        if !reading.problems.isEmpty { throw MigrationError(problems: reading.problems) }
        guard let window else { throw MigrationError(name, "holds no on-call entry and no since/until") }
        let after = try Self.planned(definition, directory: directory)
        func personName(_ id: String) -> String { after.employees[id]?.fullName ?? id }
        var verification = MigrationVerification(from: window.from, to: window.to, schedules: [], differences: [])
        for schedule in rendered {
            guard let scheduleID = scheduleIDs[schedule.sourceID], let definition = after.definition(of: scheduleID)
            else {
                throw MigrationError(schedule.path, "schedule \"\(schedule.sourceID)\" is not one the export migrated")
            }
            verification.schedules.append(definition.name)
            var budget = ResolutionBudget(limit: 4 * ResolutionBudget.perRequest)
            let shifts: [ResolvedShift]
            do throws(ScheduleResolver.Problem) {
                shifts = try ScheduleResolver.resolve(definition, from: window.from, to: window.to, budget: &budget)
            } catch {
                throw MigrationError(
                    schedule.path, "Roster cannot resolve \(definition.name) over the window: \(error)")
            }
            // The source's people as Roster's ids; someone the export did not have stays apart.
            let source = DutySegment.segments(
                schedule.entries.map { (personIDs[$0.userID] ?? "?\($0.name)", $0.start, $0.end) }, from: window.from,
                to: window.to)
            let roster = DutySegment.segments(
                shifts.map { ($0.employeeID, $0.start, $0.end) }, from: window.from, to: window.to)
            for (start, end, theirs, ours) in Self.pieces(source, roster) where theirs != ours {
                let names = (
                    theirs.map { $0.hasPrefix("?") ? String($0.dropFirst()) : personName($0) }.sorted(),
                    ours.map(personName).sorted()
                )
                if let last = verification.differences.last, last.schedule == definition.name, last.end == start,
                    last.source == names.0, last.roster == names.1
                {
                    verification.differences[verification.differences.count - 1].end = end
                } else {
                    verification.differences.append(
                        .init(schedule: definition.name, start: start, end: end, source: names.0, roster: names.1))
                }
            }
        }
        return verification
    }

    /// The tenant as the file would leave it: read as `plan -f` reads it, planned against the
    /// directory's people (no schedules, so each is resolved as the file writes it).
    static func planned(_ text: String, directory: RosterState) throws(MigrationError) -> RosterState {
        let file: DefinitionFile
        do throws(DefinitionFile.Problems) {
            file = try DefinitionFile.parse(text, path: "the definition") { _ in nil }
        } catch {
            throw MigrationError(
                problems: error.problems.map { MigrationProblem(path: "definition", message: "\($0)") })
        }
        let people = RosterState(tenant: directory.tenant, employees: Array(directory.employees.values))
        let planner = DefinitionPlanner(
            state: people, now: .now, prune: false, author: "migrate", newID: { "\($0)-\(UUID().uuidString)" })
        let outcome = planner.plan(DefinitionDocument(file.document))
        guard outcome.violations.isEmpty else {
            throw MigrationError(
                problems: outcome.violations.map {
                    MigrationProblem(
                        path: "definition " + [$0.location, $0.field].filter { !$0.isEmpty }.joined(separator: "."),
                        message: $0.message)
                })
        }
        return outcome.after
    }

    /// Both sides cut at every boundary of either: [(start, end, source's people, Roster's)].
    static func pieces(_ left: [DutySegment], _ right: [DutySegment])
        -> [(UnixMillis, UnixMillis, Set<String>, Set<String>)]
    {
        var result: [(UnixMillis, UnixMillis, Set<String>, Set<String>)] = []
        var i = 0, j = 0
        while i < left.count, j < right.count {
            let start = max(left[i].start, right[j].start), end = min(left[i].end, right[j].end)
            if start < end { result.append((start, end, left[i].people, right[j].people)) }
            if left[i].end <= right[j].end { i += 1 } else { j += 1 }
        }
        return result
    }
}

extension SourceReading {
    /// PagerDuty's rendered list: `{since, until, schedules: [...]}` with each schedule as
    /// `GET /schedules/{id}?since=…&until=…` returns it (its `final_schedule`), or that answer alone.
    mutating func renderedPagerDuty(_ root: SourceJSON) -> ((from: UnixMillis, to: UnixMillis)?, [RenderedSchedule]) {
        let list: [SourceJSON]
        if let single = root["schedule"] {
            list = [single]
        } else if root["schedules"] != nil {
            list = objects(self.list(root, "schedules")).map { $0["schedule"] ?? $0 }
        } else {
            refuse(
                nil, "", "is not PagerDuty's rendered schedules: expected {\"schedules\": [...]} with final_schedule")
            return (nil, [])
        }
        var rendered: [RenderedSchedule] = []
        for schedule in list {
            guard let id = text(schedule, "id") else { continue }
            guard let final = schedule["final_schedule"] else {
                refuse(schedule, "final_schedule", "is missing: fetch the schedule with since and until")
                continue
            }
            var entries: [(userID: String, name: String, start: UnixMillis, end: UnixMillis)] = []
            for entry in objects(self.list(final, "rendered_schedule_entries")) {
                let start = instant(entry, "start"), end = instant(entry, "end")
                let userID = entry["user"]?["id"]?.string ?? ""
                if userID.isEmpty { refuse(entry, "user.id", "is missing") }
                guard let start, let end, !userID.isEmpty else { continue }
                entries.append((userID, entry["user"]?["summary"]?.string ?? userID, start, end))
            }
            rendered.append(RenderedSchedule(sourceID: id, path: schedule.path, entries: entries))
        }
        return (window(root, rendered), rendered)
    }

    /// The window a rendered list covers: its `since` and `until`, else its first start to its
    /// last end.
    mutating func window(_ root: SourceJSON, _ rendered: [RenderedSchedule]) -> (from: UnixMillis, to: UnixMillis)? {
        let since = root["since"] != nil ? instant(root, "since") : nil
        let until = root["until"] != nil ? instant(root, "until") : nil
        let starts = rendered.flatMap { $0.entries.map(\.start) }, ends = rendered.flatMap { $0.entries.map(\.end) }
        guard let from = since ?? starts.min(), let to = until ?? ends.max(), from < to else { return nil }
        return (from, to)
    }

    /// Opsgenie's rendered list: `{since, until, schedules: [...]}`, each the `data` of
    /// `GET /v2/schedules/{id}/timeline` (its `_parent.id`, its `finalTimeline`'s periods).
    mutating func renderedOpsgenie(_ root: SourceJSON) -> ((from: UnixMillis, to: UnixMillis)?, [RenderedSchedule]) {
        guard root["schedules"] != nil else {
            refuse(nil, "", "is not Opsgenie's timelines: expected {\"schedules\": [timeline data, …]}")
            return (nil, [])
        }
        var rendered: [RenderedSchedule] = []
        for element in objects(list(root, "schedules")) {
            let timeline = element["data"] ?? element
            guard let id = timeline["_parent"]?["id"]?.string ?? timeline["id"]?.string else {
                refuse(timeline, "_parent.id", "is missing")
                continue
            }
            guard let final = timeline["finalTimeline"] else {
                refuse(timeline, "finalTimeline", "is missing")
                continue
            }
            var entries: [(userID: String, name: String, start: UnixMillis, end: UnixMillis)] = []
            for rotation in objects(list(final, "rotations")) {
                for period in objects(list(rotation, "periods", optional: true)) {
                    let start = instant(period, "startDate"), end = instant(period, "endDate")
                    guard let recipient = period["recipient"], recipient["type"]?.string == "user",
                        let userID = recipient["id"]?.string, let start, let end
                    else { continue }
                    entries.append((userID, recipient["name"]?.string ?? userID, start, end))
                }
            }
            rendered.append(RenderedSchedule(sourceID: id, path: timeline.path, entries: entries))
        }
        return (window(root, rendered), rendered)
    }

    /// Grafana OnCall's rendered list: `{since, until, schedules: [{id, final_shifts: [...]}]}`,
    /// each `GET /api/v1/schedules/{id}/final_shifts` (`user_pk`, `shift_start`, `shift_end`).
    mutating func renderedGrafanaOnCall(_ root: SourceJSON) -> ((from: UnixMillis, to: UnixMillis)?, [RenderedSchedule])
    {
        guard root["schedules"] != nil else {
            refuse(
                nil, "", "is not Grafana OnCall's final shifts: expected {\"schedules\": [{\"id\", \"final_shifts\"}]}")
            return (nil, [])
        }
        var rendered: [RenderedSchedule] = []
        for schedule in objects(list(root, "schedules")) {
            guard let id = text(schedule, "id") else { continue }
            var entries: [(userID: String, name: String, start: UnixMillis, end: UnixMillis)] = []
            for shift in objects(list(schedule, "final_shifts")) {
                let start = instant(shift, "shift_start"), end = instant(shift, "shift_end")
                guard let userID = text(shift, "user_pk"), let start, let end else { continue }
                entries.append((userID, shift["user_username"]?.string ?? userID, start, end))
            }
            rendered.append(RenderedSchedule(sourceID: id, path: schedule.path, entries: entries))
        }
        return (window(root, rendered), rendered)
    }

    /// GoAlert's rendered list: `{since, until, schedules: [{id, shifts: [{userID, start, end}]}]}`,
    /// each schedule's `shifts(start, end)` as its GraphQL API answers them.
    mutating func renderedGoAlert(_ root: SourceJSON) -> ((from: UnixMillis, to: UnixMillis)?, [RenderedSchedule]) {
        guard root["schedules"] != nil else {
            refuse(nil, "", "is not GoAlert's rendered shifts: expected {\"schedules\": [{\"id\", \"shifts\"}]}")
            return (nil, [])
        }
        var rendered: [RenderedSchedule] = []
        for schedule in objects(list(root, "schedules")) {
            guard let id = text(schedule, "id") else { continue }
            var entries: [(userID: String, name: String, start: UnixMillis, end: UnixMillis)] = []
            for shift in objects(list(schedule, "shifts")) {
                let start = instant(shift, "start"), end = instant(shift, "end")
                guard let userID = text(shift, "userID"), let start, let end else { continue }
                entries.append((userID, shift["user"]?["name"]?.string ?? userID, start, end))
            }
            rendered.append(RenderedSchedule(sourceID: id, path: schedule.path, entries: entries))
        }
        return (window(root, rendered), rendered)
    }
}
